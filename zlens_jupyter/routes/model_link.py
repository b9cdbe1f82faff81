"""A session's link to its model: one configuration, a metered provider per attempt, and the
little state the model executors and the model planner share.

Shared state, and why it is shared:
- `disabled`: after the endpoint refused our credentials (401/403) or does not serve the
  model (404), retrying cannot help; the rest of the session answers offline and the trace
  says so once, instead of hitting the server on every step.
- the planning ledger: the planner's tokens are spent before the run's first step, where the
  engine cannot see them; the run's first model step charges them to the run.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import StepContext
from ..errors import ZLensError
from ..llm import ChatProvider, ChatResult, ModelConfig, failures_of, redact_text
from ..llm.provider import OnDelta
from ..llm.retry import Sleep
from .kit import RouteKit

# Failure kinds after which the endpoint will not work for this session.
_FATAL_KINDS = {"auth", "permission", "not_found"}
_MAX_PENDING_PLANS = 32


class LoopInterrupted(ZLensError):
    """A run limit fired before the next model call: `reason` is the engine's stop reason
    (token_budget, cost_budget, timeout or user_cancelled)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass
class Spend:
    """Tokens and dollars spent on model calls (as the server reported them)."""

    tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0

    def add(self, other: Spend) -> None:
        self.tokens += other.tokens
        self.cost_usd = round(self.cost_usd + other.cost_usd, 8)
        self.calls += other.calls


class Meter:
    """Counts what one attempt spends and stops it between calls when a run limit is reached.

    The rule is the engine's own (a budget is spent when what was used reaches it), so when an
    attempt stops here the engine, charged with the same numbers, stops the run for the same
    reason at its next check.
    """

    def __init__(
        self,
        ctx: StepContext | None = None,
        *,
        already: Spend | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ctx = ctx
        self.spent = Spend()
        if already is not None:
            self.spent.add(already)
        self.clock = clock
        self.started = clock()

    def check(self) -> None:
        """Raise LoopInterrupted if the next call may not be made."""
        ctx = self.ctx
        if ctx is None:
            return
        if ctx.cancel_token.cancelled:
            raise LoopInterrupted("user_cancelled", ctx.cancel_token.reason or "cancelled")
        if self.clock() - self.started >= ctx.deadline_s:
            raise LoopInterrupted("timeout", "the run's time budget is spent")
        if self.spent.tokens >= ctx.tokens_left:
            raise LoopInterrupted(
                "token_budget",
                f"{self.spent.tokens} tokens used of the {ctx.tokens_left} left for this run",
            )
        if self.spent.cost_usd >= ctx.cost_left_usd:
            raise LoopInterrupted(
                "cost_budget",
                f"${self.spent.cost_usd:.4f} spent of the ${ctx.cost_left_usd:.4f} left",
            )

    def add(self, result: ChatResult) -> None:
        self.spent.add(Spend(result.usage.total_tokens, result.cost_usd, 1))


class MeteredProvider(ChatProvider):
    """A ChatProvider that asks its meter before every call and reports every reply to it."""

    def __init__(self, config: ModelConfig, meter: Meter, *, sleep: Sleep = time.sleep) -> None:
        super().__init__(config, sleep=sleep)
        self.meter = meter

    def complete(
        self,
        messages: Sequence[dict[str, Any]],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        response_format: dict[str, Any] | None = None,
        stream: bool = False,
        on_delta: OnDelta | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        self.meter.check()
        result = super().complete(
            messages,
            tools=tools,
            response_format=response_format,
            stream=stream,
            on_delta=on_delta,
            temperature=temperature,
        )
        self.meter.add(result)
        return result

    def close(self) -> None:
        """Release the HTTP connection pool (one provider lives for one attempt)."""
        self._client.close()


class ModelLink:
    """One model configuration for one session, shared by its executors and its planner."""

    def __init__(self, kit: RouteKit, config: ModelConfig, *, sleep: Sleep = time.sleep) -> None:
        self.kit = kit
        self.config = config
        self.sleep = sleep
        self.disabled: str | None = None
        # Learned from the server once (json_schema support), reused by later providers.
        self.supports_json_schema = config.supports_json_schema
        self._planning: dict[str, Spend] = {}
        self._lock = threading.Lock()

    def provider(self, meter: Meter, *, timeout_s: float | None = None) -> MeteredProvider:
        """A fresh provider for one attempt, its HTTP timeout within the run's clock."""
        config = self.config
        if timeout_s is not None:
            config = config.with_overrides(timeout_s=max(1.0, min(config.timeout_s, timeout_s)))
        provider = MeteredProvider(config, meter, sleep=self.sleep)
        provider.supports_json_schema = self.supports_json_schema
        return provider

    def note_failure(self, exc: BaseException) -> None:
        """Remember a failure that makes the endpoint useless for the rest of the session."""
        failures = failures_of(exc)
        if failures and failures[-1].kind in _FATAL_KINDS:
            self.disabled = redact_text(str(exc))

    def charge_planning(self, question: str, spend: Spend) -> None:
        with self._lock:
            self._planning.setdefault(question, Spend()).add(spend)
            while len(self._planning) > _MAX_PENDING_PLANS:  # a plan no step ever ran
                self._planning.pop(next(iter(self._planning)))

    def take_planning(self, question: str) -> Spend:
        """What planning this question cost, once (the first model step charges it)."""
        with self._lock:
            return self._planning.pop(question, Spend())


# Session.reload builds the executors and the planner in two calls; both must share one
# link. Keyed by the kit's identity: the link holds the kit, so the id cannot be reused
# while the link lives.
_LINKS: weakref.WeakValueDictionary[int, ModelLink] = weakref.WeakValueDictionary()
_LINKS_LOCK = threading.Lock()


def link_for(kit: RouteKit, config: ModelConfig) -> ModelLink:
    """The session's ModelLink for this kit and configuration (created on first use)."""
    with _LINKS_LOCK:
        link = _LINKS.get(id(kit))
        if link is None or link.kit is not kit or link.config != config:
            link = ModelLink(kit, config)
            _LINKS[id(kit)] = link
        return link
