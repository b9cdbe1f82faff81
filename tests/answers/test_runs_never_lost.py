"""Issue 12, problem 9: runs are never lost or misreported, and records are capped.

Full and read-only run stores are real: a size-limited tmpfs (mounted read-only for the
read-only case). Mounting needs root; without it those tests are skipped, not faked.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.engine import RunStatus
from zlens_jupyter.session import Session
from zlens_jupyter.store import RunStore

MAX_ROWS, MAX_TEXT = 200, 64 * 1024  # the caps zlens_jupyter.store promises

REPO = Path(__file__).resolve().parents[2]


def _mount_tmpfs(where: Path, options: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}): needs root")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MB filesystem for the project folder."""
    where = tmp_path / "small"
    _mount_tmpfs(where, "size=1m")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def read_only_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "ro"
    _mount_tmpfs(where, "size=1m,ro")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def _cli(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "160"}
    return subprocess.run(
        [sys.executable, "-m", "zlens_jupyter.cli", *args],
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=240,
    )


def test_problem_9_a_question_with_a_lone_surrogate_is_answered_and_stored(
    nyc_file: Path, tmp_path: Path
) -> None:
    session = Session(nyc_file, tmp_path)
    try:
        run = session.ask("How many flights departed from JFK? \udcff")
    finally:
        session.close()
    assert run.status is RunStatus.COMPLETED, run.trust_reason
    assert "not_stored" not in run.provenance, run.provenance
    stored = RunStore(tmp_path).load(run.id)
    assert stored.question == "How many flights departed from JFK? \\udcff"  # escaped, visible
    assert stored.status is RunStatus.COMPLETED
    # Any JSON reader can read it, DuckDB's too.
    pattern = str(tmp_path / ".zlens" / "runs" / "*.json")
    rows = duckdb.execute(f"SELECT id, question FROM read_json('{pattern}')").fetchall()
    assert rows == [(run.id, stored.question)]


def test_problem_9_a_non_utf8_byte_in_argv_is_stored_by_the_cli(
    nyc_file: Path, tmp_path: Path
) -> None:
    done = _cli(
        b"ask", b"How many flights departed from JFK? \xff", b"--db", str(nyc_file).encode(),
        b"--project", str(tmp_path).encode(), b"--quiet", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert b"not stored" not in done.stderr
    listed = _cli("runs", "--db", str(nyc_file), "--project", str(tmp_path), cwd=tmp_path)
    assert b"\\udcff" in listed.stdout and b"completed" in listed.stdout


def test_problem_9_a_read_only_store_says_so_in_one_line(
    nyc_file: Path, read_only_disk: Path, tmp_path: Path
) -> None:
    session = Session(nyc_file, read_only_disk)
    try:
        run = session.ask("How many flights departed from JFK?")
    finally:
        session.close()
    assert run.status is RunStatus.COMPLETED
    assert "was not stored" in run.provenance["not_stored"]
    assert "read-only" in run.provenance["not_stored"]
    # The CLI: the answer, and one line on stderr.
    done = _cli(
        "ask", "How many flights departed from JFK?", "--db", str(nyc_file),
        "--project", str(read_only_disk), "--quiet", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0
    lines = [ln for ln in done.stderr.decode().splitlines() if ln.strip()]
    assert len(lines) == 1 and "was not stored" in lines[0] and "read-only" in lines[0], lines


def test_problem_9_a_disk_filling_mid_run_never_lists_a_completed_run_as_interrupted(
    nyc_file: Path, small_disk: Path
) -> None:
    filler = small_disk / "filler"

    def fill_the_disk(event: object) -> None:
        if getattr(event, "type").value == "executor.started" and not filler.exists():  # noqa: B009
            with open(filler, "wb") as fh:  # the disk fills while the run works
                try:
                    while True:
                        fh.write(b"\0" * 4096)
                        fh.flush()
                except OSError:
                    pass

    session = Session(nyc_file, small_disk)
    try:
        run = session.ask("How many flights departed from JFK?", on_event=fill_the_disk)
    finally:
        session.close()
    assert filler.exists()
    assert run.status is RunStatus.COMPLETED
    assert "disk is full" in run.provenance["not_stored"], run.provenance
    listed = {s.id: s.status for s in RunStore(small_disk).list()}
    assert listed.get(run.id, "completed") == "completed", listed  # never "interrupted"
    assert "interrupted" not in listed.values()


def test_problem_9_records_are_capped_with_a_hash_of_what_was_cut(
    nyc_file: Path, tmp_path: Path
) -> None:
    session = Session(nyc_file, tmp_path)
    try:
        run = session.ask("SELECT flight, tailnum FROM flights ORDER BY flight, tailnum")
    finally:
        session.close()
    assert run.result is not None
    rows = run.result["rows"]
    assert len(rows) > MAX_ROWS
    path = tmp_path / ".zlens" / "runs" / f"{run.id}.json"
    data = json.loads(path.read_text())
    assert len(data["result"]["rows"]) == MAX_ROWS
    cut = data["result"]["rows_cut"]
    assert cut["cut_rows"] == len(rows) - MAX_ROWS
    expected = json.dumps(json.loads(json.dumps(rows[MAX_ROWS:], default=str)), default=str)
    assert cut["sha256"] == hashlib.sha256(expected.encode()).hexdigest()

    # A 50 MB cell must not make a 250 MB file: every text is cut to MAX_TEXT characters.
    big = "x" * (50 * 1024 * 1024)
    run.question = big
    for event in run.events:
        event.message = big
    store = RunStore(tmp_path)
    store.save(run)
    assert path.stat().st_size < 5 * 1024 * 1024
    question = json.loads(path.read_text())["question"]
    digest = hashlib.sha256(big[MAX_TEXT:].encode()).hexdigest()
    assert question.startswith("x" * MAX_TEXT)
    assert f"cut {len(big) - MAX_TEXT} characters, sha256 {digest}" in question


def test_problem_9_the_notebook_shows_a_not_stored_line(
    nyc_file: Path, read_only_disk: Path
) -> None:
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    shell = InteractiveShell.instance(config=config)
    shell.run_line_magic("load_ext", "zlens_jupyter")
    try:
        with capture_output() as captured:
            shell.run_cell(f"%zlens connect {nyc_file} --project {read_only_disk}")
            shell.run_cell("%zlens --no-panel How many flights departed from JFK?")
        assert "zlens: run run_" in captured.stderr
        assert "was not stored" in captured.stderr and "read-only" in captured.stderr
    finally:
        magics = shell.magics_manager.registry.get("ZLensMagics")
        if magics is not None and magics.session is not None:
            magics.session.close()
        InteractiveShell.clear_instance()
