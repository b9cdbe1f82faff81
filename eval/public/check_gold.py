"""Check the public corpus's gold SQL against the built databases.

For every answerable case of every `eval/public/*.yml`: the gold query runs on its dataset's
file (read-only), returns at least one row, and that row is not all NULL. A ranking (a gold
query ending in ORDER BY … LIMIT n) must have one right answer: its last column is the value
ranked on, and the first n + 1 rows must not tie on it, or two answers would both be right.

    python eval/public/check_gold.py            # builds nothing; run build.py first
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
_LIMIT = re.compile(r"\blimit\s+(\d+)\s*$", re.IGNORECASE)


def case_files(folder: Path = HERE) -> list[Path]:
    """The corpus's cases files, tuned and held-out, in name order."""
    return sorted(folder.glob("*.yml"))


def check_file(path: Path, db_path: Path | None = None) -> list[str]:
    """Problems with the gold SQL of one cases file (empty when every gold query is sound)."""
    import duckdb

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    db = db_path or (path.parent / data["db"])
    problems: list[str] = []
    with duckdb.connect(str(db), read_only=True) as con:
        for case in data["cases"]:
            gold = case.get("gold_sql")
            if case.get("expect", "answer") != "answer":
                continue
            where = f"{path.name}: {case['id']}"
            if not gold:
                problems.append(f"{where}: no gold_sql")
                continue
            try:
                rows = con.execute(gold).fetchall()
            except duckdb.Error as exc:
                problems.append(f"{where}: gold SQL fails: {exc}")
                continue
            if not rows:
                problems.append(f"{where}: gold SQL returns no rows")
            elif all(value is None for row in rows for value in row):
                problems.append(f"{where}: gold SQL returns only NULL")
            problems.extend(_ties(con, gold, where))
    return problems


def _ties(con: Any, gold: str, where: str) -> list[str]:
    text = " ".join(gold.split())
    match = _LIMIT.search(text)
    if not match or " order by " not in text.lower():
        return []
    n = int(match.group(1))
    wider = text[: match.start()] + f"LIMIT {n + 1}"
    ranked = [row[-1] for row in con.execute(wider).fetchall()]
    if None in ranked[:n]:
        return [f"{where}: the ranking puts NULL within its top {n}"]
    if len(set(ranked)) != len(ranked):
        return [f"{where}: ties within the first {n + 1} ranked values {ranked}"]
    return []


def main() -> int:
    problems = [p for path in case_files() for p in check_file(path)]
    for problem in problems:
        print(problem)
    print(f"{len(case_files())} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
