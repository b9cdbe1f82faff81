"""The run store: one JSON file per finished run under `<project>/.zlens/runs/`, and one per
live (or killed) run under `<project>/.zlens/runs-live/`.

Each file is the run record's own JSON (`AgentRun.to_dict()`), filled under another name and
only then renamed into runs/ (the run's live file, or a temp file), so a reader of runs/ never
sees half a file and two processes saving at once lose nothing. While a run is live the engine
writes checkpoints; a checkpoint also names its writer process, so a later listing can tell a
run that is still going from one whose process died (`interrupted`).

Nothing is lost silently: a record that cannot be written (a full disk, a read-only folder)
raises `RunNotStored` with one line saying so, which the engine keeps on the run
(`provenance["store_errors"]`) and the CLI and the notebook print. When the final save of a
finished run fails, its stale checkpoint is removed (so the run can never be listed as
`interrupted`) and a compact record of the outcome is tried in its place.

Records are capped (`cap_record`): at most MAX_ROWS result rows per list and MAX_TEXT
characters per text; what is cut is replaced by a note with its size and sha256, so a 50 MB
cell makes a record of kilobytes, not hundreds of megabytes. Text that is not valid Unicode
(a lone surrogate from a non-UTF-8 byte in argv) is stored escaped (`\udcff`).

Off the hot path (issue 11): a run costs one small checkpoint (no result rows, no fsync,
written when the run starts and then at most every CHECKPOINT_EVERY_S seconds) and one final
write. Neither is fsynced: what they guard against is a killed process (kill -9, a dead
kernel), and the page cache outlives the process; a record torn by a power cut is skipped as
unreadable, never misread. Each final write appends one line to a summary index
(`.zlens/runs-index.jsonl`), so `list()` reads one small file instead of parsing every
record; a record the index does not know (a live or killed run, a record written by an older
version) is read from its own file, so the index can be lost and nothing is.

A run creates one file, and replaces none by a rename (later checkpoints of a run longer
than CHECKPOINT_EVERY_S aside). On ext4 (here, with `discard`) creating a file costs ~75-100
µs, renaming to a new name ~13 µs, an O_APPEND write ~4 µs, but a rename over an existing
file ~110 µs (auto_da_alloc flushes on replace-by-rename and on truncate-to-zero). The old
layout (an empty marker, a checkpoint and a final record each made as a file, the final one
renamed over the checkpoint) cost ~180 µs a run here; this one ~75 µs. So:

    .zlens/runs-live/<id>.json   the first checkpoint, made with O_EXCL: the live run's file,
                                 which also says the run is not finished (no other marker)
    .zlens/runs/<id>.json        the final record: written over the live file in place (no
                                 O_TRUNC; cut to its length only when shorter), then that
                                 file renamed here, a new name on the same filesystem
    .zlens/runs-index.jsonl      one line appended per finished run

Later checkpoints of a long run replace the live file (temp + `os.replace`): rare. When the
live file is missing, or runs/ is on another filesystem (EXDEV), the final record is written
as before (temp file in runs/ + `os.replace`) and the live file removed. A live file is read
as its checkpoint says (a dead writer on this host: `interrupted`); one that cannot be parsed
(a writer killed during the final write in place) is listed by its name, `running` while it
was touched under LIVE_GRACE_S ago, else `interrupted`; one that holds a finished record (a
writer killed between its final write and the rename) is listed as it ended, and moved into
runs/ by the first listing after LIVE_GRACE_S. An empty `runs-live/<id>` (no
`.json`), left by an older version, still means "the checkpoint is in runs/<id>.json".

The folders are queryable with DuckDB: `runs/*.json` holds the finished runs, and
`runs-live/*.json` the live and killed ones:

    SELECT id, question, status, trust_state
    FROM read_json('.zlens/runs/*.json', union_by_name = true)
"""

from __future__ import annotations

import builtins
import contextlib
import datetime as dt
import errno
import hashlib
import heapq
import json
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import orjson

from .engine import enums
from .engine.enums import RunStatus
from .engine.records import AgentRun, utc_now
from .engine.serde import record_fields, to_jsonable
from .errors import UserError

RUNS_DIR = Path(".zlens") / "runs"
MAX_ROWS = 200  # result rows kept per list in a stored record
MAX_TEXT = 64 * 1024  # characters kept per text (question, message, model output, argument)
CHECKPOINT_EVERY_S = 1.0  # later checkpoints of one run: at most this often
INDEX_NAME = "runs-index.jsonl"  # beside runs/, so `runs/*.json` globs see records only
_INDEX_QUESTION = 500  # characters of the question kept in an index line
LIVE_NAME = "runs-live"  # beside runs/: `<id>.json`, the checkpoint of each run not finished
# An unreadable live file (its writer killed mid-way through the final write in place) reads
# `running` while it was written this recently, `interrupted` after.
LIVE_GRACE_S = 10.0
# A listing with a limit reads this many index lines more than it shows, from the end: a
# run among the newest by start is missed only if more than this many runs overlapped it.
TAIL_SLACK = 1000


