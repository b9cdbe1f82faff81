"""Every test is offline unless it configures a model itself (tests/models and tests/llm pass
an explicit loopback endpoint): a developer's own OPENAI_* variables must not leak in."""

from __future__ import annotations

import pytest

MODEL_VARIABLES = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZLENS_MODEL")


@pytest.fixture(autouse=True)
def _offline_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
