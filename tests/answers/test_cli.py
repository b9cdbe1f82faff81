"""`zlens` as a user runs it: a real process, real files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def zlens(*args, env_cache, cwd=None):
    import os

    env = {**os.environ, "ZLENS_CACHE_DIR": str(env_cache)}
    return subprocess.run(
        [sys.executable, "-m", "zlens_jupyter.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_ask_json_prints_exactly_one_run_object(sample_cache):
    out = zlens(
        "ask", "What is revenue by segment?", "--json", "--db", "sample", env_cache=sample_cache
    )
    assert out.returncode == 0, out.stderr
    run = json.loads(out.stdout)
    for key in (
        "id",
        "question",
        "status",
        "trust_state",
        "route",
        "stop_reason",
        "answer",
        "sql",
        "result",
        "steps",
        "events",
        "artifacts",
    ):
        assert key in run
    assert run["trust_state"] == "certified"
    assert set(run["result"]) >= {"columns", "rows", "row_count", "truncated"}
    assert "run.completed" in out.stderr  # progress streams on stderr


def test_ask_human_output(sample_cache):
    out = zlens(
        "ask", "How many orders by channel?", "--db", "sample", "--quiet", env_cache=sample_cache
    )
    assert out.returncode == 0
    assert "trust: grounded" in out.stdout and "GROUP BY" in out.stdout
    assert out.stderr == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("ask", "   "), "question is empty"),
        (("ask", "x", "--db", "/no/such.duckdb"), "No database at"),
        (("ask", "x", "--mode", "bogus"), "Unknown mode"),
        (("dql", "run", "/no/such.dql"), "No DQL file"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(sample_cache, tmp_path, args, message):
    out = zlens(*args, env_cache=sample_cache, cwd=tmp_path)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) <= 2 and "Traceback" not in out.stderr
    assert not (tmp_path / ".zlens").exists()  # nothing written


def test_malformed_dql_file_names_line_and_column(sample_cache, tmp_path):
    bad = tmp_path / "bad.dql"
    bad.write_text('block "X" {\n  domain = \n}\n')
    out = zlens("dql", "run", str(bad), env_cache=sample_cache)
    assert out.returncode == 2
    assert "bad.dql:3:" in out.stderr or "bad.dql:2:" in out.stderr


def test_dql_run_and_certify_and_runs(sample_cache, tmp_path):
    block = tmp_path / "b.dql"
    block.write_text(
        'block "Orders count" {\n  domain = "sales"\n  owner = "a@b.c"\n'
        '  description = "All orders"\n  grain = "total"\n  outputs = ["orders"]\n'
        '  query = """SELECT count(*) AS orders FROM orders"""\n'
        "  tests {\n    assert row_count == 1\n    assert orders > 90000\n  }\n}\n"
    )
    out = zlens("dql", "run", str(block), env_cache=sample_cache)
    assert out.returncode == 0, out.stderr
    assert "✓ orders > 90000" in out.stdout
    runs = zlens("runs", env_cache=sample_cache)
    assert runs.returncode == 0 and "run_" in runs.stdout
    blocks = zlens("blocks", env_cache=sample_cache)
    assert "Revenue by segment" in blocks.stdout
    refused = zlens("certify", "Orders by channel", env_cache=sample_cache)
    assert refused.returncode == 2 or "certified" in refused.stdout


def test_the_table_shows_data_literally_and_numbers_readably(sample_cache, tmp_path):
    sql = "SELECT '[bold red]not markup[/bold red]' AS label, 6691522.8 AS revenue"
    out = zlens("ask", sql, "--db", ":memory:", env_cache=sample_cache, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "[bold red]not markup[/bold red]" in out.stdout  # rich did not eat it as markup
    assert "6,691,522.80" in out.stdout


def test_cell_text_doctests():
    import doctest

    import zlens_jupyter.formatting as formatting

    result = doctest.testmod(formatting)
    assert result.attempted > 0 and result.failed == 0


def test_progress_lines_print_the_question_as_typed(sample_cache, tmp_path):
    question = "revenue by segment [/bold] [red]x"
    out = zlens("ask", question, "--db", "sample", env_cache=sample_cache, cwd=tmp_path)
    first = out.stderr.splitlines()[0]
    assert "run.started" in first and question in first
    # The markup words are not data: the run asks about them, and its status tag prints.
    assert out.stderr.splitlines()[-1].endswith("[needs_clarification]")


def test_runs_and_show_print_a_bracketed_question_as_typed(sample_cache, tmp_path):
    question = "[red]why[/red] revenue by segment"
    asked = zlens("ask", question, "--db", "sample", env_cache=sample_cache, cwd=tmp_path)
    assert asked.returncode == 0, asked.stderr
    runs = zlens("runs", env_cache=sample_cache, cwd=tmp_path)
    assert question in runs.stdout, runs.stdout
    run_id = runs.stdout.split("run_")[1].split()[0]
    shown = zlens("show", f"run_{run_id}", env_cache=sample_cache, cwd=tmp_path)
    assert shown.stdout.splitlines()[0] == question


def test_a_refused_question_says_why_first(sample_cache, tmp_path):
    out = zlens(
        "ask", "truncate orders please", "--db", "sample", env_cache=sample_cache, cwd=tmp_path
    )
    assert out.returncode == 1
    assert out.stdout.splitlines()[0].startswith(
        "The run was blocked: Guardrail: ZLens only reads data"
    )
