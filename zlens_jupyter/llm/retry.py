"""Classified retries at the provider boundary (seed 002, "Retry policy").

A failed call is turned into a `FailureRecord` and one of three verdicts:

    429, 408, 409, 5xx, connection error, timeout -> retry with backoff (honouring Retry-After)
    a garbled 200 (truncated JSON, an HTML page, no `choices`) -> ask again, at most
        `max_malformed_retries` times, then MalformedReply (a ModelError: the step degrades)
    context too long (400 context_length_exceeded, 413) -> ContextOverflow, no retry
    401 / 403 / 404 / other 4xx -> ModelError, no retry (retrying cannot fix them)

With `limits` (the run's clock), a retry whose wait the time left cannot cover is not made:
LimitReached("timeout") instead, so no sleep runs past the deadline.

Every exception raised from here carries `.failures`: the records of every attempt.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import ContextOverflow, ModelError, TransientError
from .config import ModelConfig
from .limits import CallLimits
from .redact import redact_text
from .results import FailureRecord

T = TypeVar("T")

Sleep = Callable[[float], None]


TRANSIENT_KINDS = {"rate_limited", "server_error", "timeout", "connection", "stream_interrupted"}


class StreamInterrupted(Exception):
    """A streamed reply ended before the model finished (no finish reason, no usage chunk)."""


class ReplyTimeout(Exception):
    """The reply was still arriving when the call's time ran out (a dribbling server)."""


class GarbledReply(Exception):
    """A 200 whose body is not a chat completion: truncated or non-JSON, an HTML page, JSON
    without `choices`. The message says what arrived (redacted, short)."""


class MalformedReply(ModelError):
    """The endpoint kept answering 200 with something that is not a completion."""


_CONTEXT_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "context length",
    "context window",
    "too many tokens",
    "prompt is too long",
    "reduce the length",
)


def attach_failures(exc: BaseException, failures: list[FailureRecord]) -> BaseException:
    """Give an exception the `.failures` attribute every provider error carries."""
    exc.failures = list(failures)  # type: ignore[attr-defined]
    return exc


def failures_of(exc: BaseException) -> list[FailureRecord]:
    """The failure records attached to a provider exception (empty if none)."""
    found: list[FailureRecord] = getattr(exc, "failures", [])
    return found


