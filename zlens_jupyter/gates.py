"""Gates: pure functions from an attempt's outcome to evaluations.

Liveness (did it run?), grounding (does it only touch real tables and columns?), safety
(is it read-only?) and semantic correctness (does the result have the shape the question
asked for, and does the sentence only state numbers the result holds?). A gate proposes a
repair; it never edits anything itself.
"""

from __future__ import annotations

import difflib
import re
from itertools import pairwise
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
from .errors import GuardrailViolation, QueryError
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
            check_assumptions(outcome),
            check_answer_direction(outcome, ctx.question, ctx.route),
        ]
    return [c for c in checks if c is not None]


def check_assumptions(outcome: StepOutcome) -> Evaluation | None:
    """A reading the parser could not check against the data ("cars" as the rows of `mpg`)
    is said in the answer and keeps it from being vouched for: review required."""
    notes = (outcome.parsed_intent or {}).get("notes") or []
    if not notes:
        return None
    return Evaluation(
        id="assumption",
        label="Reading",
        passed=False,
        severity=Severity.WARNING,
        message=f"read the question assuming {'; '.join(notes)}: check that is what you meant",
    )


def check_read_only(outcome: StepOutcome) -> Evaluation | None:
    if not outcome.sql:
        return None
    facts = outcome.provenance or {}
    if facts.get("written_in", "duckdb") != "duckdb" and facts.get("engine_sql"):
        # SQL written for another engine (a block declaring `dialect = "spark"`) is judged by
        # that engine's guard (its sqlglot dialect and its own parser), which passed before
        # it ran; DuckDB's parser cannot read it.
        return Evaluation(
            id="read-only",
            label="Read-only",
            passed=True,
            message=f"one read-only query, checked by the {facts.get('dialect')} guard",
        )
    try:
        guard_read_only(outcome.sql)
    except QueryError:
        return None  # DuckDB-style error (a typo, a syntax error): check_executed reports it
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
    rows = result.get("rows") or []
    if rows and all(all(v is None for v in row) for row in rows):
        # "Average price has no value": nothing matched, which is not a number to trust.
        return Evaluation(
            id="non-empty",
            label="Non-empty",
            passed=False,
            severity=Severity.WARNING,
            message="every value the query returned is NULL: nothing matched",
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


# Direction words: in the question (what was asked) and in the sentence (what it says).
_HIGH_WORDS = frozenset(
    {"top", "highest", "first", "most", "largest", "biggest", "greatest", "best", "busiest"}
)
_LOW_WORDS = frozenset({"bottom", "lowest", "last", "least", "fewest", "worst", "smallest"})
_WORD = re.compile(r"[a-z]+")
_SENTENCE_N = re.compile(r"\b(top|bottom)\s+(\d[\d,]*)\b", re.IGNORECASE)
_QUESTION_N = re.compile(r"\b(?:top|bottom)\s+(\d+)\b", re.IGNORECASE)
_ONE_NAMED = re.compile(r"\b(?:ranks (?:first|last)|has the (?:highest|lowest))\b")
# Phrases whose "first"/"most" say nothing about direction.
_NOT_DIRECTION = re.compile(
    r"\bfirst [\d,]+ (?:groups|rows) shown\b|\bthe first [\d,]+ rows?\b|\bmost recent(?:ly)?\b"
    r"|\b(?:highest|lowest) first\b",
    re.IGNORECASE,
)
_UNORDERED_SHAPES = ("scalar", "timeseries", "rows", "user_sql")


def check_answer_direction(
    outcome: StepOutcome, question: str = "", route: Route | None = None
) -> Evaluation | None:
    """The sentence says what was asked: its direction word (top/highest/first vs
    bottom/lowest/last), its N and the names it lists agree with the question and the
    result, and the rows are ordered the way the question asked.

    What was asked comes from the parsed question (`order_desc`, `limit`); when a route kept
    no parse (a certified block), from the question's own words. Returns None when the
    question asked no order and no N."""
    intent = outcome.parsed_intent or {}
    result = outcome.result
    shape = intent.get("shape")
    if not outcome.answer or not result or shape in _UNORDERED_SHAPES:
        return None
    desc, asked_n = _asked_order(intent, question, route)
    if desc is None and asked_n is None:
        return None
    sentence = _without_data_words(outcome.answer, outcome, result)
    said_desc = _sentence_direction(sentence)
    said_n = _sentence_n(sentence)
    rows = int(result.get("row_count", len(result.get("rows", []))))
    wanted = "highest" if desc else "lowest"
    problems = []
    if desc is not None and said_desc is not None and said_desc != desc:
        said = "top/highest/first" if said_desc else "bottom/lowest/last"
        problems.append(f"the question asks for the {wanted} but the sentence says {said}")
    if asked_n is not None and said_n is not None and said_n != asked_n:
        problems.append(f"the question asks for {asked_n} but the sentence says {said_n}")
    elif said_n is not None and said_n < rows:
        problems.append(f"the sentence says {said_n} but the result has {rows} rows")
    named = _rows_named(outcome.answer, result)
    if named is not None and named < rows and not _says_more(outcome.answer, rows):
        problems.append(
            f"the sentence names {named} of {rows} rows and does not say there are more"
        )
    if desc is not None and not _ordered(result, intent, outcome.provenance, desc):
        problems.append(f"the question asks for the {wanted} but the rows are not {wanted} first")
    if problems:
        return Evaluation(
            id="answer-direction",
            label="Direction and count",
            passed=False,
            severity=Severity.WARNING,
            message="; ".join(problems),
            evidence={"asked_desc": desc, "asked_n": asked_n, "said_n": said_n, "rows": rows},
        )
    asked = " ".join(
        part
        for part in (
            "highest" if desc else "lowest" if desc is not None else "",
            str(asked_n or ""),
        )
        if part
    )
    return Evaluation(
        id="answer-direction",
        label="Direction and count",
        passed=True,
        message=f"the sentence and the row order agree with the question ({asked})",
    )


def _asked_order(
    intent: dict[str, Any], question: str, route: Route | None
) -> tuple[bool | None, int | None]:
    desc, limit = intent.get("order_desc"), intent.get("limit")
    desc = desc if isinstance(desc, bool) else None
    limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else None
    if "order_desc" in intent or "limit" in intent or route is not Route.CERTIFIED_ANSWER:
        return desc, limit
    # A certified block's answer keeps no parse: the question's own words say what it asked.
    words = _WORD.findall(_NOT_DIRECTION.sub(" ", question.lower()))
    high = any(w in _HIGH_WORDS - {"first"} for w in words)
    low = any(w in _LOW_WORDS - {"last"} for w in words)
    n = _QUESTION_N.search(question)
    return (high if high != low else None), (int(n.group(1)) if n else None)


def _without_data_words(sentence: str, outcome: StepOutcome, result: dict[str, Any]) -> str:
    """The sentence without the result's own strings, its column names and the filters it
    repeats: a carrier called "Best Air" or a column `most_orders` is not a direction."""
    text = _NOT_DIRECTION.sub(" ", sentence)
    words = [str(v) for row in result.get("rows", []) for v in row if isinstance(v, str)]
    words += [str(c) for c in result.get("columns", [])]
    words += [str(c).replace("_", " ") for c in result.get("columns", [])]
    words.append(str(outcome.provenance.get("context_said") or ""))
    for word in sorted({w for w in words if w}, key=len, reverse=True):
        text = re.sub(re.escape(word), " ", text, flags=re.IGNORECASE)
    return text


def _sentence_direction(sentence: str) -> bool | None:
    words = _WORD.findall(sentence.lower())
    high = any(w in _HIGH_WORDS for w in words)
    low = any(w in _LOW_WORDS for w in words)
    return high if high != low else None


def _sentence_n(sentence: str) -> int | None:
    counted = _SENTENCE_N.search(sentence)
    if counted:
        return int(counted.group(2).replace(",", ""))
    return 1 if _ONE_NAMED.search(sentence) else None


_MONTH_START = re.compile(r"\d{4}-\d{2}-01")


def _rows_named(sentence: str, result: dict[str, Any]) -> int | None:
    """How many result rows the sentence names (by a text value of the row); None when rows
    have no text to name them by."""
    named = 0
    for row in result.get("rows", []):
        labels = [v for v in row if isinstance(v, str) and v]
        if not labels:
            return None
        # A period is said as the sentences say it: '2007-06-01' of a month is "2007-06".
        labels += [v[:7] for v in labels if _MONTH_START.fullmatch(v)]
        if any(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", sentence) for v in labels):
            named += 1
    return named


def _says_more(sentence: str, rows: int) -> bool:
    """An ellipsis, or the count of rows stated ("(16 groups)", "1,234 rows")."""
    if "…" in sentence or "..." in sentence:
        return True
    return bool(re.search(rf"\b{rows:,}\s+(?:groups|rows)\b", sentence))


def _ordered(
    result: dict[str, Any], intent: dict[str, Any], facts: dict[str, Any], desc: bool
) -> bool:
    """Whether the measure goes the asked way down the rows (NULLs ignored)."""
    columns = list(result.get("columns", []))
    rows = result.get("rows", [])
    measures = [m.get("alias") for m in intent.get("measures") or [] if isinstance(m, dict)]
    chart_y = (facts.get("visualization") or {}).get("y")
    at = next((columns.index(c) for c in [*measures, chart_y] if c in columns), None)
    if at is None:
        numeric = [
            i
            for i in range(len(columns))
            if any(isinstance(r[i], int | float) and not isinstance(r[i], bool) for r in rows)
        ]
        if not numeric:
            return True
        at = numeric[-1]
    values = [r[at] for r in rows if isinstance(r[at], int | float) and not isinstance(r[at], bool)]
    pairs = list(pairwise(values))
    return all(a >= b for a, b in pairs) if desc else all(a <= b for a, b in pairs)


_DIGIT = re.compile(r"\d")


def numbers_in(text: str) -> list[float]:
    return [float(m.replace(",", "")) for m in _NUMBER.findall(text)]


def unsupported_numbers(
    sentence: str, result: dict[str, Any], allowed: list[float] | None = None
) -> list[str]:
    """Numbers in the sentence that are not values of the result (rounded as shown)."""
    values: set[float] = set()
    add = values.add
    cells = [v for row in result.get("rows", []) for v in row] + list(allowed or [])
    for v in cells:
        kind = type(v)
        if kind is float or kind is int or (isinstance(v, int | float) and kind is not bool):
            number = float(v)
            add(number)
            add(round(number, 2))
            add(float(round(number)))
        elif isinstance(v, str) and _DIGIT.search(v):  # most text cells hold no number
            values.update(numbers_in(v))
    values.add(float(len(result.get("rows", []))))
    values.add(float(result.get("row_count", 0)))
    bad = []
    for n in numbers_in(sentence):
        if round(n, 2) not in values and n not in values:
            bad.append(f"{n:g}")
    return bad
