"""Hard limits for model calls: the run's clock and ledger, as one piece of model work sees them.

A `CallLimits` is made from what the run has left when model work starts (the planner, one
attempt of a step). Every HTTP attempt asks it first (`plan_call`), and gets:

- a request timeout no longer than the seconds left (nor the configured `timeout_s`);
- an output-token cap (`max_tokens` / `max_completion_tokens`) no larger than the tokens left
  after the prompt's estimated size, nor than what the money left can buy, nor than the
  configured per-call cap;

or a `LimitReached` when the time left cannot cover a minimal call (`MIN_CALL_S`), the tokens
left cannot cover the prompt plus a minimal reply (`MIN_OUTPUT_TOKENS`), or the money is
spent. A retry wait the time left cannot cover is refused the same way (`covers_wait`), so no
sleep ever runs past the deadline.

Every reply is then charged (`charge`). A reply whose reported usage is more than was left is
an overrun: what the run records is charged up to its budget and no further (the recorded
spend never exceeds the budget; the server's own figures are kept in `overruns` for the
trace), the reply is discarded unread, and `LimitReached("token_budget" | "cost_budget")`
ends the work, so the run stops with that reason.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ZLensError
from .config import ModelConfig
from .redact import redact_text
from .results import ChatResult, estimate_tokens

MIN_CALL_S = 0.25  # a model call given less time than this cannot be expected to answer
MIN_OUTPUT_TOKENS = 16  # nor one allowed fewer output tokens than this
_RAW_KEPT = 400  # characters of a discarded reply kept for audit

Clock = Callable[[], float]


class LimitReached(ZLensError):
    """A run limit stops model work: `reason` is the engine's stop reason (timeout,
    token_budget, cost_budget or user_cancelled)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def estimate_prompt_tokens(request: Mapping[str, Any]) -> int:
    """The size of a request's prompt as the provider estimates it (messages, tools and the
    response format, about four characters a token)."""
    sent = [request.get("messages", []), request.get("tools"), request.get("response_format")]
    return estimate_tokens(json.dumps(sent, ensure_ascii=False, default=str))


@dataclass(frozen=True)
class CallPlan:
    """What one HTTP attempt may use."""

    timeout_s: float
    max_output_tokens: int
    prompt_tokens: int


