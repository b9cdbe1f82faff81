"""The run store: atomic files, newest-first listing, prefix loads, concurrency, crashes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest
from engine_scripts import GateScript, Script, failing, grounded, outcome

from zlens_jupyter.engine import AgentRun, Route, RunRequest, RunStatus
from zlens_jupyter.errors import UserError
from zlens_jupyter.store import RunStore

GEN = Route.GENERATED_ANSWER


def test_store_round_trip_is_lossless(make_engine, tmp_path):
    store = RunStore(tmp_path)
    gate = GateScript([failing()], grounded())
    run = make_engine(
        {GEN: Script([outcome("SELECT 1"), outcome("SELECT 2")])}, gate, sink=store
    ).run("How many flights?")
    loaded = store.load(run.id)
    assert loaded.to_dict() == run.to_dict()
    files = list((tmp_path / ".zlens" / "runs").iterdir())
    assert [f.name for f in files] == [f"{run.id}.json"]  # no temp files left behind


def test_store_lists_newest_first_and_loads_by_prefix(make_engine, tmp_path):
    store = RunStore(tmp_path)
    engine = make_engine({GEN: Script([outcome()])}, sink=store)
    ids = []
    for i in range(3):
        ids.append(engine.run(RunRequest(question=f"q{i}?", run_id=f"run_{i}abc{i}")).id)
        time.sleep(0.002)
    assert [s.id for s in store.list()] == list(reversed(ids))
    assert store.load("run_1").id == "run_1abc1"
    with pytest.raises(UserError, match="ambiguous"):
        store.load("run_")
    with pytest.raises(UserError, match="No run"):
        store.load("run_9")


def test_store_is_queryable_with_duckdb(make_engine, tmp_path):
    store = RunStore(tmp_path)
    engine = make_engine(
        {GEN: Script([outcome()]), Route.SQL_CELL: Script([outcome()])}, sink=store
    )
    engine.run("How many flights?")
    engine.run(RunRequest(question="write sql for flights"))
    rows = duckdb.sql(
        f"SELECT question, status, trust_state FROM read_json('{tmp_path}/.zlens/runs/*.json', "
        "union_by_name = true) ORDER BY question"
    ).fetchall()
    assert rows == [
        ("How many flights?", "completed", "grounded"),
        ("write sql for flights", "completed", "review_required"),
    ]


WRITER = textwrap.dedent("""
    import sys, time
    from zlens_jupyter.engine import AgentRun
    from zlens_jupyter.store import RunStore
    store, tag, go = RunStore(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    while time.time() < go:
        pass
    for i in range(60):
        run = AgentRun(id=f"run_{tag}_{i:03d}", question=f"{tag} {i}")
        store.checkpoint(run)
        store.save(run)
        # Both writers also hammer one shared id: last writer wins, the file stays whole.
        store.save(AgentRun(id="run_shared", question=tag))
""")


def test_store_two_processes_saving_at_once_lose_nothing(tmp_path):
    go = time.time() + 1.0
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), tag, str(go)])
        for tag in ("a", "b")
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    store = RunStore(tmp_path)
    listed = {s.id for s in store.list()}
    assert len(listed) == 121
    assert store.load("run_shared").question in ("a", "b")
    for path in (tmp_path / ".zlens" / "runs").iterdir():
        assert path.suffix == ".json"
        json.loads(path.read_text())


HANGING_RUN = textwrap.dedent("""
    import sys, time
    from zlens_jupyter.engine import Engine, Route, StepOutcome
    from zlens_jupyter.store import RunStore

    def stuck(ctx):
        time.sleep(600)
        return StepOutcome(answer="never")

    Engine({Route.GENERATED_ANSWER: stuck}, sink=RunStore(sys.argv[1])).run("How many flights?")
""")


def test_store_killed_writer_leaves_readable_interrupted_checkpoint(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", HANGING_RUN, str(tmp_path)])
    # A live run's checkpoint is its live file (issue 11): nothing is in runs/ until it ends.
    live_dir = tmp_path / ".zlens" / "runs-live"
    deadline = time.time() + 60
    while time.time() < deadline and not any(live_dir.glob("*.json")):
        time.sleep(0.05)
    assert any(live_dir.glob("*.json")), "no checkpoint appeared"
    store = RunStore(tmp_path)
    assert store.list()[0].status == "running"  # its writer is alive
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    [summary] = store.list()
    assert summary.status == "interrupted"
    run = store.load(summary.id)
    assert run.status is RunStatus.INTERRUPTED
    assert run.question == "How many flights?" and run.steps[0].route is Route.GENERATED_ANSWER


def test_store_skips_unreadable_files(tmp_path):
    store = RunStore(tmp_path)
    store.save(AgentRun(id="run_good", question="q"))
    Path(store.dir / "run_broken.json").write_text("{not json")
    assert [s.id for s in store.list()] == ["run_good"]
    with pytest.raises(UserError, match="not a readable run record"):
        store.load("run_broken")
