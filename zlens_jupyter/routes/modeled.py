"""generated_answer and research with a model: a bounded tool loop over read-only tools.

One attempt, in order:
  1. refuse unsafe requests (as offline); the user's own SQL goes to the offline executor;
  2. repair: the cheap lexical fix of the last SQL first ("replace X with Y", no model);
     otherwise the model gets the database's real error for the last SQL;
  3. ground: a bounded slice of the catalog and the closest certified blocks go in the prompt;
  4. the tool loop (search_catalog, inspect_schema, sample_values, lookup_metric,
     run_sql_preview) until final_answer or a stop;
  5. the final SQL is re-guarded, validated and run by `kit.execute` (never trusted as is);
  6. the model narrates the verified result; a sentence with a number not in the result is
     replaced by the deterministic one.

A model that stays unreachable, refuses our credentials, keeps failing or keeps sending
garbled replies (truncated JSON, an HTML page: asked again once, see llm/retry.py) does not
fail the run: the step is answered by the offline executor and the trace says why
(`degraded`). Context overflow is left to the engine (it retries with a smaller prompt) until
the prompt cannot shrink further; malformed output is left to the engine's repair.

Run limits are hard: every model call, tool and statement of an attempt runs on the run's
clock and budgets (the `Meter`). When one is reached mid-attempt (the deadline, the tokens or
dollars left, Stop) the attempt ends there, with whatever verified result it already had,
and `StepOutcome.stop_reason` makes the engine stop the run with that reason. A reply that
reports more than was left is never used (see llm/limits.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from ..engine import (
    Artifact,
    Evaluation,
    Executor,
    Route,
    Severity,
    StepContext,
    StepOutcome,
    StopReason,
)
from ..engine.loop import MAX_CONTEXT_SHRINKS
from ..engine.planner import Planner
from ..errors import (
    ContextOverflow,
    GuardrailViolation,
    MalformedOutput,
    ModelError,
    TransientError,
)
from ..llm import (
    ChatProvider,
    ModelConfig,
    ToolLoopResult,
    failures_of,
    ground_from_host,
    run_tool_loop,
)
from ..llm.retry import MalformedReply
from .generated import chart_hint, clarification
from .kit import RouteKit, looks_like_sql, refuse_unsafe_request
from .model_host import GroundingHost, WarehouseToolHost
from .model_link import LoopInterrupted, Meter, ModelLink, link_for
from .model_outcomes import (
    action_key,
    charged,
    degrade,
    event_bridge,
    lexical_fix,
    loop_fields,
    loop_stop_evaluation,
    narrate,
    shape_of,
    stopped_before,
    stopped_loop_outcome,
)
from .model_planning import model_planner as _model_planner
from .model_prompts import certified_examples, previous_error, system_prompt, task_text
from .narrate import describe

MAX_FINDINGS = 4


class FinalSQLRefused(GuardrailViolation):
    """The read-only guard refused the model's final SQL (kept for the trace)."""

    def __init__(self, message: str, sql: str) -> None:
        super().__init__(message)
        self.sql = sql


