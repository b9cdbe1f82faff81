"""Sessions over the sample shop with a model at a scripted loopback OpenAI server.

Every test here goes through the real stack: Session -> Engine -> model executors -> the
`openai` client -> HTTP on 127.0.0.1 -> FakeOpenAIServer, and DuckDB for every query.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import TEST_KEY, FakeOpenAIServer, NetworkGuard, install_network_guard

from zlens_jupyter.engine import Event
from zlens_jupyter.llm import ModelConfig
from zlens_jupyter.session import Session

sys.path.insert(0, str(Path(__file__).parent))  # importlib mode: make model_scripts importable

MODEL_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZLENS_MODEL")


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[NetworkGuard]:
    """Fail any test that reaches anything but loopback; start with no model in the env."""
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    guard = install_network_guard(monkeypatch)
    yield guard
    if guard.violations:
        pytest.fail(f"network access outside loopback: {guard.violations}")


@pytest.fixture(scope="session")
def shop_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sample shop database and its project (blocks, semantic layer), built once."""
    cache = tmp_path_factory.mktemp("zlens_cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZLENS_CACHE_DIR", str(cache))
        from zlens_jupyter.sample import open_sample

        database, project = open_sample()
    return Path(database), Path(project)


@pytest.fixture
def project(shop_files: tuple[Path, Path], tmp_path: Path) -> Path:
    """A private copy of the sample project, so each test has its own run store."""
    target = tmp_path / "project"
    shutil.copytree(shop_files[1], target)
    return target


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def model_config(server: FakeOpenAIServer, **overrides: Any) -> ModelConfig:
    """A config for the loopback server with tiny backoffs, so retries cost no wall time."""
    settings: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": TEST_KEY,
        "model": "test-model",
        "timeout_s": 10.0,
        "max_retries": 2,
        "backoff_base_s": 0.001,
        "backoff_cap_s": 0.01,
        "retry_after_cap_s": 0.05,
        "plan_steps": True,  # the scripts here answer a planner call first; opt-in elsewhere
    }
    settings.update(overrides)
    return ModelConfig(**settings)


@pytest.fixture
def make_session(
    shop_files: tuple[Path, Path], project: Path, server: FakeOpenAIServer
) -> Iterator[Callable[..., Session]]:
    """Session(sample db, project copy, model=ModelConfig(...loopback...))."""
    opened: list[Session] = []

    def make(**config: Any) -> Session:
        session = Session(shop_files[0], project, model=model_config(server, **config))
        opened.append(session)
        return session

    yield make
    for session in opened:
        session.close()


@pytest.fixture
def offline_session(shop_files: tuple[Path, Path], tmp_path: Path) -> Iterator[Session]:
    """The same data with no model (to compare degraded answers with)."""
    session = Session(shop_files[0], shop_files[1], persist=False)
    yield session
    session.close()


class EventRecorder:
    """on_event subscriber that keeps everything it is sent, transient events included."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of(self, type_: str) -> list[Event]:
        return [e for e in self.events if e.type.value == type_]


@pytest.fixture
def events() -> EventRecorder:
    return EventRecorder()
