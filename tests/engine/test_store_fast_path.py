"""The run store off the hot path (issue 11): small checkpoints, a summary index that lists
without parsing records, and the index never the only copy of anything."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from engine_scripts import Script, outcome

from zlens_jupyter.engine import AgentRun, Route, RunRequest, RunStatus
from zlens_jupyter.store import MAX_ROWS, RunStore

GEN = Route.GENERATED_ANSWER
MANY_ROWS = {"columns": ["n"], "rows": [[i] for i in range(MAX_ROWS + 50)]}


def test_checkpoint_keeps_no_result_rows_and_final_record_keeps_them(tmp_path):
    store = RunStore(tmp_path)
    run = AgentRun(id="run_big", question="q", result=dict(MANY_ROWS))
    store.checkpoint(run)
    live = json.loads((store.live_dir / "run_big.json").read_text())
    assert live["result"]["rows"] == [] and live["result"]["rows_cut"]["cut_rows"] == MAX_ROWS + 50
    assert "checkpoint" in live
    run.status = RunStatus.COMPLETED
    store.save(run)
    final = json.loads((store.dir / "run_big.json").read_text())
    assert len(final["result"]["rows"]) == MAX_ROWS and "checkpoint" not in final
    whole = json.dumps(MANY_ROWS["rows"], ensure_ascii=True, default=str)
    assert (
        final["result"]["rows_cut"]["sha256_all_rows"] == hashlib.sha256(whole.encode()).hexdigest()
    )


def test_later_checkpoints_of_one_run_are_throttled(tmp_path):
    store = RunStore(tmp_path)
    run = AgentRun(id="run_t", question="first")
    store.checkpoint(run)
    run.question = "second"
    store.checkpoint(run)  # within CHECKPOINT_EVERY_S: skipped, the final write follows
    assert json.loads((store.live_dir / "run_t.json").read_text())["question"] == "first"


def test_listing_reads_the_index_not_the_records(make_engine, tmp_path):
    store = RunStore(tmp_path)
    engine = make_engine({GEN: Script([outcome(), outcome()])}, sink=store)
    ids = [engine.run(RunRequest(question=f"q{i}?", run_id=f"run_{i}")).id for i in range(2)]
    assert store.index_path.exists()
    # Records that say something else prove the listing came from the index.
    for run_id in ids:
        (store.dir / f"{run_id}.json").write_text(json.dumps({"id": run_id, "question": "edited"}))
    listed = RunStore(tmp_path).list()
    assert sorted(s.id for s in listed) == ids
    assert {s.question for s in listed} == {"q0?", "q1?"}
    assert {s.status for s in listed} == {"completed"}


def test_a_lost_or_torn_index_loses_nothing(make_engine, tmp_path):
    store = RunStore(tmp_path)
    engine = make_engine({GEN: Script([outcome(), outcome()])}, sink=store)
    engine.run(RunRequest(question="a?", run_id="run_a"))
    engine.run(RunRequest(question="b?", run_id="run_b"))
    with open(store.index_path, "ab") as fh:
        fh.write(b'["run_torn", "half a li')  # a writer killed mid-line
    assert sorted(s.id for s in RunStore(tmp_path).list()) == ["run_a", "run_b"]
    store.index_path.unlink()
    assert sorted(s.id for s in RunStore(tmp_path).list()) == ["run_a", "run_b"]
    # The listing re-indexed what it had to parse.
    assert {json.loads(line)[0] for line in store.index_path.read_text().splitlines()} == {
        "run_a",
        "run_b",
    }


def test_a_killed_run_never_in_the_index_is_listed_interrupted(tmp_path):
    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_done", question="done", status=RunStatus.COMPLETED))
    live = AgentRun(id="run_dead", question="dead")
    store.checkpoint(live)
    data = json.loads((store.live_dir / "run_dead.json").read_text())
    data["checkpoint"]["pid"] = _a_dead_pid()
    (store.live_dir / "run_dead.json").write_text(json.dumps(data))
    statuses = {s.id: s.status for s in RunStore(tmp_path).list()}
    assert statuses == {"run_done": "completed", "run_dead": "interrupted"}


def _a_dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_listing_with_a_limit_returns_the_newest(tmp_path):
    store = RunStore(tmp_path)
    for i in range(5):
        store.save(AgentRun(id=f"run_{i}", question=str(i), started_at=f"2026-01-0{i + 1}"))
    assert [s.id for s in store.list(limit=2)] == ["run_4", "run_3"]
    assert isinstance(store.list(limit=2)[0].path, Path)


def _big_index(store: RunStore, n: int) -> None:
    """`n` finished runs in the index (records too), written directly: fast to set up.

    Ahead of them, lines of older runs whose records are gone, so the index is larger than
    the block a limited listing reads from its end: that listing then reads the tail only
    (a smaller index is read whole, by the full listing)."""
    store.dir.mkdir(parents=True, exist_ok=True)
    old = ["run_gone", "q", "completed", None, None, "2025-01-01T00:00:00Z", None]
    lines = [json.dumps([f"{old[0]}_{i:06d}", *old[1:]]) for i in range(5000)]
    for i in range(n):
        run_id = f"run_{i:06d}"
        started = f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}.{i:06d}Z"
        row = [run_id, f"q{i}", "completed", None, None, started, started]
        (store.dir / f"{run_id}.json").write_text(json.dumps({"id": run_id, "status": "x"}))
        lines.append(json.dumps(row))
    store.index_path.write_text("\n".join(lines) + "\n")


def test_a_limited_listing_of_a_large_index_reads_its_end_and_the_live_files(tmp_path):
    from zlens_jupyter.store import TAIL_SLACK

    store = RunStore(tmp_path)
    _big_index(store, TAIL_SLACK + 500)
    # A record far back in the folder that no index line knows is not parsed: the tail and
    # the live files say everything a limited listing needs.
    (store.dir / "run_stray.json").write_text(json.dumps({"id": "run_stray", "question": "?"}))
    # A run that was killed mid-way: its checkpoint, its live file, stays behind.
    live = AgentRun(id="run_zz_dead", question="dead", started_at="2027-01-01T00:00:00Z")
    store.checkpoint(live)
    data = json.loads((store.live_dir / "run_zz_dead.json").read_text())
    data["checkpoint"]["pid"] = _a_dead_pid()
    (store.live_dir / "run_zz_dead.json").write_text(json.dumps(data))
    assert not (store.dir / "run_zz_dead.json").exists()
    listed = RunStore(tmp_path).list(limit=3)
    newest = f"run_{TAIL_SLACK + 499:06d}"
    assert [s.id for s in listed][:2] == ["run_zz_dead", newest]
    assert listed[0].status == "interrupted" and listed[1].question == f"q{TAIL_SLACK + 499}"
    # The full listing still reads the whole folder.
    assert "run_stray" in {s.id for s in RunStore(tmp_path).list()}


def test_a_finished_run_leaves_no_live_file_and_a_deleted_record_is_not_listed(tmp_path):
    from zlens_jupyter.store import TAIL_SLACK

    store = RunStore(tmp_path)
    _big_index(store, TAIL_SLACK + 10)
    run = AgentRun(id="run_zz_done", question="done", started_at="2027-01-01T00:00:00Z")
    store.checkpoint(run)
    assert (store.live_dir / "run_zz_done.json").exists()
    run.status = RunStatus.COMPLETED
    store.save(run)
    assert not (store.live_dir / "run_zz_done.json").exists()
    (store.dir / f"run_{TAIL_SLACK + 9:06d}.json").unlink()
    listed = [s.id for s in RunStore(tmp_path).list(limit=2)]
    assert listed == ["run_zz_done", f"run_{TAIL_SLACK + 8:06d}"]


def test_folders_removed_while_the_store_is_open_are_made_again(tmp_path):
    """The folders are made when a write finds them missing, not checked before each write."""
    import shutil

    store = RunStore(tmp_path)
    first = AgentRun(id="run_a", question="q", status=RunStatus.COMPLETED)
    store.save(first)
    shutil.rmtree(tmp_path / ".zlens")
    live = AgentRun(id="run_b", question="q")
    store.checkpoint(live)
    assert (store.live_dir / "run_b.json").exists() and not store.dir.exists()
    live.status = RunStatus.COMPLETED
    store.save(live)
    assert json.loads((store.dir / "run_b.json").read_text())["status"] == "completed"
    assert not (store.live_dir / "run_b.json").exists()
    assert not [p for p in store.dir.iterdir() if p.name.startswith(".")]  # no temp left


def test_a_large_record_is_written_whole_byte_for_byte(tmp_path):
    """Records are written with os-level calls (issue 11): a multi-megabyte record with
    non-ASCII text and newlines is on disk exactly as encoded, and reads back."""
    from zlens_jupyter.store import _encode, cap_record

    store = RunStore(tmp_path)
    text = "Zürich naïve — 東京\nline two\r\n" * 2000  # ~60k characters, under MAX_TEXT
    rows = [[i, text] for i in range(60)]
    run = AgentRun(
        id="run_wide",
        question="how big?",
        status=RunStatus.COMPLETED,
        result={"columns": ["n", "t"], "rows": rows},
    )
    store.save(run)
    path = store.dir / "run_wide.json"
    assert path.stat().st_size > 3_000_000
    assert path.read_bytes() == _encode(cap_record(run.to_dict()))
    assert RunStore(tmp_path).load("run_wide").result["rows"] == rows


def test_a_write_that_fails_leaves_no_temp_file_and_is_said(tmp_path):
    """A record that cannot take its place (here a folder sits on its name) raises
    RunNotStored, and neither the temp file nor a half record is left behind."""
    import pytest

    from zlens_jupyter.store import RunNotStored

    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_first", question="q", status=RunStatus.COMPLETED))
    (store.dir / "run_blocked.json").mkdir()
    with pytest.raises(RunNotStored):
        store.save(AgentRun(id="run_blocked", question="q", status=RunStatus.COMPLETED))
    assert not [p for p in store.dir.iterdir() if p.name.startswith(".")]
    assert (store.dir / "run_blocked.json").is_dir()


def test_a_record_is_capped_in_one_walk_exactly_as_in_two():
    """`capped_record(run)` (issue 11: one walk per save) is `cap_record(run.to_dict())`:
    the same values, keys and key order, for checkpoints and final records, with rows cut
    and hashed wherever they sit, long texts cut, non-text keys, tuples and enums."""
    from zlens_jupyter.engine import Artifact, Event, EventType
    from zlens_jupyter.store import MAX_TEXT, cap_record, capped_record

    long_text = "x" * (MAX_TEXT + 10)
    run = AgentRun(
        id="run_cap",
        question=long_text,
        result={"columns": ["n"], "rows": [(i, "a") for i in range(MAX_ROWS + 3)], 7: (1, 2)},
        artifacts=[
            Artifact(kind="answer", title="t", content={"rows": [[1]] * (MAX_ROWS + 1)}),
            Artifact(kind="answer", title=long_text, content={"rows": "not a list"}),
        ],
        events=[
            Event(
                id="e1",
                run_id="run_cap",
                seq=1,
                at="now",
                type=EventType.TOOL_RESULT,
                payload={"rows": [[i] for i in range(MAX_ROWS + 1)], "sql": long_text},
            )
        ],
        provenance={"nested": [{"rows": list(range(MAX_ROWS + 2))}, (long_text,)]},
    )
    for options in ({}, {"keep_rows": 0, "hash_cut": False}):
        expected = json.dumps(cap_record(run.to_dict(), **options))  # type: ignore[arg-type]
        assert json.dumps(capped_record(run, **options)) == expected  # type: ignore[arg-type]


def test_the_final_save_hands_its_record_on_when_it_cut_nothing(make_engine, tmp_path):
    """Issue 11: the notebook shows the record the store just wrote instead of serializing
    the run again, and only when it is `run.to_dict()` exactly (nothing cut), once."""
    store = RunStore(tmp_path)
    engine = make_engine({GEN: Script([outcome()])}, sink=store)
    run = engine.run(RunRequest(question="q?", run_id="run_small"))
    record = store.saved_record(run)
    assert record == run.to_dict()
    assert store.saved_record(run) is None  # taken once

    big = make_engine({GEN: Script([outcome(result=dict(MANY_ROWS))])}, sink=store)
    cut = big.run(RunRequest(question="big?", run_id="run_big_rows"))
    assert store.saved_record(cut) is None  # its rows were cut: not the run's own record
    other = AgentRun(id="run_other", question="q", status=RunStatus.COMPLETED)
    store.save(other)
    assert store.saved_record(run) is None  # another run's record is never handed on


def test_orjson_writes_a_record_only_as_the_walk_would(tmp_path):
    """Issue 11: `uncut_json` (orjson, no walk) gives the walk's JSON, or None where orjson
    would write something else or something must be cut; the store then walks, and the file
    is the same either way."""
    import datetime as dt
    from decimal import Decimal

    import numpy as np

    from zlens_jupyter.store import MAX_TEXT, _encode, capped_record, uncut_json

    def walked(run: AgentRun, keep_rows: int = MAX_ROWS) -> object:
        return json.loads(_encode(capped_record(run, keep_rows=keep_rows, hash_cut=True)))

    odd = {
        "when": dt.datetime(2024, 5, 1, 12, 30),
        "day": dt.date(2024, 5, 1),
        "price": Decimal("1.50"),
        "ratio": np.float64(0.25),
        "count": np.int64(3),
        "pair": (1, "a"),
        "rows": [[1], [2]],
    }
    run = AgentRun(id="run_odd", question="q", provenance=dict(odd))
    fast = uncut_json(run, keep_rows=MAX_ROWS)
    assert fast is not None and json.loads(fast) == walked(run)
    assert json.loads(fast)["provenance"]["ratio"] == 0.25  # a number, as json writes it
    assert uncut_json(run, keep_rows=0) is None  # a checkpoint keeps no rows: walked

    refused = [
        AgentRun(id="run_k", question="q", provenance={"by": {7: "a non-text key"}}),
        AgentRun(id="run_s", question="bad byte \udcff"),
        AgentRun(id="run_t", question="x" * (MAX_TEXT + 1)),
        AgentRun(id="run_r", question="q", result=dict(MANY_ROWS)),
        AgentRun(id="run_b", question="q", provenance={"big": 2**70}),
    ]
    store = RunStore(tmp_path)
    for run in refused:
        assert uncut_json(run, keep_rows=MAX_ROWS) is None, run.id
        run.status = RunStatus.COMPLETED
        store.save(run)
        assert json.loads((store.dir / f"{run.id}.json").read_text()) == walked(run)
    # A text that merely mentions a rows key is no list of rows.
    quoted = AgentRun(id="run_q", question='say "rows":[1,2,3] and {"rows": []}')
    fast = uncut_json(quoted, keep_rows=0)
    assert fast is not None and json.loads(fast) == walked(quoted, keep_rows=0)


# -- one file per run (issue 11): the live file is the checkpoint and becomes the record --


def test_a_run_creates_one_file_and_replaces_none(tmp_path, monkeypatch):
    """A checkpointed run creates exactly one file (its live file), which the final save
    writes over in place and renames to a new name in runs/: no rename over an existing
    file, no truncation to zero (each makes ext4 flush the file)."""
    from zlens_jupyter import store as store_module

    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_first", question="q", status=RunStatus.COMPLETED))  # folders
    created: list[str] = []
    replaced_over: list[str] = []
    truncated: list[int] = []
    real_open, real_replace, real_ftruncate = os.open, os.replace, os.ftruncate

    def counting_open(path, flags, *args, **kwargs):
        assert not flags & os.O_TRUNC, path
        new = flags & os.O_CREAT and not os.path.exists(path)
        fd = real_open(path, flags, *args, **kwargs)
        if new:
            created.append(os.fspath(path))
        return fd

    def counting_replace(src, dst, *args, **kwargs):
        if os.path.exists(dst):
            replaced_over.append(os.fspath(dst))
        return real_replace(src, dst, *args, **kwargs)

    def counting_ftruncate(fd, length):
        truncated.append(length)
        return real_ftruncate(fd, length)

    monkeypatch.setattr(store_module.os, "open", counting_open)
    monkeypatch.setattr(store_module.os, "replace", counting_replace)
    monkeypatch.setattr(store_module.os, "ftruncate", counting_ftruncate)
    run = AgentRun(id="run_one", question="q", result={"columns": ["a"], "rows": [[1], [2]]})
    store.checkpoint(run)
    live_inode = (store.live_dir / "run_one.json").stat().st_ino
    run.status = RunStatus.COMPLETED
    store.save(run)
    monkeypatch.undo()
    assert created == [os.path.join(store.live_dir, "run_one.json")]
    assert replaced_over == [] and 0 not in truncated
    final = store.dir / "run_one.json"
    assert final.stat().st_ino == live_inode  # the live file, renamed
    assert json.loads(final.read_text())["result"]["rows"] == [[1], [2]]
    assert not any(store.live_dir.iterdir())
    assert [s.status for s in RunStore(tmp_path).list()] == ["completed", "completed"]


def test_a_final_record_shorter_than_its_checkpoint_leaves_no_trailing_bytes(tmp_path):
    store = RunStore(tmp_path)
    run = AgentRun(id="run_short", question="q", provenance={"notes": "x" * 5000})
    store.checkpoint(run)
    checkpoint_size = (store.live_dir / "run_short.json").stat().st_size
    run.provenance = {}
    run.status = RunStatus.COMPLETED
    store.save(run)
    on_disk = (store.dir / "run_short.json").read_bytes()
    assert len(on_disk) < checkpoint_size
    assert on_disk == store.saved_json(run)  # exactly the record, nothing after it
    assert RunStore(tmp_path).load("run_short").status is RunStatus.COMPLETED


def test_an_unreadable_live_file_is_running_while_fresh_then_interrupted(tmp_path):
    """A writer killed in the microseconds of its final write in place leaves a live file
    that does not parse: listed by its name, `running` for a few seconds, then
    `interrupted`; in a full listing and in a limited one (the index's tail)."""
    import datetime as dt

    from zlens_jupyter.store import LIVE_GRACE_S, TAIL_SLACK

    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_done", question="done", status=RunStatus.COMPLETED))
    store.live_dir.mkdir(parents=True, exist_ok=True)
    torn = store.live_dir / "run_torn.json"
    torn.write_bytes(b'{"id": "run_torn", "question": "q", "status": "completed"}e": "runn')
    statuses = {s.id: s.status for s in RunStore(tmp_path).list()}
    assert statuses == {"run_done": "completed", "run_torn": "running"}
    [summary] = [s for s in RunStore(tmp_path).list() if s.id == "run_torn"]
    assert summary.question == "" and summary.path == torn
    started = dt.datetime.fromisoformat(summary.started_at)
    assert started.utcoffset() == dt.timedelta(0)
    assert abs(started.timestamp() - torn.stat().st_mtime) < 0.01
    old = torn.stat().st_mtime - LIVE_GRACE_S - 5
    os.utime(torn, (old, old))
    statuses = {s.id: s.status for s in RunStore(tmp_path).list()}
    assert statuses == {"run_done": "completed", "run_torn": "interrupted"}
    # The same from a limited listing, which reads the index's end and the live folder.
    _big_index(store, TAIL_SLACK + 10)
    listed = {s.id: s.status for s in RunStore(tmp_path).list(limit=5)}
    assert listed["run_torn"] == "interrupted" and "run_done" not in listed
    assert torn.exists()  # nothing finished it: it stays, and lists, until removed


def test_a_live_run_loads_by_prefix_from_its_live_file(tmp_path):
    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_done_1", question="done", status=RunStatus.COMPLETED))
    store.checkpoint(AgentRun(id="run_live_abc", question="still going"))
    run = store.load("run_live")
    assert run.id == "run_live_abc" and run.question == "still going"
    assert run.status is RunStatus.RUNNING  # its writer (this process) is alive
    assert store.load("run_live_abc").id == "run_live_abc"
    assert store.load("run_done").id == "run_done_1"
    [summary] = [s for s in store.list() if s.id == "run_live_abc"]
    assert summary.path == store.live_dir / "run_live_abc.json"


def test_a_missing_live_file_or_another_filesystem_takes_the_temp_file_path(tmp_path, monkeypatch):
    """The final record is written the other way (temp file in runs/ + os.replace) when the
    live file is gone, or cannot be renamed into runs/ (EXDEV: runs/ links to another disk);
    the live file is then removed, and nothing stale or temporary stays."""
    import errno

    from zlens_jupyter import store as store_module

    store = RunStore(tmp_path)
    gone = AgentRun(id="run_gone", question="q")
    store.checkpoint(gone)
    (store.live_dir / "run_gone.json").unlink()
    gone.status = RunStatus.COMPLETED
    store.save(gone)
    assert json.loads((store.dir / "run_gone.json").read_text())["status"] == "completed"

    real_replace = os.replace
    live_text = os.fspath(store.live_dir)

    def cross_device(src, dst, *args, **kwargs):
        if os.fspath(src).startswith(live_text):
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), src)
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(store_module.os, "replace", cross_device)
    far = AgentRun(id="run_far", question="q", result={"columns": ["a"], "rows": [[1]]})
    store.checkpoint(far)
    far.status = RunStatus.COMPLETED
    store.save(far)
    monkeypatch.undo()
    assert json.loads((store.dir / "run_far.json").read_text())["result"]["rows"] == [[1]]
    assert not any(store.live_dir.iterdir())  # the live file removed, no temp left
    assert not [p for p in store.dir.iterdir() if p.name.startswith(".")]
    assert store.storage_problem(far) is None
    assert {s.id: s.status for s in RunStore(tmp_path).list()} == {
        "run_gone": "completed",
        "run_far": "completed",
    }


