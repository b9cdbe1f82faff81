"""Issue 12, problems 10-13: one clear error for every bad input, through every entry point.

CLI runs are real processes (a FIFO must not hang them: each has a timeout) or its main();
the Python API is a real Session; the magics are in tests/notebook_magics/test_bad_inputs.py.
"""

from __future__ import annotations

import base64
import math
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

from zlens_jupyter.cli import main
from zlens_jupyter.errors import UserError
from zlens_jupyter.session import Session

QUESTION = "How many flights departed from JFK?"
CONTROL_BYTES = (b"\x1b", b"\r", b"\x07", b"\x9b", "\x9b".encode())


def zlens(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zlens_jupyter.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env={**os.environ, "COLUMNS": "160"},
    )


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "Traceback" not in text
    return lines[0]


# -- problem 11: budget flags --------------------------------------------------------------

BAD_FLAGS = [
    ("--deadline", "nan"),
    ("--deadline", "inf"),
    ("--deadline", "0"),
    ("--deadline", "-5"),
    ("--max-steps", "0"),
    ("--max-steps", "-1"),
    ("--budget-usd", "nan"),
    ("--budget-usd", "-1"),
]


@pytest.mark.parametrize(("flag", "value"), BAD_FLAGS)
def test_problem_11_bad_budget_flags_exit_2_in_one_line_and_write_nothing(
    nyc_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flag: str,
    value: str,
) -> None:
    code = main(["ask", QUESTION, "--db", str(nyc_file), "--project", str(tmp_path), flag, value])
    captured = capsys.readouterr()
    assert code == 2
    line = one_line(captured.err)
    assert flag in line and value in line, line
    assert captured.out == ""
    assert not (tmp_path / ".zlens").exists()


@pytest.mark.parametrize(
    "budget",
    [
        {"deadline_s": math.nan},
        {"deadline_s": math.inf},
        {"deadline_s": 0},
        {"deadline_s": -5.0},
        {"max_steps": 0},
        {"max_steps": -1},
        {"max_cost_usd": math.nan},
        {"max_cost_usd": -1.0},
        {"max_tokens": 0},
    ],
)
def test_problem_11_the_python_api_refuses_bad_budgets(
    nyc_file: Path, tmp_path: Path, budget: dict[str, float]
) -> None:
    session = Session(nyc_file, tmp_path)
    try:
        with pytest.raises(UserError, match=next(iter(budget))):
            session.ask(QUESTION, **budget)  # type: ignore[arg-type]
    finally:
        session.close()
    assert not (tmp_path / ".zlens").exists()


# -- problem 10: files that are not what their names say -----------------------------------


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "semantic").mkdir(parents=True)
    (project / "blocks").mkdir()
    return project


def test_problem_10_a_fifo_named_yml_is_refused_without_hanging(
    nyc_file: Path, tmp_path: Path
) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / "semantic" / "metrics.yml")
    done = zlens("ask", QUESTION, "--db", str(nyc_file), "--project", str(project), cwd=tmp_path)
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "semantic/metrics.yml" in line and "FIFO" in line
    with pytest.raises(UserError, match="FIFO"):
        Session(nyc_file, project)


def test_problem_10_a_directory_named_yml_is_one_line(nyc_file: Path, tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "semantic" / "metrics.yml").mkdir()
    done = zlens("ask", QUESTION, "--db", str(nyc_file), "--project", str(project), cwd=tmp_path)
    assert done.returncode == 2
    assert "a directory" in one_line(done.stderr)


def test_problem_10_a_45_mb_semantic_file_is_refused_at_once(
    nyc_file: Path, tmp_path: Path
) -> None:
    project = _project(tmp_path)
    with open(project / "semantic" / "huge.yml", "wb") as fh:
        fh.truncate(45 * 1024 * 1024)  # a sparse file: 45 MB to stat, nothing to write
    done = zlens(
        "ask", QUESTION, "--db", str(nyc_file), "--project", str(project), cwd=tmp_path, timeout=30
    )
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "45.0 MB" in line and "5.0 MB limit" in line, line


@pytest.mark.parametrize("loader", ["libyaml", "pure-python"])
def test_problem_10_deeply_nested_yaml_is_one_error(
    nyc_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loader: str
) -> None:
    if loader == "pure-python":  # the loader used where libyaml is not installed
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    project = _project(tmp_path)
    depth = 100_000
    (project / "semantic" / "deep.yml").write_text("metrics: " + "[" * depth + "]" * depth)
    with pytest.raises(UserError, match=r"semantic/deep\.yml") as caught:
        Session(nyc_file, project)
    assert "\n" not in str(caught.value)


