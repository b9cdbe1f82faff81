"""A real in-process IPython shell with the ZLens extension, a fresh shell per test.

The sample shop is built once per test session and copied into each test's own
ZLENS_CACHE_DIR (a file copy, not a rebuild), so tests cannot see each other's certified
blocks or runs. The working directory is the test's tmp folder, so a session opened without
a project writes nowhere else.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

from zlens_jupyter.notebook.magics import ZLensMagics
from zlens_jupyter.sample import CACHE_ENV_VAR, open_sample

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="session")
def built_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = tmp_path_factory.mktemp("sample-cache")
    before = os.environ.get(CACHE_ENV_VAR)
    os.environ[CACHE_ENV_VAR] = str(cache)
    try:
        open_sample()
    finally:
        if before is None:
            del os.environ[CACHE_ENV_VAR]
        else:
            os.environ[CACHE_ENV_VAR] = before
    for lock in cache.glob("*.lock"):
        lock.unlink()
    return cache


@pytest.fixture
def cache(built_sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's ZLENS_CACHE_DIR, holding a private copy of the sample shop."""
    target = tmp_path / "cache"
    shutil.copytree(built_sample, target)
    monkeypatch.setenv(CACHE_ENV_VAR, str(target))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return target


class Cells:
    """Runs cells in the real shell the way a notebook does (input transforms included)."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell

    @property
    def magics(self) -> ZLensMagics:
        magics: ZLensMagics = self.shell.magics_manager.registry["ZLensMagics"]
        return magics

    def run(self, source: str) -> tuple[Any, Any]:
        """Run one cell; returns (its result value, the captured stdout/stderr/displays).

        The cell's value is appended to the outputs as a kernel's displayhook sends it (an
        execute_result with every mime type the formatter makes), which a terminal shell
        would only print as text."""
        with capture_output() as captured:
            result = self.shell.run_cell(source, store_history=True)
        assert result.error_before_exec is None, captured.stdout
        assert result.error_in_exec is None, captured.stdout
        if result.result is not None and not source.rstrip().endswith(";"):
            value = result.result
            if hasattr(value, "_repr_mimebundle_"):
                data, metadata = value._repr_mimebundle_()
            else:
                data, metadata = self.shell.display_formatter.format(value)
            captured._outputs.append({"data": data, "metadata": metadata})
        return result.result, captured

    @staticmethod
    def plain(captured: Any) -> list[str]:
        return [str(o.data.get("text/plain", "")) for o in captured.outputs]

    @classmethod
    def answer(cls, captured: Any) -> Any:
        """The one displayed answer (the output that carries ZLens metadata and HTML)."""
        answers = [
            o for o in captured.outputs if "text/html" in o.data and "zlens" in (o.metadata or {})
        ]
        assert len(answers) == 1, cls.plain(captured)
        return answers[0]

    @staticmethod
    def widget_ids(captured: Any) -> list[str]:
        """Model ids of the widgets displayed (the run panel)."""
        return [o.data[WIDGET]["model_id"] for o in captured.outputs if WIDGET in o.data]


@pytest.fixture
def nb(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cells]:
    """A fresh IPython shell (the process-wide instance `display()` talks to), with the
    extension loaded the way `%load_ext` does it."""
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()  # another test may have left its shell behind
    shell = InteractiveShell.instance(config=config)
    shell.run_line_magic("load_ext", "zlens_jupyter")
    cells = Cells(shell)
    yield cells
    magics = shell.magics_manager.registry.get("ZLensMagics")
    if magics is not None and magics.session is not None:
        magics.session.close()
    InteractiveShell.clear_instance()


@pytest.fixture
def quick_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `%zlens` run here ends before its live panel would be shown, however busy the
    machine: the delay is made a minute (the outputs of a fast answer, deterministically)."""
    from zlens_jupyter.notebook import live_panel

    monkeypatch.setattr(live_panel, "SHOW_AFTER_S", 60.0)