class RunNotStored(UserError):
    """The run finished but its record could not be written (said in one line)."""


@dataclass(frozen=True)
class RunSummary:
    id: str
    question: str
    status: str
    trust_state: str | None
    route: str | None
    started_at: str
    ended_at: str | None
    path: Path


class RunStore:
    """Persists runs for one project folder. Implements the engine's RunSink protocol."""

    def __init__(self, project_dir: str | os.PathLike[str]) -> None:
        self.project_dir = Path(project_dir)
        self.dir = self.project_dir / RUNS_DIR
        self.index_path = self.dir.parent / INDEX_NAME
        self.live_dir = self.dir.parent / LIVE_NAME
        # The same folders as text: every run writes a few files, and joining Paths for
        # each (pathlib's parsing) cost more than some of the writes.
        self._dir_text = os.fspath(self.dir)
        self._live_text = os.fspath(self.live_dir)
        self._checkpointed: dict[str, float] = {}  # run id -> when its last checkpoint was
        # run id -> bytes in the live file this store made for it (`checkpoint`): the final
        # save writes over that file and renames it into runs/, creating no other file.
        self._live: dict[str, int] = {}
        self._saved: tuple[AgentRun, bytes | None] | None = None  # the last save's JSON
        self._stored: dict[str, str] = {}  # run id -> status of its last complete final write

    # -- writing -------------------------------------------------------------------------

    def checkpoint(self, run: AgentRun) -> None:
        """A small record of a live run (result rows left out), so that a run whose process
        dies is listed `interrupted`. The first one is always written; later ones at most
        every CHECKPOINT_EVERY_S (the final write follows anyway)."""
        now = time.monotonic()
        last = self._checkpointed.get(run.id)
        if last is not None and now - last < CHECKPOINT_EVERY_S:
            return
        self._checkpointed[run.id] = now
        writer = {"pid": os.getpid(), "host": socket.gethostname(), "at": utc_now()}
        payload = uncut_json(run, keep_rows=0)
        if payload is not None:  # `"checkpoint"` added as the record's last key
            payload = payload[:-1] + b',"checkpoint":' + _encode(writer) + b"}"
        else:
            data = capped_record(run, keep_rows=0, hash_cut=False)
            data["checkpoint"] = writer
            payload = _encode(data)
        try:
            if last is None:
                self._create_live(run.id, payload)
            else:  # a long run (rare): the live file replaced whole, never seen half written
                self._replace(self.live_dir, f"{run.id}.json", payload)
        except OSError as exc:
            raise RunNotStored(f"checkpoint of {_not_stored(run.id, self.dir, exc)}") from exc
        self._live[run.id] = len(payload)

    def storage_problem(self, run: AgentRun) -> str | None:
        """One line when the finished `run` is not on disk as it ended, else None."""
        problems = [str(p) for p in run.provenance.get("store_errors", [])]
        if self._stored.get(run.id) == run.status.value and not problems:
            return None  # this store wrote it whole a moment ago: no need to read it back
        data = _read(self.dir / f"{run.id}.json")
        if data is not None and data.get("status") == run.status.value:
            if not data.get("not_stored"):
                return None
            trace = [p for p in problems if "without its trace" in p]
            return trace[-1] if trace else f"run {run.id}: {data['not_stored']}"
        final = [p for p in problems if not p.startswith("checkpoint of ")]
        return (final or problems or [f"run {run.id} was not stored in {self.dir}"])[-1]

    def save(self, run: AgentRun) -> None:
        """Write the finished run; if that fails, never leave a checkpoint that would later
        read `interrupted`: drop it, try a compact record, and raise RunNotStored."""
        self._checkpointed.pop(run.id, None)
        live_size = self._live.pop(run.id, None)
        try:
            payload = uncut_json(run, keep_rows=MAX_ROWS)
            if payload is not None:
                record = payload
                summary = _index_row({f: to_jsonable(getattr(run, f)) for f in _INDEX_FIELDS})
            else:
                cuts: list[int] = []
                data = _capped(run, MAX_ROWS, True, cuts)
                record = _encode(data)
                payload = None if cuts else record
                summary = _index_row(data)
            if live_size is None or not self._finish_live(run.id, record, live_size):
                self._replace(self.dir, f"{run.id}.json", record)
                # The checkpoint is stale now: removed, or it would be listed beside the
                # record (a reader would drop it too: the finished record wins).
                self._unmark_live(run.id)
        except OSError as exc:
            failure = exc
        else:
            # Nothing cut: the record is `run.to_dict()`'s JSON, for whoever shows the run next.
            self._saved = (run, payload)
            self._stored[run.id] = run.status.value
            self._index(summary)
            return
        # Nothing may be left that would later list as `interrupted` (the checkpoint), nor half
        # a record; removing them also frees space on a full disk.
        self._unmark_live(run.id)
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(self._dir_text, f"{run.id}.json"))
        try:
            self._write(run.id, _compact(run, failure))
        except OSError:
            raise RunNotStored(_not_stored(run.id, self.dir, failure)) from failure
        raise RunNotStored(
            f"run {run.id} was stored without its trace in {self.dir}: {_reason(failure)}"
        ) from failure

    def saved_json(self, run: AgentRun) -> bytes | None:
        """The JSON of `run.to_dict()` as the final save just wrote it (popped: asked once),
        or None when `run` is not the run last saved, or that save cut something (rows, long
        texts)."""
        saved, self._saved = self._saved, None
        return saved[1] if saved is not None and saved[0] is run else None

    def saved_record(self, run: AgentRun) -> dict[str, Any] | None:
        """`run.to_dict()` as the final save just wrote it (see `saved_json`)."""
        payload = self.saved_json(run)
        return None if payload is None else orjson.loads(payload)

    def _index(self, row: builtins.list[Any]) -> None:
        """Append the finished run's summary line (`_index_row`). Best effort: a record the
        index misses is read from its own file by `list()`, so a failure here loses nothing."""
        line = _encode(row) + b"\n"
        try:
            fd = os.open(self.index_path, _APPEND, 0o644)
        except OSError:
            return
        try:  # one write of one short line with O_APPEND: concurrent writers do not interleave
            os.write(fd, line)
        except OSError:
            pass
        finally:
            os.close(fd)

    def _create_live(self, run_id: str, payload: bytes) -> None:
        """The run's first checkpoint as the new file `runs-live/<id>.json`: the only file
        this run creates (see the module docstring)."""
        path = os.path.join(self._live_text, f"{run_id}.json")
        try:
            try:
                _write_new(path, payload)
            except FileNotFoundError:  # the first run here (see `_replace`)
                self.live_dir.mkdir(parents=True, exist_ok=True)
                _write_new(path, payload)
        except FileExistsError:
            # A file of that name already (a run id used again, a stale live file): replaced
            # whole, as a later checkpoint is, so this store's own file is the one it finishes.
            self._replace(self.live_dir, f"{run_id}.json", payload)

    def _finish_live(self, run_id: str, payload: bytes, live_size: int) -> bool:
        """Write the final record over this run's live file and rename that into runs/.
        False when that cannot be done (the live file is gone, runs/ is on another
        filesystem, a write failed): the caller then writes the record the other way.

        No O_TRUNC and no rename over an existing name: on ext4 either would flush the file
        (auto_da_alloc), and that flush was most of what a run's storing cost. Cut to its
        length only when the record is shorter than the checkpoint it overwrites."""
        live = os.path.join(self._live_text, f"{run_id}.json")
        try:
            fd = os.open(live, _OVERWRITE)
        except OSError:
            return False  # removed meanwhile (by a reader that found the run finished)
        try:
            try:
                _write_all(fd, payload, live)
                if live_size > len(payload):
                    os.ftruncate(fd, len(payload))
            finally:
                os.close(fd)
            final = os.path.join(self._dir_text, f"{run_id}.json")
            try:
                os.replace(live, final)  # a new name: no existing file to flush
            except FileNotFoundError:
                if not os.path.exists(live):
                    return False
                # runs/ is made when the first record finds it missing (see `_replace`).
                self.dir.mkdir(parents=True, exist_ok=True)
                os.replace(live, final)
        except OSError:  # EXDEV (runs/ is a link to another disk), a full disk, ...
            return False
        return True

    def _unmark_live(self, run_id: str) -> None:
        """Remove the run's live file (and an older version's empty marker): its final record
        stands, or must not be misread as an interrupted run."""
        for name in (f"{run_id}.json", run_id):
            with contextlib.suppress(OSError):  # missing already is fine too
                os.unlink(os.path.join(self._live_text, name))

    def _write(self, run_id: str, data: dict[str, Any]) -> None:
        # Serialized before any file is touched: a record that cannot be encoded must not
        # leave an empty file behind. Capped by the caller; lone surrogates escaped.
        self._replace(self.dir, f"{run_id}.json", _encode(data))

    def _replace(self, folder: Path, name: str, payload: bytes) -> None:
        """`folder/name` written whole (temp file + `os.replace`): a reader never sees half
        of it. The way the final record is written when no live file can take its place."""
        # The temp name starts with a dot and does not end in .json, so globs skip it.
        folder_text = os.fspath(folder)
        tmp = os.path.join(folder_text, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            try:
                _write_new(tmp, payload)
            except FileNotFoundError:
                # The folders are made when a write finds them missing, not checked before
                # every write: that check (mkdir, then its FileExistsError) cost ~0.07 ms.
                folder.mkdir(parents=True, exist_ok=True)
                _write_new(tmp, payload)
            os.replace(tmp, os.path.join(folder_text, name))
        except BaseException:
            # Whatever failed (a full disk, an interrupt), no temp file is left behind; once
            # replaced there is none, so a written record costs no call to remove it.
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    # -- reading -------------------------------------------------------------------------

    def list(self, limit: int | None = None) -> builtins.list[RunSummary]:
        """Runs newest first. A live checkpoint whose writer is gone reads `interrupted`.

        Finished runs come from the summary index; only records it does not know (live,
        killed, or older than the index) are parsed, and then added to it when finished.
        With a `limit`, a large index is read from its end only, plus the live runs' folder:
        listing 100,000 runs costs what listing a few thousand does."""
        if limit:
            tail = self._list_tail(limit)
            if tail is not None:
                return tail
        # runs-live/ is listed before runs/: a run finishing meanwhile is renamed from the
        # one into the other, so it is seen in at least one of them.
        live, _ = self._live_names()
        try:
            names = os.listdir(self.dir)
        except OSError:
            names = []
        indexed = self._read_index()
        rows: builtins.list[tuple[builtins.list[Any], Path | None]] = []
        for name in names:
            if name.startswith(".") or not name.endswith(".json"):
                continue
            row = indexed.get(name[:-5])
            if row is None:
                record = self._record_row(self.dir / name)
                if record is None:
                    continue
                row = record[0]
            rows.append((row, None))
        in_runs = set(names) if live else set()
        for run_id in live:
            if run_id in indexed or f"{run_id}.json" in in_runs:
                self._drop_live(run_id)  # the finished record wins: this one is stale
                continue
            found = self._live_row(run_id)
            if found is not None:
                rows.append(found)
                continue
            record = self._record_row(self.dir / f"{run_id}.json")
            if record is not None:  # finished since runs/ was listed: its record is there now
                rows.append((record[0], None))
        newest = (
            heapq.nlargest(limit, rows, key=_started_entry)
            if limit
            else sorted(rows, key=_started_entry, reverse=True)
        )
        return [self._summary(row, path) for row, path in newest]

    def _summary(self, r: builtins.list[Any], path: Path | None = None) -> RunSummary:
        return RunSummary(
            id=str(r[0]),
            question=str(r[1]),
            status=str(r[2]),
            trust_state=r[3],
            route=r[4],
            started_at=str(r[5]),
            ended_at=r[6],
            path=self.dir / f"{r[0]}.json" if path is None else path,
        )

    def _list_tail(self, limit: int) -> builtins.list[RunSummary] | None:
        """The newest `limit` runs from the index's last lines and the live runs' folder, or
        None when the index is small (or missing) and the whole folder is read instead: then
        records no index line knows (written before the index) are found too."""
        live, markers = self._live_names()  # before the index: see `list`
        rows = self._read_index_tail(limit + TAIL_SLACK)
        if rows is None:
            return None
        live_paths: dict[str, Path] = {}  # run id -> its live file, for the runs listed from one
        for run_id in live:
            if run_id in rows:
                self._drop_live(run_id)  # finished: its final write was indexed
                continue
            found = self._live_row(run_id)
            record = None
            if found is None or os.path.exists(self.dir / f"{run_id}.json"):
                # Finished: renamed into runs/ since the folder was listed, or its record
                # written there and its index line not yet (or never) appended.
                record = self._record_row(self.dir / f"{run_id}.json")
            if record is not None:
                rows[run_id] = record[0]
                if record[1]:
                    self._drop_live(run_id)  # the finished record wins: this one is stale
            elif found is not None:
                rows[run_id], live_paths[run_id] = found
        for run_id in markers:  # an older version's: the checkpoint is in runs/<id>.json
            if run_id not in rows:
                record = self._record_row(self.dir / f"{run_id}.json")
                if record is None:
                    continue
                rows[run_id] = record[0]
                if not record[1]:
                    continue  # still its checkpoint: the marker stays
            with contextlib.suppress(OSError):  # finished: its final write was indexed
                os.unlink(os.path.join(self._live_text, run_id))
        out: builtins.list[RunSummary] = []
        for row in sorted(rows.values(), key=_started, reverse=True):
            if len(out) == limit:
                break
            path = live_paths.get(str(row[0]))
            if path is not None or os.path.exists(self.dir / f"{row[0]}.json"):
                out.append(self._summary(row, path))  # a deleted record is not listed
        return out

    def _live_names(self) -> tuple[builtins.list[str], builtins.list[str]]:
        """The runs-live folder: ids with a live file (`<id>.json`), and ids with an older
        version's empty marker (its checkpoint in runs/)."""
        try:
            names = os.listdir(self.live_dir)
        except OSError:
            return [], []
        live: builtins.list[str] = []
        markers: builtins.list[str] = []
        for name in names:
            if name.startswith("."):  # a temp file of a checkpoint being replaced
                continue
            if name.endswith(".json"):
                live.append(name[:-5])
            else:
                markers.append(name)
        return live, markers

    def _live_row(self, run_id: str) -> tuple[builtins.list[Any], Path] | None:
        """The summary row of a live run from its file, and that file; None when the file is
        gone (its final save renamed it into runs/ meanwhile).

        A file that cannot be parsed is a writer killed in the microseconds of its final
        write in place: listed by its name, `running` while recent, then `interrupted`. A
        file that holds a finished record is a writer killed between that write and the
        rename into runs/: past LIVE_GRACE_S it is moved there (`_adopt`). Never indexed from
        here: the index would then name a run whose record may not be in runs/ (the next
        listing indexes it from runs/)."""
        path = self.live_dir / f"{run_id}.json"
        data = _read(path)
        if data is not None:
            row = _index_row(data)
            row[2] = _effective_status(data)
            if "checkpoint" not in data and row[2] != RunStatus.RUNNING.value:
                path = self._adopt(run_id, path)
            return row, path
        try:
            touched = os.stat(path).st_mtime
        except OSError:
            return None
        fresh = time.time() - touched < LIVE_GRACE_S
        status = RunStatus.RUNNING if fresh else RunStatus.INTERRUPTED
        started = dt.datetime.fromtimestamp(touched, dt.UTC).isoformat(timespec="milliseconds")
        return [run_id, "", status.value, None, None, started, None], path

    def _adopt(self, run_id: str, live: Path) -> Path:
        """Where a finished record found in runs-live is now: moved into runs/ once it was
        last written LIVE_GRACE_S ago (a writer between its final write and its rename is
        never that slow; one that is renames nothing, and writes its record the other way),
        else left where it is for now."""
        final = self.dir / f"{run_id}.json"
        try:
            if time.time() - os.stat(live).st_mtime < LIVE_GRACE_S:
                return live
            if final.exists():  # its record is there already: this copy is stale
                self._drop_live(run_id)
                return final
            self.dir.mkdir(parents=True, exist_ok=True)
            os.rename(live, final)
        except OSError:
            return live if live.exists() else final
        return final

    def _record_row(self, path: Path) -> tuple[builtins.list[Any], bool] | None:
        """The summary row of the record in runs/ at `path` and whether it is a finished
        record (not a checkpoint), or None when it cannot be read. A finished record the
        index does not know is added to it: never parsed again."""
        data = _read(path)
        if data is None:
            return None
        row = _index_row(data)
        row[2] = _effective_status(data)
        finished = row[2] != RunStatus.RUNNING.value and "checkpoint" not in data
        if finished:
            self._index(_index_row(data))
        return row, finished

    def _drop_live(self, run_id: str) -> None:
        with contextlib.suppress(OSError):  # missing already is fine too
            os.unlink(os.path.join(self._live_text, f"{run_id}.json"))

    def _read_index_tail(self, lines: int) -> dict[str, builtins.list[Any]] | None:
        """id -> row of the index's last `lines` lines (the last line of a run wins), or
        None when the index has no more lines than that (or cannot be read)."""
        block = 256 * 1024
        try:
            with open(self.index_path, "rb") as fh:
                end = fh.seek(0, os.SEEK_END)
                position, data = end, b""
                while position > 0 and data.count(b"\n") <= lines:
                    step = min(block, position)
                    position -= step
                    fh.seek(position)
                    data = fh.read(step) + data
        except OSError:
            return None
        if position == 0:
            return None  # a small index: the full listing is cheap and finds everything
        text = data.decode("utf-8", "replace")
        kept = text.splitlines()[1:]  # the first line may start mid-line
        found: dict[str, builtins.list[Any]] = {}
        for line in kept[-lines:]:
            row = _parse_line(line) if line else None
            if isinstance(row, list) and len(row) == len(_INDEX_FIELDS):
                found[str(row[0])] = row
        return found

    def _read_index(self) -> dict[str, builtins.list[Any]]:
        """id -> summary row of every finished run the index holds (the last line wins)."""
        try:
            with open(self.index_path, "rb") as fh:
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            return {}
        lines = text.splitlines()
        try:  # one parse for the whole file; line by line only when a line is torn
            rows = json.loads("[" + ",".join(line for line in lines if line) + "]")
        except json.JSONDecodeError:
            rows = [_parse_line(line) for line in lines]
        return {
            str(row[0]): row
            for row in rows
            if isinstance(row, list) and len(row) == len(_INDEX_FIELDS)
        }

    def load(self, run_id: str) -> AgentRun:
        """Load by id or unique id prefix (`run_3fa` is enough when only one run starts so).
        A live or killed run is loaded from its live file."""
        run_id = run_id.strip()
        if not run_id:
            raise UserError("Give a run id (see `zlens runs` for the list).")
        exact = [p for p in (self.dir, self.live_dir) if (p / f"{run_id}.json").exists()]
        if exact:
            matches = [exact[0] / f"{run_id}.json"]  # runs/ first: the finished record wins
        else:
            matches = [p for p in self._files() if p.stem.startswith(run_id)]
        if not matches:
            raise UserError(f"No run '{run_id}' in {self.dir}; `zlens runs` lists what is there.")
        if len(matches) > 1:
            names = ", ".join(sorted(p.stem for p in matches)[:5])
            raise UserError(f"Run id '{run_id}' is ambiguous ({names}); give more characters.")
        data = _read(matches[0])
        if data is None and matches[0].parent == self.live_dir:
            data = _read(self.dir / matches[0].name)  # finished meanwhile: renamed into runs/
        if data is None:
            raise UserError(f"{matches[0]} is not a readable run record.")
        run = AgentRun.from_dict(data)
        run.status = RunStatus(_effective_status(data))
        return run

    def _files(self) -> builtins.list[Path]:
        """The records in runs/, then the live files of runs not there."""
        found: dict[str, Path] = {}
        for folder in (self.live_dir, self.dir):  # runs/ last: its record wins
            if folder.is_dir():
                for p in folder.glob("*.json"):
                    if not p.name.startswith("."):
                        found[p.stem] = p
        return builtins.list(found.values())


def cap_record(
    data: Any, *, keep_rows: int = MAX_ROWS, hash_cut: bool = True, cuts: list[int] | None = None
) -> Any:
    """A copy of a run record with long lists of rows and long texts cut, each cut noted
    with how much went, the sha256 of what went and the sha256 of the whole list (so a copy
    elsewhere can be matched). Checkpoints keep no rows and skip the hashing
    (`keep_rows=0, hash_cut=False`): the final record is the one that vouches for them.

    Runs on every stored record, so scalars (most of a record) are handled inline, without
    a call each; only dicts and lists recurse. Each cut appends to `cuts` when it is given."""
    kind = type(data)
    if kind is str:
        return _cut_text(data, cuts) if len(data) > MAX_TEXT else data
    if kind is dict or isinstance(data, dict):
        capped: dict[Any, Any] = {}
        for key, value in data.items():
            vkind = type(value)
            if vkind in _PLAIN:
                capped[key] = value
                continue
            if vkind is str:
                capped[key] = _cut_text(value, cuts) if len(value) > MAX_TEXT else value
                continue
            if key == "rows" and isinstance(value, list) and len(value) > keep_rows:
                if cuts is not None:
                    cuts.append(1)
                cut, value = value[keep_rows:], value[:keep_rows]
                note: dict[str, Any] = {"kept": keep_rows, "cut_rows": len(cut)}
                if hash_cut:
                    cut_json = json.dumps(cut, ensure_ascii=True, default=str)
                    note["sha256"] = _sha256(cut_json)
                    # The JSON of all the rows is the kept rows' and the cut rows' joined (a
                    # list's items are encoded alone, ", " between them): the cut rows, most
                    # of a large result, are encoded once, not once more inside all of them.
                    kept_json = json.dumps(value, ensure_ascii=True, default=str)
                    all_json = f"{kept_json[:-1]}, {cut_json[1:]}" if value else cut_json
                    note["sha256_all_rows"] = _sha256(all_json)
                capped["rows_cut"] = note
            capped[key] = cap_record(value, keep_rows=keep_rows, hash_cut=hash_cut, cuts=cuts)
        return capped
    if kind is list or kind is tuple or isinstance(data, list | tuple):
        out: list[Any] = []
        for item in data:
            ikind = type(item)
            if ikind in _PLAIN:
                out.append(item)
            elif ikind is str:
                out.append(_cut_text(item, cuts) if len(item) > MAX_TEXT else item)
            else:
                out.append(cap_record(item, keep_rows=keep_rows, hash_cut=hash_cut, cuts=cuts))
        return out
    return data


_PLAIN = frozenset({int, float, bool, type(None)})  # kept as they are, never cut
# The engine's enums (a run's status, route, mode, each event's type): stored as their value,
# told apart by their exact type at once. Any other enum is found by `isinstance`, slower.
_ENUMS = frozenset(
    kind
    for kind in vars(enums).values()
    if isinstance(kind, type) and issubclass(kind, Enum) and kind.__module__ == enums.__name__
)


def capped_record(value: Any, *, keep_rows: int = MAX_ROWS, hash_cut: bool = True) -> Any:
    """`cap_record(to_jsonable(value))` in one walk: a run's stored record made straight from
    its dataclasses. Each save walked the run twice (to a dict, then that dict again to cut
    it), which cost more than writing the file. The same values, keys and key order."""
    return _capped(value, keep_rows, hash_cut, [])


def _capped(value: Any, keep_rows: int, hash_cut: bool, cuts: list[int]) -> Any:
    """`capped_record`, appending to `cuts` for each cut (none: the record is `to_jsonable`'s).

    Scalars, short texts and enum members (a record's status, route, mode) are handled
    inline, without a call each; only records, dicts and lists recurse. This walk is most of
    what storing a run costs, so each value is looked at as few times as can be."""
    plain, limit = _PLAIN, MAX_TEXT

    def item(value: Any) -> Any:  # a value of a list, a record or a dict (not `rows`)
        kind = type(value)
        if kind in plain:
            return value
        if kind is str:
            return value if len(value) <= limit else _cut_text(value, cuts)
        if kind in _ENUMS:
            member = value._value_  # `.value` is a descriptor call, this the attribute it reads
            if type(member) is str and len(member) <= limit:
                return member
            return cap_record(member, keep_rows=keep_rows, hash_cut=hash_cut, cuts=cuts)
        return walk(value)

    def walk(value: Any) -> Any:
        kind: Any = type(value)
        if kind is list or kind is tuple:
            return [
                v if (t := type(v)) in plain or (t is str and len(v) <= limit) else item(v)
                for v in value
            ]
        names = record_fields(kind)
        if names:
            capped: dict[str, Any] = {}
            for name in names:
                field = getattr(value, name)
                fkind = type(field)
                if fkind in plain:
                    capped[name] = field
                elif fkind is str:
                    capped[name] = field if len(field) <= limit else _cut_text(field, cuts)
                elif name == "rows":
                    cut_rows(capped, name, field)
                else:
                    capped[name] = item(field)
            return capped
        if kind is dict or isinstance(value, dict):
            capped = {}
            for key, field in value.items():
                if type(key) is not str:
                    key = str(key)
                fkind = type(field)
                if fkind in plain:
                    capped[key] = field
                elif fkind is str:
                    capped[key] = field if len(field) <= limit else _cut_text(field, cuts)
                elif key == "rows":
                    cut_rows(capped, key, field)
                else:
                    capped[key] = item(field)
            return capped
        if kind is str or kind in plain or kind in _ENUMS:
            return item(value)
        if isinstance(value, Enum):
            return cap_record(value.value, keep_rows=keep_rows, hash_cut=hash_cut, cuts=cuts)
        if isinstance(value, list | tuple):
            return walk(list(value))
        return value

    # Rows already made, by the identity of the run's list: a run's result IS its deciding
    # attempt's result (one dict, two places), so its rows, the bulk of a large record, are
    # converted, cut and hashed once per record, not once for each place. The run holds every
    # list for the whole walk, so no id is reused meanwhile. The JSON is the same.
    made: dict[int, tuple[dict[str, Any], int]] = {}

    def cut_rows(capped: dict[str, Any], key: str, field: Any) -> None:
        # Cut (and hashed) exactly as `cap_record` cuts a record's rows.
        entry = made.get(id(field))
        if entry is None:
            before = len(cuts)
            rows = {key: to_jsonable(field)}
            done = cap_record(rows, keep_rows=keep_rows, hash_cut=hash_cut, cuts=cuts)
            entry = made[id(field)] = (done, len(cuts) - before)
        else:
            cuts.extend([1] * entry[1])  # each place's cut counts, as when made twice
        capped.update(entry[0])

    return walk(value)


def uncut_json(run: AgentRun, *, keep_rows: int) -> bytes | None:
    """The stored record's JSON encoded by orjson straight from the run's dataclasses, when
    `capped_record` would cut nothing from it; else None (the caller walks and cuts).

    It reads back as `_encode(capped_record(run))` does: the same keys in the same order (a
    record's fields), enums as their values, dates and unknown types as `str()`; a NaN
    (never in result rows, which hold None for it) is `null`, valid JSON where `json` wrote
    `NaN`. Encoding in Rust, with no walk in Python, is what takes the store off the hot
    path: a certified answer's record went from ~185 µs to ~15 µs. Anything orjson would
    write differently raises and takes the walk instead: a dict key that is not a string, a
    lone surrogate, an integer past 64 bits."""
    try:
        payload = orjson.dumps(run, default=_as_json, option=orjson.OPT_PASSTHROUGH_DATETIME)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
    # Every character is at least one byte: no text in a record this short is over the cap.
    if len(payload) > MAX_TEXT or not _rows_within(payload, keep_rows):
        return None
    return payload


def _as_json(value: Any) -> Any:
    """What `json.dumps(default=str)` writes for a type orjson leaves to the caller."""
    if isinstance(value, float):  # a float subclass (numpy's float64): json writes a number
        return float(value)
    return str(value)


_ROWS_KEY = '"rows":['
_first_value: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().raw_decode


def _rows_within(payload: bytes, keep_rows: int) -> bool:
    """Whether every list under a `rows` key in this compact JSON has at most `keep_rows`
    items, nested ones too (the walk cuts those as well). `"rows":[` can only be a key and
    its list: inside a JSON string a quote is escaped (`\\"`), so no text can hold it. Each
    list is parsed alone, by the C scanner."""
    key = _ROWS_KEY.encode()
    if keep_rows == 0:
        return payload.count(key) == payload.count(key + b"]")
    if key not in payload:
        return True
    text = payload.decode("utf-8")
    at = text.find(_ROWS_KEY)
    while at >= 0:
        rows, _ = _first_value(text, at + len(_ROWS_KEY) - 1)
        if len(rows) > keep_rows:
            return False
        at = text.find(_ROWS_KEY, at + len(_ROWS_KEY))
    return True


# Files are written with os-level calls: `Path.write_bytes` adds a buffered file object and
# its isatty/seek/stat calls to every write (~0.1 ms a record here). O_BINARY: no newline
# translation on Windows.
_NEW = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
)
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
# The final record over the live file: no O_CREAT (a missing file is the other path's) and
# no O_TRUNC (truncating to zero makes ext4 flush the file on close).
_OVERWRITE = os.O_WRONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def _write_new(path: str, payload: bytes) -> None:
    """Write `payload` as the new file `path` (which must not exist), whole or raise; a file
    this made and could not fill is removed (half a live file would list as a run)."""
    fd = os.open(path, _NEW, 0o666)
    try:
        try:
            _write_all(fd, payload, path)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


