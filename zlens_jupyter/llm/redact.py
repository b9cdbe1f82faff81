"""Scrub secrets from anything before it is persisted, printed or emitted as an event.

The configured API key is registered when a provider is built, so every later call to
`redact_secrets` removes it even where it appears inside free text (an error message that
echoes a header, a model that repeats its prompt).
"""

from __future__ import annotations

import base64
import functools
import re
import threading
from collections.abc import Iterable
from typing import Any

REDACTED = "***redacted***"

_registered: set[str] = set()
_lock = threading.Lock()

# Keys whose values are secrets whatever they look like.
_SECRET_KEYS = {
    "authorization",
    "proxy-authorization",
    "api_key",
    "api-key",
    "apikey",
    "x-api-key",
    "openai_api_key",
    "password",
    "secret",
    "access_token",
    "refresh_token",
}

_PATTERNS = [
    # OpenAI-style keys: sk-..., sk-proj-..., sk-svcacct-...
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"), "sk-" + REDACTED),
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{8,}"), r"\1 " + REDACTED),
    (re.compile(r"(?i)(authorization\s*[:=]\s*)[^\s,;'\"}]+"), r"\1" + REDACTED),
    # Credentials embedded in URLs: scheme://user:password@host
    (re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s:@]+:[^/\s@]+@"), r"\1" + REDACTED + "@"),
]

_MIN_SECRET_LENGTH = 6  # shorter values would scrub ordinary words


_MIN_FUZZY_LENGTH = 10  # transformed forms only for key-like secrets (no ordinary words)
_SEPARATORS = r"[\s\-_.,:;|/\\*'\"`·]{0,3}"  # what an echo may put between characters


@functools.lru_cache(maxsize=64)
def _echo_patterns(secret: str) -> tuple[re.Pattern[str], ...]:
    """Patterns for transformed echoes of `secret`: any letter case, up to three separator
    characters (spaces, dashes, dots, quotes...) between its characters, reversed, and its
    base64 (standard or URL-safe, at any byte alignment inside a longer base64 text)."""
    if len(secret) < _MIN_FUZZY_LENGTH:
        return ()
    patterns = [
        re.compile(_SEPARATORS.join(re.escape(c) for c in form), re.IGNORECASE)
        for form in (secret, secret[::-1])
    ]
    raw = secret.encode("utf-8")
    for i in range(3):  # the key's bytes may start at any offset of a 3-byte group
        encoded = base64.b64encode(b"\0" * i + raw).decode("ascii")
        start, end = -(-8 * i // 6), (8 * i + 8 * len(raw)) // 6  # chars set by key bits only
        core = encoded[start:end]
        for form in (core, core.replace("+", "-").replace("/", "_")):
            patterns.append(re.compile(re.escape(form)))
    return tuple(patterns)


def register_secret(value: str | None) -> None:
    """Remember a secret value so every later redaction removes it verbatim."""
    if value and len(value) >= _MIN_SECRET_LENGTH:
        with _lock:
            _registered.add(value)


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with registered secrets, `secrets`, key patterns and auth headers replaced."""
    with _lock:
        known = set(_registered)
    known.update(s for s in secrets if s and len(s) >= _MIN_SECRET_LENGTH)
    # Longest first, so a key that contains another registered key is removed whole.
    for secret in sorted(known, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
        for pattern in _echo_patterns(secret):  # a server echoing it transformed
            text = pattern.sub(REDACTED, text)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_secrets(obj: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of `obj` (str, dict, list, tuple, scalars) with every secret scrubbed.

    >>> redact_secrets({"Authorization": "Bearer abc", "note": "key sk-abcdefghijklmnop"})
    {'Authorization': '***redacted***', 'note': 'key sk-***redacted***'}
    """
    extra = tuple(secrets)
    if isinstance(obj, str):
        return redact_text(obj, extra)
    if isinstance(obj, dict):
        return {
            key: REDACTED
            if isinstance(key, str) and key.lower() in _SECRET_KEYS and value
            else redact_secrets(value, extra)
            for key, value in obj.items()
        }
    if isinstance(obj, list):
        return [redact_secrets(item, extra) for item in obj]
    if isinstance(obj, tuple):
        return tuple(redact_secrets(item, extra) for item in obj)
    return obj
