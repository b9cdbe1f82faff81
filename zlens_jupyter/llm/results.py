"""What one model call returns: content, tool calls, token usage, cost and the audit trail."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


def estimate_tokens(text: str) -> int:
    """A rough token count (about four characters a token) for when no server count exists.

    Never tiktoken: it downloads its encodings on first use, and there is no network here.

    >>> estimate_tokens("12345678")
    2
    """
    return max(1, (len(text) + 3) // 4) if text else 0


@dataclass
class FailureRecord:
    """One failed attempt at the provider: what kind, the HTTP status, and how long we waited.

    kind: rate_limited | server_error | timeout | connection | auth | permission | not_found
          | context_overflow | bad_request | stream_interrupted | malformed_reply
    """

    kind: str
    status: int | None
    message: str
    waited_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Usage:
    """Tokens spent. `estimated` is True when the server reported nothing and we guessed."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        """Accumulate another call's usage into this running total."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.estimated = self.estimated or other.estimated

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total_tokens": self.total_tokens}


@dataclass
class ToolCall:
    """A tool the model asked for. `arguments_json` is kept verbatim; parsing happens later."""

    id: str
    name: str
    arguments_json: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_message(self) -> dict[str, Any]:
        """The OpenAI `tool_calls` entry that replays this call in a conversation."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments_json},
        }


@dataclass
class ChatResult:
    """One completed model call (after any retries)."""

    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    raw: str = ""
    attempts: list[FailureRecord] = field(default_factory=list)
    finish_reason: str | None = None
    model: str | None = None

    def to_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation for the next call."""
        # An empty reply still needs content: servers reject a bare assistant message.
        content = self.content if self.content is not None or self.tool_calls else ""
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_message() for call in self.tool_calls]
        return message

    def to_dict(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "tool_calls": [call.to_dict() for call in self.tool_calls],
            "usage": self.usage.to_dict(),
            "cost_usd": self.cost_usd,
            "raw": self.raw,
            "attempts": [a.to_dict() for a in self.attempts],
            "finish_reason": self.finish_reason,
            "model": self.model,
        }


def raw_output(content: str | None, tool_calls: list[ToolCall]) -> str:
    """The model's output exactly as received: the text, or JSON when it called tools."""
    if not tool_calls:
        return content or ""
    return json.dumps(
        {"content": content, "tool_calls": [call.to_dict() for call in tool_calls]},
        ensure_ascii=False,
    )
