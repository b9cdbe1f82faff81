"""`--background`: the run happens in a worker thread, the cell returns at once, and Stop
arrives as a widget message that cancels the run."""

from __future__ import annotations

import threading
import time

import pytest
from IPython.core.interactiveshell import InteractiveShell

from zlens_jupyter.engine import RunStatus


@pytest.fixture
def shell(tmp_path, monkeypatch):
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "zlens_jupyter")
    magics = ip.magics_manager.registry["ZLensMagics"]
    magics.session = None
    magics.history.clear()
    yield ip, magics
    InteractiveShell.clear_instance()


def wait_for(condition, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_background_run_returns_at_once_and_finishes_in_a_thread(shell):
    ip, magics = shell
    ip.run_line_magic("zlens", "connect sample")
    returned = ip.run_line_magic("zlens", "--background --no-panel What is revenue by category?")
    assert returned is None  # the cell is free while the run works
    assert wait_for(lambda: len(magics.history) == 1)
    run = magics.history[0]
    assert run.status is RunStatus.COMPLETED and run.trust_state.value == "grounded"


def test_stop_message_cancels_a_background_run(shell, monkeypatch):
    ip, magics = shell
    ip.run_line_magic("zlens", "connect sample")
    session = magics.session
    started = threading.Event()
    real_ask = session.ask

    def slow_ask(question, **kw):
        on_event = kw["on_event"]

        def pausing(event):
            on_event(event)
            if event.type.value == "executor.started":
                started.set()
                time.sleep(1.0)  # long enough for the Stop click to land mid-run

        return real_ask(question, **{**kw, "on_event": pausing})

    monkeypatch.setattr(session, "ask", slow_ask)
    panels = []
    from zlens_jupyter.notebook import widget

    real_panel = widget.RunPanel

    class Recorded(real_panel):  # type: ignore[misc, valid-type]
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            panels.append(self)

    monkeypatch.setattr(widget, "RunPanel", Recorded)
    ip.run_line_magic("zlens", "--background --max-steps 4 What is revenue by category?")
    assert started.wait(30)
    # What the browser sends when Stop is clicked.
    panels[0]._handle_message(panels[0], {"kind": "stop"}, [])
    assert wait_for(lambda: len(magics.history) == 1)
    run = magics.history[0]
    assert run.status is RunStatus.CANCELLED
    assert run.stop_reason.value == "user_cancelled"
    assert run.events[-1].type.value == "run.cancelled"
