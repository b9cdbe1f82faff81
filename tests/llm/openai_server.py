"""A real HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions protocol.

Each test scripts it with a FIFO of replies (`Reply`, `ErrorReply`, and the fault modes
`RawReply` and `Hang`); every request it receives is recorded, so tests assert both what the
client did and what it sent. `always(reply)` sets what every request gets once the script is
spent (a 429 forever, a hang forever); without it an exhausted script answers 500. Replies
are rendered as plain JSON or, when the request asks for `stream: true`, as server-sent events
(`data: {...}` chunks, usage in the last chunk, then `data: [DONE]`), so one script serves
both modes. Reusable by any test that needs a model endpoint:

    with FakeOpenAIServer() as server:
        server.script(Reply("hello"))
        ChatProvider(ModelConfig(model="m", base_url=server.base_url)).complete(...)
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """A successful completion: text and/or tool calls, with the usage the server reports.

    tool_calls: (name, arguments) pairs; arguments may be a dict or a raw (even broken) string.
    usage: (prompt_tokens, completion_tokens), or None to report no usage at all.
    chunks: how to split `content` when streamed (default: into words).
    """

    content: str | None = None
    tool_calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    usage: tuple[int, int] | None = (12, 7)
    chunks: list[str] | None = None
    delay_s: float = 0.0
    cut_after: int | None = None  # streaming only: drop the connection after this many chunks

    def arguments(self) -> list[tuple[str, str, str]]:
        """(id, name, arguments_json) for each tool call."""
        out = []
        for i, (name, args) in enumerate(self.tool_calls):
            text = args if isinstance(args, str) else json.dumps(args)
            out.append((f"call_{i}_{name}", name, text))
        return out


@dataclass
class ErrorReply:
    """An HTTP error with an OpenAI-style body: {"error": {"message", "type", "code"}}."""

    status: int
    message: str
    code: str | None = None
    type: str = "invalid_request_error"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class RawReply:
    """A reply sent verbatim, whatever the request asked for: a garbled 200 (truncated JSON, an
    HTML gateway page, a JSON body without `choices`) or a body under the wrong content type.

    trickle_s: pause between 16-byte pieces of the body (a server that dribbles its reply).
    """

    body: str
    status: int = 200
    content_type: str = "application/json"
    delay_s: float = 0.0
    trickle_s: float = 0.0


@dataclass
class Hang:
    """Read the request and never answer (until the server is reset or closed)."""

    delay_s: float = 0.0


Scripted = Reply | ErrorReply | RawReply | Hang


def tool_call(name: str, arguments: dict[str, Any] | str | None = None, **kw: Any) -> Reply:
    """A reply in which the model calls one tool."""
    return Reply(tool_calls=[(name, arguments if arguments is not None else kw)])


def final_answer(sql: str | None, answer: str, plan: dict[str, Any] | None = None) -> Reply:
    """A reply in which the model calls the `final_answer` tool (None fields are left out)."""
    arguments = {"query_plan": plan, "sql": sql, "answer": answer}
    return tool_call("final_answer", {k: v for k, v in arguments.items() if v is not None})


def rate_limited(retry_after: str) -> ErrorReply:
    return ErrorReply(
        429, "Rate limit reached", "rate_limit_exceeded", "requests", {"Retry-After": retry_after}
    )


def server_error() -> ErrorReply:
    return ErrorReply(500, "The server had an error processing your request", None, "server_error")


def unauthorized() -> ErrorReply:
    return ErrorReply(401, "Incorrect API key provided", "invalid_api_key")


def context_overflow() -> ErrorReply:
    return ErrorReply(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted "
        "in 9000 tokens. Please reduce the length of the messages.",
        "context_length_exceeded",
    )


def model_not_found(model: str) -> ErrorReply:
    return ErrorReply(404, f"The model `{model}` does not exist", "model_not_found")


# -- fault modes ---------------------------------------------------------------------------


def hang() -> Hang:
    return Hang()


def slow(reply: Reply, seconds: float) -> Reply:
    """The same reply, after `seconds`."""
    return replace(reply, delay_s=seconds)


def huge_usage(reply: Reply, tokens: int = 240_000) -> Reply:
    """The same reply, claiming `tokens` tokens of usage (5/6 prompt, 1/6 completion)."""
    completion = tokens // 6
    return replace(reply, usage=(tokens - completion, completion))


def completion_json(reply: Reply, model: str = "fake-model") -> str:
    """The JSON body of a well-formed completion for `reply`."""
    return json.dumps(_completion(reply, model))


def truncated_json(reply: Reply | None = None) -> RawReply:
    """A completion cut off halfway, sent as application/json with status 200."""
    body = completion_json(reply or Reply("There were 32,457 orders on the web."))
    return RawReply(body[: len(body) // 2])


def html_page() -> RawReply:
    """What a proxy or gateway in front of the model returns when the model is not there."""
    body = (
        "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>"
        "<h1>Bad Gateway</h1><p>The upstream server is temporarily unavailable.</p>"
        "</body></html>"
    )
    return RawReply(body, content_type="text/html; charset=utf-8")


def not_json() -> RawReply:
    """A plain-text 200: not JSON at all."""
    return RawReply("OK", content_type="text/plain")


def no_choices() -> RawReply:
    """JSON that is not a completion: an object without `choices`."""
    return RawReply(json.dumps({"id": "chatcmpl-x", "object": "chat.completion", "model": "m"}))


def wrong_content_type(reply: Reply) -> RawReply:
    """A well-formed completion labelled text/html (some proxies rewrite the header)."""
    return RawReply(completion_json(reply), content_type="text/html")


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw_body: str

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.body.get("messages", [])
        return messages


class FakeOpenAIServer:
    """ThreadingHTTPServer on an ephemeral loopback port, in a daemon thread."""

    def __init__(self, model: str = "fake-model") -> None:
        self.model = model
        self.replies: deque[Scripted] = deque()
        self.default: Scripted | None = None
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._release = threading.Event()  # set to free the handlers a Hang holds
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # a slow reply must not hold up teardown
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *replies: Scripted) -> FakeOpenAIServer:
        """Queue replies; each request takes the next one."""
        with self._lock:
            self.replies.extend(replies)
        return self

    def always(self, reply: Scripted | None) -> FakeOpenAIServer:
        """What every request gets once the script is spent (None: a 500 saying so)."""
        with self._lock:
            self.default = reply
        return self

    def reset(self) -> FakeOpenAIServer:
        """Forget the script, the default and the recorded requests; free hung handlers."""
        with self._lock:
            self.replies.clear()
            self.default = None
            self.requests = []
            self._release.set()
            self._release = threading.Event()
        return self

    @property
    def pending(self) -> int:
        return len(self.replies)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        self._release.set()
        if self._thread.is_alive():  # shutdown() would wait forever for a loop never started
            self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- used by the handler -------------------------------------------------------------

    def _take(self, request: RecordedRequest) -> tuple[Scripted, threading.Event]:
        with self._lock:
            self.requests.append(request)
            if self.replies:
                return self.replies.popleft(), self._release
            if self.default is not None:
                return self.default, self._release
            return ErrorReply(500, "FakeOpenAIServer: script exhausted", type="test_error"), (
                self._release
            )

    def _pause(self, seconds: float) -> None:
        if seconds > 0:
            self._closing.wait(seconds)


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8")
            try:
                body = json.loads(raw) if raw else {}
            except json.JSONDecodeError:
                body = {}
            recorded = RecordedRequest(self.path, dict(self.headers.items()), body, raw)
            reply, release = server._take(recorded)
            server._pause(reply.delay_s)
            try:
                if isinstance(reply, Hang):
                    release.wait(120)  # until reset/close; the client gives up long before
                    return
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                elif isinstance(reply, RawReply):
                    self._send_raw(reply)
                elif isinstance(reply, ErrorReply):
                    error = {"message": reply.message, "type": reply.type, "code": reply.code}
                    self._send_json(reply.status, {"error": error}, reply.headers)
                elif body.get("stream"):
                    self._send_stream(reply, body)
                else:
                    self._send_json(200, _completion(reply, server.model))
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to do

        def _send_json(
            self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
        ) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _send_raw(self, reply: RawReply) -> None:
            data = reply.body.encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if reply.trickle_s <= 0:
                self.wfile.write(data)
                return
            for start in range(0, len(data), 16):
                self.wfile.write(data[start : start + 16])
                self.wfile.flush()
                server._pause(reply.trickle_s)

        def _send_stream(self, reply: Reply, body: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            for sent, chunk in enumerate(_chunks(reply, server.model, include_usage)):
                if reply.cut_after is not None and sent >= reply.cut_after:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)  # a dropped connection, mid-stream
                    return
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler


def _usage(reply: Reply) -> dict[str, int] | None:
    if reply.usage is None:
        return None
    prompt, completion = reply.usage
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _completion(reply: Reply, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
            for cid, name, args in reply.arguments()
        ]
    payload: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }
        ],
    }
    usage = _usage(reply)
    if usage is not None:
        payload["usage"] = usage
    return payload


def _chunks(reply: Reply, model: str, include_usage: bool) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    out = [chunk({"role": "assistant", "content": ""})]
    if reply.content:
        pieces = reply.chunks or [w + " " for w in reply.content.split(" ")[:-1]] + [
            reply.content.split(" ")[-1]
        ]
        out.extend(chunk({"content": piece}) for piece in pieces if piece)
    for index, (cid, name, args) in enumerate(reply.arguments()):
        head = {"index": index, "id": cid, "type": "function"}
        out.append(chunk({"tool_calls": [{**head, "function": {"name": name, "arguments": ""}}]}))
        middle = len(args) // 2  # arguments arrive in two fragments, as real servers split them
        for part in (args[:middle], args[middle:]):
            out.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": part}}]}))
    out.append(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
    usage = _usage(reply)
    if include_usage and usage is not None:
        out.append(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [],
                "usage": usage,
            }
        )
    return out
