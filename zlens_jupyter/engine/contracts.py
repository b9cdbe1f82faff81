"""What the loop asks of the layers around it: executors, gates, signal sources, sinks.

Executors and gates live above the engine (routes/, gates.py); the store and widget subscribe
to it. These protocols are the only thing the engine knows about them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .enums import Audience, EventType, Route, StopReason, TrustState
from .records import AgentRun, Artifact, Evaluation, IntentSignals


class CancelToken:
    """Set from any thread (a Stop button, a signal handler); the loop checks it every turn."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reason = ""

    def cancel(self, reason: str = "cancelled by the user") -> None:
        self.reason = reason
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass
class StepContext:
    """Everything an executor may read for one attempt, and the one way it may emit events."""

    run_id: str
    question: str
    route: Route
    goal: str
    step_index: int
    attempt: int
    hint: str | None
    audience: Audience
    context: dict[str, Any]
    previous: StepOutcome | None
    shrink_context: int  # how many times a context overflow asked for a smaller prompt
    deadline_s: float  # seconds left on the run's wall clock
    tokens_left: int
    cost_left_usd: float
    emit: Callable[..., None]
    cancel_token: CancelToken

    def tool_called(self, name: str, arguments: dict[str, Any]) -> None:
        self.emit(EventType.TOOL_CALLED, f"{name}", payload={"tool": name, "arguments": arguments})

    def tool_result(self, name: str, summary: str, payload: dict[str, Any] | None = None) -> None:
        self.emit(EventType.TOOL_RESULT, summary, payload={"tool": name, **(payload or {})})

    def answer_delta(self, text: str) -> None:
        self.emit(EventType.ANSWER_DELTA, text, payload={"delta": text})

    def answer_retracted(self, reason: str) -> None:
        """Withdraw what was streamed: subscribers already showed it, so say so out loud."""
        self.emit(
            EventType.ANSWER_RETRACTED,
            f"streamed sentence withdrawn: {reason}",
            payload={"reason": reason},
        )


@dataclass
class StepOutcome:
    """What an executor hands back. Gates judge it; the loop never trusts it blindly."""

    answer: str | None = None
    sql: str | None = None
    result: dict[str, Any] | None = None  # {columns, rows, row_count, truncated, ...}
    artifacts: list[Artifact] = field(default_factory=list)
    evaluations: list[Evaluation] = field(default_factory=list)  # checks the executor made itself
    tokens: int = 0
    cost_usd: float = 0.0
    action_key: str | None = None  # identical keys on consecutive attempts mean a repeat
    raw_model_output: str | None = None
    parsed_intent: dict[str, Any] | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    # Set by the certified route when it ran a certified block unchanged: {name, status, ...}
    certified_block: dict[str, Any] | None = None
    clarification: str | None = None  # the one question to ask the user
    trust_ceiling: TrustState | None = None
    # A run limit the executor ran into mid-attempt (timeout, token_budget, cost_budget,
    # user_cancelled): the step ends needing review and the run stops with this reason.
    stop_reason: StopReason | None = None


class Executor(Protocol):
    """Runs one route for one attempt. May raise; the loop classifies what it raises."""

    def __call__(self, ctx: StepContext) -> StepOutcome: ...


class LazyExecutors(MutableMapping[Route, Executor]):
    """Executors by route, each built on first use from a factory (`later`).

    A process that answers from a certified block never builds the generated, research or
    drafting routes, whose modules import sqlglot (~0.2 s and ~10 MiB). Reading an entry,
    iterating values or copying builds what it reads; `in` and `len` build nothing. `Engine`
    keeps such a mapping as it is rather than copying it (a copy would build everything).
    """

    def __init__(
        self,
        ready: Mapping[Route, Executor] | None = None,
        later: Mapping[Route, Callable[[], Executor]] | None = None,
    ) -> None:
        self._ready: dict[Route, Executor] = dict(ready or {})
        self._later: dict[Route, Callable[[], Executor]] = dict(later or {})
        self._lock = threading.Lock()

    def __getitem__(self, route: Route) -> Executor:
        with self._lock:
            if route not in self._ready:
                if route not in self._later:
                    raise KeyError(route)
                self._ready[route] = self._later.pop(route)()
            return self._ready[route]

    def __setitem__(self, route: Route, executor: Executor) -> None:
        with self._lock:
            self._later.pop(route, None)
            self._ready[route] = executor

    def __delitem__(self, route: Route) -> None:
        with self._lock:
            if route in self._ready:
                del self._ready[route]
            else:
                del self._later[route]

    def __contains__(self, route: object) -> bool:
        return route in self._ready or route in self._later

    def __iter__(self) -> Iterator[Route]:
        return iter([*self._ready, *(r for r in self._later if r not in self._ready)])

    def __len__(self) -> int:
        return len(set(self._ready) | set(self._later))


class Gate(Protocol):
    """Judges an attempt: result -> evaluations. Pure; raising is treated as a gate failure."""

    def __call__(self, ctx: StepContext, outcome: StepOutcome) -> list[Evaluation]: ...


class SignalSource(Protocol):
    def __call__(self, question: str) -> IntentSignals: ...


class RunSink(Protocol):
    """Where runs go: checkpoints while live, the final record at the end (the store)."""

    def checkpoint(self, run: AgentRun) -> None: ...

    def save(self, run: AgentRun) -> None: ...


def idempotent(executor: Executor) -> bool:
    """Executors are read-only and so safe to retry unless they say otherwise."""
    return bool(getattr(executor, "idempotent", True))
