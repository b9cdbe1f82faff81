"""`ChatProvider`: one OpenAI-compatible chat endpoint behind the official `openai` client.

The client's own retries are switched off (`max_retries=0`): retries happen here, classified
(see `retry.py`), so every failure is recorded and the caller sees one clear error.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .config import ModelConfig
from .redact import register_secret
from .results import ChatResult, ToolCall, Usage, estimate_tokens, raw_output
from .retry import FailureRecord, Sleep, StreamInterrupted, call_with_retries

if TYPE_CHECKING:
    import openai

OnDelta = Callable[[str], None]

# Local servers (Ollama, vLLM) need no key, but the openai client insists on one.
_NO_KEY = "not-needed"


class ChatProvider:
    """Calls one chat model. Thread-compatible: create one per session, reuse across runs.

    >>> provider = ChatProvider(ModelConfig(model="m", base_url="http://127.0.0.1:9/v1"))
    >>> provider.config.model
    'm'
    """

    def __init__(
        self,
        config: ModelConfig,
        *,
        sleep: Sleep = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        import openai  # imported here so an offline session never pays for it

        self.config = config
        self._sleep = sleep
        self._rng = rng or random.Random()
        register_secret(config.api_key)
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or _NO_KEY,
            max_retries=0,
            timeout=config.timeout_s,
        )
        # Learned at run time: flips to False the first time the server rejects json_schema.
        self.supports_json_schema = config.supports_json_schema

    def __repr__(self) -> str:
        return f"ChatProvider({self.config!r})"

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
        """One chat completion, retried on transient failures.

        With `stream=True`, `on_delta(text)` is called for each content chunk as it arrives
        and tool-call fragments are assembled. Raises TransientError, ContextOverflow or
        ModelError (each with `.failures`).
        """
        request: dict[str, Any] = {"model": self.config.model, "messages": list(messages)}
        if tools:
            request["tools"] = list(tools)
        if response_format is not None:
            request["response_format"] = response_format
        if temperature is not None:
            request["temperature"] = temperature
        failures: list[FailureRecord] = []
        delivered = [False]  # once text reached on_delta, a retry would repeat it

        def attempt() -> ChatResult:
            if stream:
                return self._stream_once(request, on_delta, delivered)
            return self._complete_once(request)

        result = call_with_retries(
            attempt,
            self.config,
            sleep=self._sleep,
            rng=self._rng,
            failures=failures,
            can_retry=lambda: not delivered[0],
        )
        result.attempts = failures
        if result.usage.total_tokens == 0:
            result.usage = _estimated_usage(request, result)
        result.cost_usd = self.config.cost_usd(
            result.usage.prompt_tokens, result.usage.completion_tokens
        )
        return result

    def _complete_once(self, request: dict[str, Any]) -> ChatResult:
        response = self._client.chat.completions.create(**request)
        choice = response.choices[0] if response.choices else None
        message = choice.message if choice else None
        content = message.content if message else None
        calls = [_tool_call(call) for call in (message.tool_calls or [])] if message else []
        return ChatResult(
            content=content,
            tool_calls=calls,
            usage=_reported_usage(response.usage),
            raw=raw_output(content, calls),
            finish_reason=choice.finish_reason if choice else None,
            model=response.model,
        )

    def _stream_once(
        self, request: dict[str, Any], on_delta: OnDelta | None, delivered: list[bool]
    ) -> ChatResult:
        stream = self._client.chat.completions.create(
            **request, stream=True, stream_options={"include_usage": True}
        )
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage = Usage()
        finish_reason: str | None = None
        model: str | None = None
        with stream:
            for chunk in stream:
                model = chunk.model or model
                if chunk.usage is not None:
                    usage = _reported_usage(chunk.usage)
                for choice in chunk.choices:
                    finish_reason = choice.finish_reason or finish_reason
                    delta = choice.delta
                    if delta.content:
                        text.append(delta.content)
                        if on_delta is not None:
                            delivered[0] = True
                            on_delta(delta.content)
                    for fragment in delta.tool_calls or []:
                        _merge_tool_call_fragment(calls, fragment)
        if finish_reason is None and usage.total_tokens == 0:
            # The connection closed early: what arrived is a fragment, not the model's reply.
            raise StreamInterrupted(f"the stream ended after {len(text)} chunk(s), unfinished")
        content = "".join(text) if text else None
        tool_calls = [
            ToolCall(id=c["id"] or f"call_{i}", name=c["name"], arguments_json=c["arguments"])
            for i, c in sorted(calls.items())
        ]
        return ChatResult(
            content=content,
            tool_calls=tool_calls,
            usage=usage,
            raw=raw_output(content, tool_calls),
            finish_reason=finish_reason,
            model=model,
        )


def _tool_call(call: Any) -> ToolCall:
    """A ToolCall from a non-streamed message entry (custom tool calls have no `function`)."""
    function = getattr(call, "function", None)
    return ToolCall(
        id=call.id,
        name=(function.name if function else None) or "",
        arguments_json=(function.arguments if function else None) or "",
    )


def _merge_tool_call_fragment(calls: dict[int, dict[str, str]], fragment: Any) -> None:
    """Streamed tool calls arrive as pieces keyed by index: id and name once, arguments in parts."""
    entry = calls.setdefault(fragment.index, {"id": "", "name": "", "arguments": ""})
    if fragment.id:
        entry["id"] = fragment.id
    function = fragment.function
    if function is not None:
        if function.name:
            entry["name"] += function.name
        if function.arguments:
            entry["arguments"] += function.arguments


def _reported_usage(usage: openai.types.CompletionUsage | None) -> Usage:
    if usage is None:
        return Usage()
    return Usage(
        prompt_tokens=int(usage.prompt_tokens or 0),
        completion_tokens=int(usage.completion_tokens or 0),
    )


def _estimated_usage(request: dict[str, Any], result: ChatResult) -> Usage:
    sent = json.dumps(request.get("messages", []), ensure_ascii=False, default=str)
    if request.get("tools"):
        sent += json.dumps(request["tools"], ensure_ascii=False)
    received = (result.content or "") + "".join(c.arguments_json for c in result.tool_calls)
    return Usage(
        prompt_tokens=estimate_tokens(sent),
        completion_tokens=estimate_tokens(received),
        estimated=True,
    )
