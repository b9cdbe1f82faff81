"""The loopback OpenAI-compatible server and the network guard, for any test area.

Re-exports `tests/llm/openai_server.py` and `tests/llm/llm_testkit.py` (one implementation),
plus `install_network_guard`, the body of an autouse fixture that fails a test which tries to
reach anything but loopback.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

import pytest

_LLM_TESTS = str(Path(__file__).resolve().parents[1] / "llm")
if _LLM_TESTS not in sys.path:
    sys.path.insert(0, _LLM_TESTS)

from llm_testkit import TEST_KEY, NetworkGuard, SleepRecorder  # noqa: E402
from openai_server import (  # noqa: E402
    ErrorReply,
    FakeOpenAIServer,
    RecordedRequest,
    Reply,
    context_overflow,
    final_answer,
    model_not_found,
    rate_limited,
    server_error,
    tool_call,
    unauthorized,
)


def install_network_guard(monkeypatch: pytest.MonkeyPatch) -> NetworkGuard:
    """Patch socket connects and name lookups so only loopback can be reached."""
    guard = NetworkGuard()
    real_connect = socket.socket.connect
    real_create = socket.create_connection
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> Any:
        guard.check(address)
        return real_connect(self, address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        guard.check(address)
        return real_create(address, *args, **kwargs)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        guard.check((host.decode() if isinstance(host, bytes) else host, 0))
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return guard


__all__ = [
    "TEST_KEY",
    "ErrorReply",
    "FakeOpenAIServer",
    "NetworkGuard",
    "RecordedRequest",
    "Reply",
    "SleepRecorder",
    "context_overflow",
    "final_answer",
    "install_network_guard",
    "model_not_found",
    "rate_limited",
    "server_error",
    "tool_call",
    "unauthorized",
]
