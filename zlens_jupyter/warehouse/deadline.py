"""Statement deadlines: interrupt a DuckDB cursor whose statement ran too long.

DuckDB checks for interrupts between vectors, so `cursor.interrupt()` stops even a runaway
cross join within milliseconds. One shared watchdog thread serves every deadline: a catalog
scan of a large warehouse runs thousands of small statements, and starting a timer thread
for each would cost more than the statements themselves.
"""

from __future__ import annotations

import contextvars
import heapq
import itertools
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol


class Interruptible(Protocol):
    """What a deadline stops: a DuckDB cursor, or a Spark job group (warehouse.spark)."""

    def interrupt(self) -> None: ...


class Deadline:
    """Interrupts `cursor` `seconds` after entering; `expired` tells our timeout apart from
    any other interrupt. Leaving the block disarms it for good."""

    def __init__(
        self,
        cursor: Interruptible,
        seconds: float,
        should_stop: Callable[[], bool] | None = None,
    ) -> None:
        self.seconds = seconds
        self.cursor = cursor
        # Polled by the watchdog: a Stop click (a cancel token) interrupts the statement too.
        # Without one of its own, a statement obeys the run it belongs to (`stop_scope`).
        self.should_stop = should_stop or _SCOPE_STOP.get()
        self.due = 0.0
        self.expired = False  # our timer stopped it
        self.cancelled = False  # a cancel (Stop, Ctrl-C) stopped it: never a timeout
        self.disarmed = False

    def stop_requested(self) -> bool:
        """Whether the run this statement belongs to was cancelled (a Stop, Ctrl-C)."""
        if self.cancelled:
            return True
        if self.should_stop is None:
            return False
        try:
            return bool(self.should_stop())
        except Exception:  # a broken predicate is not a cancel
            return False

    def __enter__(self) -> Deadline:
        self.due = time.monotonic() + self.seconds
        _WATCHDOG.arm(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        _WATCHDOG.disarm(self)


STOP_POLL_S = 0.1  # how often a running statement checks for Stop

_SCOPE_STOP: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "zlens_stop", default=None
)


@contextmanager
def stop_scope(should_stop: Callable[[], bool]) -> Iterator[None]:
    """Every statement started in this block (this thread) is interrupted as soon as
    `should_stop()` turns true, also those whose caller passed no cancel predicate."""
    token = _SCOPE_STOP.set(should_stop)
    try:
        yield
    finally:
        _SCOPE_STOP.reset(token)


def poll_stops_now() -> None:
    """Wake the watchdog to check every running statement's cancel at once (a signal just
    cancelled a run: do not wait for the next poll)."""
    _WATCHDOG.poke()


class _Watchdog:
    """One daemon thread sleeping until the earliest armed deadline.

    Arming wakes the thread only when it would otherwise look too late: a deadline due
    before its next wake-up, or a Stop to poll while it sleeps longer than STOP_POLL_S.
    Every statement of an answer arms a deadline, and waking the thread for each cost a
    thread switch per statement (more when other processes share the cores)."""

    def __init__(self) -> None:
        self._wakeup = threading.Condition()
        self._queue: list[tuple[float, int, Deadline]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        # When the sleeping thread looks at the queue next (monotonic; inf: only when
        # notified). Read and written under `_wakeup`.
        self._wakes_at = math.inf

    def arm(self, deadline: Deadline) -> None:
        with self._wakeup:
            heapq.heappush(self._queue, (deadline.due, next(self._order), deadline))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="zlens-deadlines", daemon=True
                )
                self._thread.start()
            late = deadline.due < self._wakes_at
            if not late and deadline.should_stop is not None:
                late = self._wakes_at - time.monotonic() > STOP_POLL_S
            if late:
                self._wakes_at = -math.inf  # woken: it reads the queue before sleeping again
                self._wakeup.notify()

    def poke(self) -> None:
        with self._wakeup:
            self._wakes_at = -math.inf
            self._wakeup.notify()

    def disarm(self, deadline: Deadline) -> None:
        # Under the same lock as firing, so a statement that finished can never be
        # interrupted afterwards (nor the next statement on a reused cursor).
        with self._wakeup:
            deadline.disarmed = True

    def _run(self) -> None:
        with self._wakeup:
            while True:
                while self._queue and self._queue[0][2].disarmed:
                    heapq.heappop(self._queue)
                if not self._queue:
                    self._wakes_at = math.inf
                    self._wakeup.wait()
                    continue
                self._stop_requested()
                now = time.monotonic()
                wait = self._queue[0][0] - now
                if wait > 0:
                    polled = any(d.should_stop for _, _, d in self._queue if not d.disarmed)
                    wait = min(wait, STOP_POLL_S) if polled else wait
                    self._wakes_at = now + wait
                    self._wakeup.wait(wait)
                    continue
                _, _, deadline = heapq.heappop(self._queue)
                # A statement of a cancelled run that also reached its time limit was
                # cancelled: it must never read as a timeout (timeouts are repaired and
                # re-run; a cancel ends the run).
                if deadline.stop_requested():
                    deadline.cancelled = True
                else:
                    deadline.expired = True
                deadline.cursor.interrupt()

    def _stop_requested(self) -> None:
        """Interrupt every armed statement whose run was stopped (called under the lock)."""
        for _, _, deadline in self._queue:
            if deadline.disarmed or deadline.should_stop is None:
                continue
            if deadline.stop_requested():  # never raises: a broken predicate is no cancel
                # Interrupt again on every poll until the statement's block ends: an
                # interrupt sent just before DuckDB starts the statement is lost (DuckDB
                # clears the flag when a query begins), and a cancelled statement must
                # never run on to its end.
                deadline.cancelled = True
                deadline.cursor.interrupt()


_WATCHDOG = _Watchdog()