def test_problem_10_a_fifo_named_dql_never_hangs_and_a_binary_dql_is_one_line(
    nyc_file: Path, tmp_path: Path
) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / "blocks" / "pipe.dql")
    (project / "blocks" / "binary.dql").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\xff\xfe")
    listed = zlens("blocks", "--db", str(nyc_file), "--project", str(project), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "pipe.dql" in listed.stderr and "FIFO" in listed.stderr
    assert "binary.dql" in listed.stderr and "binary" in listed.stderr
    assert "Traceback" not in listed.stderr
    for name, said in (("pipe.dql", "FIFO"), ("binary.dql", "binary file")):
        done = zlens(
            "dql",
            "run",
            str(project / "blocks" / name),
            "--db",
            str(nyc_file),
            "--project",
            str(project),
            cwd=tmp_path,
        )
        assert done.returncode == 2, done.stderr
        assert said in one_line(done.stderr)
    # The Python API reads the same library: bad files are listed, never fatal, never hang.
    session = Session(nyc_file, project)
    try:
        problems = " ".join(str(e) for e in session.library.errors)
    finally:
        session.close()
    assert "FIFO" in problems and "binary file" in problems


# -- problem 12: terminal escape codes, transformed key echoes ------------------------------


def test_problem_12_control_characters_from_data_and_questions_are_escaped(
    tmp_path: Path,
) -> None:
    db = tmp_path / "notes.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE notes (id INTEGER, txt VARCHAR)")
    con.execute(
        "INSERT INTO notes VALUES (1, ?), (2, ?)",
        ["\x1b]0;pwned\x07title", "wipe\x1b[2J\rover\u009b31m"],
    )
    con.close()
    done = subprocess.run(
        [sys.executable, "-m", "zlens_jupyter.cli", "ask",
         "SELECT id, txt FROM notes ORDER BY id -- \x1b[31m\x07", "--db", str(db),
         "--project", str(tmp_path)],
        capture_output=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for stream in (done.stdout, done.stderr):
        for byte in CONTROL_BYTES:
            assert byte not in stream, (byte, stream[:400])
    assert b"\\x1b]0;pwned\\x07title" in done.stdout
    assert b"\\x1b[31m" in done.stderr  # the question, as typed but harmless


SECRET = "zq7Local-Secret-9f8e7d6c5b4a"  # not sk-shaped: only registration can catch it


@pytest.mark.parametrize(
    "echo",
    [
        SECRET.upper(),
        SECRET.lower(),
        SECRET.swapcase(),
        " ".join(SECRET),
        "-".join(SECRET),
        ". ".join(SECRET),
        SECRET[::-1],
        " ".join(SECRET[::-1].upper()),
        base64.b64encode(SECRET.encode()).decode(),
        base64.b64encode(b"user:" + SECRET.encode()).decode(),
        base64.urlsafe_b64encode(b"xy" + SECRET.encode()).decode(),
    ],
)
def test_problem_12_redaction_catches_transformed_echoes(echo: str) -> None:
    from zlens_jupyter.llm.redact import REDACTED, redact_secrets, redact_text, register_secret

    register_secret(SECRET)
    text = f"the server said: {echo} (end)"
    scrubbed = redact_text(text)
    assert REDACTED in scrubbed, scrubbed
    assert echo not in scrubbed
    assert scrubbed.endswith("(end)")  # only the echo goes
    assert echo not in str(redact_secrets({"error": {"message": text}}))


def test_problem_12_ordinary_text_is_not_redacted() -> None:
    from zlens_jupyter.llm.redact import redact_text, register_secret

    register_secret(SECRET)
    text = "Local secrets of 9 flights: revenue by segment, a-b-c, SELECT 1"
    assert redact_text(text) == text


# -- problem 13: the suite never writes outside its temp folders ----------------------------


def test_problem_13_a_test_writing_to_the_real_user_cache_fails_the_run(tmp_path: Path) -> None:
    """Run a tiny suite with tests/conftest.py: one test writes into the user cache (a fake
    HOME's), the other opens the sample without ZLENS_CACHE_DIR. The guard must fail the run
    for the first, and the second must leave the cache untouched."""
    suite = tmp_path / "suite"
    suite.mkdir()
    conftest = Path(__file__).resolve().parents[1] / "conftest.py"
    (suite / "conftest.py").write_text(conftest.read_text())
    home = tmp_path / "home"
    real_cache = home / ".cache" / "zlens-jupyter"
    (suite / "test_writes.py").write_text(
        "import os, pathlib\n"
        "def test_writes_to_the_user_cache():\n"
        "    target = pathlib.Path(os.environ['REAL_CACHE']) / 'sample-project' / 'x.dql'\n"
        "    target.parent.mkdir(parents=True, exist_ok=True)\n"
        "    target.write_text('block')\n"
        "def test_sample_without_a_cache_dir_stays_in_temp():\n"
        "    from zlens_jupyter.sample.build import cache_dir\n"
        "    assert not str(cache_dir()).startswith(os.environ['REAL_CACHE'])\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "ZLENS_CACHE_DIR")}
    env.update(HOME=str(home), REAL_CACHE=str(real_cache))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         str(suite), "--rootdir", str(suite)],
        capture_output=True, text=True, cwd=suite, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    assert "wrote to the real user cache" in done.stdout, done.stdout
    assert "sample-project/x.dql" in done.stdout
    assert "2 passed" in done.stdout
