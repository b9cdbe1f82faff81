"""The live run panel: an anywidget fed by the engine's event stream.

The engine calls `panel.on_event(event)` for every event; each one goes to the browser as one
custom message (O(1), history is never resent). Only small, durable facts live in synced
traits: `orb` and `phase` (updated when they change), `budget`, and `final_run` (set once,
at the end, to the compact run record) so that a saved notebook reopens showing the
finished run. Messages sent before the browser view exists are lost, so the view asks for a
replay (`hello`) when it loads.

    panel = RunPanel("What is revenue by segment?", budget=engine.budget)
    display(panel)
    run = engine.run(question, on_event=panel.on_event)
    panel.finish(run)
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ..engine.enums import EventType
from ..engine.records import AgentRun, Budget, Event
from ..errors import ConfigError
from ..labels import orb_of_status
from .insert import dql_draft_source, sql_cell_source

PANEL_JS = Path(__file__).resolve().parent.parent / "static" / "panel.js"

# Which orb state and tracker phase each event puts the panel in (DESIGN §4).
_ORB_OF_EVENT: dict[str, tuple[str, str]] = {
    EventType.RUN_STARTED: ("planning", "plan"),
    EventType.PLAN_CREATED: ("planning", "plan"),
    EventType.STEP_STARTED: ("planning", "plan"),
    EventType.ROUTE_DECIDED: ("planning", "plan"),
    EventType.EXECUTOR_STARTED: ("working", "work"),
    EventType.TOOL_CALLED: ("working", "work"),
    EventType.TOOL_RESULT: ("working", "work"),
    EventType.ANSWER_DELTA: ("working", "work"),
    EventType.ANSWER_RETRACTED: ("verifying", "verify"),
    EventType.EVALUATION_RECORDED: ("verifying", "verify"),
    EventType.REPLAN_DECIDED: ("verifying", "verify"),
    EventType.ESCALATED: ("verifying", "verify"),
    EventType.REPAIR_ATTEMPTED: ("repairing", "verify"),
}
_TERMINAL = {EventType.RUN_COMPLETED, EventType.RUN_FAILED, EventType.RUN_CANCELLED}
_MAX_FINAL_EVENTS = 300
_MAX_TEXT = 600
_MAX_LIST = 20


def orb_for_event(event_type: str, status: str | None = None) -> tuple[str, str | None] | None:
    """(orb, phase) an event moves the panel to, or None when it leaves them unchanged.

    A cancelled run keeps its phase (None): the tracker shows where it stopped, not Done.
    """
    if event_type in _TERMINAL:
        orb = orb_of_status(status) if status else "done"
        return orb, (None if orb == "cancelled" else "done")
    return _ORB_OF_EVENT.get(event_type)


class RunPanel(anywidget.AnyWidget):
    """The run panel widget. Thread-safe: `on_event` may be called from a worker thread."""

    # anywidget adds `_esm` and `_anywidget_id` to each instance (`add_traits`), which builds
    # a new class per panel: ~0.5 ms of every `%zlens`. Declared here, they are set instead.
    _esm = traitlets.Unicode("").tag(sync=True)
    _anywidget_id = traitlets.Unicode("").tag(sync=True)
    _panel_id = traitlets.Unicode("").tag(sync=True)
    question = traitlets.Unicode("").tag(sync=True)
    orb = traitlets.Unicode("idle").tag(sync=True)
    phase = traitlets.Unicode("idle").tag(sync=True)
    budget = traitlets.Dict().tag(sync=True)
    final_run = traitlets.Dict().tag(sync=True)
    # Stop is live only while this run executes; a background run is stopped by a message
    # (never a kernel interrupt, which would hit whatever cell runs then); offline runs spend
    # no tokens or money, so those meters are hidden.
    stoppable = traitlets.Bool(True).tag(sync=True)
    background = traitlets.Bool(False).tag(sync=True)
    # What a synchronous Stop may interrupt: "cell" only while the panel's own cell executes
    # (a magic's run); "kernel" for a run inside a widget callback (no cell executes then).
    interrupt_scope = traitlets.Unicode("cell").tag(sync=True)
    offline = traitlets.Bool(False).tag(sync=True)

    def __init__(
        self, question: str = "", *, budget: Budget | dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        budget_dict = budget.to_dict() if isinstance(budget, Budget) else dict(budget or {})
        kwargs.setdefault("layout", _shared_layout())
        super().__init__(
            # Read the bundle here rather than at class creation, so a build that happens
            # after import is picked up and a missing build fails with a fix, not a broken view.
            _esm=_panel_source(),
            question=question,
            budget=budget_dict or Budget().to_dict(),
            _panel_id=uuid.uuid4().hex,
            **kwargs,
        )
        self._events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._stop_callbacks: list[Callable[[], object]] = []
        self.stop_requested = False
        self.stop_errors: list[str] = []
        self.on_msg(self._handle_message)

    @traitlets.default("_anywidget_id")
    def _default_anywidget_id(self) -> str:
        return f"{type(self).__module__}.{type(self).__name__}"  # what anywidget would set

    def add_traits(self, **traits: Any) -> None:
        """Add only the traits this class does not declare (see `_esm` above)."""
        missing = {name: trait for name, trait in traits.items() if not self.has_trait(name)}
        if missing:
            super().add_traits(**missing)

    # -- the engine's side --------------------------------------------------------------------

    def on_event(self, event: Event | dict[str, Any]) -> None:
        """Forward one engine event to the browser (an `Engine.run(on_event=...)` subscriber)."""
        data = slim_event(event.to_dict() if isinstance(event, Event) else dict(event))
        with self._lock:
            self._events.append(data)
            self.send({"kind": "event", "event": data})
        moved = orb_for_event(str(data.get("type")), data.get("status"))
        if moved is not None:
            orb, phase = moved
            if orb != self.orb:
                self.orb = orb
            if phase is not None and phase != self.phase:
                self.phase = phase

    def finish(self, run: AgentRun, data: dict[str, Any] | None = None) -> None:
        """Show the finished run; it is kept in widget state, so a saved notebook shows it.
        `data` is `run.to_dict()` when the caller has it already (read, never changed)."""
        data = run.to_dict() if data is None else data
        with self.hold_sync():  # one state message for the five traits, not five
            self.stoppable = False
            self.budget = data["budget"]
            self.final_run = compact_run(data)
            self.orb = orb_of_status(run.status)
            if self.orb != "cancelled":
                self.phase = "done"

    def fail(self) -> None:
        """The run failed before it started: finished, with nothing left to stop."""
        self.stoppable = False
        self.orb, self.phase = "failed", "done"

    def reset(self, question: str) -> None:
        """Clear the panel for a new run (the interactive panel reuses one widget)."""
        with self._lock:
            self._events.clear()
            self.send({"kind": "reset"})
        self.stop_requested = False
        self.final_run = {}
        self.question = question
        self.orb, self.phase = "idle", "idle"
        self.stoppable = True

    def hear_while_busy(self) -> None:
        """Let Stop reach this panel while another cell keeps the main shell busy.

        ipykernel 7.4 routes a comm's incoming messages to the subshell that last published
        on it; for a panel updated from a worker thread that is the main shell, where a Stop
        would wait behind whatever cell runs next (measured: until it ended). JupyterLab
        sends widget messages on a subshell of their own: handled there, Stop cancels the
        background run at once. The hook is ipykernel's; without it nothing changes.
        """
        comm = getattr(self, "comm", None)
        if comm is not None and hasattr(comm, "_reply_subshell_for"):
            comm._reply_subshell_for = lambda _data, default: default

    def on_stop(self, callback: Callable[[], object]) -> None:
        """Call `callback()` when the user clicks Stop (e.g. `panel.on_stop(token.cancel)`).

        The message arrives while the kernel is free to read it: during a background run, or
        after a synchronous cell ends (a synchronous run is stopped by a kernel interrupt).
        """
        self._stop_callbacks.append(callback)

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events forwarded so far (a copy)."""
        with self._lock:
            return list(self._events)

    # -- the browser's side -------------------------------------------------------------------

    def _handle_message(self, _widget: object, content: dict[str, Any], _buffers: object) -> None:
        kind = content.get("kind") if isinstance(content, dict) else None
        if kind == "hello" and not self.final_run:
            with self._lock:
                self.send({"kind": "replay", "events": list(self._events)})
        elif kind == "stop":
            self.stop_requested = True
            for callback in list(self._stop_callbacks):
                try:
                    callback()
                except Exception as exc:  # one broken callback must not hide the others
                    self.stop_errors.append(f"{type(exc).__name__}: {exc}")

    # -- display --------------------------------------------------------------------------------

    def __repr__(self) -> str:
        """One status line: what a front end without a widget manager shows."""
        run = self.final_run
        trust = run.get("trust_state") if run else None
        tail = f" trust={trust}" if trust else ""
        return f"<ZLens run panel: {self.orb.replace('_', ' ')}{tail} — {self.question!r}>"


