"""The cells an answer offers to insert: a reviewable %%dql draft and a SQL cell."""

from __future__ import annotations

from zlens_jupyter.dql import BlockStatus, parse_block
from zlens_jupyter.notebook.insert import draft_block, encode_source
from zlens_jupyter.notebook.render import dql_draft_source, sql_cell_source


def test_dql_draft_from_the_answer_sql_parses_as_a_draft_block(grounded_run):
    source = dql_draft_source(grounded_run)
    assert source is not None
    magic, body = source.split("\n", 1)
    assert magic == "%%dql"
    block = parse_block(body)
    assert block.status is BlockStatus.DRAFT
    assert block.name == "What is revenue by segment"
    assert block.query is not None and "SUM(o.amount) AS revenue" in block.query
    assert block.outputs == ["segment", "revenue"]
    assert block.visualization == {"chart": "bar", "x": "segment", "y": "revenue"}
    assert [t.expression for t in block.tests] == ["row_count > 0"]


def test_dql_draft_prefers_the_run_s_draft_artifact(draft_artifact_run):
    source = dql_draft_source(draft_artifact_run)
    assert source == '%%dql\nblock "Late flights" {\n  domain = "ops"\n  status = "draft"\n}\n'
    assert sql_cell_source(draft_artifact_run) == (
        "%%zlens_sql\n-- What is revenue by segment?\nSELECT 42 AS answer\n"
    )


def test_runs_without_sql_offer_no_cells(clarification_run):
    assert dql_draft_source(clarification_run) is None
    assert sql_cell_source(clarification_run) is None


def test_sources_round_trip_through_the_stored_run_dict(escalated_run):
    stored = escalated_run.to_dict()
    assert dql_draft_source(stored) == dql_draft_source(escalated_run)
    assert sql_cell_source(stored, magic="%%sql") == sql_cell_source(escalated_run).replace(
        "%%zlens_sql", "%%sql"
    )


def test_long_questions_make_short_block_names_and_unicode_survives_base64(make_run):
    from zlens_jupyter.engine import StepOutcome

    question = "Quelle est la recette totale par segment de clientèle " * 3
    run = make_run(lambda ctx: StepOutcome(answer="ok", sql="SELECT 'é' AS x"), question)
    block = draft_block(run)
    assert len(block.name) <= 61 and block.name.endswith("…")
    source = dql_draft_source(run)
    assert source is not None and "clientèle" in source
    import base64

    assert base64.b64decode(encode_source(source)).decode("utf-8") == source
