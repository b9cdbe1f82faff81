"""generated_answer, offline: parse the question -> one SQL statement -> guard -> validate ->
bounded preview -> a data-first sentence. When the question cannot be grounded confidently,
it asks one specific question instead of guessing."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import sqlglot
from sqlglot import exp

from ..engine import Artifact, StepContext, StepOutcome
from ..errors import QueryError, QueryTimeout
from ..gates import lexical_hint, typo_repairs
from ..parsing import QuestionSpec
from ..parsing.calendar_reading import own_calendar_column
from ..parsing.lumped import lumps_many
from ..parsing.spec import Filter
from ..vocabulary import units
from .clarify_options import clarification_options
from .kit import RouteKit, apply_lexical_repair, looks_like_sql, refuse_unsafe_request
from .narrate import asked_order, describe, fmt
from .sqlbuild import Unbuildable, build_sql, coverage_sql


@dataclass(frozen=True)
class Draft:
    sql: str
    intent: dict[str, Any]
    filters: str
    coverage_sql: str | None = None  # the dates the data covers, for a dated question
    spec: QuestionSpec | None = None  # the parse it was built from (None: the user's SQL)


class GeneratedAnswer:
    """The executor for `generated_answer` (and the SQL-producing core other routes reuse)."""

    idempotent = True

    def __init__(self, kit: RouteKit) -> None:
        self.kit = kit

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        drafted = self.draft_sql(ctx)
        if isinstance(drafted, StepOutcome):
            return drafted
        ctx.tool_called("run_sql_preview", {"sql": drafted.sql})
        result, facts = self.kit.execute(drafted.sql, ctx)
        if result is None and drafted.intent.get("source") == "user_sql":
            unfixable = unfixable_user_sql(facts)
            if unfixable:
                # Re-running the same text cannot help, and guessing another table would answer
                # a different question: hand it back to its author with DuckDB's own words.
                return clarification(f"{unfixable} Edit the SQL and run it again.", [], [])
        if result is not None and nothing_found(result) and drafted.spec is not None:
            drafted, result, facts = self.in_thousands(drafted, result, facts, ctx)
        if result is not None and drafted.spec is not None:
            drafted, result, facts = self.without_lumped_groups(drafted, result, facts, ctx)
        intent = dict(drafted.intent)
        if "shape" not in intent:  # the user's own SQL: judge the shape by what came back
            intent["shape"] = "breakdown" if result and result["row_count"] > 1 else "scalar"
        shape = str(intent["shape"])
        answer = (
            describe(result, shape, filters=drafted.filters, **asked_order(intent))
            if result
            else None
        )
        facts["visualization"] = chart_hint(shape, result)
        context = drafted.filters
        if result:
            # the result's column names are the catalog's words: `births_2018` said as
            # "births 2018" states no number of the result
            names = ", ".join(str(c) for c in result.get("columns") or [])
            context += "; " + re.sub(r"[_.]", " ", names)
        if answer and result and drafted.coverage_sql and nothing_found(result):
            covers = self.data_coverage(drafted.coverage_sql, ctx)
            if covers:
                answer += f" The data covers {covers}."
                context += f"; {covers}"
        if answer and result and shape == "topn" and drafted.spec is not None:
            # "Which pollster ran the fewest polls?" where three ran one: LIMIT 1 picks one of
            # them arbitrarily, so the others that tie at the cut are named, never hidden.
            tied = self.tied_at_the_cut(drafted.sql, result, ctx)
            if tied and intent.get("limit") == 1:
                answer = answer.rstrip(".") + f" (tied with {tied})."
            elif tied:
                verb = "tie" if " and " in tied or "others" in tied else "ties"
                answer = answer.rstrip(".") + f"; {tied} {verb} with the last shown."
            if tied:  # the tied names are the data's words, not numbers the result must hold
                context += f"; tied with {tied}"
            if tied and intent.get("limit") == 1 and "others" in tied:
                # many share the top: the one shown answers nothing "which …" asked
                shared = "many share the top value, so no single one is the answer"
                intent["notes"] = [*intent.get("notes", []), shared]
        apart = self.periods_of_several_years(drafted.spec, result) if answer and result else ""
        if apart:
            # "average temperature by month" over two years, beside a `month` column: each
            # month in turn is one reading; the month of the year is another. Said, reviewed.
            answer = f"{answer} Note: {apart}."
            intent["notes"] = [*intent.get("notes", []), apart]
        blank, placeholder = (
            groups_without_a_value(drafted.spec, result) if answer and result else ("", False)
        )
        if blank:
            # "the average pace in each brand of shoe" where 93 runs have no brand and a few
            # the placeholder '*': groups that are no brand, shown as they are and said. A
            # NULL group is plainly no brand; a placeholder may be a code someone meant, so
            # it is reviewed
            answer = f"{answer} Note: {blank}."
            if placeholder:
                intent["notes"] = [*intent.get("notes", []), blank]
        if answer and result and nothing_found(result):
            for note in self.out_of_range(intent, ctx):
                # "cost more than $30,000" where Price is in thousands: an empty answer that
                # only says the number was read in another unit. Said, and reviewed.
                answer += f" Note: {note}."
                context += f"; {note}"
                intent["notes"] = [*intent.get("notes", []), note]
        # Words in the sentence that come from the question or the catalog, not the result:
        # the faithfulness gate checks the sentence's numbers against these too.
        facts["context_said"] = context
        sql = drafted.sql
        return StepOutcome(
            answer=answer,
            sql=sql,
            result=result,
            action_key=sql,
            parsed_intent=intent,
            provenance=facts,
            artifacts=[
                Artifact(kind="answer", title="Answer", content={"answer": answer, "sql": sql})
            ]
            if result
            else [],
        )

    def draft_sql(self, ctx: StepContext) -> Draft | StepOutcome:
        """The SQL for this attempt: a repair of the last attempt, the user's own SQL, or a
        fresh translation of the question."""
        previous = ctx.previous.sql if ctx.previous else None
        if previous and ctx.hint:
            repaired = apply_lexical_repair(previous, ctx.hint)
            if repaired and ctx.previous is not None:
                intent = dict(ctx.previous.parsed_intent or {})
                intent["repaired_from"] = previous
                # Which names were swapped: on the record (the trace), never in the answer text.
                swaps = re.findall(r"replace (\S+) with (\S+)", ctx.hint)
                intent["read_as"] = [list(pair) for pair in swaps]
                return Draft(repaired, intent, str(intent.get("filters_said", "")))
        if looks_like_sql(ctx.question):
            # The user's own SQL: its shape is whatever they wrote, so no cardinality check.
            return Draft(
                ctx.question.strip().rstrip(";"), {"source": "user_sql", "shape": "user_sql"}, ""
            )
        ctx.tool_called("parse_question", {"question": ctx.question})
        parsed = self.kit.parse(ctx.question)
        if parsed.spec is None:
            return clarification(
                parsed.clarification or "Could you rephrase the question?",
                parsed.candidates,
                parsed.unresolved,
                clarification_options(self.kit, ctx.question, parsed.unresolved, parsed.candidates),
            )
        try:
            sql = build_sql(parsed.spec, self.kit.warehouse.dated_catalog(), self.kit.semantic)
        except Unbuildable as exc:
            return clarification(str(exc), [], [])
        said = filter_phrase(parsed.spec)
        coverage = None
        if parsed.spec.time_range is not None and parsed.spec.time_range.month_only is None:
            coverage = coverage_sql(
                parsed.spec, self.kit.warehouse.dated_catalog(), self.kit.semantic
            )
        return Draft(
            sql, {**parsed.spec.to_dict(), "filters_said": said}, said, coverage, parsed.spec
        )

    def in_thousands(
        self, drafted: Draft, result: dict[str, Any], facts: dict[str, Any], ctx: StepContext
    ) -> tuple[Draft, dict[str, Any], dict[str, Any]]:
        """ "cars that cost more than $30,000" where Price runs 7.4 to 61.9, "heavier than
        4,000 lbs" where wt runs 1.5 to 5.4: a round number in thousands that no row can
        meet, while the number over a thousand falls inside the column's range, is read in
        the column's thousands. Said, and reviewed (the notes lower the label); kept only
        when rows then match. Otherwise the empty answer stands, with its range note."""
        spec = drafted.spec
        if spec is None:
            return drafted, result, facts
        filters = list(spec.filters)
        notes: list[str] = []
        for at, f in enumerate(filters):
            value = f.value
            if f.op not in (">", ">=", "<", "<=") or not isinstance(value, int | float):
                continue
            if isinstance(value, bool) or value < 1000 or value % 1000:
                continue
            if not said_with_unit(ctx.question, int(value)):
                continue  # a bare number is taken as written: only "$30,000" or "4,000 lbs"
            span = self.column_range(f.table, f.column or "", ctx)
            if span is None:
                continue
            low, high = span
            beyond = value > high if f.op in (">", ">=") else value < low
            # "more than 10 million viewers" where viewers_7day runs 2.2 to 15.9: millions
            # (thousands first: a population in thousands fits both)
            for scale, named in ((1000, "thousands"), (10**6, "millions")):
                if not beyond or value % scale or not low <= value / scale <= high:
                    continue
                scaled = value // scale
                filters[at] = replace(f, value=scaled)
                notes.append(
                    f"{fmt(value)} read as {fmt(scaled)}: {f.column} looks recorded in "
                    f"{named} (it ranges from {fmt(low)} to {fmt(high)})"
                )
                break
        if not notes:
            return drafted, result, facts
        rescaled = replace(spec, filters=filters, notes=[*spec.notes, *notes])
        rerun = self.read_again(drafted, rescaled, ctx, "the number in thousands")
        return rerun or (drafted, result, facts)

    def without_lumped_groups(
        self, drafted: Draft, result: dict[str, Any], facts: dict[str, Any], ctx: StepContext
    ) -> tuple[Draft, dict[str, Any], dict[str, Any]]:
        """'U.S.' first in "which state was polled most often" (the national polls), 'other'
        in a column of too many values to have checked them before running: a group that
        lumps many together is no answer to "which"; left out, said, and the ranking run
        again. Kept as it was when the ranking then finds nothing."""
        spec = drafted.spec
        if spec is None or spec.limit is None or spec.listing or len(spec.group_by) != 1:
            return drafted, result, facts
        group = spec.group_by[0]
        columns = [str(c) for c in result.get("columns") or []]
        if group.is_time or group.alias not in columns:
            return drafted, result, facts
        at = columns.index(group.alias)
        lumped = sorted(
            {row[at] for row in result.get("rows") or [] if lumps_many(group.column or "", row[at])}
        )
        if not lumped:
            return drafted, result, facts
        kept = Filter(group.table, group.column or "", "not in", lumped)
        note = (
            f"{', '.join(repr(v) for v in lumped)} left out of the ranking (it lumps many "
            f"{group.column} values together)"
        )
        ranked = replace(spec, filters=[*spec.filters, kept], notes=[*spec.notes, note])
        rerun = self.read_again(drafted, ranked, ctx, "the ranking without bins")
        return rerun or (drafted, result, facts)

    def read_again(
        self, drafted: Draft, spec: QuestionSpec, ctx: StepContext, purpose: str
    ) -> tuple[Draft, dict[str, Any], dict[str, Any]] | None:
        """The question run once more under another reading (`spec`, its notes saying
        which): the new draft, result and facts, or None when that reading builds no SQL or
        finds nothing (the first answer then stands)."""
        try:
            sql = build_sql(spec, self.kit.warehouse.dated_catalog(), self.kit.semantic)
        except Unbuildable:
            return None
        ctx.tool_called("run_sql_preview", {"sql": sql, "purpose": purpose})
        again, again_facts = self.kit.execute(sql, ctx)
        if again is None or nothing_found(again):
            return None
        said = filter_phrase(spec)
        intent = {**spec.to_dict(), "filters_said": said}
        return Draft(sql, intent, said, drafted.coverage_sql, spec), again, again_facts

    def periods_of_several_years(self, spec: QuestionSpec | None, result: dict[str, Any]) -> str:
        """What to say when months (days, weeks) of several years were kept apart while the
        table has its own column of them, which would put the same month of every year
        together: the reading taken and the other one ("" when one year only)."""
        grain = spec.time_grain if spec is not None else None
        if spec is None or grain is None:
            return ""
        column = own_calendar_column(self.kit.warehouse.dated_catalog(), spec.fact_table, grain)
        columns = [str(c) for c in result.get("columns") or []]
        if column is None or "year" not in columns:
            return ""
        at = columns.index("year")
        if len({row[at] for row in result.get("rows") or []}) < 2:
            return ""
        return (
            f"each {grain} of each year apart; for the {grain}s of the year together (the "
            f"{column} column), ask per {grain} of the year"
        )

    def tied_at_the_cut(self, sql: str, result: dict[str, Any], ctx: StepContext) -> str:
        """The groups left out by a ranking's LIMIT that have the same value as its last row
        shown, as "ICM and Opinium" (or "9 others"); "" when none tie or it cannot tell."""
        rows, columns = result.get("rows") or [], result.get("columns") or []
        try:
            ranked = sqlglot.parse_one(sql, dialect="duckdb")
        except sqlglot.errors.ParseError:
            return ""
        limit = ranked.args.get("limit")
        if not isinstance(ranked, exp.Select) or limit is None or len(columns) < 2 or not rows:
            return ""
        cut = rows[-1][-1]
        if cut is None or len(rows) < int(limit.expression.name or 0):
            return ""  # fewer rows than the LIMIT: nothing was cut
        if isinstance(cut, float) and not cut.is_integer():
            # The probe runs the aggregate again: paid only where ties are usual (counts,
            # whole numbers), not for averages, where an exact tie is rare.
            return ""
        ranked.set("limit", None)
        ranked.set("order", None)
        labels = [exp.column(c, table="ranked", quoted=True) for c in columns[:-1]]
        probe = (
            exp.select(*labels)
            .from_(ranked.subquery("ranked"))
            .where(exp.column(columns[-1], table="ranked", quoted=True).eq(exp.convert(cut)))
            .order_by(*[label.copy() for label in labels])
            .sql(dialect="duckdb")
        )
        ctx.tool_called("run_sql_preview", {"sql": probe, "purpose": "ties at the cut"})
        try:
            preview = self.kit.warehouse.preview(
                probe, limit=50, timeout_s=min(5.0, ctx.deadline_s)
            )
        except (QueryError, QueryTimeout):
            return ""
        # Compared as text: the result's rows are JSON-safe (a month is '2007-06-01'), the
        # probe's are DuckDB's (a date), and the same month must not tie with itself.
        shown = {tuple(map(str, r[:-1])) for r in rows}
        others = [
            " / ".join(fmt(v) for v in r) for r in preview.rows if tuple(map(str, r)) not in shown
        ]
        if not others:
            return ""
        if len(others) > 3:
            return f"{len(others)} others" if len(preview.rows) < 50 else "many others"
        return others[0] if len(others) == 1 else ", ".join(others[:-1]) + f" and {others[-1]}"

    def column_range(self, table: str, column: str, ctx: StepContext) -> tuple[Any, Any] | None:
        """(lowest, highest) of a column, or None when it has no values or cannot be read."""
        col = exp.column(column, table=table)
        sql = (
            exp.select(exp.Min(this=col), exp.Max(this=col.copy()))
            .from_(exp.to_table(table))
            .sql(dialect="duckdb")
        )
        try:
            preview = self.kit.warehouse.preview(sql, limit=1, timeout_s=min(5.0, ctx.deadline_s))
        except (QueryError, QueryTimeout):
            return None
        low, high = preview.rows[0] if preview.rows else (None, None)
        if low is None or high is None:
            return None
        return low, high

    def out_of_range(self, intent: dict[str, Any], ctx: StepContext) -> list[str]:
        """For each numeric comparison no row can meet ("more than 30,000" where the column
        tops out at 61.9): the column's range, said."""
        notes = []
        for f in intent.get("filters") or []:
            value, op = f.get("value"), f.get("op")
            if op not in (">", ">=", "<", "<=") or not isinstance(value, int | float):
                continue
            span = self.column_range(str(f["table"]), str(f["column"]), ctx)
            if span is None:
                continue
            low, high = span
            beyond = value > high if op in (">", ">=") else value < low
            if beyond:
                notes.append(
                    f"{f['column']} ranges from {fmt(low)} to {fmt(high)}, so no row is "
                    f"{op} {fmt(value)} (is {fmt(value)} in another unit?)"
                )
        return notes

    def data_coverage(self, sql: str, ctx: StepContext) -> str | None:
        """ "2023-01-01 to 2025-12-31": the first and last day the data has, or None."""
        try:
            preview = self.kit.warehouse.preview(sql, limit=1, timeout_s=min(5.0, ctx.deadline_s))
        except (QueryError, QueryTimeout):
            return None
        first, last = preview.rows[0] if preview.rows else (None, None)
        return f"{first} to {last}" if first and last else None


