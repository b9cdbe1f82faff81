"""Turning what the model did into what the engine judges: events, shapes, narration, the
outcome of a stopped loop, and the honest fallback to the offline executor.

The answer sentence comes from verified result facts only: the model narrates the result of
the re-guarded final query, and if its sentence states a number the result does not hold,
the deterministic sentence is used instead. Recovery prose (what failed and how it was
fixed) goes to the trace, never into the answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sqlglot
from sqlglot import exp

from ..engine import (
    Evaluation,
    Executor,
    RepairAction,
    RepairKind,
    Severity,
    StepContext,
    StepOutcome,
)
from ..errors import ModelError, TransientError
from ..gates import numbers_in, unsupported_numbers
from ..llm import ChatProvider, ToolLoopResult, failures_of, redact_secrets, redact_text
from ..llm.react import OnEvent
from .kit import apply_lexical_repair
from .model_link import LoopInterrupted, Spend
from .model_prompts import narration_messages

_QUALIFIED_OLD_NAME = re.compile(r"replace (?:\S+\.)?([^\s.]+) with")
_TIME_WORDS = re.compile(r"(day|week|month|quarter|year|date|period|time)", re.IGNORECASE)

LOOP_STOPS = {
    "max_rounds": "the model used every tool round without a final answer",
    "repeated_action": "the model asked for the same tool call twice in a row",
    "oscillation": "the model alternated between the same two tool calls",
    "token_budget": "the run's token budget was spent mid-loop",
    "model_error": "the model's replies stayed invalid after the fix rounds",
    "cost_budget": "the run's cost budget was spent mid-loop",
    "timeout": "the run's time budget was spent mid-loop",
    "user_cancelled": "the run was cancelled mid-loop",
}


def event_bridge(ctx: StepContext) -> OnEvent:
    """Tool-loop events become engine events: tool.called, tool.result, answer.delta."""

    def on_event(kind: str, payload: dict[str, Any]) -> None:
        tool = str(payload.get("tool", ""))
        if kind == "tool.called":
            arguments = payload.get("arguments")
            ctx.tool_called(tool, arguments if isinstance(arguments, dict) else {"raw": arguments})
        elif kind == "tool.result":
            keys = ("round", "valid", "executed", "error")
            detail: dict[str, Any] = {k: payload[k] for k in keys if k in payload}
            ctx.tool_result(tool, str(payload.get("summary", "")), detail)
        elif kind == "answer.delta":
            ctx.answer_delta(str(payload.get("delta", "")))

    return on_event


def shape_of(plan: dict[str, Any] | None, sql: str) -> dict[str, Any]:
    """The answer shape the gates check, read from the model's query plan and its SQL.

    No dimensions -> scalar (one row expected); a LIMIT -> top N; a time grain -> timeseries.
    """
    plan = plan or {}
    dimensions = [str(d) for d in plan.get("dimensions") or []]
    if not dimensions:
        return {"shape": "scalar"}
    limit = outer_limit(sql)
    if limit is not None:
        return {"shape": "topn", "limit": limit}
    if _TIME_WORDS.search(" ".join([str(plan.get("grain", "")), *dimensions])):
        return {"shape": "timeseries"}
    return {"shape": "breakdown"}


def outer_limit(sql: str) -> int | None:
    """The LIMIT of the outermost SELECT, if it is a plain number."""
    try:
        tree = sqlglot.parse_one(sql, dialect="duckdb")
    except sqlglot.errors.ParseError:
        return None
    limit = tree.args.get("limit")
    value = limit.expression if isinstance(limit, exp.Limit) else None
    if isinstance(value, exp.Literal) and value.is_int:
        return int(value.this)
    return None


def lexical_fix(sql: str, hint: str) -> str | None:
    """The cheap repair: apply a "replace X with Y" hint to the identifiers of `sql` (None
    when the hint matches nothing, or the SQL does not parse)."""
    try:
        return apply_lexical_repair(sql, hint)
    except sqlglot.errors.ParseError:
        return None


def action_key(sql: str) -> str:
    """Identity of a SQL action (same normalisation as the tool loop's)."""
    return "sql:" + " ".join(sql.split()).lower()


class ScrubbedStream:
    """Forwards streamed text with secrets removed. A key never contains whitespace, so text
    is held back to the last whitespace: a key split over two chunks is scrubbed whole."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self.emit = emit
        self.pending = ""

    def feed(self, text: str) -> None:
        self.pending += text
        cut = max(self.pending.rfind(" "), self.pending.rfind("\n"))
        if cut >= 0:
            ready, self.pending = self.pending[: cut + 1], self.pending[cut + 1 :]
            self.emit(redact_text(ready))

    def close(self) -> None:
        if self.pending:
            self.emit(redact_text(self.pending))
            self.pending = ""


def narrate(
    provider: ChatProvider,
    ctx: StepContext,
    results: list[tuple[str, dict[str, Any]]],
    fallback: str,
    allowed: list[float] | None = None,
) -> tuple[str, dict[str, Any]]:
    """The answer sentence: the model's (streamed as answer.delta) if every number in it is in
    the results, else `fallback` (the deterministic sentence). Returns (sentence, provenance)."""
    stream = ScrubbedStream(ctx.answer_delta)
    streamed = [False]

    def feed(text: str) -> None:
        streamed[0] = True
        stream.feed(text)

    try:
        reply = provider.complete(
            narration_messages(ctx.question, results), stream=True, on_delta=feed
        )
    except LoopInterrupted as exc:  # a run limit: the deterministic sentence, and stop
        stream.pending = ""  # nothing more of a discarded reply goes out
        if streamed[0]:  # its start was shown live: take it back out loud
            ctx.answer_retracted(f"the reply was discarded ({exc.reason})")
        reason = redact_text(str(exc))
        return fallback, {"source": "deterministic", "reason": reason, "stop_reason": exc.reason}
    except (ModelError, TransientError) as exc:
        return fallback, {"source": "deterministic", "reason": redact_text(str(exc))}
    finally:
        stream.close()
    sentence = " ".join((reply.content or "").split())
    if not sentence:
        return fallback, {"source": "deterministic", "reason": "the model's sentence was empty"}
    main = results[0][1]
    extra = [v for _, r in results[1:] for row in r.get("rows", []) for v in row]
    numbers = [float(v) for v in extra if isinstance(v, int | float) and not isinstance(v, bool)]
    bad = unsupported_numbers(
        sentence, main, [*(allowed or []), *numbers, *numbers_in(ctx.question)]
    )
    if bad:
        ctx.answer_retracted(f"it stated {', '.join(bad)}, not in the result")
        return fallback, {
            "source": "deterministic",
            "reason": f"the model's sentence stated {', '.join(bad)}, not in the result",
            "rejected": sentence,
        }
    return sentence, {"source": "model"}


def loop_fields(loop: ToolLoopResult | None) -> dict[str, Any]:
    """The audit fields of a tool loop (raw output, parsed intent, provenance), or nothing."""
    if loop is None:
        return {"raw_model_output": None, "parsed_intent": {}, "provenance": {}}
    fields = loop.step_outcome_fields()
    fields["provenance"]["show_prompt"] = loop.show_prompt
    return fields


def loop_stop_evaluation(reason: str, *, retry: bool) -> Evaluation:
    """A failing evaluation naming why the model loop stopped without a final answer.

    With `retry`, it asks for another attempt: for budgets, timeouts and cancellation that
    sends the engine back to its stop checks, which end the run with the same reason."""
    why = LOOP_STOPS.get(reason, reason)
    hint = (
        f"The last attempt stopped ({reason}): {why}. Take a different approach: fewer, "
        "different tool calls, then final_answer."
    )
    return Evaluation(
        id="model-loop",
        label="Model tool loop",
        passed=False,
        severity=Severity.WARNING,
        message=f"the model loop stopped on {reason}: {why}",
        evidence={"stop_reason": reason},
        repair_action=RepairAction(kind=RepairKind.RETRY, hint=hint) if retry else None,
    )


def stopped_loop_outcome(reason: str, loop: ToolLoopResult | None) -> StepOutcome:
    """The outcome of a loop that ended without a final answer: no result, the reason."""
    fields = loop_fields(loop)
    fields["provenance"]["stop_reason"] = reason
    if loop is not None:
        fields["parsed_intent"]["stop_reason"] = reason
    return StepOutcome(
        action_key=loop.action_key if loop is not None else None,
        raw_model_output=fields["raw_model_output"],
        parsed_intent=fields["parsed_intent"],
        provenance=fields["provenance"],
        evaluations=[loop_stop_evaluation(reason, retry=True)],
    )


def stopped_before(ctx: StepContext) -> bool:
    """Did the previous attempt of this step already end in a stopped model loop?"""
    previous = ctx.previous
    return previous is not None and any(e.id == "model-loop" for e in previous.evaluations)


def degrade(
    ctx: StepContext,
    offline: Executor,
    reason: str,
    *,
    failure: BaseException | None = None,
    extra: list[Evaluation] | None = None,
) -> StepOutcome:
    """Answer this attempt with the offline executor, and say so in the trace and answer."""
    reason = redact_text(reason)
    outcome = offline(ctx)
    outcome.provenance = {**outcome.provenance, "degraded": reason}
    if failure is not None:
        outcome.provenance["provider_failures"] = [f.to_dict() for f in failures_of(failure)]
    for artifact in outcome.artifacts:
        artifact.content = {**artifact.content, "degraded": reason}
    outcome.evaluations = [
        *outcome.evaluations,
        *(extra or []),
        Evaluation(
            id="model-degraded",
            label="Model fallback",
            passed=False,
            severity=Severity.INFO,
            message=f"answered offline: {reason}",
            evidence={"degraded": reason},
        ),
    ]
    return outcome


def charged(outcome: StepOutcome, spend: Spend) -> StepOutcome:
    """The outcome with every model call of the attempt charged to it, secrets scrubbed."""
    outcome.tokens = max(outcome.tokens, 0) + spend.tokens
    outcome.cost_usd = round(max(outcome.cost_usd, 0.0) + spend.cost_usd, 8)
    outcome.provenance = {
        **outcome.provenance,
        "model_usage": {"tokens": spend.tokens, "cost_usd": spend.cost_usd, "calls": spend.calls},
    }
    outcome.answer = redact_text(outcome.answer) if outcome.answer else outcome.answer
    outcome.clarification = (
        redact_text(outcome.clarification) if outcome.clarification else outcome.clarification
    )
    outcome.raw_model_output = (
        redact_text(outcome.raw_model_output)
        if outcome.raw_model_output
        else outcome.raw_model_output
    )
    outcome.parsed_intent = redact_secrets(outcome.parsed_intent)
    outcome.provenance = redact_secrets(outcome.provenance)
    for artifact in outcome.artifacts:
        artifact.content = redact_secrets(artifact.content)
    for evaluation in outcome.evaluations:
        evaluation.message = redact_text(evaluation.message)
        evaluation.evidence = redact_secrets(evaluation.evidence)
    return outcome
