"""Small shared pieces for the model-layer tests: the test key, a sleep recorder, a net guard."""

from __future__ import annotations

import ipaddress
from typing import Any

TEST_KEY = "sk-test-SECRET0123456789abcdef"


class NetworkBlocked(ConnectionRefusedError):
    """Raised instead of connecting anywhere but loopback."""


def _is_loopback(host: Any) -> bool:
    if not isinstance(host, str):
        return False
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


class NetworkGuard:
    def __init__(self) -> None:
        self.violations: list[str] = []

    def check(self, address: Any) -> None:
        if isinstance(address, str | bytes):  # AF_UNIX path: local by definition
            return
        host = address[0] if isinstance(address, tuple) and address else address
        if not _is_loopback(host):
            self.violations.append(str(address))
            raise NetworkBlocked(f"test tried to reach non-loopback address {address!r}")


class SleepRecorder:
    """Injected in place of time.sleep: records each requested wait, waits not at all."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
