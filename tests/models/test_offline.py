"""Offline is unchanged: with no OPENAI_API_KEY / OPENAI_BASE_URL nothing touches the network."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer

from zlens_jupyter.engine import Route, RunStatus
from zlens_jupyter.routes.generated import GeneratedAnswer
from zlens_jupyter.routes.modeled import ModelAnswer
from zlens_jupyter.routes.research import Research
from zlens_jupyter.session import Session


def test_no_model_in_the_environment_means_offline_executors(
    shop_files: tuple[Path, Path], project: Path
) -> None:
    session = Session(shop_files[0], project)
    try:
        assert session.model_config is None
        assert type(session.engine.executors[Route.GENERATED_ANSWER]) is GeneratedAnswer
        assert type(session.engine.executors[Route.RESEARCH]) is Research
        run = session.ask("How many orders by channel in 2025?")
        assert run.status is RunStatus.COMPLETED and run.plan.source == "deterministic"
        assert "model" not in run.steps[0].best.provenance
    finally:
        session.close()


def test_an_offline_run_opens_no_socket_and_loads_no_model_code(
    shop_files: tuple[Path, Path], tmp_path: Path
) -> None:
    """In a fresh interpreter with the model variables unset: no connect() at all (loopback
    included), and neither the openai client nor the model executors are imported."""
    code = textwrap.dedent(
        f"""
        import socket, sys
        attempts = []
        real = socket.socket.connect
        def counting(self, address):
            attempts.append(address)
            return real(self, address)
        socket.socket.connect = counting
        from zlens_jupyter.session import Session
        session = Session({str(shop_files[0])!r}, {str(shop_files[1])!r}, persist=False)
        run = session.ask("How many orders by channel in 2025?")
        run2 = session.ask("Why did revenue drop in December 2025?")
        loaded = [m for m in ("openai", "zlens_jupyter.routes.modeled") if m in sys.modules]
        print(run.status.value, run2.route.value, len(attempts), loaded)
        """
    )
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["completed", "research", "0", "[]"]


def test_a_base_url_in_the_environment_turns_the_model_on(
    shop_files: tuple[Path, Path],
    project: Path,
    server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("ZLENS_MODEL", "local-llama")
    session = Session(shop_files[0], project)
    try:
        assert session.model_config is not None
        assert session.model_config.model == "local-llama"
        assert isinstance(session.engine.executors[Route.GENERATED_ANSWER], ModelAnswer)
        assert server.requests == []  # configured is not connected: nothing sent yet
    finally:
        session.close()
