"""Issue 11: a `%zlens` run's live panel is created and shown only when the run outlasts
SHOW_AFTER_S; the panels' timer thread runs what is due first, first."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

from zlens_jupyter.engine import Budget, CancelToken
from zlens_jupyter.notebook import live_panel
from zlens_jupyter.notebook.live_panel import DelayedPanel
from zlens_jupyter.notebook.summary import summary_bundle
from zlens_jupyter.notebook.widget import call_later

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def shell() -> Iterator[Any]:
    """A real IPython shell, for `display()` to publish to."""
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    yield InteractiveShell.instance(config=config)
    InteractiveShell.clear_instance()


def wait_until(condition: Any, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)
    return bool(condition())


def test_a_run_that_ends_before_the_delay_shows_only_its_summary(shell, escalated_run, monkeypatch):
    monkeypatch.setattr(live_panel, "SHOW_AFTER_S", 60.0)
    live = DelayedPanel("q", budget=Budget(), offline=True, on_stop=CancelToken().cancel)
    with capture_output() as captured:
        live.start()
        for event in escalated_run.events:
            live.on_event(event)
        assert live.end(*summary_bundle(escalated_run)) is None
    [summary] = captured.outputs
    assert (summary.data, summary.metadata) == summary_bundle(escalated_run)
    assert not summary.update and live.panel is None  # no widget was ever created


def test_a_run_still_going_at_the_delay_gets_its_panel_with_the_events_so_far(
    shell, escalated_run, monkeypatch
):
    monkeypatch.setattr(live_panel, "SHOW_AFTER_S", 0.05)
    token = CancelToken()
    live = DelayedPanel("q", budget=Budget(), offline=True, on_stop=token.cancel)
    events = escalated_run.events
    with capture_output() as captured:
        live.start()
        for event in events[:3]:
            live.on_event(event)
        assert wait_until(lambda: live.panel is not None)  # shown by the timer, no event
        panel = live.panel
        assert [e["seq"] for e in panel.events] == [1, 2, 3]
        assert panel.orb == "planning" and panel.stoppable
        panel._handle_message(panel, {"kind": "stop"}, [])  # Stop reaches the run's token
        assert token.cancelled
        for event in events[3:]:
            live.on_event(event)
        assert live.end(*summary_bundle(escalated_run)) is panel
    shown, summary = captured.outputs
    assert WIDGET in shown.data
    assert summary.update and summary.transient == shown.transient
    assert (summary.data, summary.metadata) == summary_bundle(escalated_run)
    assert [e["seq"] for e in panel.events] == [e.seq for e in events]
    assert panel.comm is None  # closed: nothing is left to Stop


def test_the_timer_runs_a_callback_due_sooner_than_the_one_it_sleeps_for():
    ran: list[str] = []
    done = threading.Event()
    call_later(0.01, lambda: None)  # the timer thread exists and sleeps
    time.sleep(0.05)
    call_later(2.0, lambda: ran.append("later"))
    call_later(0.02, lambda: (ran.append("sooner"), done.set()))
    assert done.wait(1.0) and ran == ["sooner"]