def _write_all(fd: int, payload: bytes, path: str) -> None:
    """`payload` written at `fd`'s offset, whole or raise."""
    view = memoryview(payload)
    while view:  # a short write (rare: a signal, a nearly full disk) writes the rest
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        view = view[written:]


_INDEX_FIELDS = ("id", "question", "status", "trust_state", "route", "started_at", "ended_at")


def _index_row(data: dict[str, Any]) -> builtins.list[Any]:
    row = [data.get(field) for field in _INDEX_FIELDS]
    row[1] = str(row[1] or "")[:_INDEX_QUESTION]
    row[2] = str(row[2] or RunStatus.RUNNING.value)
    row[5] = str(row[5] or "")
    return row


def _parse_line(line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        return None  # a line torn by a killed writer: that run is read from its file


def _started(row: builtins.list[Any]) -> str:
    return str(row[5])


def _started_entry(entry: tuple[builtins.list[Any], Path | None]) -> str:
    return str(entry[0][5])


def _cut_text(text: str, cuts: list[int] | None) -> str:
    if cuts is not None:
        cuts.append(1)
    return _cap_text(text)


def _cap_text(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    cut = text[MAX_TEXT:]
    return f"{text[:MAX_TEXT]}…[cut {len(cut)} characters, sha256 {_sha256(cut)}]"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _encode(data: Any) -> bytes:
    # No check for cycles: a record comes from `capped_record` (fresh dicts and lists; a
    # cycle would have failed there), and the check cost a tenth of the encoding.
    text = json.dumps(data, ensure_ascii=False, default=str, check_circular=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (a non-UTF-8 byte decoded with surrogateescape): stored as the
        # visible escape `\udcff`, so every JSON reader (DuckDB's too) can read the file.
        return json.dumps(_escape_surrogates(data), ensure_ascii=False, default=str).encode()


def _escape_surrogates(data: Any) -> Any:
    if isinstance(data, str):
        return data.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(data, dict):
        return {_escape_surrogates(k): _escape_surrogates(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_escape_surrogates(item) for item in data]
    return data


def _compact(run: AgentRun, failure: OSError) -> dict[str, Any]:
    """The outcome of a run without its trace: small enough for the last bytes of a disk."""
    full = run.to_dict()
    keep = ("id", "question", "mode", "status", "trust_state", "trust_reason", "stop_reason")
    data = {k: full.get(k) for k in (*keep, "route", "started_at", "ended_at", "summary")}
    data["question"] = _cap_text(str(data.get("question") or ""))[:2000]
    data["not_stored"] = f"trace not stored: {_reason(failure)}"
    return data


def _reason(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "the run folder is read-only"
    return error.strerror or type(error).__name__


def _not_stored(run_id: str, folder: Path, error: OSError) -> str:
    return f"run {run_id} was not stored in {folder}: {_reason(error)}"


def _read(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) and "id" in data else None


def _effective_status(data: dict[str, Any]) -> str:
    status = str(data.get("status", RunStatus.RUNNING.value))
    writer = data.get("checkpoint")
    if status == RunStatus.RUNNING.value and writer and not _writer_alive(writer):
        return RunStatus.INTERRUPTED.value
    return status


def _writer_alive(writer: dict[str, Any]) -> bool:
    if writer.get("host") != socket.gethostname():
        return True  # another machine's run: we cannot tell, so do not call it dead
    try:
        os.kill(int(writer["pid"]), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, KeyError, ValueError, TypeError):
        return True
    return True