_LAYOUT: ipywidgets.Layout | None = None


def _shared_layout() -> ipywidgets.Layout:
    """One Layout for every panel (ipywidgets lets widgets share one; panels never change
    theirs): otherwise each `%zlens` opens a second widget, with its own comm, just for it."""
    global _LAYOUT
    if _LAYOUT is None or _LAYOUT.comm is None:  # none yet, or closed (`Widget.close_all()`)
        _LAYOUT = ipywidgets.Layout()
    return _LAYOUT


def _panel_source() -> str:
    if not PANEL_JS.is_file():
        raise ConfigError(
            f"The ZLens run panel is not built ({PANEL_JS} is missing). "
            "Reinstall with `pip install -e .` (needs Node.js and npm) to build the panel."
        )
    return PANEL_JS.read_text(encoding="utf-8")


def slim_event(event: dict[str, Any]) -> dict[str, Any]:
    """The event with long strings and lists in its payload cut, so no message is bulky."""
    payload = event.get("payload")
    if isinstance(payload, dict):
        event = {**event, "payload": {k: _slim(v) for k, v in payload.items()}}
    return event


def _slim(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return value if len(value) <= _MAX_TEXT else value[:_MAX_TEXT] + "…"
    if isinstance(value, list):
        return [_slim(v, depth + 1) for v in value[:_MAX_LIST]]
    if isinstance(value, dict):
        return {k: _slim(v, depth + 1) for k, v in value.items()} if depth < 4 else "…"
    return value


_BULKY_ATTEMPT_KEYS = frozenset({"result", "raw_model_output", "parsed_intent", "provenance"})


def compact_run(run: AgentRun | dict[str, Any]) -> dict[str, Any]:
    """The run record minus its bulky parts: result rows, raw model output, event payloads.

    Same schema as `AgentRun.to_dict()` (fields removed, never renamed), plus `insert`: the
    cell sources the panel's Insert buttons use. A record passed in is copied where it is
    cut, never changed.
    """
    full = run.to_dict() if isinstance(run, AgentRun) else run
    data = dict(full)
    # The cell sources read the whole record: taken before its bulky parts are cut.
    insert = {"dql": dql_draft_source(full), "sql": sql_cell_source(full)}
    if data.get("result"):
        data["result"] = {k: v for k, v in data["result"].items() if k != "rows"}
    data["steps"] = [
        {**step, "attempts": [_compact_attempt(a) for a in step["attempts"]]}
        if "attempts" in step
        else step
        for step in data.get("steps", [])
    ]
    data["events"] = [
        {k: v for k, v in ev.items() if k != "payload"}
        for ev in data.get("events", [])[-_MAX_FINAL_EVENTS:]
    ]
    data["artifacts"] = [
        {k: a.get(k) for k in ("id", "kind", "title", "route", "step_index")}
        for a in data.get("artifacts", [])
    ]
    data["insert"] = insert
    return data


def _compact_attempt(attempt: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in attempt.items() if k not in _BULKY_ATTEMPT_KEYS}
    if "evaluations" in kept:
        kept["evaluations"] = [
            {k: v for k, v in e.items() if k != "evidence"} for e in kept["evaluations"]
        ]
    return kept


__all__ = ["PANEL_JS", "RunPanel", "compact_run", "orb_for_event", "slim_event"]