def test_a_final_save_that_fails_leaves_no_live_file_to_read_interrupted(tmp_path, monkeypatch):
    """Every write failing (a full disk, simulated): the live file is removed, not left to
    read `interrupted` later, and the run is said not stored."""
    import errno

    import pytest

    from zlens_jupyter import store as store_module
    from zlens_jupyter.store import RunNotStored

    store = RunStore(tmp_path)
    run = AgentRun(id="run_full", question="q")
    store.checkpoint(run)

    def disk_full(fd: int, payload: bytes, path: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)

    monkeypatch.setattr(store_module, "_write_all", disk_full)
    run.status = RunStatus.COMPLETED
    with pytest.raises(RunNotStored, match=r"was not stored .*the disk is full"):
        store.save(run)
    monkeypatch.undo()
    assert not any(store.live_dir.iterdir())
    assert not store.dir.exists() or not any(store.dir.iterdir())
    assert RunStore(tmp_path).list() == []


def test_a_stale_live_file_gives_way_to_the_finished_record(tmp_path):
    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_x", question="done", status=RunStatus.COMPLETED))
    store.live_dir.mkdir(parents=True, exist_ok=True)
    stale = {"id": "run_x", "question": "live", "status": "running", "checkpoint": {}}
    (store.live_dir / "run_x.json").write_text(json.dumps(stale))
    [summary] = RunStore(tmp_path).list()
    assert (summary.id, summary.status, summary.question) == ("run_x", "completed", "done")
    assert not (store.live_dir / "run_x.json").exists()
    assert store.load("run_x").status is RunStatus.COMPLETED


