"""Fixtures for engine tests; the scripted executors live in tests/support/engine_scripts.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from engine_scripts import FakeClock, GateScript

from zlens_jupyter.engine import Engine, Route


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_engine(clock: FakeClock) -> Callable[..., Engine]:
    def make(executors: dict[Route, Any], gate: Any = None, **kw: Any) -> Engine:
        kw.setdefault("clock", clock)
        kw.setdefault("sleep", clock.sleep)
        return Engine(executors, gate if gate is not None else GateScript(), **kw)

    return make
