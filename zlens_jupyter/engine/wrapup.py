"""Finalize: compose the outcome onto the run and emit exactly one terminal event."""

from __future__ import annotations

from .enums import EventType, RunStatus, StopReason, TrustState
from .events import EventLog
from .records import AgentRun, utc_now
from .trust import answer_step


def finalize(
    run: AgentRun,
    log: EventLog,
    stop: StopReason,
    status: RunStatus,
    trust: TrustState,
    trust_reason: str,
) -> None:
    run.stop_reason = stop
    run.status = status
    run.trust_state = trust
    run.trust_reason = trust_reason
    step = answer_step(run.steps)
    if step is not None and step.best is not None:
        best = step.best
        run.route = step.route
        run.answer = best.answer
        run.sql = best.sql
        run.result = best.result
        run.clarification = best.clarification
        if best.provenance:
            run.provenance = {**best.provenance, **run.provenance}
            run.provenance.pop("artifacts", None)
            engine_sql = best.provenance.get("engine_sql")
            if best.provenance.get("dialect") and isinstance(engine_sql, str) and engine_sql:
                # Another engine (Spark) ran the statement in its own dialect: that is the SQL
                # a person sees, copies and pastes (card, Insert, CLI, the record); the gates
                # judged the attempt's SQL as written, which the record keeps beside it.
                run.provenance["written_sql"] = best.sql
                run.sql = engine_sql
    if log.subscriber_errors:
        run.provenance["subscriber_errors"] = list(log.subscriber_errors)
    run.summary = summarize(run)
    run.ended_at = utc_now()
    terminal = {
        RunStatus.CANCELLED: EventType.RUN_CANCELLED,
        RunStatus.BLOCKED: EventType.RUN_FAILED,
    }.get(status, EventType.RUN_COMPLETED)
    log.emit(
        terminal,
        run.summary,
        route=run.route,
        status=status.value,
        trust_state=trust,
        payload={
            "stop_reason": stop.value,
            "trust_reason": trust_reason,
            "answer": run.answer,
            "usage": run.usage.to_dict(),
            "remaining": run.usage.remaining(run.budget),
        },
    )


def summarize(run: AgentRun) -> str:
    usage = run.usage
    parts = [
        f"{run.status.value.replace('_', ' ')}",
        f"{usage.steps} step{'s' if usage.steps != 1 else ''}",
        f"{usage.repairs} repair{'s' if usage.repairs != 1 else ''}",
        f"{usage.escalations} escalation{'s' if usage.escalations != 1 else ''}",
    ]
    reason = run.stop_reason.value.replace("_", " ") if run.stop_reason else "unknown"
    return ", ".join(parts) + f"; stopped on {reason}"
