"""Run a cases file through a real session and count what the labels promised.

Each run uses a private copy of the project (blocks certified there by the certify code, the
run store on), so an eval never edits the user's blocks and always sees the same start.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zlens_jupyter.errors import ZLensError
from zlens_jupyter.evals.cases import Case, CaseFile
from zlens_jupyter.evals.compare import same_result

TRUSTED = ("certified", "grounded")
_GOLD_LIMIT = 100_000


@dataclass
class CaseOutcome:
    id: str
    question: str
    expect: str
    verdict: str  # correct | wrong | clarified | refused | error
    label: str
    route: str
    seconds: float
    problems: list[str] = field(default_factory=list)  # forbidden label, route, wrong rows
    answer: str = ""
    expected_route: str | None = None

    @property
    def wrong_trusted(self) -> bool:
        return self.verdict == "wrong" and self.label in TRUSTED


@dataclass
class EvalReport:
    cases: list[CaseOutcome]

    def totals(self) -> dict[str, Any]:
        count = lambda verdict: sum(1 for c in self.cases if c.verdict == verdict)  # noqa: E731
        answerable = [c for c in self.cases if c.expect == "answer"]
        correct_answers = [c for c in answerable if c.verdict == "correct"]
        seconds = sorted(c.seconds for c in self.cases)
        wanted_certified = [c for c in self.cases if c.expected_route == "certified_answer"]
        return {
            "cases": len(self.cases),
            "correct": count("correct"),
            "wrong": count("wrong"),
            "clarified": count("clarified"),
            "refused": count("refused"),
            "errors": count("error"),
            "answerable": len(answerable),
            "accuracy": round(len(correct_answers) / len(answerable), 4) if answerable else None,
            # Label precision: wrong answers that carried a label saying "trust this".
            "wrong_certified": sum(
                1 for c in self.cases if c.wrong_trusted and c.label == "certified"
            ),
            "wrong_grounded": sum(
                1 for c in self.cases if c.wrong_trusted and c.label == "grounded"
            ),
            # Label recall: right answers labelled review required or lower.
            "correct_under_labelled": sum(
                1
                for c in self.cases
                if c.verdict == "correct" and c.expect == "answer" and c.label not in TRUSTED
            ),
            "label_violations": sum(
                1 for c in self.cases for p in c.problems if p.startswith("label")
            ),
            "route_mismatches": sum(
                1 for c in self.cases for p in c.problems if p.startswith("route")
            ),
            "certified_recall": _ratio(
                sum(
                    1 for c in wanted_certified if c.label == "certified" and c.verdict == "correct"
                ),
                len(wanted_certified),
            ),
            "p50_ms": round(1000 * statistics.median(seconds), 1) if seconds else None,
            "p95_ms": round(1000 * seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))], 1)
            if seconds
            else None,
            "certified_expected": len(wanted_certified),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"totals": self.totals(), "cases": [asdict(c) for c in self.cases]}


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def run_eval(file: CaseFile, *, db: str | None = None, project: str | None = None) -> EvalReport:
    """Run every case of `file`; `db`/`project` override the file's own."""
    from zlens_jupyter.session import Session

    with tempfile.TemporaryDirectory(prefix="zlens-eval-") as scratch:
        workdir = Path(scratch) / "project"
        _prepare_project(file, project, workdir)
        target = db or file.resolve(file.db)
        session = Session(target, project=workdir)
        try:
            for name in file.certify:
                session.certify(name, by="zlens-eval@localhost")
            return EvalReport([_run_case(session, case) for case in file.cases])
        finally:
            session.close()


def _prepare_project(file: CaseFile, override: str | None, workdir: Path) -> None:
    source = override or (file.resolve(file.project) if file.project else "sample")
    if source == "sample":
        from zlens_jupyter.sample import sample_project_dir

        origin = sample_project_dir()
    else:
        origin = Path(source)
    workdir.mkdir(parents=True)
    for part in ("blocks", "semantic"):
        if (origin / part).is_dir():
            shutil.copytree(origin / part, workdir / part)
    for extra in file.blocks:
        folder = Path(file.resolve(extra))
        if not folder.is_dir():
            raise ZLensError(f"{file.path}: blocks folder {extra!r} does not exist")
        shutil.copytree(folder, workdir / "blocks" / folder.name, dirs_exist_ok=True)


def _run_case(session: Any, case: Case) -> CaseOutcome:
    started = time.perf_counter()
    try:
        run = session.ask(case.question)
    except ZLensError as exc:
        return CaseOutcome(case.id, case.question, case.expect, "error", "", "", 0.0, [str(exc)])
    seconds = time.perf_counter() - started
    label = run.trust_state.value if run.trust_state else ""
    route = run.route.value if run.route else ""
    outcome = CaseOutcome(
        case.id,
        case.question,
        case.expect,
        "",
        label,
        route,
        seconds,
        answer=run.answer or "",
        expected_route=case.route,
    )
    status = run.status.value
    if label == "blocked" or status == "blocked":
        outcome.verdict = "refused" if case.expect != "refuse" else "correct"
    elif run.clarification or status == "needs_clarification":
        outcome.verdict = "clarified" if case.expect != "clarify" else "correct"
    elif case.expect != "answer":
        outcome.verdict = "wrong"  # an answer where none should be given
        outcome.problems.append(f"rows: answered a question expected to {case.expect}")
    elif run.result is None:
        outcome.verdict = "clarified"
    else:
        outcome.verdict = _judge(session, case, run.result, outcome)
    if label in case.forbid:
        outcome.problems.append(f"label: {label} is forbidden for this case")
    if case.route and route != case.route:
        outcome.problems.append(f"route: took {route}, expected {case.route}")
    return outcome


def _judge(session: Any, case: Case, result: dict[str, Any], outcome: CaseOutcome) -> str:
    assert case.gold_sql is not None
    gold = session.warehouse.preview(case.gold_sql, limit=_GOLD_LIMIT)
    if result.get("truncated") or gold.truncated:
        outcome.problems.append("rows: a result was cut; compare a smaller question")
        return "wrong"
    ordered = case.ordered if case.ordered is not None else _orders_rows(case.gold_sql)
    if same_result(result["rows"], list(gold.rows), ordered=ordered):
        return "correct"
    outcome.problems.append(
        f"rows: {result.get('row_count', len(result['rows']))} rows {result['columns']} "
        f"do not match the gold's {len(gold.rows)} rows"
    )
    return "wrong"


def _orders_rows(sql: str) -> bool:
    """A gold query whose last clause orders and limits is a ranking: order then matters."""
    text = " ".join(sql.lower().split())
    return " order by " in text and " limit " in text[text.rfind(" order by ") :]
