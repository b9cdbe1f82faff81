"""Issue 11: `%zlens` shows its live panel only for a run still going after SHOW_AFTER_S, shown
by the panel's timer thread while the cell runs (a long statement emits no events), with Stop.
"""

from __future__ import annotations

import threading
import time

import pytest

from zlens_jupyter.engine import RunStatus
from zlens_jupyter.notebook import live_panel
from zlens_jupyter.notebook.widget import RunPanel

WIDGET = "application/vnd.jupyter.widget-view+json"
# One DuckDB statement of about a second here, that ends by itself.
SLOW_SUM = "SELECT sum(range % 7) AS total FROM range(400000000)"
# One that runs for minutes unless something stops it.
ENDLESS = "SELECT count(*) FROM range(100000000000) AS a"


@pytest.fixture
def created(monkeypatch):
    """(time, panel) for every RunPanel created during the test."""
    shown: list[tuple[float, RunPanel]] = []
    original = RunPanel.__init__

    def record(self, *args, **kwargs):
        original(self, *args, **kwargs)
        shown.append((time.monotonic(), self))

    monkeypatch.setattr(RunPanel, "__init__", record)
    return shown


def test_a_long_statement_shows_the_live_panel_while_it_runs(nb, created):
    nb.run("%zlens connect sample")
    started = time.monotonic()
    run, out = nb.run(f"%zlens {SLOW_SUM}")
    ended = time.monotonic()
    assert run.status is RunStatus.COMPLETED and run.result["rows"] == [[1199999997]]
    [(at, panel)] = created
    # Shown by the timer, not by an event: the statement emits none while it runs.
    assert started + live_panel.SHOW_AFTER_S <= at < ended - 0.3
    live, summary, answer = out.outputs
    assert WIDGET in live.data
    assert summary.update and summary.transient["display_id"] == live.transient["display_id"]
    assert summary.data["text/plain"].startswith(f"ZLens {run.id} · done · ")
    assert answer.metadata["zlens"]["run_id"] == run.id
    # The events kept before it was shown were handed to it, then the rest as they came.
    assert [e["seq"] for e in panel.events] == [e.seq for e in run.events]
    assert panel.comm is None and panel.orb == "done" and panel.final_run["id"] == run.id


def test_stop_on_the_shown_panel_ends_a_long_statement(nb, created):
    nb.run("%zlens connect sample")
    clicked: list[float] = []

    def click_stop() -> None:  # what the browser sends when Stop is clicked
        deadline = time.monotonic() + 30
        while not created and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)  # the statement is running
        panel = created[0][1]
        clicked.append(time.monotonic())
        panel._handle_message(panel, {"kind": "stop"}, [])

    stopper = threading.Thread(target=click_stop, daemon=True)
    stopper.start()
    run, out = nb.run(f"%zlens --deadline 60 {ENDLESS}")
    stopped_after = time.monotonic() - clicked[0]
    stopper.join(5)
    assert run.status is RunStatus.CANCELLED and run.stop_reason.value == "user_cancelled"
    assert stopped_after < 5.0, f"the statement ended {stopped_after:.2f} s after Stop"
    [(_, panel)] = created
    assert panel.stop_requested and panel.stop_errors == []
    assert panel.comm is None and panel.orb == "cancelled"
    summary = out.outputs[1]
    assert summary.update and 'data-orb="cancelled"' in summary.data["text/html"]
