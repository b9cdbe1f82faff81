"""The bounded reason-and-act tool loop (seed 002's control loop, at the model boundary).

Each round, in this order:
  1. check stop conditions (rounds, token budget: an estimate of the next prompt counts),
  2. call the model with the read tools and `final_answer`,
  3. keep the raw output; parse each tool call into an intent (kept apart from the raw text),
  4. validate the call against its schema; a rejected call becomes an error observation and
     counts as malformed output (a hallucinated tool or arguments), like unparseable text:
     more than `max_fix_rounds` malformed replies stop the loop (`model_error`),
  5. stop on a repeated call (A, A) or an oscillation (A, B, A, B) before running it,
  6. run the valid call and record its observation as a step (every executed call has one),
  7. feed observations back; a valid `final_answer` (or final JSON message) ends the loop.

Provider failures (TransientError, ContextOverflow, ModelError) propagate so the engine can
classify them; the partial result rides on the exception as `.partial`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..errors import MalformedOutput, ZLensError
from .limits import LimitReached
from .prompts import GroundingContext, build_messages
from .provider import ChatProvider
from .redact import redact_secrets, redact_text
from .results import ChatResult, FailureRecord, Usage, estimate_tokens
from .structured import parse_json_reply
from .tools import (
    ALL_TOOL_SPECS,
    FINAL_ANSWER,
    FINAL_ANSWER_SCHEMA,
    CheckedCall,
    ToolHost,
    check_tool_call,
    error_observation,
    observation_text,
    run_tool,
    summarize_observation,
)

StopKind = Literal[
    "final", "max_rounds", "repeated_action", "oscillation", "token_budget", "model_error"
]
OnEvent = Callable[[str, dict[str, Any]], None]

REPETITION_REASONS = {
    "repeated_action": "the same call twice in a row",
    "oscillation": "alternating between the same two calls",
}


@dataclass
class ToolStep:
    """One tool call the model made, whether it ran, and what it observed."""

    round: int
    tool: str
    arguments: dict[str, Any] | str
    valid: bool
    observation: dict[str, Any]
    error: str | None = None
    executed: bool = False
    call_id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ToolLoopResult:
    """Everything the loop did: the final answer (if any), every step and the audit trail."""

    final_sql: str | None = None
    answer_text: str | None = None
    query_plan: dict[str, Any] | None = None
    steps: list[ToolStep] = field(default_factory=list)
    raw_outputs: list[str] = field(default_factory=list)
    parsed_intents: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    stop_reason: StopKind = "max_rounds"
    rounds: int = 0
    show_prompt: str = ""
    messages: list[dict[str, Any]] = field(default_factory=list)
    failures: list[FailureRecord] = field(default_factory=list)
    action_keys: list[str] = field(default_factory=list)
    model: str = ""

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens

    @property
    def action_key(self) -> str | None:
        """Identity of what this run produced: the final SQL if any, else the last action.

        Two attempts with the same key did the same thing (the engine's repeat detector).
        """
        if self.final_sql:
            return "sql:" + " ".join(self.final_sql.split()).lower()
        return self.action_keys[-1] if self.action_keys else None

    def step_outcome_fields(self) -> dict[str, Any]:
        """The engine's StepOutcome audit fields, ready to splat: `StepOutcome(**fields, ...)`.

        raw_model_output is a JSON list of each round's raw output; parsed_intent holds what
        we understood (plan, SQL, answer, every parsed call), kept apart from the raw text.
        """
        fields: dict[str, Any] = redact_secrets(
            {
                "tokens": self.tokens,
                "cost_usd": self.cost_usd,
                "action_key": self.action_key,
                "raw_model_output": json.dumps(self.raw_outputs, ensure_ascii=False),
                "parsed_intent": {
                    "stop_reason": self.stop_reason,
                    "query_plan": self.query_plan,
                    "sql": self.final_sql,
                    "answer": self.answer_text,
                    "intents": self.parsed_intents,
                },
                "provenance": {
                    "model": self.model,
                    "rounds": self.rounds,
                    "stop_reason": self.stop_reason,
                    "usage": self.usage.to_dict(),
                    "tool_steps": [step.to_dict() for step in self.steps],
                    "provider_failures": [f.to_dict() for f in self.failures],
                },
            }
        )
        return fields

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with secrets scrubbed: safe to persist or emit."""
        data = asdict(self)
        data["usage"] = self.usage.to_dict()
        data["action_key"] = self.action_key
        scrubbed: dict[str, Any] = redact_secrets(data)
        return scrubbed


def detect_repetition(keys: Sequence[str]) -> StopKind | None:
    """Name the repetition at the end of `keys`: A, A repeats; A, B, A, B oscillates.

    >>> detect_repetition(["a", "b", "b"])
    'repeated_action'
    >>> detect_repetition(["a", "b", "a", "b"])
    'oscillation'
    >>> detect_repetition(["a", "b", "a"]) is None
    True
    """
    if len(keys) >= 2 and keys[-1] == keys[-2]:
        return "repeated_action"
    if len(keys) >= 4 and keys[-1] == keys[-3] and keys[-2] == keys[-4] and keys[-1] != keys[-2]:
        return "oscillation"
    return None


def run_tool_loop(
    provider: ChatProvider,
    host: ToolHost,
    *,
    question: str,
    system_prompt: str | None = None,
    context: GroundingContext | str | None = None,
    max_rounds: int = 6,
    on_event: OnEvent | None = None,
    few_shot: Sequence[dict[str, Any]] | None = None,
    max_tokens: int | None = None,
    max_fix_rounds: int = 2,
    stream: bool = False,
) -> ToolLoopResult:
    """Run the model against the read tools until it gives a final answer or a stop fires.

    `max_tokens` is the loop's token budget (prompt + completion, all rounds). With
    `stream=True` content deltas reach `on_event("answer.delta", {...})` as they arrive.
    """
    prompt = build_messages(
        question, system_prompt=system_prompt, context=context, few_shot=few_shot
    )
    out = ToolLoopResult(show_prompt=prompt.show_prompt, model=provider.config.model)
    messages = out.messages = prompt.messages
    emit = _emitter(on_event)
    malformed = 0

    def on_delta(text: str) -> None:
        emit("answer.delta", {"round": out.rounds, "delta": text})

    try:
        while True:
            if out.rounds >= max_rounds:
                out.stop_reason = "max_rounds"
                break
            if max_tokens is not None and _next_call_exceeds(out.usage, messages, max_tokens):
                out.stop_reason = "token_budget"
                break
            out.rounds += 1
            result = _scrubbed(
                provider.complete(messages, tools=ALL_TOOL_SPECS, stream=stream, on_delta=on_delta)
            )
            _account(out, result)
            messages.append(result.to_message())

            outcome: StopKind | Literal["malformed"] | None
            if not result.tool_calls:
                outcome = _final_from_text(out, result.content)
            else:
                outcome = _handle_tool_calls(out, host, result, emit)
            if outcome == "malformed":
                malformed += 1
                if malformed > max_fix_rounds:
                    out.stop_reason = "model_error"
                    break
            elif outcome is not None:
                out.stop_reason = outcome
                break
    except ZLensError as exc:
        exc.partial = out  # type: ignore[attr-defined]
        raise
    return out


def _handle_tool_calls(
    out: ToolLoopResult, host: ToolHost, result: ChatResult, emit: OnEvent
) -> StopKind | Literal["malformed"] | None:
    """Validate, repetition-check and run each call of one reply; answer every call."""
    round_ = out.rounds
    outcome: StopKind | Literal["malformed"] | None = None
    for call in result.tool_calls:
        checked = check_tool_call(call.name, call.arguments_json)
        intent: dict[str, Any] = {
            "round": round_,
            "type": "final" if call.name == FINAL_ANSWER else "tool_call",
            "tool": call.name,
            "arguments": checked.arguments,
            "valid": checked.valid,
        }
        if checked.error:
            intent["error"] = checked.error
        out.parsed_intents.append(intent)

        if call.name == FINAL_ANSWER:
            if checked.valid and isinstance(checked.arguments, dict):
                _set_final(out, checked.arguments)
                return "final"
            _reply(out, call.id, {"error": checked.error, "executed": False})
            outcome = "malformed"
            continue

        out.action_keys.append(checked.action_key)
        repeated = detect_repetition(out.action_keys)
        if repeated is not None:
            reason = f"not executed: {REPETITION_REASONS[repeated]}"
            out.steps.append(
                ToolStep(
                    round=round_,
                    tool=call.name,
                    arguments=checked.arguments,
                    valid=checked.valid,
                    observation={"error": reason, "executed": False},
                    error=reason,
                    call_id=call.id,
                )
            )
            return repeated

        if not checked.valid:  # a hallucinated tool or arguments: malformed output, limited
            outcome = "malformed"
        emit(
            "tool.called",
            {
                "round": round_,
                "tool": call.name,
                "arguments": checked.arguments,
                "valid": checked.valid,
            },
        )
        step = _execute(host, checked, round_, call.id)
        out.steps.append(step)
        emit(
            "tool.result",
            {
                "round": round_,
                "tool": call.name,
                "valid": step.valid,
                "executed": step.executed,
                "error": step.error,
                "summary": summarize_observation(step.observation),
            },
        )
        _reply(out, call.id, step.observation)
    return outcome


def _execute(host: ToolHost, checked: CheckedCall, round_: int, call_id: str) -> ToolStep:
    """Run a valid call; a rejected call or a ZLensError becomes an error observation."""
    if not checked.valid:
        return ToolStep(
            round=round_,
            tool=checked.name,
            arguments=checked.arguments,
            valid=False,
            observation=error_observation(checked),
            error=checked.error,
            call_id=call_id,
        )
    try:
        observation = run_tool(host, checked)
    except LimitReached:  # the run's clock or budget, not the model's mistake: stop
        raise
    except ZLensError as exc:  # the model can fix these: a bad column, a guardrail refusal
        observation = {"error": f"{type(exc).__name__}: {exc}"}
    observation = redact_secrets(observation)  # a host may echo a connection string
    error = observation.get("error") if isinstance(observation, dict) else None
    return ToolStep(
        round=round_,
        tool=checked.name,
        arguments=checked.arguments,
        valid=True,
        observation=observation,
        error=str(error) if error else None,
        executed=True,
        call_id=call_id,
    )


def _final_from_text(out: ToolLoopResult, content: str | None) -> StopKind | Literal["malformed"]:
    """A reply with no tool call must be the final JSON; otherwise ask again, bounded."""
    try:
        final = parse_json_reply(content, FINAL_ANSWER_SCHEMA)
    except MalformedOutput as exc:
        out.parsed_intents.append({"round": out.rounds, "type": "invalid", "error": str(exc)})
        out.messages.append(
            {
                "role": "user",
                "content": f"Your reply was invalid: {exc}. Call a tool, or call final_answer "
                "with query_plan, sql and answer.",
            }
        )
        return "malformed"
    out.parsed_intents.append(
        {"round": out.rounds, "type": "final", "arguments": final, "valid": True}
    )
    _set_final(out, final)
    return "final"


def _scrubbed(result: ChatResult) -> ChatResult:
    """The reply with secrets removed before anything parses, runs or records it."""
    result.content = redact_text(result.content) if result.content else result.content
    result.raw = redact_text(result.raw)
    for call in result.tool_calls:
        call.arguments_json = redact_text(call.arguments_json)
    return result


def _set_final(out: ToolLoopResult, final: dict[str, Any]) -> None:
    out.final_sql = final.get("sql")
    out.answer_text = final.get("answer")
    out.query_plan = final.get("query_plan")


def _reply(out: ToolLoopResult, call_id: str, observation: dict[str, Any]) -> None:
    out.messages.append(
        {"role": "tool", "tool_call_id": call_id, "content": observation_text(observation)}
    )


def _account(out: ToolLoopResult, result: ChatResult) -> None:
    out.usage.add(result.usage)
    out.cost_usd = round(out.cost_usd + result.cost_usd, 8)
    out.raw_outputs.append(result.raw)
    out.failures.extend(result.attempts)


def _next_call_exceeds(used: Usage, messages: list[dict[str, Any]], max_tokens: int) -> bool:
    """Budgets are checked before spending: tokens used so far plus the next prompt's size."""
    upcoming = estimate_tokens(json.dumps([messages, ALL_TOOL_SPECS], default=str))
    return used.total_tokens >= max_tokens or used.total_tokens + upcoming > max_tokens


def _emitter(on_event: OnEvent | None) -> OnEvent:
    """Every payload is scrubbed of secrets before anyone outside sees it."""

    def emit(kind: str, payload: dict[str, Any]) -> None:
        if on_event is not None:
            on_event(kind, redact_secrets(payload))

    return emit