def clarification(
    question: str,
    candidates: list[str],
    unresolved: list[str],
    options: list[dict[str, Any]] | None = None,
) -> StepOutcome:
    """Ask one question; `options` (see clarify_options) are the answers it offers."""
    near = [
        str(o.get("column") or o.get("metric"))
        for o in options or []
        if o.get("kind") in ("near_spelling", "metric")
    ]
    if near and "did you mean" not in question.lower():
        question += " Did you mean " + " or ".join(dict.fromkeys(near[:3])) + "?"
    content: dict[str, Any] = {"question": question, "candidates": candidates}
    if options:
        content["options"] = options
    return StepOutcome(
        clarification=question,
        parsed_intent={"unresolved": unresolved, "candidates": candidates},
        artifacts=[Artifact(kind="clarification", title="Clarifying question", content=content)],
    )


def groups_without_a_value(
    spec: QuestionSpec | None, result: dict[str, Any] | None
) -> tuple[str, bool]:
    """A note naming the groups of a breakdown whose key is no value: NULL, or a placeholder
    with no letter or digit ('*', '-', '?'); "" when every group is a value. True when a
    placeholder is among them."""
    if spec is None or result is None or spec.listing or len(spec.group_by) != 1:
        return "", False
    group = spec.group_by[0]
    columns = [str(c) for c in result.get("columns") or []]
    if group.is_time or group.alias not in columns:
        return "", False
    at = columns.index(group.alias)
    blank = {
        "none" if key is None else repr(key)
        for key in (row[at] for row in result.get("rows") or [])
        if key is None or (isinstance(key, str) and not any(ch.isalnum() for ch in key))
    }
    if not blank:
        return "", False
    kind = "a group" if len(blank) == 1 else "groups"
    note = (
        f"rows with no {group.column} recorded ({', '.join(sorted(blank))}) are shown as "
        f"{kind} of their own"
    )
    return note, blank != {"none"}


