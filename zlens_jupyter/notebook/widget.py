"""The live run panel: an anywidget fed by the engine's event stream.

The engine calls `panel.on_event(event)` for every event. Events go to the browser in
batches: the first event of a batch arms a timer, and LIVE_S later one custom message carries
every event since (history is never resent), with the orb and phase they moved the panel to.
A run that ends sooner sends none of them: `finish()` sets the finished record, which the
view draws alone, and a `%zlens` panel is closed as it ends (`%zlens` creates its panel only
for a run still going after a short delay: see live_panel.py). So a 5 ms certified answer costs
no per-event serialization or message, and a long run still moves its panel live. Only
small, durable facts live in synced traits: `orb` and `phase` (updated when they change,
sent with the batch), `budget`, and `final_run` (set once, at the end, to the compact run
record) so that a saved notebook reopens showing the finished run. Messages sent before the
browser view exists are lost, so the view asks for a replay (`hello`) when it loads.

    panel = RunPanel("What is revenue by segment?", budget=engine.budget)
    display(panel)
    run = engine.run(question, on_event=panel.on_event)
    panel.finish(run)
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import stat
import threading
import time
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
LIVE_S = 0.05  # an event reaches the browser at most this long after it happened
# Synced traits whose changes wait for the event batch they belong to (sent with it).
_BATCHED_TRAITS = frozenset({"orb", "phase"})


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
    _armed = False  # a flush is due (the batch is open)
    _holding = False  # every synced change is held (inside `finish`)

    def __init__(
        self, question: str = "", *, budget: Budget | dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        budget_dict = budget.to_dict() if isinstance(budget, Budget) else dict(budget or {})
        kwargs.setdefault("layout", _shared_layout())
        super().__init__(
            # Read the bundle here rather than at class creation, so a build that happens
            # after import is picked up and a missing build fails with a fix, not a broken view.
            _esm=panel_source(),
            question=question,
            budget=budget_dict or Budget().to_dict(),
            _panel_id=uuid.uuid4().hex,
            **kwargs,
        )
        # Every event forwarded, in order: serialized (slim dicts) up to `_serialized`, the rest
        # still the engine's records (turned into dicts only when sent or read). The browser
        # has the first `_sent` of them.
        self._events: list[Event | dict[str, Any]] = []
        self._serialized = 0
        self._sent = 0
        self._held: set[str] = set()  # synced traits changed and not sent yet
        self._lock = threading.RLock()
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
        """Forward one engine event to the browser (an `Engine.run(on_event=...)` subscriber).

        The event is kept as it is; it is serialized and sent with its batch (see LIVE_S)."""
        if isinstance(event, Event):
            kind, status = event.type.value, event.status
        else:
            event = dict(event)
            kind, status = str(event.get("type")), event.get("status")
        with self._lock:
            self._events.append(event)
            if not self._armed:
                self._armed = True
                _FLUSHER.call_later(LIVE_S, self._flush_armed)
            moved = orb_for_event(kind, status)
            if moved is not None:
                orb, phase = moved
                if orb != self.orb:
                    self.orb = orb
                if phase is not None and phase != self.phase:
                    self.phase = phase

    def flush(self) -> None:
        """Send the events not sent yet, in one message, with the orb and phase they set."""
        with self._lock:
            self._armed = False
            held, self._held = self._held, set()
            if self.comm is None:
                self._sent = len(self._events)
                return
            batch = self._serialized_events()[self._sent :]
            self._sent = len(self._events)
            if batch:
                self.send({"kind": "events", "events": batch})
            if held:
                self.send_state(sorted(held))

    def _flush_armed(self) -> None:
        if self._armed:  # not finished, reset or flushed meanwhile
            self.flush()

    def _serialized_events(self) -> list[dict[str, Any]]:
        """Every event as a slim dict (those not serialized yet are, now, once)."""
        events = self._events
        for i in range(self._serialized, len(events)):
            event = events[i]
            events[i] = slim_event(event.to_dict() if isinstance(event, Event) else event)
        self._serialized = len(events)
        return events  # type: ignore[return-value]

    def _should_send_property(self, key: str, value: Any) -> bool:
        """(ipywidgets' hook, asked before a changed trait is sent) The orb and phase go with
        the open batch, and `finish()` sends its traits in one message: held until then."""
        if self._holding or (self._armed and key in _BATCHED_TRAITS):
            self._held.add(key)
            return False
        return bool(super()._should_send_property(key, value))

    def finish(self, run: AgentRun, data: dict[str, Any] | None = None) -> None:
        """Show the finished run; it is kept in widget state, so a saved notebook shows it.
        `data` is `run.to_dict()` when the caller has it already (read, never changed).

        Events not sent yet are not: the view draws the finished record alone. On a panel
        already closed (a `%zlens` run folds its panel first) nothing is sent at all."""
        data = run.to_dict() if data is None else data
        with self._lock:
            self._armed = False  # the batch is dropped: the record below replaces it
            self._sent = len(self._events)
            self._holding = True  # one state message for the traits below, not one each
            try:
                self.stoppable = False
                self.budget = data["budget"]
                self.final_run = compact_run(data)
                self.orb = orb_of_status(run.status)
                if self.orb != "cancelled":
                    self.phase = "done"
            finally:
                self._holding = False
            held, self._held = self._held, set()  # with an orb the batch moved, not sent yet
            if held and self.comm is not None:
                self.send_state(sorted(held))

    def fail(self) -> None:
        """The run failed before it started: finished, with nothing left to stop."""
        self.stoppable = False
        self.orb, self.phase = "failed", "done"

    def reset(self, question: str) -> None:
        """Clear the panel for a new run (the interactive panel reuses one widget)."""
        with self._lock:
            self._events.clear()
            self._serialized = self._sent = 0
            self._armed = False
            self._held.clear()
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
            return list(self._serialized_events())

    # -- the browser's side -------------------------------------------------------------------

    def _handle_message(self, _widget: object, content: dict[str, Any], _buffers: object) -> None:
        kind = content.get("kind") if isinstance(content, dict) else None
        if kind == "hello" and not self.final_run:
            with self._lock:
                events = self._serialized_events()
                self._sent = len(events)  # the replay carries the open batch too
                self.send({"kind": "replay", "events": list(events)})
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


class _Flusher:
    """One daemon thread that runs callbacks when they are due: each armed panel's flush,
    LIVE_S after its batch opened, and a `%zlens` panel's delayed display (a thread per batch
    would cost more than the messages it saves)."""

    def __init__(self) -> None:
        self._wakeup = threading.Condition()
        self._queue: list[tuple[float, int, Callable[[], object]]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def call_later(self, delay: float, callback: Callable[[], object]) -> None:
        with self._wakeup:
            order = next(self._order)
            heapq.heappush(self._queue, (time.monotonic() + delay, order, callback))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="zlens-panel-events", daemon=True
                )
                self._thread.start()
            elif self._queue[0][1] == order:  # due before what the thread sleeps for
                self._wakeup.notify()

    def _run(self) -> None:
        while True:
            with self._wakeup:
                while not self._queue or self._queue[0][0] > time.monotonic():
                    wait = self._queue[0][0] - time.monotonic() if self._queue else None
                    self._wakeup.wait(wait)
                _, _, callback = heapq.heappop(self._queue)
            # A closed kernel connection must not end the thread (nor a later panel's).
            with contextlib.suppress(Exception):
                callback()


_FLUSHER = _Flusher()


def call_later(delay: float, callback: Callable[[], object]) -> None:
    """Run `callback()` on the panels' timer thread `delay` seconds from now."""
    _FLUSHER.call_later(delay, callback)


