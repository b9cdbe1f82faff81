"""A `%zlens` run's live panel, shown only once the run is still going SHOW_AFTER_S after it
began.

Most certified answers end within a few milliseconds. A live panel for them would be a widget
(its comm, its state, its view) created, drawn for an instant and replaced at once by the
run's one-line summary: work nobody sees. So a run starts with nothing shown and its events
are kept; if it is still running when the delay is up, the panel's timer thread creates the
panel, gives it the events so far and displays it in the running cell. The timer, not an
event, shows it, so a long SQL statement that emits nothing still gets its panel (and Stop).

Either way the cell ends with the same output: the one-line summary (the live panel's display
replaced by it, or the summary shown directly), then the answer.

    live = DelayedPanel("How many?", budget=budget, offline=True, on_stop=cancel.cancel)
    live.start()
    run = session.ask("How many?", on_event=live.on_event)
    live.end(*summary_bundle(run))
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import Any

from IPython.display import display

from ..engine.records import Budget, Event
from .widget import call_later, panel_source

# Under ~0.1 s an answer feels immediate (the classic response-time limit): a panel shown for
# a run that ends sooner would only flash before its summary replaces it. Slower runs show it
# while they work, 0.1 s in (two LIVE_S event batches).
SHOW_AFTER_S = 0.1


class DelayedPanel:
    """The live panel of one `%zlens` run, created and displayed only if the run outlasts
    SHOW_AFTER_S (or at once, for a background run). Thread-safe."""

    def __init__(
        self,
        question: str,
        *,
        budget: Budget,
        offline: bool,
        on_stop: Callable[[], object],
    ) -> None:
        panel_source()  # an unbuilt panel fails now, with its fix, not silently in the timer
        self.question = question
        self._budget = budget
        self._offline = offline
        self._on_stop = on_stop
        self._lock = threading.Lock()
        self._events: list[Event | dict[str, Any]] = []  # until the panel exists
        self._panel: Any = None
        self._handle: Any = None
        self._ended = False

    @property
    def panel(self) -> Any:
        """The RunPanel widget, or None while (or if) it was never shown."""
        return self._panel

    def start(self, *, background: bool = False) -> None:
        """Show the panel SHOW_AFTER_S from now unless the run has ended by then; a background
        run's panel is shown at once (the cell ends now; the panel is all it shows)."""
        if background:
            with self._lock:
                self._show(background=True)
            return
        # The timer thread displays in this cell: the copied context carries the cell's parent
        # message (ipykernel keeps it in context variables), so the panel lands in this cell's
        # output even if the kernel meanwhile handled a message for another.
        context = contextvars.copy_context()
        call_later(SHOW_AFTER_S, lambda: context.run(self._show_if_running))

    def on_event(self, event: Event | dict[str, Any]) -> None:
        """An `Engine.run(on_event=...)` subscriber: kept until the panel exists, then its."""
        panel = self._panel
        if panel is None:
            with self._lock:
                panel = self._panel
                if panel is None:
                    self._events.append(event)
                    return
        panel.on_event(event)

    def end(self, data: dict[str, Any], metadata: dict[str, Any], *, failed: bool = False) -> Any:
        """The run ended: its output becomes `data` (the summary). Returns the RunPanel, now
        closed (nothing is left to Stop), or None when it was never shown."""
        with self._lock:  # after this, the timer shows nothing
            self._ended = True
            panel, handle = self._panel, self._handle
        if panel is None:
            display(data, metadata=metadata, raw=True)
            return None
        if failed:
            panel.fail()
        if handle is not None:
            handle.update(data, metadata=metadata, raw=True)
        panel.close()
        return panel

    def _show_if_running(self) -> None:
        with self._lock:
            if not self._ended and self._panel is None:
                self._show()

    def _show(self, *, background: bool = False) -> None:
        """Create and display the panel with the events so far (the caller holds the lock)."""
        from .widget import RunPanel

        panel = RunPanel(
            self.question, budget=self._budget, offline=self._offline, background=background
        )
        panel.on_stop(self._on_stop)
        if background:
            panel.hear_while_busy()
        for event in self._events:
            panel.on_event(event)
        self._events.clear()
        # The widget's own bundle, shown as it is: IPython's formatters would only look for
        # other representations it does not have.
        bundle = panel._repr_mimebundle_()
        if bundle is None:  # anywidget's "no view": let IPython say what it can
            self._handle = display(panel, display_id=True)
        else:
            data, metadata = bundle
            self._handle = display(data, metadata=metadata, raw=True, display_id=True)
        self._panel = panel
        panel.flush()  # the orb and phase the events moved it to (the view replays events)


__all__ = ["SHOW_AFTER_S", "DelayedPanel"]
