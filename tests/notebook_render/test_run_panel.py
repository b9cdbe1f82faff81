"""The run panel's Python side, without a browser: traits, compact state, stop callbacks."""

from __future__ import annotations

import json

import pytest

from zlens_jupyter.engine import CancelToken, Engine, Route, RunStatus
from zlens_jupyter.errors import ConfigError
from zlens_jupyter.notebook import widget as widget_module
from zlens_jupyter.notebook.widget import RunPanel, compact_run, orb_for_event, slim_event


def test_panel_follows_the_loop_through_plan_work_verify_done(escalated_run):
    panel = RunPanel(escalated_run.question, budget=escalated_run.budget)
    seen: list[tuple[str, str]] = []
    panel.observe(lambda change: seen.append(("orb", change["new"])), names="orb")
    panel.observe(lambda change: seen.append(("phase", change["new"])), names="phase")
    for event in escalated_run.events:
        panel.on_event(event)
    orbs = [value for name, value in seen if name == "orb"]
    phases = [value for name, value in seen if name == "phase"]
    assert orbs[:4] == ["planning", "working", "verifying", "planning"]
    assert "repairing" in orbs and orbs[-1] == "done"
    assert phases[:3] == ["plan", "work", "verify"] and phases[-1] == "done"
    # A trait is written only when its value changes: far fewer writes than events.
    assert len(seen) < len(escalated_run.events)
    assert [e["seq"] for e in panel.events] == [e.seq for e in escalated_run.events]


def test_finish_keeps_a_compact_json_record_with_insert_sources(grounded_run):
    panel = RunPanel(grounded_run.question)
    panel.finish(grounded_run)
    final = panel.final_run
    json.dumps(final)  # widget state must be plain JSON
    assert final["id"] == grounded_run.id and final["trust_state"] == "grounded"
    assert "rows" not in final["result"] and final["result"]["row_count"] == 3
    assert all("payload" not in e for e in final["events"])
    assert final["insert"]["dql"].startswith("%%dql\n")
    assert final["steps"][0]["attempts"][0]["evaluations"][0]["id"] == "catalog-grounding"
    assert (panel.orb, panel.phase) == ("done", "done")
    assert panel.budget["max_steps"] == 4
    assert repr(panel) == ("<ZLens run panel: done trust=grounded — 'What is revenue by segment?'>")


def test_terminal_orbs_follow_the_run_status(blocked_run, clarification_run):
    for run, orb in ((blocked_run, "blocked"), (clarification_run, "clarify")):
        panel = RunPanel(run.question)
        for event in run.events:
            panel.on_event(event)
        assert panel.orb == orb
        panel.finish(run)
        assert panel.orb == orb
    # A cancelled run keeps its phase (None: unchanged) so the tracker shows where it stopped.
    assert orb_for_event("run.cancelled", "cancelled") == ("cancelled", None)
    assert orb_for_event("artifact.created") is None


def test_stop_from_the_browser_cancels_a_background_run():
    token = CancelToken()
    panel = RunPanel("q")
    panel.on_stop(token.cancel)
    panel.on_stop(lambda: 1 / 0)  # a broken callback is recorded, not raised
    panel._handle_custom_msg({"kind": "stop"}, [])
    assert token.cancelled and panel.stop_requested
    assert panel.stop_errors == ["ZeroDivisionError: division by zero"]

    def executor(ctx):
        raise AssertionError("a cancelled run must not execute a step")

    run = Engine({route: executor for route in Route}).run("What is revenue?", cancel=token)
    panel.finish(run)
    assert run.status is RunStatus.CANCELLED and panel.orb == "cancelled"


def test_reset_clears_the_panel_for_the_next_question(grounded_run):
    panel = RunPanel(grounded_run.question)
    for event in grounded_run.events:
        panel.on_event(event)
    panel.finish(grounded_run)
    panel.reset("Next question?")
    assert (panel.question, panel.orb, panel.final_run, panel.events) == (
        "Next question?",
        "idle",
        {},
        [],
    )


def test_bulky_payloads_are_cut_before_they_are_sent():
    event = {
        "type": "tool.result",
        "seq": 1,
        "payload": {"rows": list(range(1000)), "sql": "x" * 5000},
    }
    slim = slim_event(event)
    assert len(slim["payload"]["rows"]) == 20
    assert len(slim["payload"]["sql"]) == 601 and slim["payload"]["sql"].endswith("…")
    assert event["payload"]["rows"] == list(range(1000))  # the engine's record is untouched


def test_compact_run_keeps_the_schema_names(escalated_run):
    compact = compact_run(escalated_run)
    full = escalated_run.to_dict()
    assert set(full) <= set(compact) and set(compact) - set(full) == {"insert"}
    assert [s["status"] for s in compact["steps"]] == ["escalated", "repaired"]
    assert compact["steps"][1]["repairs"] == 1


