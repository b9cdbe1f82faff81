"""A real JupyterLab (and Notebook 7) on 127.0.0.1, driven by Debian's Chromium via Playwright.

Facts this harness relies on are in shared/jupyter-notes.md: wait for an idle kernel through
/api/sessions (the toolbar can say idle too early), read the cell prompt (`[*]`/`[n]`) rather
than the status bar, turn Lab's windowing mode off, and launch Chromium with the flags that
stop it from reaching for the closed network.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO = Path(__file__).resolve().parents[2]
LABEXTENSION = REPO / "zlens_jupyter" / "labextension"
ARTIFACTS = REPO / "tests" / "artifacts" / "browser"
HERE = Path(__file__).resolve().parent

USER_SETTINGS = {
    # Off-screen cells must stay in the DOM so their text can be read.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # Needed for a saved notebook to reopen showing its widgets.
    "@jupyter-widgets/jupyterlab-manager/plugin.jupyterlab-settings": {"saveState": True},
    # No news or update toasts over the notebook (and no network lookups for them).
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False,
        "fetchNews": "false",
    },
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a browser test; without Chromium they skip and say why."""
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing (apt-get install -y chromium)")
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(skip)


@dataclass
class Server:
    """A running Jupyter server: where it is, its token, and the folder it serves."""

    url: str
    token: str
    root: Path
    process: subprocess.Popen[bytes]

    def api(self, path: str, method: str = "GET") -> Any:
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def page_url(self, path: str) -> str:
        return f"{self.url}{path}?token={self.token}&reset"

    def kernel_state(self, notebook: str) -> str | None:
        for session in self.api("/api/sessions"):
            if session.get("path") == notebook and session.get("kernel"):
                return str(session["kernel"]["execution_state"])
        return None

    def shutdown_sessions(self) -> None:
        for session in self.api("/api/sessions"):
            self.api(f"/api/sessions/{session['id']}", method="DELETE")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# JupyterLab as installed: no widget state is saved with the notebook.
DEFAULT_SETTINGS = {
    key: value
    for key, value in USER_SETTINGS.items()
    if not key.startswith("@jupyter-widgets/jupyterlab-manager")
}


def _start_server(
    app: str, root: Path, work: Path, user_settings: dict[str, Any] | None = None
) -> Iterator[Server]:
    settings = work / "settings"
    for relative, values in (USER_SETTINGS if user_settings is None else user_settings).items():
        target = settings / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    # Serve the extension from the tree's latest build rather than the copy made at install.
    extensions = work / "labextensions"
    extensions.mkdir(exist_ok=True)
    if LABEXTENSION.joinpath("package.json").exists():
        (extensions / "zlens-jupyter").symlink_to(LABEXTENSION, target_is_directory=True)
    port, token = _free_port(), secrets.token_hex(16)
    app_class = "LabApp" if app == "lab" else "JupyterNotebookApp"
    command = [
        sys.executable,
        "-m",
        "jupyter",
        app,
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={token}",
        f"--{app_class}.user_settings_dir={settings}",
        f"--{app_class}.workspaces_dir={work / 'workspaces'}",
        f"--{app_class}.extra_labextensions_path={extensions}",
    ]
    if app_class != "LabApp":
        # Notebook 7's server loads JupyterLab's too, whose handler serves /lab/extensions/:
        # without the same path it serves the copy made at install, not the tree's build.
        command.append(f"--LabApp.extra_labextensions_path={extensions}")
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(work / "config"),
        "JUPYTER_RUNTIME_DIR": str(work / "runtime"),
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    log = (work / f"{app}.log").open("wb")
    process = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = Server(url=f"http://127.0.0.1:{port}", token=token, root=root, process=process)
    deadline = time.monotonic() + 60
    while True:
        try:
            server.api("/api/status")
            break
        except OSError as exc:
            if process.poll() is not None or time.monotonic() > deadline:
                log.close()
                message = f"jupyter {app} did not start; see {work / f'{app}.log'}"
                raise RuntimeError(message) from exc
            time.sleep(0.2)
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def notebook_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("notebooks")
    shutil.copy(HERE / "scripted.py", root / "scripted.py")
    return root


