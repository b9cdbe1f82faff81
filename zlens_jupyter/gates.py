"""Gates: pure functions from an attempt's outcome to evaluations.

Liveness (did it run?), grounding (does it only touch real tables and columns?), safety
(is it read-only?) and semantic correctness (does the result have the shape the question
asked for, and does the sentence only state numbers the result holds?). A gate proposes a
repair; it never edits anything itself.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from .engine import (
    Evaluation,
    RepairAction,
    RepairKind,
    Route,
    Severity,
    StepContext,
    StepOutcome,
)
from .errors import GuardrailViolation
from .warehouse import guard_read_only

_DATA_ROUTES = {
    Route.GENERATED_ANSWER,
    Route.RESEARCH,
    Route.SQL_CELL,
    Route.DQL_BLOCK_DRAFT,
    Route.CERTIFIED_ANSWER,
}
# A number, but not the "-01" of "2025-01" or the digits inside a word like "Q4".
_NUMBER = re.compile(r"(?<![\w.-])-?\d[\d,]*(?:\.\d+)?")
# DuckDB's own words for a missing name, and its suggestion for it.
_MISSING = re.compile(
    r'(?:Referenced column "([\w.]+)" not found'
    r'|with name "?([\w.]+)"? does not exist'
    r'|does not have a column named "([\w.]+)")'
)
_DID_YOU_MEAN = re.compile(r'(?:Did you mean|Candidate bindings:)[\s:]*"([\w.]+)"', re.IGNORECASE)


def evaluate(ctx: StepContext, outcome: StepOutcome) -> list[Evaluation]:
    """The gate for every route: which checks apply depends on the route and what it produced."""
    if outcome.clarification or ctx.route not in _DATA_ROUTES:
        return []
    facts = outcome.provenance
    checks = [check_read_only(outcome), check_grounding(facts), check_executed(outcome, facts)]
    if outcome.result is not None:
        shape = (outcome.parsed_intent or {}).get("shape")
        checks += [
            check_non_empty(outcome.result),
            check_cardinality(ctx.route, shape, outcome),
            check_top_n(shape, outcome),
            check_answer_numbers(outcome, ctx.question),
        ]
    return [c for c in checks if c is not None]


def check_read_only(outcome: StepOutcome) -> Evaluation | None:
    if not outcome.sql:
        return None
    try:
        guard_read_only(outcome.sql)
    except GuardrailViolation as exc:
        return Evaluation(
            id="read-only",
            label="Read-only",
            passed=False,
            severity=Severity.BLOCKING,
            message=str(exc),
        )
    return Evaluation(
        id="read-only", label="Read-only", passed=True, message="one read-only SELECT statement"
    )


def check_grounding(facts: dict[str, Any]) -> Evaluation | None:
    if "grounding" not in facts and "validation_problems" not in facts:
        return None
    problems = facts.get("validation_problems") or []
    if not problems:
        tables = ", ".join(facts.get("grounding", {}).get("tables", []))
        return Evaluation(
            id="catalog-grounding",
            label="Grounded in catalog",
            passed=True,
            message=f"every table and column exists ({tables})",
            evidence=facts.get("grounding"),
        )
    first = problems[0]
    hints = [f"replace {old} with {new}" for old, new in typo_repairs(problems)]
    return Evaluation(
        id="catalog-grounding",
        label="Grounded in catalog",
        passed=False,
        severity=Severity.WARNING,
        message=first["message"],
        evidence={"problems": problems},
        suggested_repair=first["message"],
        repair_action=RepairAction(kind=RepairKind.RETRY, hint="; ".join(hints) or None)
        if hints
        else None,
    )


def check_executed(outcome: StepOutcome, facts: dict[str, Any]) -> Evaluation | None:
    if outcome.result is not None:
        rows = outcome.result.get("row_count", 0)
        return Evaluation(
            id="result-executed",
            label="Executed",
            passed=True,
            message=f"returned {rows} row{'s' if rows != 1 else ''}"
            + (" (preview truncated)" if outcome.result.get("truncated") else ""),
        )
    error = facts.get("error")
    if error is None:
        return (
            None
            if "validation_problems" in facts
            else Evaluation(
                id="result-executed",
                label="Executed",
                passed=False,
                severity=Severity.WARNING,
                message="the route produced no result",
            )
        )
    hint = lexical_hint(error)
    if facts.get("timeout"):
        return Evaluation(
            id="result-executed",
            label="Executed",
            passed=False,
            severity=Severity.WARNING,
            message=error,
            suggested_repair="narrow the question (a filter or a shorter period)",
        )
    return Evaluation(
        id="result-executed",
        label="Executed",
        passed=False,
        severity=Severity.WARNING,
        message=error,
        evidence={"error": error},
        suggested_repair=f"fix the SQL: {error}",
        repair_action=RepairAction(kind=RepairKind.RETRY, hint=hint) if hint else None,
    )


def lexical_hint(error: str) -> str | None:
    """The cheap repair: DuckDB's own "Did you mean" candidate for a missing name."""
    missing = _MISSING.search(error)
    candidate = _DID_YOU_MEAN.search(error)
    if missing and candidate:
        old = next(g for g in missing.groups() if g).split(".")[-1]
        new = candidate.group(1).split(".")[-1]
        return f"replace {old} with {new}" if is_typo_of(old, new) else None
    return None