def test_compact_run_of_a_record_leaves_the_record_as_it_was(escalated_run):
    """`%zlens` serializes the run once and shares the record with the chart and summary."""
    full = escalated_run.to_dict()
    before = json.dumps(full, sort_keys=True)
    compact = compact_run(full)
    assert json.dumps(full, sort_keys=True) == before
    assert compact == compact_run(escalated_run)
    assert all("evidence" not in e for s in compact["steps"] for a in s["attempts"]
               for e in a["evaluations"])  # fmt: skip


def test_the_view_gets_the_panel_bundle_and_one_class_serves_every_panel():
    first, second = RunPanel("q"), RunPanel("r")
    assert type(first) is RunPanel and type(second) is RunPanel
    state = first.get_state()
    assert state["_esm"] == widget_module.PANEL_JS.read_text(encoding="utf-8")
    assert state["_anywidget_id"] == "zlens_jupyter.notebook.widget.RunPanel"
    assert first.layout is second.layout  # one Layout widget for all panels
    first.layout.close()  # closed (e.g. `Widget.close_all()`): the next panel opens another
    third = RunPanel("s")
    assert third.layout.comm is not None and third.layout is not first.layout
    for panel in (first, second, third):
        panel.close()


def test_a_missing_bundle_says_how_to_fix_it(monkeypatch, tmp_path):
    monkeypatch.setattr(widget_module, "PANEL_JS", tmp_path / "panel.js")
    with pytest.raises(ConfigError, match=r"pip install -e \."):
        RunPanel("q")


def test_a_rebuilt_bundle_reaches_the_next_panel(monkeypatch, tmp_path):
    # The bundle is read once, not per panel, but a rebuild (a new file) is picked up.
    bundle = tmp_path / "panel.js"
    monkeypatch.setattr(widget_module, "PANEL_JS", bundle)
    bundle.write_text("export default { render() {} };", encoding="utf-8")
    first = RunPanel("q")
    bundle.write_text("export default { render() { /* rebuilt */ } };", encoding="utf-8")
    second = RunPanel("r")
    assert first.get_state()["_esm"] == "export default { render() {} };"
    assert second.get_state()["_esm"] == "export default { render() { /* rebuilt */ } };"
    for panel in (first, second):
        panel.close()


def test_events_go_to_the_browser_in_batches_with_the_orb_they_set(escalated_run, monkeypatch):
    """Issue 11: one message per batch of events (LIVE_S after its first), carrying the orb
    and phase they moved the panel to; a run finished sooner sends no event at all."""
    sent: list[dict] = []
    panel = RunPanel(escalated_run.question, budget=escalated_run.budget)
    monkeypatch.setattr(panel.comm, "send", lambda data=None, **_: sent.append(data))
    for event in escalated_run.events[:3]:
        panel.on_event(event)
    assert sent == [] and panel.orb == "planning"  # Python's state moves at once
    panel.flush()  # what the timer does LIVE_S later
    [batch, state] = sent
    assert batch["content"]["kind"] == "events"
    assert [e["seq"] for e in batch["content"]["events"]] == [1, 2, 3]
    assert state == {"method": "update", "state": {"orb": "planning", "phase": "plan"},
                     "buffer_paths": []}  # fmt: skip
    sent.clear()
    for event in escalated_run.events[3:]:
        panel.on_event(event)
    panel.finish(escalated_run)  # before the timer: the finished record replaces the batch
    [final] = sent
    # One state message; the orb the batch moved (never sent) goes with it, though finish()
    # sets the same value (no change, so no change message of its own).
    assert set(final["state"]) == {"stoppable", "final_run", "orb", "phase"}
    assert final["state"]["orb"] == "done"
    assert [e["seq"] for e in panel.events] == [e.seq for e in escalated_run.events]
    panel.flush()
    assert len(sent) == 1  # nothing left to send
    panel.close()


def test_a_batch_reaches_the_browser_by_itself_while_the_run_works(grounded_run, monkeypatch):
    """A long step sends nothing: the batch is flushed by the panel's timer thread."""
    import time

    sent: list[dict] = []
    panel = RunPanel(grounded_run.question)
    monkeypatch.setattr(panel.comm, "send", lambda data=None, **_: sent.append(data))
    panel.on_event(grounded_run.events[0])
    deadline = time.monotonic() + 5
    while not sent and time.monotonic() < deadline:
        time.sleep(widget_module.LIVE_S / 5)
    assert sent and sent[0]["content"]["events"][0]["type"] == "run.started"
    panel.close()