@pytest.fixture(scope="session")
def lab(notebook_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _start_server("lab", notebook_root, tmp_path_factory.mktemp("lab"))


@pytest.fixture(scope="session")
def lab_defaults(notebook_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second JupyterLab with the widget manager's default settings (saveState off)."""
    work = tmp_path_factory.mktemp("lab-defaults")
    yield from _start_server("lab", notebook_root, work, DEFAULT_SETTINGS)


@pytest.fixture(scope="session")
def notebook7(notebook_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _start_server("notebook", notebook_root, tmp_path_factory.mktemp("nb7"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    page = context.new_page()
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        shot(page, request.node.name, "failure")
    context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.rep_call = report  # type: ignore[attr-defined]
    return report


def shot(page: Any, test: str, state: str) -> Path:
    """Save a screenshot as tests/artifacts/browser/<test>/<state>.png."""
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", test)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{state}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# -- driving a notebook page ----------------------------------------------------------------


class NotebookDriver:
    """One test's browser page on one server, with the waits the notes ask for."""

    def __init__(self, page: Any, server: Server, test: str, app: str = "lab") -> None:
        self.page, self.server, self.test, self.app = page, server, test, app

    def shot(self, state: str) -> Path:
        return shot(self.page, self.test, state)

    def write(
        self, name: str, cells: list[str], outputs: dict[int, list[Any]] | None = None
    ) -> str:
        """Write a notebook of code cells (optionally with saved outputs); returns its path."""
        import nbformat

        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        for index, source in enumerate(cells):
            code = nbformat.v4.new_code_cell(source)
            if outputs and index in outputs:
                code.outputs = outputs[index]
                code.execution_count = index + 1
            notebook.cells.append(code)
        nbformat.write(notebook, str(self.server.root / name))
        return name

    def open(self, name: str) -> None:
        """Open a notebook; wait until its kernel is idle and every cell editor is drawn."""
        path = f"/lab/tree/{name}" if self.app == "lab" else f"/notebooks/{name}"
        self.page.goto(self.server.page_url(path))
        self.page.wait_for_selector(".jp-Notebook .jp-Cell")
        deadline = time.monotonic() + 60
        while self.server.kernel_state(name) != "idle":
            if time.monotonic() > deadline:
                raise AssertionError(f"the kernel of {name} never became idle")
            time.sleep(0.2)
        cells = self.page.locator(".jp-Notebook .jp-Cell")
        for index in range(cells.count()):
            cells.nth(index).locator(".cm-editor").wait_for()

    def cell(self, index: int) -> Any:
        return self.page.locator(".jp-Notebook .jp-Cell").nth(index)

    def cell_count(self) -> int:
        return int(self.page.locator(".jp-Notebook .jp-Cell").count())

    def prompt(self, index: int) -> str:
        return str(self.cell(index).locator(".jp-InputPrompt").inner_text()).strip()

    def start(self, index: int) -> None:
        """Run one cell (Ctrl+Enter); return once its prompt shows it queued or finished."""
        before = self.prompt(index)
        self.cell(index).locator(".jp-InputArea-editor").click()
        self.page.keyboard.press("Control+Enter")  # run in place: no new cell
        deadline = time.monotonic() + 30
        while True:
            now = self.prompt(index)
            if "*" in now or (now != before and re.search(r"\[\d+\]", now)):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"cell {index} did not start (prompt {now!r})")
            time.sleep(0.05)

    def wait_done(self, index: int, timeout: float = 60) -> str:
        """Wait until the cell's prompt reads `[n]` (finished); returns the prompt."""
        deadline = time.monotonic() + timeout
        while True:
            now = self.prompt(index)
            if re.search(r"\[\d+\]", now):
                return now
            if time.monotonic() > deadline:
                raise AssertionError(f"cell {index} still shows {now!r} after {timeout}s")
            time.sleep(0.1)

    def run(self, index: int, timeout: float = 60) -> str:
        self.start(index)
        return self.wait_done(index, timeout)

    def editor_text(self, index: int) -> str:
        """The source shown in a cell's editor (CodeMirror lines joined)."""
        lines = self.cell(index).locator(".cm-content .cm-line").all_inner_texts()
        return "\n".join(line.replace("\n", "") for line in lines)  # an empty line holds <br>

    def save(self, name: str) -> dict[str, Any]:
        """Save with Ctrl+S; returns the notebook as written to disk."""
        target = self.server.root / name
        before = target.stat().st_mtime_ns
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("Control+s")
        deadline = time.monotonic() + 30
        while target.stat().st_mtime_ns == before:
            if time.monotonic() > deadline:
                raise AssertionError(f"{name} was not saved")
            time.sleep(0.1)
        time.sleep(0.3)  # let the write finish before reading
        return dict(json.loads(target.read_text()))


@pytest.fixture
def lab_page(page: Any, lab: Server, request: pytest.FixtureRequest) -> NotebookDriver:
    return NotebookDriver(page, lab, request.node.name, "lab")


@pytest.fixture
def lab_defaults_page(
    page: Any, lab_defaults: Server, request: pytest.FixtureRequest
) -> NotebookDriver:
    return NotebookDriver(page, lab_defaults, request.node.name, "lab")


@pytest.fixture
def notebook7_page(page: Any, notebook7: Server, request: pytest.FixtureRequest) -> NotebookDriver:
    return NotebookDriver(page, notebook7, request.node.name, "notebook")
