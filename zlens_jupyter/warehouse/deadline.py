"""Statement deadlines: interrupt a DuckDB cursor whose statement ran too long.

DuckDB checks for interrupts between vectors, so `cursor.interrupt()` stops even a runaway
cross join within milliseconds. One shared watchdog thread serves every deadline: a catalog
scan of a large warehouse runs thousands of small statements, and starting a timer thread
for each would cost more than the statements themselves.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time

import duckdb


class Deadline:
    """Interrupts `cursor` `seconds` after entering; `expired` tells our timeout apart from
    any other interrupt. Leaving the block disarms it for good."""

    def __init__(self, cursor: duckdb.DuckDBPyConnection, seconds: float) -> None:
        self.seconds = seconds
        self.cursor = cursor
        self.due = 0.0
        self.expired = False
        self.disarmed = False

    def __enter__(self) -> Deadline:
        self.due = time.monotonic() + self.seconds
        _WATCHDOG.arm(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        _WATCHDOG.disarm(self)


class _Watchdog:
    """One daemon thread sleeping until the earliest armed deadline."""

    def __init__(self) -> None:
        self._wakeup = threading.Condition()
        self._queue: list[tuple[float, int, Deadline]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, deadline: Deadline) -> None:
        with self._wakeup:
            heapq.heappush(self._queue, (deadline.due, next(self._order), deadline))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="zlens-deadlines", daemon=True
                )
                self._thread.start()
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
                    self._wakeup.wait()
                    continue
                wait = self._queue[0][0] - time.monotonic()
                if wait > 0:
                    self._wakeup.wait(wait)
                    continue
                _, _, deadline = heapq.heappop(self._queue)
                deadline.expired = True
                deadline.cursor.interrupt()


_WATCHDOG = _Watchdog()
