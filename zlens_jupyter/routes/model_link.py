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

import dataclasses
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import StepContext
from ..llm import ChatProvider, ChatResult, ModelConfig, failures_of, redact_text
from ..llm.limits import CallLimits, LimitReached
from ..llm.retry import Sleep
from .kit import RouteKit

# Failure kinds after which the endpoint will not work for this session.
_FATAL_KINDS = {"auth", "permission", "not_found"}
_MAX_PENDING_PLANS = 32


# A run limit fired before or during a model call: `reason` is the engine's stop reason
# (token_budget, cost_budget, timeout or user_cancelled). The model layer raises it.
LoopInterrupted = LimitReached


@dataclass
class Spend:
    """Tokens and dollars spent on model calls (as charged to the run's budget)."""

    tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0

    def add(self, other: Spend) -> None:
        self.tokens += other.tokens
        self.cost_usd = round(self.cost_usd + other.cost_usd, 8)
        self.calls += other.calls


class Meter(CallLimits):
    """The run's clock and budgets as one attempt (or the planner) sees them, and what it spent.

    With a step context, the limits are what the engine said was left when the attempt
    started (`deadline_s`, `tokens_left`, `cost_left_usd`) and Stop is its cancel token;
    `already` is spend made before (the planner's), charged first. Without a context the
    limits are the keyword arguments (None: unlimited). The engine charges the same numbers,
    so a budget spent here is spent there too.
    """

    def __init__(
        self,
        ctx: StepContext | None = None,
        *,
        already: Spend | None = None,
        clock: Callable[[], float] = time.monotonic,
        seconds: float | None = None,
        tokens: int | None = None,
        cost_usd: float | None = None,
    ) -> None:
        if ctx is not None:
            token = ctx.cancel_token
            super().__init__(
                seconds=ctx.deadline_s,
                tokens=ctx.tokens_left,
                cost_usd=ctx.cost_left_usd,
                cancelled=lambda: token.cancelled,
                clock=clock,
            )
        else:
            super().__init__(seconds=seconds, tokens=tokens, cost_usd=cost_usd, clock=clock)
        self.ctx = ctx
        if already is not None:  # charged like any reply: never past the limits
            tokens, cost = already.tokens, already.cost_usd
            if self.max_tokens is not None:
                tokens = min(tokens, max(self.max_tokens, 0))
            if self.max_cost_usd is not None:
                cost = min(cost, max(self.max_cost_usd, 0.0))
            self.tokens += tokens
            self.cost_usd = round(self.cost_usd + cost, 8)
            self.calls += already.calls

    @property
    def spent(self) -> Spend:
        return Spend(self.tokens, self.cost_usd, self.calls)

    def add(self, result: ChatResult) -> None:
        """Charge a reply made outside a metered provider (same rules as the provider's)."""
        self.charge(result)

    def limited_ctx(self) -> StepContext | None:
        """The step context with `deadline_s` brought up to now (for the kit's statements)."""
        seconds = self.seconds_left()
        if self.ctx is None or seconds is None:
            return self.ctx
        return dataclasses.replace(self.ctx, deadline_s=max(seconds, 0.0))


class MeteredProvider(ChatProvider):
    """A ChatProvider whose every call obeys its meter: timeouts within the time left, output
    caps within the tokens left, retries only where the deadline covers them, every reply
    charged (an overrun is discarded and raises LimitReached)."""

    def __init__(self, config: ModelConfig, meter: Meter, *, sleep: Sleep = time.sleep) -> None:
        super().__init__(config, sleep=sleep, limits=meter)
        self.meter = meter

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

    def provider(self, meter: Meter) -> MeteredProvider:
        """A fresh provider for one attempt; the meter bounds each call by the run's clock."""
        provider = MeteredProvider(self.config, meter, sleep=self.sleep)
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
