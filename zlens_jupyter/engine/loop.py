"""The governed control loop (seed 000), under the harness guarantees of seed 002.

    intent -> route -> plan -> step queue
    for each step: execute -> gate -> decide (repair | escalate | clarify | accept)
    finalize: status, trust, stop reason, artifacts, summary -> emit -> persist -> return

Every decision is a small named function elsewhere in this package (decide_action,
select_route, replan, check_*_stop, compose_trust, compose_status); this module only wires
them together in the order of the flowchart.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..errors import RunCancelled
from .attempts import execute_attempt, judge_attempt
from .contracts import (
    CancelToken,
    Executor,
    Gate,
    LazyExecutors,
    RunSink,
    SignalSource,
    StepContext,
    StepOutcome,
)
from .enums import Decision, EventType, Route, Severity, StepStatus, StopReason
from .events import EventLog, Subscriber
from .failures import (
    FailureClass,
)
from .intent import decide_action, select_route
from .planner import DeterministicPlanner, Planner, planned_step
from .records import (
    AgentRun,
    Attempt,
    Budget,
    Evaluation,
    IntentSignals,
    PlannedStep,
    RunRequest,
    Step,
    new_id,
    utc_now,
)
from .steps import (
    artifacts_of,
    best_attempt,
    block_reason,
    blocked,
    cancel_open_step,
    passed,
    plan_message,
    terminal_success,
    validated,
    why,
)
from .stops import check_budget_stop, check_repetition, check_step_limit
from .trust import compose_status, compose_trust
from .wrapup import finalize

MAX_CONTEXT_SHRINKS = 2


@dataclass
class _Live:
    """The mutable state of one run while the loop turns."""

    run: AgentRun
    log: EventLog
    cancel: CancelToken
    started: float
    action_keys: list[str] = field(default_factory=list)


@dataclass
class _StepEnd:
    stop: StopReason | None = None
    escalate_to: PlannedStep | None = None


class Engine:
    """Runs questions through the loop. Executors and gates are injected per route."""

    def __init__(
        self,
        executors: Mapping[Route, Executor],
        gate: Gate | None = None,
        *,
        planner: Planner | None = None,
        signals: SignalSource | None = None,
        budget: Budget | None = None,
        sink: RunSink | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        # A lazy mapping is kept as it is: copying it would build every route's executor.
        self.executors = executors if isinstance(executors, LazyExecutors) else dict(executors)
        self.gate = gate
        self.planner: Planner = planner or DeterministicPlanner()
        self.signals = signals
        self.budget = budget or Budget()
        self.sink = sink
        self.clock = clock
        self.sleep = sleep

    def run(
        self,
        request: RunRequest | str,
        on_event: Subscriber | None = None,
        *,
        cancel: CancelToken | None = None,
    ) -> AgentRun:
        """Run one question to a terminal state and return its record (never raises for
        executor, gate or subscriber failures; `KeyboardInterrupt` becomes a cancelled run)."""
        request = validated(request)
        live = self._start(request, on_event, cancel or CancelToken())
        run, budget = live.run, live.run.budget
        stop: StopReason | None = None
        try:
            live.log.emit(EventType.RUN_STARTED, request.question, status=run.status.value)
            run.signals = self._read_signals(request.question)
            run.action = decide_action(request.question, run.signals)
            run.route = select_route(
                run.action,
                request.question,
                run.signals,
                mode=request.mode,
                audience=request.audience,
            )
            run.plan = self.planner.plan(request, run.route, self._budget_left(live))
            live.log.emit(EventType.PLAN_CREATED, plan_message(run), payload=run.plan.to_dict())
            queue = deque(run.plan.steps)
            while queue and stop is None:
                stop = self._check_stops(live) or check_step_limit(run.usage, budget)
                if stop is not None:
                    break
                step, end = self._run_step(live, queue.popleft())
                stop = end.stop
                if end.escalate_to is not None:
                    queue.appendleft(end.escalate_to)
                elif terminal_success(step):
                    break
            if stop is None and self._check_stops(live) is StopReason.TIMEOUT:
                stop = StopReason.TIMEOUT  # an answer that came after the deadline is late
        except (KeyboardInterrupt, RunCancelled):
            stop = StopReason.USER_CANCELLED
            cancel_open_step(run)
        return self._finish(live, stop or StopReason.FINAL_ANSWER)

    # -- one step: execute -> gate -> decide, until it passes, escalates, or runs out ------

    def _run_step(self, live: _Live, planned: PlannedStep) -> tuple[Step, _StepEnd]:
        run, budget = live.run, live.run.budget
        step = Step(
            index=len(run.steps),
            route=planned.route,
            goal=planned.goal,
            status=StepStatus.RUNNING,
            escalated_from=planned.escalated_from,
            hint=planned.hint,
            started_at=utc_now(),
        )
        run.steps.append(step)
        run.usage.steps += 1
        self._checkpoint(run)
        live.log.emit(
            EventType.STEP_STARTED,
            planned.goal,
            route=step.route,
            payload={"step": step.index, "remaining": run.usage.remaining(budget)},
        )
        live.log.emit(
            EventType.ROUTE_DECIDED, step.route.value, route=step.route, payload=why(planned)
        )
        hint, previous, shrink = planned.hint, None, 0
        while True:
            stop = self._check_stops(live)
            if stop is not None:
                return self._end_step(live, step, StepStatus.NEEDS_REVIEW), _StepEnd(stop=stop)
            ctx = self._context(live, step, hint, previous, shrink)
            live.log.emit(
                EventType.EXECUTOR_STARTED, f"attempt {ctx.attempt + 1}", route=step.route
            )
            attempt, outcome, failure = self._execute(live, ctx)
            step.attempts.append(attempt)
            if live.cancel.cancelled:  # Stop pressed while the executor worked: honour it now
                raise RunCancelled(live.cancel.reason)
            if failure is FailureClass.CONTEXT_OVERFLOW and shrink < MAX_CONTEXT_SHRINKS:
                shrink += 1
                continue
            attempt.evaluations = self._judge(ctx, outcome, attempt)
            for evaluation in attempt.evaluations:
                live.log.emit(
                    EventType.EVALUATION_RECORDED,
                    evaluation.message or evaluation.label,
                    route=step.route,
                    status="passed" if evaluation.passed else "failed",
                    payload={"step": step.index, **evaluation.to_dict()},
                )
            step.best_attempt = best_attempt(step.attempts)
            if blocked(attempt):
                return self._end_step(live, step, StepStatus.BLOCKED), _StepEnd(
                    stop=block_reason(attempt)
                )
            if outcome.stop_reason is not None:  # a run limit hit mid-attempt
                end = self._end_step(live, step, StepStatus.NEEDS_REVIEW)
                return end, _StepEnd(stop=outcome.stop_reason)
            if outcome.clarification:
                end = self._end_step(live, step, StepStatus.NEEDS_CLARIFICATION)
                return end, _StepEnd(stop=StopReason.CLARIFICATION)
            repeated = self._note_action(live, step, attempt)
            if repeated is not None:
                return self._end_step(live, step, StepStatus.NEEDS_REVIEW), _StepEnd(stop=repeated)
            failing = [e for e in attempt.evaluations if e.actionable]
            if not failing:
                return self._end_step(live, step, passed(step)), _StepEnd()
            if step.repairs >= budget.max_repairs_per_step:
                return self._end_step(live, step, StepStatus.NEEDS_REVIEW), _StepEnd()
            decided = self.planner.replan(
                step, failing, budget.max_escalations - run.usage.escalations
            )
            run.replans.append(
                {
                    "step": step.index,
                    "decision": decided.decision.value,
                    "reason": decided.reason,
                    "route": decided.route,
                }
            )
            live.log.emit(
                EventType.REPLAN_DECIDED,
                decided.reason,
                route=step.route,
                status=decided.decision.value,
                payload={"step": step.index},
            )
            if decided.decision is Decision.REPAIR:
                step.repairs += 1
                run.usage.repairs += 1
                hint, previous = decided.hint, outcome
                live.log.emit(
                    EventType.REPAIR_ATTEMPTED,
                    hint or "retry",
                    route=step.route,
                    payload={"step": step.index, "repair": step.repairs, "hint": hint},
                )
                continue
            if decided.decision is Decision.ESCALATE and decided.route is not None:
                run.usage.escalations += 1
                step.escalated_to = decided.route
                live.log.emit(
                    EventType.ESCALATED,
                    f"{step.route.value} -> {decided.route.value}",
                    route=decided.route,
                    payload={"step": step.index, "hint": decided.hint},
                )
                nxt = planned_step(decided.route, hint=decided.hint, escalated_from=step.route)
                return self._end_step(live, step, StepStatus.ESCALATED), _StepEnd(escalate_to=nxt)
            if decided.decision is Decision.CLARIFY:
                attempt.clarification = decided.question
                end = self._end_step(live, step, StepStatus.NEEDS_CLARIFICATION)
                return end, _StepEnd(stop=StopReason.CLARIFICATION)
            return self._end_step(live, step, passed(step)), _StepEnd()

    def _execute(
        self, live: _Live, ctx: StepContext
    ) -> tuple[Attempt, StepOutcome, FailureClass | None]:
        attempt, outcome, failure = execute_attempt(
            self.executors.get(ctx.route),
            ctx,
            max_retries=live.run.budget.max_transient_retries,
            may_retry=lambda: self._check_stops(live) is None,
            clock=self.clock,
            sleep=self.sleep,
        )
        live.run.usage.tokens += max(0, outcome.tokens)
        live.run.usage.cost_usd += max(0.0, outcome.cost_usd)
        return attempt, outcome, failure

    def _judge(self, ctx: StepContext, outcome: StepOutcome, attempt: Attempt) -> list[Evaluation]:
        gate = self.gate if ctx.route in self.executors else None
        return judge_attempt(gate, ctx, outcome, attempt)

    # -- bookkeeping -------------------------------------------------------------------------

    def _start(
        self, request: RunRequest, on_event: Subscriber | None, cancel: CancelToken
    ) -> _Live:
        budget = request.budget or self.budget
        run = AgentRun(
            id=request.run_id or new_id("run_"),
            question=request.question,
            mode=request.mode,
            audience=request.audience,
            budget=budget,
            context={
                k: v for k, v in request.context.items() if isinstance(v, str | int | float | bool)
            },
        )
        return _Live(run=run, log=EventLog(run, on_event), cancel=cancel, started=self.clock())

    def _read_signals(self, question: str) -> IntentSignals:
        if self.signals is None:
            return IntentSignals()
        try:
            return self.signals(question)
        except Exception as exc:  # routing still works without signals: it just knows less
            return IntentSignals(notes=[f"signals unavailable: {type(exc).__name__}: {exc}"])

    def _budget_left(self, live: _Live) -> Budget:
        """The budget with what is left of it: the model planner runs on the run's clock."""
        self._check_stops(live)  # brings elapsed up to now
        left = live.run.usage.remaining(live.run.budget)
        return live.run.budget.merged(
            deadline_s=max(0.0, float(left["seconds"])),
            max_tokens=int(left["tokens"]),
            max_cost_usd=float(left["cost_usd"]),
        )

    def _check_stops(self, live: _Live) -> StopReason | None:
        usage = live.run.usage
        usage.elapsed_s = max(usage.elapsed_s, self.clock() - live.started)
        return check_budget_stop(usage, live.run.budget, cancelled=live.cancel.cancelled)

    def _context(
        self, live: _Live, step: Step, hint: str | None, previous: StepOutcome | None, shrink: int
    ) -> StepContext:
        run = live.run
        remaining = run.usage.remaining(run.budget)

        def emit(type: EventType, message: str = "", **kw: object) -> None:
            live.log.emit(type, message, route=step.route, **kw)  # type: ignore[arg-type]

        return StepContext(
            run_id=run.id,
            question=run.question,
            route=step.route,
            goal=step.goal,
            step_index=step.index,
            attempt=len(step.attempts),
            hint=hint,
            audience=run.audience,
            context=run.context,
            previous=previous,
            shrink_context=shrink,
            deadline_s=float(remaining["seconds"]),
            tokens_left=int(remaining["tokens"]),
            cost_left_usd=float(remaining["cost_usd"]),
            emit=emit,
            cancel_token=live.cancel,
        )

    def _note_action(self, live: _Live, step: Step, attempt: Attempt) -> StopReason | None:
        if not attempt.action_key:
            return None
        live.action_keys.append(f"{step.route.value}:{attempt.action_key}")
        repeated = check_repetition(live.action_keys)
        if repeated is not None:
            attempt.evaluations.append(
                Evaluation(
                    id=repeated.value.replace("_", "-"),
                    label="Repetition",
                    passed=False,
                    severity=Severity.WARNING,
                    attempt=attempt.number,
                    message="the same action was proposed again; stopping instead of spinning",
                    evidence={"action_key": attempt.action_key},
                )
            )
        return repeated

    def _end_step(self, live: _Live, step: Step, status: StepStatus) -> Step:
        step.status = status
        step.ended_at = utc_now()
        best = step.best
        if best is not None and status is not StepStatus.ESCALATED:
            for artifact in artifacts_of(live.run, step):
                live.run.artifacts.append(artifact)
                live.log.emit(
                    EventType.ARTIFACT_CREATED,
                    artifact.title,
                    route=step.route,
                    payload={"step": step.index, "kind": artifact.kind, "id": artifact.id},
                )
        live.log.emit(
            EventType.STEP_COMPLETED,
            f"step {step.index + 1} {status.value}",
            route=step.route,
            status=status.value,
            payload={
                "step": step.index,
                "attempts": len(step.attempts),
                "repairs": step.repairs,
                "remaining": live.run.usage.remaining(live.run.budget),
            },
        )
        self._checkpoint(live.run)
        return step

    def _checkpoint(self, run: AgentRun) -> None:
        if self.sink is not None:
            try:
                self.sink.checkpoint(run)
            except Exception as exc:  # persistence trouble is reported, never fatal mid-run
                run.provenance.setdefault("store_errors", []).append(str(exc))

    def _finish(self, live: _Live, stop: StopReason) -> AgentRun:
        live.run.usage.elapsed_s = max(live.run.usage.elapsed_s, self.clock() - live.started)
        trust, reason = compose_trust(live.run.steps, cancelled=stop is StopReason.USER_CANCELLED)
        status = compose_status(live.run.steps, stop, trust)
        finalize(live.run, live.log, stop, status, trust, reason)
        if self.sink is not None:
            try:
                self.sink.save(live.run)
            except Exception as exc:
                live.run.provenance.setdefault("store_errors", []).append(str(exc))
        return live.run
