"""Issue 11: the run store encodes a record with orjson straight from the run when nothing in
it is cut. These are real runs on the sample (certified, generated, refused, unanswered,
the user's own SQL), each compared with the record the Python walk makes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from zlens_jupyter.session import Session
from zlens_jupyter.store import MAX_ROWS, _encode, capped_record, uncut_json

QUESTIONS = [
    "What is revenue by segment?",  # certified
    "How many orders are there?",  # generated
    "average order amount by month",
    "DROP TABLE orders",  # refused
    "what is the weather on mars",  # nothing to answer it from
    "SELECT * FROM orders",  # over MAX_ROWS rows: the walk cuts them
]


@pytest.fixture(scope="module")
def runs(sample_project: Path, sample_db_path: Path, tmp_path_factory: pytest.TempPathFactory):
    project = tmp_path_factory.mktemp("store-records") / "project"
    shutil.copytree(sample_project, project)
    session = Session(sample_db_path, project)
    try:
        yield {q: session.ask(q) for q in QUESTIONS}, session
    finally:
        session.close()


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("keep_rows", [MAX_ROWS, 0])
def test_orjson_record_is_the_walked_record(runs, question, keep_rows):
    run = runs[0][question]
    walked = _encode(capped_record(run, keep_rows=keep_rows, hash_cut=keep_rows > 0))
    fast = uncut_json(run, keep_rows=keep_rows)
    if b'"rows_cut"' in walked or b"[cut " in walked:
        assert fast is None  # something had to be cut: the walk does it
    else:
        assert fast is not None
        assert json.loads(fast) == json.loads(walked)
        assert list(json.loads(fast)) == list(json.loads(walked))  # the same key order


def test_the_stored_file_is_what_the_session_hands_the_notebook(runs):
    _, session = runs
    run = session.ask("What is revenue by segment?")
    assert run.trust_state is not None and run.trust_state.value == "certified"
    stored = json.loads((session.store.dir / f"{run.id}.json").read_bytes())
    assert stored == run.to_dict() == session.take_record(run)
    listed = session.store.list(limit=1)[0]
    assert (listed.id, listed.status, listed.trust_state) == (run.id, "completed", "certified")