_LAYOUT: ipywidgets.Layout | None = None


def _shared_layout() -> ipywidgets.Layout:
    """One Layout for every panel (ipywidgets lets widgets share one; panels never change
    theirs): otherwise each `%zlens` opens a second widget, with its own comm, just for it."""
    global _LAYOUT
    if _LAYOUT is None or _LAYOUT.comm is None:  # none yet, or closed (`Widget.close_all()`)
        _LAYOUT = ipywidgets.Layout()
    return _LAYOUT


# panel.js as last read: ((path, mtime, size), text)
_SOURCE: tuple[tuple[str, int, int], str] | None = None


def panel_source() -> str:
    """The panel's bundle, read again only when the file changed (a rebuild): every `%zlens`
    opens a panel, and reading the file each time cost more than checking it."""
    global _SOURCE
    try:
        info = os.stat(PANEL_JS)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        raise ConfigError(
            f"The ZLens run panel is not built ({PANEL_JS} is missing). "
            "Reinstall with `pip install -e .` (needs Node.js and npm) to build the panel."
        )
    version = (os.fspath(PANEL_JS), info.st_mtime_ns, info.st_size)
    if _SOURCE is None or _SOURCE[0] != version:
        _SOURCE = (version, PANEL_JS.read_text(encoding="utf-8"))
    return _SOURCE[1]


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


__all__ = [
    "PANEL_JS",
    "RunPanel",
    "call_later",
    "compact_run",
    "orb_for_event",
    "panel_source",
    "slim_event",
]
