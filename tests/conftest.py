"""Every test is offline unless it configures a model itself (tests/models and tests/llm pass
an explicit loopback endpoint): a developer's own OPENAI_* variables must not leak in.

Hypothesis: CI (`HYPOTHESIS_PROFILE=ci`, set by .ci/run) replays the same examples every
time, so a landing is never decided by a lucky or unlucky draw; a developer's run explores
fresh examples (the default profile, or HYPOTHESIS_PROFILE=explore for 2,000 per test) and is
where new counter-examples are found.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

MODEL_VARIABLES = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZLENS_MODEL", "ZLENS_MODEL_PLANNER")


@pytest.fixture(autouse=True)
def _offline_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