def parse_retry_after(headers: Any, cap_s: float, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait: `retry-after-ms`, `Retry-After` seconds or HTTP date.

    Capped at `cap_s` so a hostile or confused server cannot park the run for an hour.

    >>> parse_retry_after({"retry-after": "2"}, cap_s=30)
    2.0
    >>> parse_retry_after({"retry-after": "3600"}, cap_s=30)
    30.0
    >>> parse_retry_after({}, cap_s=30) is None
    True
    """
    if headers is None:
        return None
    lowered = {str(k).lower(): str(v) for k, v in dict(headers).items()}
    seconds: float | None = None
    if "retry-after-ms" in lowered:
        try:
            seconds = float(lowered["retry-after-ms"]) / 1000
        except ValueError:
            seconds = None
    if seconds is None and "retry-after" in lowered:
        value = lowered["retry-after"].strip()
        try:
            seconds = float(value)
        except ValueError:
            try:
                parsed = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None  # neither seconds nor a date: ignore it, use our own backoff
            current = time.time() if now is None else now
            seconds = parsed.timestamp() - current
    if seconds is None:
        return None
    return float(min(max(seconds, 0.0), cap_s))


def backoff_with_jitter(retry: int, base_s: float, cap_s: float, rng: random.Random) -> float:
    """Full-jitter exponential backoff: uniform in [half, all] of min(cap, base * 2**retry)."""
    ceiling = min(cap_s, base_s * (2**retry))
    return ceiling * (0.5 + rng.random() / 2)


def _error_body_text(exc: Any) -> tuple[str, str]:
    """(code, message) from an OpenAI-style error body, tolerant of odd servers."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]
    code = str(body.get("code") or "") if isinstance(body, dict) else ""
    message = str(body.get("message") or "") if isinstance(body, dict) else ""
    return code, message or str(getattr(exc, "message", "") or exc)


def classify(exc: BaseException, config: ModelConfig) -> FailureRecord | None:
    """A FailureRecord for an openai exception, or None if `exc` is not a provider failure."""
    import openai

    if isinstance(exc, StreamInterrupted):
        return FailureRecord("stream_interrupted", None, str(exc))
    if isinstance(exc, GarbledReply):
        return FailureRecord("malformed_reply", 200, redact_text(str(exc)))
    if isinstance(exc, ReplyTimeout):
        return FailureRecord("timeout", None, str(exc))
    if isinstance(exc, openai.APITimeoutError):
        return FailureRecord("timeout", None, f"no reply within {config.timeout_s:g}s")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return FailureRecord("connection", None, redact_text(f"connection failed: {cause}"))
    if not isinstance(exc, openai.APIStatusError):
        return None
    status = exc.status_code
    code, message = _error_body_text(exc)
    message = redact_text(message)
    lowered = f"{code} {message}".lower()
    if status == 429:
        return FailureRecord("rate_limited", status, message or "rate limited")
    if status >= 500 or status in (408, 409):
        return FailureRecord("server_error", status, message or "server error")
    if status == 413 or (status == 400 and any(m in lowered for m in _CONTEXT_MARKERS)):
        return FailureRecord("context_overflow", status, message)
    if status == 401:
        return FailureRecord("auth", status, message)
    if status == 403:
        return FailureRecord("permission", status, message)
    if status == 404:
        return FailureRecord("not_found", status, message)
    return FailureRecord("bad_request", status, message)


def terminal_error(record: FailureRecord, config: ModelConfig) -> Exception:
    """The one clear exception for a failure that must not be retried."""
    where = config.base_url or "the OpenAI API"
    if record.kind == "context_overflow":
        return ContextOverflow(
            f"the prompt does not fit model {config.model!r}'s context ({record.message}); "
            "retry with a smaller grounding context"
        )
    if record.kind in ("auth", "permission"):
        verb = "rejected the credentials" if record.kind == "auth" else "denied access"
        return ModelError(
            f"{where} {verb} (HTTP {record.status}) for model {config.model!r}: "
            "check OPENAI_API_KEY and ZLENS_MODEL"
        )
    if record.kind == "not_found":
        return ModelError(
            f"model {config.model!r} was not found at {where} (HTTP 404): "
            "set ZLENS_MODEL to a model this endpoint serves"
        )
    return ModelError(
        f"model {config.model!r} rejected the request (HTTP {record.status}): {record.message}"
    )


def call_with_retries(
    call: Callable[[], T],
    config: ModelConfig,
    *,
    sleep: Sleep = time.sleep,
    rng: random.Random | None = None,
    failures: list[FailureRecord] | None = None,
    can_retry: Callable[[], bool] = lambda: True,
    limits: CallLimits | None = None,
) -> T:
    """Run `call`, retrying transient provider failures at most `config.max_retries` times
    and garbled replies at most `config.max_malformed_retries` times.

    Failures are appended to `failures` (pass a list to read them after success, too).
    `can_retry` lets a streaming caller refuse a retry once output has reached the user.
    `limits` refuses a retry whose wait the time left cannot cover (LimitReached).
    """
    rng = rng or random.Random()
    records = failures if failures is not None else []
    retry = 0
    garbled = 0
    while True:
        try:
            return call()
        except Exception as exc:
            record = classify(exc, config)
            if record is None:
                raise
            records.append(record)
            if record.kind == "malformed_reply":
                if garbled >= config.max_malformed_retries or not can_retry():
                    raise attach_failures(
                        MalformedReply(
                            f"model {config.model!r} sent a malformed reply "
                            f"{garbled + 1} time(s): {record.message}"
                        ),
                        records,
                    ) from exc
                garbled += 1  # the limited repair: the same request once more, no wait
                continue
            if record.kind not in TRANSIENT_KINDS:
                raise attach_failures(terminal_error(record, config), records) from exc
            if retry >= config.max_retries or not can_retry():
                attempts = len(records)
                raise attach_failures(
                    TransientError(
                        f"model {config.model!r} is unavailable after {attempts} attempt(s): "
                        f"{record.kind} ({record.message}); try again shortly"
                    ),
                    records,
                ) from exc
            headers = getattr(getattr(exc, "response", None), "headers", None)
            asked = parse_retry_after(headers, config.retry_after_cap_s)
            wait = backoff_with_jitter(retry, config.backoff_base_s, config.backoff_cap_s, rng)
            if asked is not None:
                # Honour the server's number; jitter only ever adds to it.
                wait = asked + rng.random() * min(0.1 * asked, 0.5)
            if limits is not None and not limits.covers_wait(wait):
                why = f"model {config.model!r}: {record.kind} ({record.message})"
                raise attach_failures(limits.wait_refused(wait, why), records) from exc
            record.waited_s = round(wait, 4)
            sleep(wait)
            retry += 1
