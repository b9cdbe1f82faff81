"""Every test is offline unless it configures a model itself (tests/models and tests/llm pass
an explicit loopback endpoint): a developer's own OPENAI_* variables must not leak in.

Hypothesis: CI (`HYPOTHESIS_PROFILE=ci`, set by .ci/run) replays the same examples every
time, so a landing is never decided by a lucky or unlucky draw; a developer's run explores
fresh examples (the default profile, or HYPOTHESIS_PROFILE=explore for 2,000 per test) and is
where new counter-examples are found.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

MODEL_VARIABLES = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZLENS_MODEL", "ZLENS_MODEL_PLANNER")


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` with its size and mtime (ns): any write shows up."""
    if not folder.exists():
        return {}
    seen = {}
    for path in folder.rglob("*"):
        try:
            info = path.lstat()
        except OSError:
            continue
        seen[str(path.relative_to(folder))] = (info.st_size, info.st_mtime_ns)
    return seen


@pytest.fixture(scope="session", autouse=True)
def _never_touch_the_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Issue 12, problem 13: the suite writes only inside its temp folders.

    The real user cache (platformdirs' user_cache_dir for zlens) is snapshotted before the
    session and compared after it: any file created, changed or removed there fails the run.
    As a safety net, XDG_CACHE_HOME points at a temp folder for the session (tests that set
    ZLENS_CACHE_DIR keep theirs); ZLENS_TEST_REAL_CACHE=1 turns the net off, to find tests
    that would still write to the real cache.
    """
    import platformdirs

    saved = {name: os.environ.get(name) for name in ("XDG_CACHE_HOME", "ZLENS_CACHE_DIR")}
    os.environ.pop("ZLENS_CACHE_DIR", None)
    real = Path(platformdirs.user_cache_dir("zlens-jupyter"))
    before = _snapshot(real)
    # A session opened without a project stores its runs under the working directory.
    here = Path.cwd() / ".zlens"
    here_before = _snapshot(here)
    if os.environ.get("ZLENS_TEST_REAL_CACHE") != "1":
        os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    after, here_after = _snapshot(real), _snapshot(here)
    changed = sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    ) + sorted(
        f"{here}/{name}"
        for name in here_before.keys() | here_after.keys()
        if here_before.get(name) != here_after.get(name)
    )
    if changed:
        pytest.fail(
            f"the test session wrote to the real user cache {real}: {', '.join(changed[:10])}"
            f"{' ...' if len(changed) > 10 else ''}",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _offline_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