def test_an_older_versions_empty_marker_still_points_at_its_checkpoint_in_runs(tmp_path):
    """Before issue 11's live files, a live run was an empty `runs-live/<id>` and its
    checkpoint `runs/<id>.json`: such a run, killed, still lists `interrupted`."""
    from zlens_jupyter.store import TAIL_SLACK

    store = RunStore(tmp_path)
    _big_index(store, TAIL_SLACK + 10)
    store.live_dir.mkdir(parents=True, exist_ok=True)
    (store.live_dir / "run_zz_old").touch()
    checkpoint = {
        "id": "run_zz_old",
        "question": "old",
        "status": "running",
        "started_at": "2027-01-01T00:00:00Z",
        "checkpoint": {"pid": _a_dead_pid(), "host": __import__("socket").gethostname()},
    }
    (store.dir / "run_zz_old.json").write_text(json.dumps(checkpoint))
    [first] = RunStore(tmp_path).list(limit=1)
    assert (first.id, first.status) == ("run_zz_old", "interrupted")
    assert (store.live_dir / "run_zz_old").exists()  # not finished: the marker stays
    assert RunStore(tmp_path).load("run_zz_old").status is RunStatus.INTERRUPTED


def test_a_long_rows_list_inside_a_short_one_is_cut_as_the_walk_cuts_it():
    """The orjson path checks every `rows` list, nested ones too: a short outer list holding
    a long inner one is walked and cut, never written whole."""
    from zlens_jupyter.store import _encode, capped_record, uncut_json

    inner = {"rows": [[i] for i in range(MAX_ROWS + 1)]}
    run = AgentRun(id="run_nested", question="q", provenance={"rows": [inner]})
    assert uncut_json(run, keep_rows=MAX_ROWS) is None
    walked = json.loads(_encode(capped_record(run, keep_rows=MAX_ROWS, hash_cut=True)))
    assert walked["provenance"]["rows"][0]["rows_cut"]["cut_rows"] == 1


