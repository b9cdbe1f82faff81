"""Ctrl-C, Jupyter's Stop and a kernel interrupt (all SIGINT) become the run's cancel token.

Python runs a signal handler only when the main thread executes bytecode. While the main
thread is inside DuckDB (or waits on a socket), the handler waits too: DuckDB looks for
pending signals only when it can take the GIL, and with other busy Python threads that took
10 s and more (measured: a statement timeout could fire first, and a timeout is repaired and
re-run). So, for the length of one run, two things listen:

- the C-level signal handler writes the signal number to a wakeup pipe (`set_wakeup_fd`),
  and a watcher thread reading that pipe cancels the token and wakes the statement watchdog,
  which interrupts the running DuckDB statement at once (`cursor.interrupt()`);
- the Python-level handler cancels the token too, and raises KeyboardInterrupt only while an
  executor or planner works (to stop a blocking model call); anywhere else (the loop's own
  bookkeeping, finalizing, persisting) the loop's per-turn check ends the run, so a signal
  can never tear a run record half-written.

Outside the main thread (a `--background` run), none of this is installed: Stop arrives as a
widget message that cancels the token directly.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType

from .engine import CancelToken
from .warehouse.deadline import poll_stops_now, stop_scope

REASON = "interrupted (Ctrl-C / Stop)"

# Frames in which raising KeyboardInterrupt is safe and useful: an executor or a planner at
# work. Engine.run catches it there and ends the run `cancelled`.
_RAISE_IN = frozenset({"execute_attempt", "plan", "replan"})
_NEVER_IN = frozenset({"_finish", "finalize", "save", "checkpoint", "_checkpoint"})

_lock = threading.Lock()
_active: list[CancelToken] = []
_pipe: tuple[int, int] | None = None
_forward: list[int] = []  # the wakeup fd that was installed before ours (asyncio's, say)


@contextmanager
def cancel_on_interrupt(token: CancelToken) -> Iterator[CancelToken]:
    """While the block runs, SIGINT cancels `token` and interrupts its DuckDB statements;
    every statement started in the block obeys the token (`stop_scope`)."""
    with stop_scope(lambda: token.cancelled):
        if not _can_install():
            yield token
            return
        previous_handler = signal.getsignal(signal.SIGINT)
        _read_fd, write_fd = _wakeup_pipe()
        previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        with _lock:
            _active.append(token)
            _forward[:] = [previous_fd] if previous_fd not in (-1, write_fd) else []

        def on_sigint(signum: int, frame: FrameType | None) -> None:
            token.cancel(REASON)
            poll_stops_now()
            if _raise_here(frame):
                raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_sigint)
        try:
            yield token
        finally:
            signal.signal(signal.SIGINT, previous_handler)
            signal.set_wakeup_fd(previous_fd, warn_on_full_buffer=False)
            with _lock:
                _active.remove(token)
                _forward.clear()


def _can_install() -> bool:
    if threading.current_thread() is not threading.main_thread():
        return False
    if not hasattr(signal, "set_wakeup_fd") or os.name != "posix":
        return False
    # A handler installed from C (None) could not be restored: leave it alone.
    return signal.getsignal(signal.SIGINT) is not None


def _raise_here(frame: FrameType | None) -> bool:
    names = set()
    while frame is not None:
        names.add(frame.f_code.co_name)
        frame = frame.f_back
    return bool(names & _RAISE_IN) and not names & _NEVER_IN


def _wakeup_pipe() -> tuple[int, int]:
    """One pipe and one watcher thread per process, started on first use."""
    global _pipe
    with _lock:
        if _pipe is None:
            read_fd, write_fd = os.pipe()
            os.set_blocking(write_fd, False)
            _pipe = (read_fd, write_fd)
            threading.Thread(
                target=_watch, args=(read_fd,), name="zlens-sigint", daemon=True
            ).start()
        return _pipe


def _watch(read_fd: int) -> None:
    while True:
        try:
            data = os.read(read_fd, 512)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        with _lock:
            tokens = list(_active)
            forward = list(_forward)
        if int(signal.SIGINT) in data:
            for token in tokens:
                token.cancel(REASON)
            poll_stops_now()
        for fd in forward:  # whoever listened before us still hears every signal
            with suppress(OSError):
                os.write(fd, data)
