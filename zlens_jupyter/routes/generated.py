"""generated_answer, offline: parse the question -> one SQL statement -> guard -> validate ->
bounded preview -> a data-first sentence. When the question cannot be grounded confidently,
it asks one specific question instead of guessing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Artifact, StepContext, StepOutcome
from .kit import RouteKit, apply_lexical_repair, looks_like_sql, refuse_unsafe_request
from .narrate import describe, fmt
from .spec import QuestionSpec
from .sqlbuild import Unbuildable, build_sql


@dataclass(frozen=True)
class Draft:
    sql: str
    intent: dict[str, Any]
    filters: str


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
        intent = dict(drafted.intent)
        if "shape" not in intent:  # the user's own SQL: judge the shape by what came back
            intent["shape"] = "breakdown" if result and result["row_count"] > 1 else "scalar"
        shape = str(intent["shape"])
        answer = describe(result, shape, filters=drafted.filters) if result else None
        facts["visualization"] = chart_hint(shape, result)
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
            )
        try:
            sql = build_sql(parsed.spec, self.kit.warehouse.catalog(), self.kit.semantic)
        except Unbuildable as exc:
            return clarification(str(exc), [], [])
        said = filter_phrase(parsed.spec)
        return Draft(sql, {**parsed.spec.to_dict(), "filters_said": said}, said)


def clarification(question: str, candidates: list[str], unresolved: list[str]) -> StepOutcome:
    return StepOutcome(
        clarification=question,
        parsed_intent={"unresolved": unresolved, "candidates": candidates},
        artifacts=[
            Artifact(
                kind="clarification",
                title="Clarifying question",
                content={"question": question, "candidates": candidates},
            )
        ],
    )


def filter_phrase(spec: QuestionSpec | None) -> str:
    if spec is None:
        return ""
    parts = [f"{f.label or f.column} {f.op} {fmt(f.value)}" for f in spec.filters]
    if spec.time_range is not None:
        parts.append(spec.time_range.said)
    return ", ".join(parts)


def chart_hint(shape: str, result: dict[str, Any] | None) -> dict[str, Any] | None:
    if not result or len(result["columns"]) < 2 or result["row_count"] < 2:
        return None
    columns = result["columns"]
    if shape == "timeseries":
        return {"chart": "line", "x": columns[-2], "y": columns[-1]}
    return {"chart": "bar", "x": columns[0], "y": columns[-1]}
