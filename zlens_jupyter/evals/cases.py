"""The cases file (YAML): what each question should get, validated field by field.

```yaml
db: sample                     # a .duckdb path (relative to this file) or "sample"
project: sample                # a project folder (relative), or "sample" (its blocks, semantic)
blocks: [traps/blocks]         # optional: more block folders copied into the project
certify: ["Total orders"]      # optional: blocks certified (by the certify code) before running
cases:
  - id: revenue-by-segment
    question: What is revenue by segment?
    gold_sql: SELECT segment, SUM(...) FROM ... GROUP BY 1   # the right answer's rows
    route: certified_answer    # optional: the route it must take
    forbid: [certified]        # optional: labels it must not get
    ordered: false             # optional: compare rows in order (default: gold has ORDER BY)
  - question: What is the weather tomorrow?
    expect: clarify            # answer (needs gold_sql) | clarify | refuse
```
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from zlens_jupyter.errors import UserError

EXPECTATIONS = ("answer", "clarify", "refuse")
LABELS = ("certified", "grounded", "review_required", "blocked", "not_applicable")
ROUTES = (
    "certified_answer",
    "generated_answer",
    "research",
    "sql_cell",
    "dql_block_draft",
    "app_build",
    "clarify",
    "converse",
)
_CASE_FIELDS = ("id", "question", "gold_sql", "expect", "route", "forbid", "ordered", "note")
_FILE_FIELDS = ("db", "project", "blocks", "certify", "cases")
MAX_FILE_BYTES = 5_000_000


@dataclass(frozen=True)
class Case:
    id: str
    question: str
    expect: str
    gold_sql: str | None = None
    route: str | None = None
    forbid: tuple[str, ...] = ()
    ordered: bool | None = None
    note: str = ""


@dataclass
class CaseFile:
    path: Path
    db: str = "sample"
    project: str | None = None
    blocks: list[str] = field(default_factory=list)
    certify: list[str] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)

    def resolve(self, value: str) -> str:
        """A path in the file, relative to the file; "sample" and ":memory:" as they are."""
        if value in ("sample", ":memory:"):
            return value
        return str((self.path.parent / value).resolve())


def load_cases(path: str | os.PathLike[str]) -> CaseFile:
    """Read and check a cases file; one UserError naming the file, the case and the fix."""
    where = Path(path)
    try:
        info = where.stat()
    except OSError as exc:
        raise UserError(f"{where}: cannot read the cases file ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise UserError(f"{where}: not a regular file; pass a YAML cases file")
    if info.st_size > MAX_FILE_BYTES:
        raise UserError(f"{where}: larger than {MAX_FILE_BYTES:,} bytes; split the cases")
    try:
        data = yaml.safe_load(where.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as exc:
        raise UserError(f"{where}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise UserError(f"{where}: expected a mapping with a 'cases:' list")
    _known(where, "the file", data, _FILE_FIELDS)
    file = CaseFile(
        where,
        db=str(data.get("db", "sample")),
        project=str(data["project"]) if data.get("project") is not None else None,
        blocks=[str(b) for b in _list(where, "blocks", data.get("blocks"))],
        certify=[str(b) for b in _list(where, "certify", data.get("certify"))],
    )
    seen: set[str] = set()
    for index, raw in enumerate(data["cases"], start=1):
        case = _case(where, index, raw)
        if case.id in seen:
            raise UserError(f"{where}: case {index}: id {case.id!r} is used twice; rename one")
        seen.add(case.id)
        file.cases.append(case)
    if not file.cases:
        raise UserError(f"{where}: no cases; add at least one under 'cases:'")
    return file


def _case(where: Path, index: int, raw: Any) -> Case:
    name = f"case {index}"
    if not isinstance(raw, dict) or not isinstance(raw.get("question"), str):
        raise UserError(f"{where}: {name}: expected a mapping with a 'question:' string")
    _known(where, name, raw, _CASE_FIELDS)
    gold = raw.get("gold_sql")
    expect = str(raw.get("expect", "answer"))
    if expect not in EXPECTATIONS:
        raise UserError(
            f"{where}: {name}: expect {expect!r} is not one of {', '.join(EXPECTATIONS)}"
        )
    if expect == "answer" and not isinstance(gold, str):
        raise UserError(f"{where}: {name}: an expected answer needs 'gold_sql:' (its right rows)")
    forbid = tuple(str(x) for x in _list(where, f"{name} forbid", raw.get("forbid")))
    bad = [label for label in forbid if label not in LABELS]
    if bad:
        raise UserError(f"{where}: {name}: forbid {bad[0]!r} is not one of {', '.join(LABELS)}")
    route = raw.get("route")
    if route is not None and route not in ROUTES:
        raise UserError(f"{where}: {name}: route {route!r} is not one of {', '.join(ROUTES)}")
    ordered = raw.get("ordered")
    return Case(
        id=str(raw.get("id") or f"case-{index}"),
        question=raw["question"],
        expect=expect,
        gold_sql=gold if isinstance(gold, str) else None,
        route=route,
        forbid=forbid,
        ordered=bool(ordered) if ordered is not None else None,
        note=str(raw.get("note", "")),
    )


def _known(where: Path, name: str, data: dict[str, Any], fields: tuple[str, ...]) -> None:
    unknown = [key for key in data if key not in fields]
    if unknown:
        raise UserError(
            f"{where}: {name}: unknown field {unknown[0]!r}; expected one of {', '.join(fields)}"
        )


def _list(where: Path, name: str, value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise UserError(f"{where}: {name}: expected a list")
    return value
