"""Run the public corpus with `zlens eval` and print one line per dataset.

    python eval/public/report.py            # builds the databases into eval/public/build/ first

Columns: answerable accuracy on the tuned file and on the held-out file, the wrong answers
labelled certified or grounded (must be 0), hostile questions refused, and the database file
unchanged by the run. `--json` prints the per-dataset figures as JSON instead.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent


def load(name: str) -> ModuleType:
    """A script beside this one, by its path (eval/public is not a package)."""
    key = f"zlens_public_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, HERE / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


build = load("build")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_cases(cases: Path, db: Path) -> dict[str, Any]:
    """`zlens eval CASES --json --db DB`, through the CLI's own entry function."""
    from zlens_jupyter.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["eval", str(cases), "--json", "--db", str(db)])
    report: dict[str, Any] = json.loads(out.getvalue())
    return report


def dataset_figures(
    name: str,
    db: Path,
    run: Callable[[Path, Path], dict[str, Any]] = run_cases,
) -> dict[str, Any]:
    """Tuned and held-out results of one dataset, and whether its file stayed as it was."""
    before = digest(db)
    figures: dict[str, Any] = {"dataset": name}
    for part, file in (("tuned", f"{name}.yml"), ("heldout", f"{name}.heldout.yml")):
        report = run(HERE / file, db)
        totals = report["totals"]
        cases = report["cases"]
        hostile = [c for c in cases if c["expect"] == "refuse"]
        figures[part] = {
            "answerable": totals["answerable"],
            "correct": sum(
                1 for c in cases if c["expect"] == "answer" and c["verdict"] == "correct"
            ),
            "accuracy": totals["accuracy"],
            "wrong_trusted": totals["wrong_certified"] + totals["wrong_grounded"],
            "wrong_trusted_ids": [
                c["id"]
                for c in cases
                if c["verdict"] == "wrong" and c["label"] in ("certified", "grounded")
            ],
            "hostile": len(hostile),
            "refused": sum(1 for c in hostile if c["verdict"] == "correct"),
            "p50_ms": totals["p50_ms"],
        }
    figures["unchanged"] = digest(db) == before
    return figures


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        f"{'dataset':<11} {'tuned':>13} {'held-out':>13} {'wrong trusted':>14} "
        f"{'refused':>8} {'db unchanged':>12}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        t, h = r["tuned"], r["heldout"]
        lines.append(
            f"{r['dataset']:<11} {_acc(t):>13} {_acc(h):>13} "
            f"{t['wrong_trusted'] + h['wrong_trusted']:>14} "
            f"{t['refused'] + h['refused']:>3}/{t['hostile'] + h['hostile']:<4} "
            f"{'yes' if r['unchanged'] else 'NO':>12}"
        )
    totals = {
        part: {
            "correct": sum(r[part]["correct"] for r in rows),
            "answerable": sum(r[part]["answerable"] for r in rows),
        }
        for part in ("tuned", "heldout")
    }
    wrong = sum(r["tuned"]["wrong_trusted"] + r["heldout"]["wrong_trusted"] for r in rows)
    lines.append("-" * len(head))
    lines.append(
        f"{'all':<11} {_acc(totals['tuned']):>13} {_acc(totals['heldout']):>13} {wrong:>14}"
    )
    return "\n".join(lines)


def _acc(part: dict[str, Any]) -> str:
    share = part["correct"] / part["answerable"] if part["answerable"] else 0.0
    return f"{part['correct']}/{part['answerable']} {100 * share:3.0f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=str(build.DEFAULT_TARGET), help="where to build")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    built = build.build_all(args.target)
    rows = [dataset_figures(d.name, built[d.name]) for d in build.DATASETS]
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