def nothing_found(result: dict[str, Any]) -> bool:
    """No rows, or one row whose numbers are all empty or zero (an aggregate over nothing)."""
    if result["row_count"] == 0:
        return True
    if result["row_count"] > 1:
        return False
    values = [v for v in result["rows"][0] if not isinstance(v, str)]
    return bool(values) and all(v is None or v == 0 for v in values)


def unfixable_user_sql(facts: dict[str, Any]) -> str | None:
    """Why the user's SQL failed, when no near-spelling repair applies (else None)."""
    problems = facts.get("validation_problems") or []
    if problems:
        return None if typo_repairs(problems) else sentence(problems[0]["message"])
    error = facts.get("error")
    if error and not facts.get("timeout") and lexical_hint(error) is None:
        return sentence(error.splitlines()[0])
    return None


def sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _said(f: Filter, value: Any) -> str:
    """A filter's value as said: a year or an id bare (1980, never 1,980)."""
    if isinstance(value, int) and not isinstance(value, bool) and _bare_numbers(f.column):
        return str(value)
    return fmt(value)


def _bare_numbers(column: str) -> bool:
    words = re.split(r"[_\W]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", column).lower())
    return bool({"year", "yr", "id", "season"} & set(words)) or column.lower().endswith("id")


def filter_phrase(spec: QuestionSpec | None) -> str:
    if spec is None:
        return ""
    parts = [
        f"{f.label or f.column} {f.op} ({', '.join(_said(f, v) for v in f.value)})"
        if f.op in ("in", "not in")
        else f"{f.label or f.column} is missing"
        if f.op == "is null"
        else f"{f.label or f.column} is known"
        if f.op == "is not null"
        else f"{f.label or f.column} begins with {f.value}"
        if f.op == "starts"
        else f"{f.label or f.column} lists {f.value}"
        if f.op == "has"
        else f"{f.label or f.column} = {fmt(f.value[0].strip())} (stored {len(f.value)} ways)"
        if f.op == "spellings"
        else f"{f.label or f.column} {f.op} {_said(f, f.value)}"
        for f in spec.filters
    ]
    if spec.time_range is not None and not spec.share_of_period:
        parts.append(spec.time_range.said)
    shared = [f"{f.label or f.column} {f.op} {fmt(f.value)}" for f in spec.share_of]
    if spec.share_of_period and spec.time_range is not None:
        parts.insert(0, f"share in {spec.time_range.said}")  # of all the rows
    if shared and parts:  # "share where survived = yes, of the rows where sex = female"
        parts = [f"share where {' and '.join(shared)}, of the rows where {parts[0]}", *parts[1:]]
    elif shared:  # "Percent of total is 38.55 (share where vore = herbi)"
        parts.insert(0, "share where " + " and ".join(shared))
    if spec.share_of_groups:  # each group's percentage of the whole
        parts.insert(0, "each group's share of the total")
    if len(spec.difference_of) == 2:  # "rows where sex = Male minus rows where sex = Female"
        first, second = (f"{f.label or f.column} = {_said(f, f.value)}" for f in spec.difference_of)
        change = {"percent": "as a percentage change from", "ratio": "divided by"}.get(
            spec.change_kind, "minus"
        )
        parts.insert(0, f"rows where {first} {change} rows where {second}")
    parts += spec.notes  # how a word was read: "each row of mpg counted as one car"
    return ", ".join(parts)


