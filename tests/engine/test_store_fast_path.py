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
    path = store.dir / "run_big.json"
    live = json.loads(path.read_text())
    assert live["result"]["rows"] == [] and live["result"]["rows_cut"]["cut_rows"] == MAX_ROWS + 50
    assert "checkpoint" in live
    run.status = RunStatus.COMPLETED
    store.save(run)
    final = json.loads(path.read_text())
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
    assert json.loads((store.dir / "run_t.json").read_text())["question"] == "first"


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
    data = json.loads((store.dir / "run_dead.json").read_text())
    data["checkpoint"]["pid"] = _a_dead_pid()
    (store.dir / "run_dead.json").write_text(json.dumps(data))
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
    """`n` finished runs in the index (records too), written directly: fast to set up."""
    store.dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(n):
        run_id = f"run_{i:06d}"
        started = f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}.{i:06d}Z"
        row = [run_id, f"q{i}", "completed", None, None, started, started]
        (store.dir / f"{run_id}.json").write_text(json.dumps({"id": run_id, "status": "x"}))
        lines.append(json.dumps(row))
    store.index_path.write_text("\n".join(lines) + "\n")


def test_a_limited_listing_of_a_large_index_reads_its_end_and_the_live_markers(tmp_path):
    from zlens_jupyter.store import TAIL_SLACK

    store = RunStore(tmp_path)
    _big_index(store, TAIL_SLACK + 500)
    # A record far back in the folder that no index line knows is not parsed: the tail and
    # the live markers say everything a limited listing needs.
    (store.dir / "run_stray.json").write_text(json.dumps({"id": "run_stray", "question": "?"}))
    # A run that was killed mid-way: its checkpoint and its live marker stay behind.
    live = AgentRun(id="run_zz_dead", question="dead", started_at="2027-01-01T00:00:00Z")
    store.checkpoint(live)
    data = json.loads((store.dir / "run_zz_dead.json").read_text())
    data["checkpoint"]["pid"] = _a_dead_pid()
    (store.dir / "run_zz_dead.json").write_text(json.dumps(data))
    assert (store.live_dir / "run_zz_dead").exists()
    listed = RunStore(tmp_path).list(limit=3)
    newest = f"run_{TAIL_SLACK + 499:06d}"
    assert [s.id for s in listed][:2] == ["run_zz_dead", newest]
    assert listed[0].status == "interrupted" and listed[1].question == f"q{TAIL_SLACK + 499}"
    # The full listing still reads the whole folder.
    assert "run_stray" in {s.id for s in RunStore(tmp_path).list()}


def test_a_finished_run_leaves_no_live_marker_and_a_deleted_record_is_not_listed(tmp_path):
    from zlens_jupyter.store import TAIL_SLACK

    store = RunStore(tmp_path)
    _big_index(store, TAIL_SLACK + 10)
    run = AgentRun(id="run_zz_done", question="done", started_at="2027-01-01T00:00:00Z")
    store.checkpoint(run)
    assert (store.live_dir / "run_zz_done").exists()
    run.status = RunStatus.COMPLETED
    store.save(run)
    assert not (store.live_dir / "run_zz_done").exists()
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
    assert (store.live_dir / "run_b").exists() and (store.dir / "run_b.json").exists()
    live.status = RunStatus.COMPLETED
    store.save(live)
    assert json.loads((store.dir / "run_b.json").read_text())["status"] == "completed"
    assert not (store.live_dir / "run_b").exists()
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