class ModelRoute(ABC):
    """What the two model-backed routes share: metering, the tool loop and degradation."""

    idempotent = True
    route: Route = Route.GENERATED_ANSWER
    max_rounds = 8

    def __init__(self, kit: RouteKit, link: ModelLink, offline: Executor) -> None:
        self.kit = kit
        self.link = link
        self.offline = offline

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        planning = self.link.take_planning(ctx.question)
        meter = Meter(ctx, already=planning)
        if self.link.disabled:
            reason = f"the model is off for this session: {self.link.disabled}"
            return charged(degrade(ctx, self.offline, reason), meter.spent)
        if looks_like_sql(ctx.question):  # the user's own SQL needs no model
            return charged(self.offline(ctx), meter.spent)
        provider = self.link.provider(meter)
        try:
            outcome = self.attempt(ctx, provider)
        except LoopInterrupted as exc:
            outcome = stopped_loop_outcome(exc.reason, getattr(exc, "partial", None))
            outcome.stop_reason = StopReason(exc.reason)
            outcome.provenance["limit"] = str(exc)
            if failures_of(exc):
                outcome.provenance["provider_failures"] = [f.to_dict() for f in failures_of(exc)]
        except FinalSQLRefused as exc:  # blocked like any guardrail violation, cost charged
            outcome = refused(exc)
        except ContextOverflow as exc:
            if ctx.shrink_context < MAX_CONTEXT_SHRINKS:
                self.link.charge_planning(ctx.question, meter.spent)  # the retry pays it
                raise
            reason = f"the prompt does not fit: {exc}"
            outcome = degrade(meter.limited_ctx() or ctx, self.offline, reason, failure=exc)
        except MalformedOutput:
            self.link.charge_planning(ctx.question, meter.spent)
            raise
        except MalformedReply as exc:  # garbled 200s, asked again once: answer offline
            reason = f"the model's replies were malformed: {exc}"
            outcome = degrade(meter.limited_ctx() or ctx, self.offline, reason, failure=exc)
        except (ModelError, TransientError) as exc:
            self.link.note_failure(exc)
            reason = f"model unavailable: {exc}"
            outcome = degrade(meter.limited_ctx() or ctx, self.offline, reason, failure=exc)
        finally:
            provider.close()
        if meter.overruns:  # the server's claim, for the trace; the run was charged the rest
            outcome.provenance["usage_overrun"] = meter.overruns[-1]
        return charged(outcome, meter.spent)

    @abstractmethod
    def attempt(self, ctx: StepContext, provider: ChatProvider) -> StepOutcome:
        """One model-backed attempt of this route (the subclass's own work)."""

    def run_loop(self, ctx: StepContext, provider: ChatProvider) -> ToolLoopResult:
        """Ground the question in a bounded catalog slice, then run the tool loop."""
        ctx.tool_called("ground_context", {"question": ctx.question, "shrink": ctx.shrink_context})
        clock = provider.limits.seconds_left if provider.limits is not None else None
        grounding = ground_from_host(
            GroundingHost(self.kit, timeout_s=ctx.deadline_s, seconds_left=clock),
            ctx.question,
            shrink=ctx.shrink_context,
        )
        tables = [t.name for t in grounding.tables]
        ctx.tool_result(
            "ground_context",
            f"{len(tables)} tables and {len(grounding.metrics)} metrics in the prompt",
            {"tables": tables, "metrics": [m.get("name") for m in grounding.metrics]},
        )
        examples = certified_examples(self.kit, ctx.question)
        return run_tool_loop(
            provider,
            WarehouseToolHost(self.kit, timeout_s=ctx.deadline_s, seconds_left=clock),
            question=task_text(ctx),
            system_prompt=system_prompt(self.route, examples),
            context=grounding,
            max_rounds=self.max_rounds,
            on_event=event_bridge(ctx),
        )

    def unfinished(
        self, ctx: StepContext, loop: ToolLoopResult, provider: ChatProvider | None = None
    ) -> StepOutcome:
        """A loop that stopped without a final answer: retry once with a hint, then answer
        offline with the stop reason on record (never a silent answer)."""
        if not stopped_before(ctx):
            return stopped_loop_outcome(loop.stop_reason, loop)
        outcome = degrade(
            on_clock(ctx, provider),
            self.offline,
            f"the model's tool loop stopped twice ({loop.stop_reason})",
            extra=[loop_stop_evaluation(loop.stop_reason, retry=False)],
        )
        outcome.provenance["model_loop"] = loop_fields(loop)["provenance"]
        return outcome

    def execute_final(
        self, ctx: StepContext, sql: str, provider: ChatProvider | None = None
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The final SQL, re-guarded, validated and run bounded by the kit, on the run's clock
        (LimitReached if the time is already spent)."""
        meter = getattr(provider, "meter", None)
        if isinstance(meter, Meter):
            meter.check()
        ctx = on_clock(ctx, provider)
        ctx.tool_called("run_sql_preview", {"sql": sql, "purpose": "final answer, re-guarded"})
        try:
            return self.kit.execute(sql, ctx)
        except GuardrailViolation as exc:
            raise FinalSQLRefused(str(exc), sql) from exc


class ModelAnswer(ModelRoute):
    """The model-backed executor for `generated_answer`."""

    route = Route.GENERATED_ANSWER

    def attempt(self, ctx: StepContext, provider: ChatProvider) -> StepOutcome:
        previous = ctx.previous
        if previous is not None and previous.sql and ctx.hint:
            repaired = lexical_fix(previous.sql, ctx.hint)
            if repaired:
                intent = {**(previous.parsed_intent or {}), "repaired_from": previous.sql}
                lexical = {"kind": "lexical", "from_sql": previous.sql, "hint": ctx.hint}
                return self.answer(ctx, provider, repaired, intent, lexical, loop=None)
        loop = self.run_loop(ctx, provider)
        if loop.stop_reason != "final":
            return self.unfinished(ctx, loop, provider)
        if not loop.final_sql:  # the model says the data cannot answer: ask, never guess
            return model_clarification(loop)
        fields = loop_fields(loop)
        intent = {**fields["parsed_intent"], **shape_of(loop.query_plan, loop.final_sql)}
        recovery: dict[str, Any] | None = None
        if previous is not None and previous.sql:
            recovery = {  # what failed and how it was fixed: for the trace
                "kind": "model",
                "from_sql": previous.sql,
                "error": previous_error(ctx),
                "hint": ctx.hint,
            }
        return self.answer(ctx, provider, loop.final_sql, intent, recovery, loop)

    def answer(
        self,
        ctx: StepContext,
        provider: ChatProvider,
        sql: str,
        intent: dict[str, Any],
        recovery: dict[str, Any] | None,
        loop: ToolLoopResult | None,
    ) -> StepOutcome:
        fields = loop_fields(loop)
        result, facts = self.execute_final(ctx, sql, provider)
        shape = str(intent.get("shape") or "breakdown")
        provenance = {**fields["provenance"], **facts, "model": self.link.config.model}
        if recovery:
            provenance["recovery"] = recovery  # how it was fixed: trace only
        outcome = StepOutcome(
            sql=sql,
            result=result,
            action_key=action_key(sql),
            raw_model_output=fields["raw_model_output"],
            parsed_intent=intent,
            provenance=provenance,
        )
        if result is None:
            return outcome  # the gates turn the error into a repair
        fallback = describe(result, shape, filters=str(intent.get("filters_said", "")))
        outcome.answer, provenance["narration"] = narrate(
            provider, ctx, [("Result", result)], fallback
        )
        outcome.stop_reason = narration_stop(provenance["narration"])
        provenance["visualization"] = chart_hint(shape, result)
        content: dict[str, Any] = {"answer": outcome.answer, "sql": sql}
        if loop is not None and loop.query_plan:
            content["query_plan"] = loop.query_plan
        outcome.artifacts = [Artifact(kind="answer", title="Answer", content=content)]
        return outcome


class ModelResearch(ModelRoute):
    """The model-backed executor for `research`: sub-queries in the loop, then a dossier."""

    route = Route.RESEARCH
    max_rounds = 10

    def attempt(self, ctx: StepContext, provider: ChatProvider) -> StepOutcome:
        loop = self.run_loop(ctx, provider)
        if loop.stop_reason != "final":
            return self.unfinished(ctx, loop, provider)
        if not loop.final_sql:
            return model_clarification(loop)
        fields = loop_fields(loop)
        intent = {**fields["parsed_intent"], **shape_of(loop.query_plan, loop.final_sql)}
        result, facts = self.execute_final(ctx, loop.final_sql, provider)
        provenance = {**fields["provenance"], **facts, "model": self.link.config.model}
        outcome = StepOutcome(
            sql=loop.final_sql,
            result=result,
            action_key=action_key(loop.final_sql),
            raw_model_output=fields["raw_model_output"],
            parsed_intent=intent,
            provenance=provenance,
        )
        if result is None:
            return outcome
        findings = findings_of(loop, loop.final_sql, result, str(intent["shape"]))
        numbers = [
            v
            for f in findings
            for row in f["result"]["rows"]
            for v in row
            if isinstance(v, int | float) and not isinstance(v, bool)
        ]
        provenance["numbers_from_sub_results"] = numbers
        provenance["sub_queries"] = len(findings)
        fallback = " ".join(f["sentence"] for f in findings)
        outcome.answer, provenance["narration"] = narrate(
            provider, ctx, [(f["title"], f["result"]) for f in findings], fallback, numbers
        )
        outcome.stop_reason = narration_stop(provenance["narration"])
        outcome.evaluations.append(research_depth(len(findings)))
        outcome.artifacts = [
            Artifact(
                kind="research_run",
                title="Research dossier",
                content={"question": ctx.question, "findings": findings},
            )
        ]
        return outcome


def findings_of(
    loop: ToolLoopResult, final_sql: str, result: dict[str, Any], shape: str
) -> list[dict[str, Any]]:
    """The evidence: the verified main query first, then the loop's other successful
    sub-queries (each already guarded, validated and bounded by the host), at most 4."""
    findings = [_finding("Main query", final_sql, result, shape)]
    seen = {action_key(final_sql)}
    for step in loop.steps:
        observation = step.observation
        if step.tool != "run_sql_preview" or not step.executed or observation.get("error"):
            continue
        sql = str(step.arguments.get("sql", "")) if isinstance(step.arguments, dict) else ""
        if not sql or action_key(sql) in seen or not observation.get("rows"):
            continue
        seen.add(action_key(sql))
        sub = {k: observation[k] for k in ("columns", "rows", "row_count", "truncated")}
        rows = sub["row_count"]
        findings.append(
            _finding(f"Sub-query {len(findings)}", sql, sub, "scalar" if rows == 1 else "breakdown")
        )
        if len(findings) >= MAX_FINDINGS:
            break
    return findings


def _finding(title: str, sql: str, result: dict[str, Any], shape: str) -> dict[str, Any]:
    return {"title": title, "sentence": describe(result, shape), "sql": sql, "result": result}


def on_clock(ctx: StepContext, provider: ChatProvider | None) -> StepContext:
    """The step context with `deadline_s` brought up to now, for work after model calls
    (the final statement, the offline fallback): the run's clock, not the attempt's start."""
    meter = getattr(provider, "meter", None)
    return (meter.limited_ctx() if isinstance(meter, Meter) else None) or ctx


def narration_stop(provenance: dict[str, Any]) -> StopReason | None:
    """The run limit the narration call ran into, if any: the verified result and the
    deterministic sentence stand, and the run stops with that reason."""
    reason = provenance.get("stop_reason")
    return StopReason(reason) if reason else None


def research_depth(count: int) -> Evaluation:
    """Research promises 2-4 grounded sub-queries; fewer is worth a warning."""
    return Evaluation(
        id="research-depth",
        label="Sub-queries",
        passed=count >= 2,
        severity=Severity.INFO if count >= 2 else Severity.WARNING,
        message=f"{count} grounded sub-quer{'y' if count == 1 else 'ies'} with evidence",
    )


def refused(exc: FinalSQLRefused) -> StepOutcome:
    """The read-only guard refused the model's final SQL: a blocking evaluation, no retry."""
    return StepOutcome(
        provenance={"refused_sql": exc.sql},
        evaluations=[
            Evaluation(
                id="read-only",
                label="Guardrail",
                passed=False,
                severity=Severity.BLOCKING,
                message=str(exc),
            )
        ],
    )


def model_clarification(loop: ToolLoopResult) -> StepOutcome:
    """The model finished without SQL: its reason becomes the one question to the user."""
    fields = loop_fields(loop)
    outcome = clarification(
        loop.answer_text or "The data does not seem to answer that; could you rephrase?", [], []
    )
    outcome.action_key = loop.action_key
    outcome.raw_model_output = fields["raw_model_output"]
    outcome.parsed_intent = fields["parsed_intent"]
    outcome.provenance = fields["provenance"]
    return outcome


def model_executors(
    kit: RouteKit, config: ModelConfig, *, fallback: Mapping[Route, Executor]
) -> dict[Route, Executor]:
    """Model-backed executors for generated_answer and research; each falls back to the
    offline executor from `fallback` when the model cannot be used."""
    link = link_for(kit, config)
    return {
        Route.GENERATED_ANSWER: ModelAnswer(kit, link, fallback[Route.GENERATED_ANSWER]),
        Route.RESEARCH: ModelResearch(kit, link, fallback[Route.RESEARCH]),
    }


def model_planner(kit: RouteKit, config: ModelConfig) -> Planner:
    """The planner for a session with a model: model steps, validated, else deterministic."""
    return _model_planner(link_for(kit, config))