def chart_hint(shape: str, result: dict[str, Any] | None) -> dict[str, Any] | None:
    if not result or len(result["columns"]) < 2 or result["row_count"] < 2:
        return None
    columns = result["columns"]
    if not any(
        isinstance(r[-1], int | float) and not isinstance(r[-1], bool) for r in result["rows"][:5]
    ):
        return None  # nothing to plot on y
    if shape == "timeseries":
        return {"chart": "line", "x": columns[-2], "y": columns[-1]}
    return {"chart": "bar", "x": columns[0], "y": columns[-1]}


def said_with_unit(question: str, value: int) -> bool:
    """Whether the question wrote this number with a currency sign before it, a unit word
    after it or a scale word ("$30,000", "4,000 lbs", "10 million", "200k"): only then is a
    number far outside a column's range likely a different scale of the same quantity rather
    than a real (empty) comparison."""
    digits = f"{value:,}".replace(",", ",?")
    for m in re.finditer(rf"(?<![\d.,])([$£€]\s*)?{digits}(?![\d.,]*\d)\s*([A-Za-z]+)?", question):
        if m.group(1) or (m.group(2) and m.group(2).lower() in units()):
            return True
    for scale, words in ((10**3, "thousand|k"), (10**6, "million|mn"), (10**9, "billion|bn")):
        if value % (scale // 10):
            continue
        said = f"{value / scale:g}".replace(".", r"\.")
        if re.search(rf"(?<![\d.,]){said}\s*({words})\b", question, re.IGNORECASE):
            return True
    return False
