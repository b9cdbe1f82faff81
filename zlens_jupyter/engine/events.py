"""The event stream: every event gets the next `seq`, is kept on the run, and reaches the
subscriber as it happens. A subscriber that raises never breaks the run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .enums import TRANSIENT_EVENTS, EventType, Route, TrustState
from .records import AgentRun, Event, utc_now

Subscriber = Callable[[Event], None]


class EventLog:
    def __init__(self, run: AgentRun, subscriber: Subscriber | None) -> None:
        self.run = run
        self.subscriber = subscriber
        self.subscriber_errors: list[str] = []
        self._seq = len(run.events)

    def emit(
        self,
        type: EventType,
        message: str = "",
        *,
        route: Route | None = None,
        status: str | None = None,
        trust_state: TrustState | None = None,
        payload: dict[str, Any] | None = None,
    ) -> Event:
        self._seq += 1
        event = Event(
            id=f"{self.run.id}.{self._seq}",
            run_id=self.run.id,
            seq=self._seq,
            at=utc_now(),
            type=type,
            message=message,
            route=route,
            status=status,
            trust_state=trust_state,
            payload=payload,
        )
        if type not in TRANSIENT_EVENTS:
            self.run.events.append(event)
        if self.subscriber is not None:
            try:
                self.subscriber(event)
            except Exception as exc:  # a broken panel must not break the analysis
                if len(self.subscriber_errors) < 5:
                    self.subscriber_errors.append(f"{type.value}: {type_name(exc)}: {exc}")
        return event


def type_name(exc: BaseException) -> str:
    return type(exc).__name__
