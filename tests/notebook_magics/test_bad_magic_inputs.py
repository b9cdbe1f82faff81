"""Issue 12, problems 10-12 through the magics in a real in-process IPython shell."""

from __future__ import annotations

import os

import duckdb
import pytest


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ("--deadline nan", "--deadline must be a finite number"),
        ("--deadline inf", "--deadline must be a finite number"),
        ("--deadline 0", "--deadline must be greater than 0"),
        ("--deadline -5", "--deadline must be greater than 0"),
        ("--max-steps 0", "--max-steps must be greater than 0"),
        ("--max-steps -1", "--max-steps must be greater than 0"),
        ("--budget-usd nan", "--budget-usd must be a finite number"),
        ("--budget-usd -1", "--budget-usd must be greater than 0"),
    ],
)
def test_problem_11_bad_budget_options_are_one_line_and_run_nothing(nb, cache, options, said):
    nb.run("%zlens connect sample")
    runs = cache / "sample-project" / ".zlens" / "runs"
    before = sorted(runs.glob("*.json")) if runs.exists() else []
    result, out = nb.run(f"%zlens {options} What is revenue by segment?")
    assert result is None
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zlens: ") and said in lines[0], out.stderr
    assert out.outputs == []  # no panel, no answer
    after = sorted(runs.glob("*.json")) if runs.exists() else []
    assert after == before


def test_problem_10_a_fifo_named_yml_in_the_project_is_one_line(nb, tmp_path):
    project = tmp_path / "project"
    (project / "semantic").mkdir(parents=True)
    os.mkfifo(project / "semantic" / "metrics.yml")
    db = tmp_path / "one.duckdb"
    duckdb.connect(str(db)).close()
    result, out = nb.run(f"%zlens connect {db} --project {project}")
    assert result is None
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and "semantic/metrics.yml" in lines[0] and "FIFO" in lines[0]


def test_problem_12_control_characters_in_data_are_escaped_in_the_answer(nb, tmp_path):
    db = tmp_path / "notes.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE notes (id INTEGER, txt VARCHAR)")
    con.execute("INSERT INTO notes VALUES (1, ?)", ["\x1b]0;pwned\x07title\r"])
    con.close()
    nb.run(f"%zlens connect {db} --project {tmp_path}")
    _, out = nb.run("%zlens --no-panel SELECT id, txt FROM notes")
    texts = [
        str(o.data.get("text/plain", "")) + str(o.data.get("text/html", "")) for o in out.outputs
    ]
    joined = "".join(texts)
    assert "pwned" in joined
    assert "\x1b" not in joined and "\x07" not in joined and "\r" not in joined
    assert "\\x1b]0;pwned\\x07title\\r" in joined


def test_problem_7_a_kernel_interrupt_during_a_magic_run_ends_it_cancelled(nb, tmp_path):
    """Jupyter's Stop sends SIGINT to the kernel's main thread while the cell runs."""
    import signal
    import threading
    import time

    db = tmp_path / "long.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE t AS SELECT range AS x FROM range(300000)")
    con.close()
    nb.run(f"%zlens connect {db} --project {tmp_path}")
    main = threading.main_thread().ident
    sent: list[float] = []

    def stop() -> None:
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)  # type: ignore[arg-type]

    timer = threading.Timer(2.0, stop)
    timer.start()
    _, out = nb.run(
        "%zlens --no-panel SELECT count(*) AS n FROM t AS a, t AS b "
        "WHERE (a.x * 31 + b.x) % 1000003 = 17"
    )
    ended = time.monotonic()
    timer.join()
    run = nb.magics.history[-1]
    assert run.status.value == "cancelled", (run.status, run.trust_reason)
    assert ended - sent[0] < 1.0, ended - sent[0]
    shown = "".join(str(o.data.get("text/plain", "")) for o in out.outputs)
    assert "cancelled" in shown + out.stdout, (out.stdout, out.stderr)
    kinds = [e.type.value for e in run.events]
    assert kinds.count("executor.started") == 1 and "repair.attempted" not in kinds


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("ZLens.deadline = float('nan')", "ZLens.deadline must be a finite number"),
        ("ZLens.max_steps = 0", "ZLens.max_steps must be greater than 0"),
        ("ZLens.budget_usd = -1.0", "ZLens.budget_usd must be greater than 0"),
    ],
)
def test_problem_11_bad_budget_settings_are_refused_like_the_flags(nb, cache, setting, said):
    nb.run("%zlens connect sample")
    nb.run(f"%config {setting}")
    result, out = nb.run("%zlens What is revenue by segment?")
    assert result is None
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and said in lines[0], out.stderr
    assert not (cache / "sample-project" / ".zlens" / "runs").exists()