class CallLimits:
    """Seconds, tokens and dollars left for a piece of model work, and what it has spent.

    None for a limit means "unlimited". `cancelled` is polled before every call.

    >>> limits = CallLimits(seconds=10, tokens=1000, clock=lambda: 0.0)
    >>> limits.plan_call(ModelConfig(timeout_s=30), {"messages": []}).timeout_s
    10.0
    """

    def __init__(
        self,
        *,
        seconds: float | None = None,
        tokens: int | None = None,
        cost_usd: float | None = None,
        cancelled: Callable[[], bool] | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.clock = clock
        self.started = clock()
        self.deadline = None if seconds is None else self.started + float(seconds)
        self.max_tokens = tokens
        self.max_cost_usd = cost_usd
        self.cancelled = cancelled or (lambda: False)
        self.tokens = 0
        self.cost_usd = 0.0
        self.calls = 0
        self.overruns: list[dict[str, Any]] = []

    # -- what is left ---------------------------------------------------------------------

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - self.clock()

    def tokens_left(self) -> int | None:
        return None if self.max_tokens is None else self.max_tokens - self.tokens

    def cost_left(self) -> float | None:
        return None if self.max_cost_usd is None else self.max_cost_usd - self.cost_usd

    # -- before a call --------------------------------------------------------------------

    def check(self) -> None:
        """Raise LimitReached if any limit is already spent (cancellation first)."""
        if self.cancelled():
            raise LimitReached("user_cancelled", "the run was cancelled")
        seconds = self.seconds_left()
        if seconds is not None and seconds <= 0:
            raise LimitReached("timeout", "the run's time budget is spent")
        tokens = self.tokens_left()
        if tokens is not None and tokens <= 0:
            raise LimitReached(
                "token_budget", f"{self.tokens} tokens used of the {self.max_tokens} allowed"
            )
        cost = self.cost_left()
        if cost is not None and cost <= 0:
            raise LimitReached(
                "cost_budget", f"${self.cost_usd:.4f} spent of the ${self.max_cost_usd:.4f} allowed"
            )

    def plan_call(self, config: ModelConfig, request: Mapping[str, Any]) -> CallPlan:
        """The timeout and output cap of the next HTTP attempt, or LimitReached."""
        self.check()
        timeout = config.timeout_s
        seconds = self.seconds_left()
        if seconds is not None:
            if seconds < MIN_CALL_S:
                raise LimitReached(
                    "timeout", f"{seconds:.2f}s left cannot cover another model call"
                )
            timeout = min(timeout, seconds)
        prompt = estimate_prompt_tokens(request)
        cap = config.max_output_tokens
        tokens = self.tokens_left()
        if tokens is not None:
            room = tokens - prompt
            if room < MIN_OUTPUT_TOKENS:
                raise LimitReached(
                    "token_budget",
                    f"the next call's prompt (~{prompt} tokens) and a reply do not fit the "
                    f"{tokens} tokens left",
                )
            cap = min(cap, room)
        cost = self.cost_left()
        if cost is not None:
            cap = min(cap, self._affordable_output(config, prompt, cost))
        return CallPlan(timeout_s=float(timeout), max_output_tokens=int(cap), prompt_tokens=prompt)

    @staticmethod
    def _affordable_output(config: ModelConfig, prompt: int, cost_left: float) -> int:
        prompt_cost = prompt / 1000 * config.input_price_per_1k
        per_output = config.output_price_per_1k / 1000
        room = cost_left - prompt_cost
        affordable = config.max_output_tokens if per_output <= 0 else int(room / per_output)
        if room <= 0 or affordable < MIN_OUTPUT_TOKENS:
            raise LimitReached(
                "cost_budget",
                f"the next call (~{prompt} prompt tokens) and a reply would cost more than "
                f"the ${cost_left:.4f} left",
            )
        return affordable

    def covers_wait(self, wait_s: float) -> bool:
        """Can the time left cover waiting `wait_s` and then a minimal call?"""
        seconds = self.seconds_left()
        return seconds is None or wait_s + MIN_CALL_S <= seconds

    def wait_refused(self, wait_s: float, why: str) -> LimitReached:
        seconds = self.seconds_left() or 0.0
        return LimitReached(
            "timeout",
            f"{why}: a retry in {wait_s:.2f}s cannot fit the {max(seconds, 0.0):.2f}s left",
        )

    # -- after a call ---------------------------------------------------------------------

    def charge(self, result: ChatResult) -> None:
        """Record a reply's usage; an overrun is charged up to the limit, then LimitReached."""
        tokens = max(0, result.usage.total_tokens)
        cost = max(0.0, result.cost_usd)
        tokens_left, cost_left = self.tokens_left(), self.cost_left()
        over_tokens = tokens_left is not None and tokens > tokens_left
        over_cost = cost_left is not None and cost > cost_left + 1e-12
        charged_tokens = min(tokens, max(tokens_left or 0, 0)) if over_tokens else tokens
        charged_cost = min(cost, max(cost_left or 0.0, 0.0)) if over_cost else cost
        self.tokens += charged_tokens
        self.cost_usd = round(self.cost_usd + charged_cost, 8)
        self.calls += 1
        if not (over_tokens or over_cost):
            return
        self.overruns.append(
            {
                "reported_tokens": tokens,
                "charged_tokens": charged_tokens,
                "reported_cost_usd": round(cost, 8),
                "charged_cost_usd": round(charged_cost, 8),
                "discarded_reply": redact_text(result.raw)[:_RAW_KEPT],
            }
        )
        if over_tokens:
            raise LimitReached(
                "token_budget",
                f"the server reported {tokens:,} tokens for one reply with {tokens_left:,} "
                "left; the reply was discarded and the run stops on its token budget",
            )
        raise LimitReached(
            "cost_budget",
            f"one reply cost ${cost:.4f} with ${cost_left or 0.0:.4f} left; the reply was "
            "discarded and the run stops on its cost budget",
        )
