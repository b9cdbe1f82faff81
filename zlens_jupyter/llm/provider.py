"""`ChatProvider`: one OpenAI-compatible chat endpoint behind the official `openai` client.

The client's own retries are switched off (`max_retries=0`): retries happen here, classified
(see `retry.py`), so every failure is recorded and the caller sees one clear error.

With `limits` (see `limits.py`) every HTTP attempt gets a timeout within the time left and
an output-token cap within the tokens left, retries stop when the time left cannot cover
them, and every reply is charged; a reply reporting more than was left is discarded.

Plain (non-streamed) replies are read by this module, not parsed by the client, so a reply
that is still dribbling in when its time is up is cut off, and a garbled 200 (truncated
JSON, an HTML gateway page, a body without `choices`) is classified `malformed_reply`
instead of surfacing as an AttributeError or a JSONDecodeError.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ModelError
from .config import ModelConfig
from .limits import CallLimits
from .redact import redact_text, register_secret
from .results import ChatResult, FailureRecord, ToolCall, Usage, estimate_tokens, raw_output
from .retry import (
    GarbledReply,
    ReplyTimeout,
    Sleep,
    StreamInterrupted,
    call_with_retries,
    failures_of,
)

if TYPE_CHECKING:
    import openai

OnDelta = Callable[[str], None]

# Local servers (Ollama, vLLM) need no key, but the openai client insists on one.
_NO_KEY = "not-needed"
MAX_REPLY_BYTES = 8 * 1024 * 1024  # a reply larger than this is not a chat completion
_CAP_PARAMS = ("max_tokens", "max_completion_tokens")


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
        limits: CallLimits | None = None,
    ) -> None:
        import openai  # imported here so an offline session never pays for it

        self.config = config
        self.limits = limits
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._cap_param = config.cap_param
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
        try:
            return self._complete(request, stream, on_delta)
        except ModelError as exc:
            other = self._other_cap_param(exc)
            if other is None:
                raise
            self._cap_param = other  # the server named the field it wants: use that one
            return self._complete(request, stream, on_delta)

    def _complete(
        self, request: dict[str, Any], stream: bool, on_delta: OnDelta | None
    ) -> ChatResult:
        failures: list[FailureRecord] = []
        delivered = [False]  # once text reached on_delta, a retry would repeat it
        limits = self.limits

        def attempt() -> ChatResult:
            timeout = self.config.timeout_s
            cap = self.config.max_output_tokens
            if limits is not None:
                plan = limits.plan_call(self.config, request)
                timeout, cap = plan.timeout_s, plan.max_output_tokens
            sent = {**request, self._cap_param: cap}
            ends = time.monotonic() + timeout  # the whole reply must be in by then
            if stream:
                return self._stream_once(sent, on_delta, delivered, timeout, ends)
            return self._complete_once(sent, timeout, ends)

        result = call_with_retries(
            attempt,
            self.config,
            sleep=self._sleep,
            rng=self._rng,
            failures=failures,
            can_retry=lambda: not delivered[0],
            limits=limits,
        )
        result.attempts = failures
        if result.usage.total_tokens == 0:
            result.usage = _estimated_usage(request, result)
        result.cost_usd = self.config.cost_usd(
            result.usage.prompt_tokens, result.usage.completion_tokens
        )
        if limits is not None:
            try:
                limits.charge(result)  # an overrun raises: the reply is never returned
            except Exception as exc:
                exc.failures = failures  # type: ignore[attr-defined]
                raise
        return result

    def _other_cap_param(self, exc: ModelError) -> str | None:
        """The other output-cap field, if the server rejected the one we sent by name."""
        failures = failures_of(exc)
        if not failures or failures[-1].kind != "bad_request":
            return None
        message = failures[-1].message.lower()
        sent = self._cap_param
        other = _CAP_PARAMS[1] if sent == _CAP_PARAMS[0] else _CAP_PARAMS[0]
        if self.config.output_cap_param is None and (sent in message or other in message):
            return other
        return None

    def _complete_once(self, request: dict[str, Any], timeout: float, ends: float) -> ChatResult:
        raw = self._client.chat.completions.with_streaming_response.create(
            **request, timeout=timeout
        )
        with raw as response:
            content_type = response.headers.get("content-type", "")
            body = _read_until(response.iter_bytes(), ends)
        return parse_completion(body, content_type)

    def _stream_once(
        self,
        request: dict[str, Any],
        on_delta: OnDelta | None,
        delivered: list[bool],
        timeout: float,
        ends: float,
    ) -> ChatResult:
        stream = self._client.chat.completions.create(
            **request, stream=True, stream_options={"include_usage": True}, timeout=timeout
        )
        content_type = stream.response.headers.get("content-type", "")
        if "event-stream" not in content_type:
            # Not a stream: a server that ignores `stream`, or a gateway page. Read it whole.
            with stream:
                body = _read_until(stream.response.iter_bytes(), ends)
            result = parse_completion(body, content_type)
            if result.content and on_delta is not None:
                delivered[0] = True
                on_delta(result.content)
            return result
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage = Usage()
        finish_reason: str | None = None
        model: str | None = None
        with stream:
            try:
                for chunk in stream:
                    if time.monotonic() > ends:
                        raise ReplyTimeout("the streamed reply outlived the time left")
                    model = chunk.model or model
                    if chunk.usage is not None:
                        usage = _reported_usage(chunk.usage)
                    for choice in chunk.choices or []:
                        finish_reason = choice.finish_reason or finish_reason
                        delta = choice.delta
                        if delta.content:
                            text.append(delta.content)
                            if on_delta is not None:
                                delivered[0] = True
                                on_delta(delta.content)
                        for fragment in delta.tool_calls or []:
                            _merge_tool_call_fragment(calls, fragment)
            except (ValueError, TypeError, AttributeError, KeyError) as exc:
                # json.JSONDecodeError is a ValueError: a chunk that is not a completion chunk
                raise GarbledReply(f"a streamed chunk was not a completion chunk: {exc}") from exc
            except _transport_errors()[0] as exc:
                raise ReplyTimeout(f"the stream stopped arriving: {type(exc).__name__}") from exc
            except _transport_errors()[1] as exc:
                raise StreamInterrupted(f"the stream broke: {type(exc).__name__}") from exc
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


def _transport_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(timeouts, other transport errors) of the HTTP library under the openai client."""
    try:
        import httpx2 as http
    except ImportError:  # pragma: no cover - older openai releases use httpx
        import httpx as http  # type: ignore[no-redef]
    return (http.TimeoutException,), (http.TransportError,)


