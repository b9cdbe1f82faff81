"""A file's word never certifies, and drift reaches every listing: `%zlens blocks` through a
real IPython shell, `zlens blocks` through the CLI entry function, `session.blocks()`, and the
answer's label."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.cli import main
from zlens_jupyter.dql import BlockStatus
from zlens_jupyter.engine import Route, TrustState
from zlens_jupyter.session import Session

BLOCK = """block "Fares by class" {{
  domain = "travel"
  status = "{status}"
  description = "Total fare by travel class."
  owner = "analyst@example.com"
  grain = "class"
  outputs = ["class", "fare"]
  query = \"\"\"
    SELECT class, SUM(fare) AS fare FROM tickets GROUP BY class
  \"\"\"
  visualization {{
    chart = "bar"
    x = class
    y = fare
  }}
  tests {{
    assert row_count == 2
  }}
}}
"""


@pytest.fixture
def travel(tmp_path: Path) -> tuple[Path, Path]:
    database = tmp_path / "travel.duckdb"
    con = duckdb.connect(str(database))
    con.execute("CREATE TABLE tickets (id INTEGER, class VARCHAR, fare DOUBLE)")
    con.execute(
        "INSERT INTO tickets VALUES (1, 'first', 900), (2, 'economy', 120), (3, 'economy', 80)"
    )
    con.close()
    project = tmp_path / "project"
    (project / "blocks").mkdir(parents=True)
    return database, project


def _write_block(project: Path, status: str) -> Path:
    path = project / "blocks" / "fares.dql"
    path.write_text(BLOCK.format(status=status), encoding="utf-8")
    return path


def _blocks_cli(capsys: pytest.CaptureFixture[str], database: Path, project: Path) -> str:
    assert main(["blocks", "--db", str(database), "--project", str(project)]) == 0
    return capsys.readouterr().out


def test_a_hand_typed_certified_status_answers_review_required_with_the_command(
    travel: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    database, project = travel
    _write_block(project, "certified")
    session = Session(database, project)
    try:
        run = session.ask("What is the fare by class?")
        assert run.route is Route.CERTIFIED_ANSWER
        assert run.trust_state is TrustState.REVIEW_REQUIRED
        assert "no certification record" in run.trust_reason
        assert 'zlens certify "Fares by class"' in run.trust_reason
        assert [b.status for b in session.blocks()] == [BlockStatus.REVIEW]
    finally:
        session.close()
    listed = _blocks_cli(capsys, database, project)
    assert "review" in listed and "no certification record" in listed
    assert "│ certified" not in listed


def test_drift_lists_pending_recertification_everywhere(
    travel: tuple[Path, Path], capsys: pytest.CaptureFixture[str], nb
) -> None:
    database, project = travel
    _write_block(project, "review")
    assert (
        main(
            [
                "certify",
                "Fares by class",
                "--by",
                "me@example.com",
                "--db",
                str(database),
                "--project",
                str(project),
            ]
        )
        == 0
    )
    capsys.readouterr()
    session = Session(database, project)
    try:
        assert session.ask("What is the fare by class?").trust_state is TrustState.CERTIFIED
    finally:
        session.close()
    assert "certified" in _blocks_cli(capsys, database, project)

    con = duckdb.connect(str(database))
    con.execute("ALTER TABLE tickets ADD COLUMN seat VARCHAR")
    con.close()

    listed = _blocks_cli(capsys, database, project)
    assert "pending_recertification" in listed and "schema of tickets changed" in listed
    session = Session(database, project)
    try:
        assert [b.status for b in session.blocks()] == [BlockStatus.PENDING_RECERTIFICATION]
        run = session.ask("What is the fare by class?")
        assert run.trust_state is TrustState.REVIEW_REQUIRED
        assert "needs recertification" in run.trust_reason
    finally:
        session.close()
    nb.run(f"%zlens connect {database}")
    nb.magics.session.project_dir = project
    nb.magics.session.reload()
    _, out = nb.run("%zlens blocks")
    shown = " ".join(str(o.data) for o in out.outputs)
    assert "pending_recertification" in shown and "schema of tickets changed" in shown


def test_eval_in_a_notebook_returns_the_report(nb, tmp_path: Path) -> None:
    path = tmp_path / "cases.yml"
    path.write_text(
        "cases:\n  - question: What will the weather be tomorrow?\n    expect: clarify\n",
        encoding="utf-8",
    )
    report, out = nb.run(f"%zlens eval {path}")
    assert report.totals()["correct"] == 1
    assert any("zlens eval" in str(o.data.get("text/html", "")) for o in out.outputs)