# How alike two names must be for a silent swap: a slip of a letter or two ("custmers",
# "dep_dely", "avgg"), never a different thing that merely ranks nearest ("payroll" is not
# "products"). Below it, the nearest names are offered in the message and nothing is run.
TYPO_SIMILARITY = 0.75


def typo_repairs(problems: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(written, known) for each catalog problem whose nearest name is a near spelling."""
    pairs = []
    for problem in problems:
        if problem["nearest"]:
            old, new = problem["name"].split(".")[-1], problem["nearest"][0].split(".")[-1]
            if is_typo_of(old, new):
                pairs.append((old, new))
    return pairs


def is_typo_of(written: str, known: str) -> bool:
    """Whether `written` reads as a misspelling of `known` (case-insensitive)."""
    ratio = difflib.SequenceMatcher(None, written.lower(), known.lower()).ratio()
    return ratio >= TYPO_SIMILARITY


def check_non_empty(result: dict[str, Any]) -> Evaluation:
    if result.get("row_count", 0) == 0:
        return Evaluation(
            id="non-empty",
            label="Non-empty",
            passed=False,
            severity=Severity.WARNING,
            message="the query returned no rows; an empty result is not an answer",
        )
    return Evaluation(id="non-empty", label="Non-empty", passed=True, message="has rows")


def check_cardinality(route: Route, shape: str | None, outcome: StepOutcome) -> Evaluation | None:
    """A scalar question that returns many rows was probably mis-grouped: retry."""
    result = outcome.result or {}
    if route is Route.CERTIFIED_ANSWER or shape != "scalar":
        return None
    rows = result.get("row_count", 0)
    if rows <= 1:
        return Evaluation(
            id="semantic-cardinality",
            label="Cardinality",
            passed=True,
            message="a single answer for a single question",
        )
    return Evaluation(
        id="semantic-cardinality",
        label="Cardinality",
        passed=False,
        severity=Severity.WARNING,
        message=f"the question asks for one value but the query returned {rows} rows",
        suggested_repair="aggregate to a single row",
        repair_action=RepairAction(kind=RepairKind.RETRY, hint="aggregate to a single row"),
    )


def check_top_n(shape: str | None, outcome: StepOutcome) -> Evaluation | None:
    limit = (outcome.parsed_intent or {}).get("limit")
    if shape != "topn" or not limit:
        return None
    rows = (outcome.result or {}).get("row_count", 0)
    if rows > limit:
        return Evaluation(
            id="answer-shape",
            label="Top-N",
            passed=False,
            severity=Severity.WARNING,
            message=f"asked for the top {limit} but got {rows} rows",
            repair_action=RepairAction(kind=RepairKind.RETRY, hint=f"limit to {limit} rows"),
        )
    return Evaluation(
        id="answer-shape", label="Top-N", passed=True, message=f"{rows} of the top {limit}"
    )


def check_answer_numbers(outcome: StepOutcome, question: str = "") -> Evaluation | None:
    if not outcome.answer or outcome.result is None:
        return None
    # Numbers may come from the result, the research sub-results, or the user's own words.
    allowed = [float(x) for x in (outcome.provenance.get("numbers_from_sub_results") or [])]
    allowed += numbers_in(question)
    # The filters as resolved ("last year, 2025") and the data's dates: context, not result.
    allowed += numbers_in(str(outcome.provenance.get("context_said") or ""))
    bad = unsupported_numbers(outcome.answer, outcome.result, allowed)
    if bad:
        return Evaluation(
            id="answer-faithful",
            label="Numbers from the result",
            passed=False,
            severity=Severity.WARNING,
            message=f"the sentence states {', '.join(bad)}, not in the result",
        )
    return Evaluation(
        id="answer-faithful",
        label="Numbers from the result",
        passed=True,
        message="every number in the sentence is in the result",
    )


def numbers_in(text: str) -> list[float]:
    return [float(m.replace(",", "")) for m in _NUMBER.findall(text)]


def unsupported_numbers(
    sentence: str, result: dict[str, Any], allowed: list[float] | None = None
) -> list[str]:
    """Numbers in the sentence that are not values of the result (rounded as shown)."""
    values: set[float] = set()
    cells = [v for row in result.get("rows", []) for v in row] + list(allowed or [])
    for v in cells:
        if isinstance(v, int | float) and not isinstance(v, bool):
            values.update({round(float(v), 2), float(round(float(v))), float(v)})
        elif isinstance(v, str):
            values.update(numbers_in(v))
    values.add(float(len(result.get("rows", []))))
    values.add(float(result.get("row_count", 0)))
    bad = []
    for n in numbers_in(sentence):
        if round(n, 2) not in values and n not in values:
            bad.append(f"{n:g}")
    return bad