def _read_until(chunks: Iterator[bytes], ends: float) -> bytes:
    """The whole body, unless it is still arriving at `ends` or grows past MAX_REPLY_BYTES."""
    timeouts, transport = _transport_errors()
    body = bytearray()
    try:
        for chunk in chunks:
            body += chunk
            if len(body) > MAX_REPLY_BYTES:
                raise GarbledReply(f"the reply is larger than {MAX_REPLY_BYTES:,} bytes")
            if time.monotonic() > ends:
                raise ReplyTimeout("the reply was still arriving when the time left ran out")
    except timeouts as exc:
        raise ReplyTimeout(f"the reply stopped arriving: {type(exc).__name__}") from exc
    except transport as exc:
        raise StreamInterrupted(f"the connection broke mid-reply: {type(exc).__name__}") from exc
    return bytes(body)


def _describe_body(body: bytes, content_type: str) -> str:
    """What a garbled body looks like, in a few words: for the trace, never the whole page."""
    text = body.decode("utf-8", errors="replace").strip()
    kind = (content_type.split(";")[0].strip() or "no content type").lower()
    snippet = redact_text(" ".join(text[:80].split()))
    if not text:
        return f"an empty body ({kind})"
    if "html" in kind or text.lower().startswith(("<!doctype", "<html")):
        return f"an HTML page ({kind}) starting {snippet!r}"
    return f"{len(body):,} bytes ({kind}) starting {snippet!r}"


def parse_completion(body: bytes, content_type: str = "application/json") -> ChatResult:
    """A ChatResult from the body of a non-streamed reply; GarbledReply if it is not one.

    Tolerant where it costs nothing (a completion under the wrong content type is read),
    strict where it matters: the body must be one JSON object with a non-empty `choices`.
    """
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        looks = "truncated JSON" if body.lstrip()[:1] in (b"{", b"[") else "not JSON"
        raise GarbledReply(f"{looks}: {_describe_body(body, content_type)}") from None
    if not isinstance(data, dict):
        raise GarbledReply(f"JSON that is not an object: {_describe_body(body, content_type)}")
    if isinstance(data.get("error"), dict | str) and not data.get("choices"):
        message = data["error"].get("message") if isinstance(data["error"], dict) else data["error"]
        raise GarbledReply(f"an error inside a 200: {redact_text(str(message))[:200]}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise GarbledReply(f"JSON without choices: {_describe_body(body, content_type)}")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise GarbledReply("the first choice has no message")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise GarbledReply(f"the message content is a {type(content).__name__}, not text")
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise GarbledReply("tool_calls is not a list")
    calls = [_tool_call_from_json(i, call) for i, call in enumerate(raw_calls)]
    finish = choice.get("finish_reason")
    model = data.get("model")
    return ChatResult(
        content=content,
        tool_calls=calls,
        usage=_usage_from_json(data.get("usage")),
        raw=raw_output(content, calls),
        finish_reason=finish if isinstance(finish, str) else None,
        model=model if isinstance(model, str) else None,
    )


def _tool_call_from_json(index: int, call: Any) -> ToolCall:
    """A ToolCall from a JSON entry (custom tool calls have no `function`; odd servers send
    arguments as an object): kept verbatim, validated later by the tool loop."""
    if not isinstance(call, dict):
        raise GarbledReply(f"tool call {index} is not an object")
    found = call.get("function")
    function: dict[str, Any] = found if isinstance(found, dict) else {}
    arguments = function.get("arguments", "")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    return ToolCall(
        id=str(call.get("id") or f"call_{index}"),
        name=str(function.get("name") or ""),
        arguments_json=arguments,
    )


def _usage_from_json(usage: Any) -> Usage:
    if not isinstance(usage, dict):
        return Usage()

    def count(key: str) -> int:
        value = usage.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return 0
        return max(0, int(value))

    return Usage(prompt_tokens=count("prompt_tokens"), completion_tokens=count("completion_tokens"))


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
