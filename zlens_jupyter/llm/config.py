"""Model configuration: which endpoint, which model, what it costs, how hard to retry.

Offline is the default: `ModelConfig.from_env()` returns None unless an API key or a base URL
is configured, and nothing in this package opens a socket without a `ModelConfig`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

DEFAULT_MODEL = "gpt-4o-mini"

# USD per 1,000 tokens (input, output), matched by the longest model-name prefix.
# Local servers (Ollama, vLLM, LM Studio) are not listed and so cost 0.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.00015, 0.0006),
    "gpt-4o": (0.0025, 0.01),
    "gpt-4.1-nano": (0.0001, 0.0004),
    "gpt-4.1-mini": (0.0004, 0.0016),
    "gpt-4.1": (0.002, 0.008),
    "o4-mini": (0.0011, 0.0044),
    "o3-mini": (0.0011, 0.0044),
    "o3": (0.002, 0.008),
}


def price_for(
    model: str, prices: Mapping[str, tuple[float, float]] | None = None
) -> tuple[float, float]:
    """(input, output) USD per 1k tokens for `model`; (0, 0) when no prefix matches.

    >>> price_for("gpt-4o-mini-2024-07-18")
    (0.00015, 0.0006)
    >>> price_for("llama3.2")
    (0.0, 0.0)
    """
    table = DEFAULT_PRICES if prices is None else prices
    matches = [prefix for prefix in table if model.startswith(prefix)]
    if not matches:
        return (0.0, 0.0)
    return table[max(matches, key=len)]


@dataclass(frozen=True)
class ModelConfig:
    """How to reach one OpenAI-compatible chat model.

    Prices left as None come from the price table (`prices`, default `DEFAULT_PRICES`).
    `supports_json_schema=None` means "unknown": structured output is tried once and the
    provider falls back to prompt-and-parse if the server rejects it.
    """

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 30.0
    max_retries: int = 3
    price_per_1k_input_usd: float | None = None
    price_per_1k_output_usd: float | None = None
    supports_json_schema: bool | None = None
    prices: Mapping[str, tuple[float, float]] = field(
        default_factory=lambda: dict(DEFAULT_PRICES), repr=False
    )
    backoff_base_s: float = 0.5
    backoff_cap_s: float = 8.0
    retry_after_cap_s: float = 30.0
    # Opt-in (DESIGN §3): a model plan costs one more call per question routed to
    # generated_answer or research, and most questions need one step anyway.
    plan_steps: bool = False
    # Every request carries an output cap: this, or less when the run has fewer tokens left.
    max_output_tokens: int = 4096
    # "max_tokens" | "max_completion_tokens"; None: the OpenAI API gets max_completion_tokens,
    # other servers max_tokens (the one Ollama, vLLM, LM Studio and llama.cpp all read).
    # A server that rejects the one sent gets the other.
    output_cap_param: str | None = None
    # A garbled 200 (truncated JSON, an HTML page, no `choices`) is asked again this often.
    max_malformed_retries: int = 1

    @property
    def cap_param(self) -> str:
        """The request field that carries the output-token cap."""
        if self.output_cap_param:
            return self.output_cap_param
        official = self.base_url is None or "api.openai.com" in self.base_url
        return "max_completion_tokens" if official else "max_tokens"

    def __repr__(self) -> str:
        key = "set" if self.api_key else "unset"
        return (
            f"ModelConfig(model={self.model!r}, base_url={self.base_url!r}, api_key=<{key}>, "
            f"timeout_s={self.timeout_s}, max_retries={self.max_retries})"
        )

    @property
    def input_price_per_1k(self) -> float:
        if self.price_per_1k_input_usd is not None:
            return self.price_per_1k_input_usd
        return price_for(self.model, self.prices)[0]

    @property
    def output_price_per_1k(self) -> float:
        if self.price_per_1k_output_usd is not None:
            return self.price_per_1k_output_usd
        return price_for(self.model, self.prices)[1]

    def cost_usd(self, prompt_tokens: int, completion_tokens: int) -> float:
        """What a call with these token counts costs under this config's prices."""
        cost = (
            prompt_tokens / 1000 * self.input_price_per_1k
            + completion_tokens / 1000 * self.output_price_per_1k
        )
        return round(cost, 8)

    def with_overrides(self, **overrides: Any) -> ModelConfig:
        """A copy with the given non-None fields replaced."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    @classmethod
    def from_env(cls, **overrides: Any) -> ModelConfig | None:
        """Read OPENAI_API_KEY, OPENAI_BASE_URL, ZLENS_MODEL and ZLENS_MODEL_PLANNER (1 to let
        the model split questions into steps); None means offline.

        Overrides win over the environment (None values are ignored). A base URL without a
        key is valid: local servers such as Ollama need no key.
        """
        api_key = overrides.pop("api_key", None) or os.environ.get("OPENAI_API_KEY") or None
        base_url = overrides.pop("base_url", None) or os.environ.get("OPENAI_BASE_URL") or None
        if not api_key and not base_url:
            return None
        model = overrides.pop("model", None) or os.environ.get("ZLENS_MODEL") or DEFAULT_MODEL
        planner = os.environ.get("ZLENS_MODEL_PLANNER", "").strip().lower()
        config = cls(
            model=model,
            base_url=base_url,
            api_key=api_key,
            plan_steps=planner in ("1", "true", "yes", "on"),
        )
        return config.with_overrides(**overrides)