def test_a_finished_record_left_in_runs_live_is_moved_into_runs_once_stale(tmp_path):
    """A writer killed between its final write in place and the rename leaves the finished
    record in runs-live: listed as it ended at once, moved into runs/ (and so indexed) by a
    listing once LIVE_GRACE_S passed, never while a writer could still be renaming it."""
    from zlens_jupyter.store import LIVE_GRACE_S, TAIL_SLACK

    store = RunStore(tmp_path)
    run = AgentRun(id="run_cut", question="killed before its rename")
    store.checkpoint(run)
    run.status = RunStatus.COMPLETED
    live = store.live_dir / "run_cut.json"
    live.write_bytes(json.dumps(run.to_dict()).encode())  # the final record, in place
    [summary] = RunStore(tmp_path).list()
    assert (summary.id, summary.status, summary.path) == ("run_cut", "completed", live)
    assert live.exists()  # fresh: a writer may be renaming it this moment
    old = live.stat().st_mtime - LIVE_GRACE_S - 5
    os.utime(live, (old, old))
    [summary] = RunStore(tmp_path).list()
    final = store.dir / "run_cut.json"
    assert summary.status == "completed" and summary.path == final
    assert final.exists() and not live.exists()
    assert json.loads(final.read_text())["status"] == "completed"
    RunStore(tmp_path).list()  # the next listing indexes it from runs/
    indexed = [json.loads(line)[0] for line in store.index_path.read_text().splitlines()]
    assert indexed.count("run_cut") == 1
    assert RunStore(tmp_path).load("run_cut").status is RunStatus.COMPLETED
    # The same from a limited listing (the index's tail and the live folder).
    other = AgentRun(id="run_cut_2", question="also killed")
    store.checkpoint(other)
    other.status = RunStatus.COMPLETED
    live_2 = store.live_dir / "run_cut_2.json"
    live_2.write_bytes(json.dumps(other.to_dict()).encode())
    os.utime(live_2, (old, old))
    _big_index(store, TAIL_SLACK + 10)
    listed = {s.id: s for s in RunStore(tmp_path).list(limit=5)}
    assert listed["run_cut_2"].status == "completed"
    assert listed["run_cut_2"].path == store.dir / "run_cut_2.json" and not live_2.exists()
