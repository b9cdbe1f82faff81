"""One answer per cell, honest states, a static fallback for every output: the answer card
(`AgentRun`'s rich display), the finished panel's static summary, and the shared words."""

from __future__ import annotations

import base64
import re

from zlens_jupyter.engine import (
    AgentRun,
    CancelToken,
    Engine,
    Route,
    RunStatus,
    StepContext,
    StepOutcome,
)
from zlens_jupyter.labels import local_time, outcome_label
from zlens_jupyter.notebook.answer import answer_run
from zlens_jupyter.notebook.chart import vega_lite_spec
from zlens_jupyter.notebook.chart_image import chart_svg
from zlens_jupyter.notebook.render import answer_display, start_chart
from zlens_jupyter.notebook.summary import failed_bundle, summary_bundle
from zlens_jupyter.notebook.widget import RunPanel

VEGA = "application/vnd.vegalite.v5+json"


def cancelled_run():
    """A run stopped while its executor worked (as Stop or Ctrl-C does it)."""
    token = CancelToken()

    def executor(ctx: StepContext) -> StepOutcome:
        token.cancel("interrupted (Ctrl-C / Stop)")
        raise KeyboardInterrupt

    return Engine({route: executor for route in Route}).run("How many orders?", cancel=token)


def test_the_run_displays_as_one_answer_card_with_a_static_chart(grounded_run):
    shown = answer_run(grounded_run)
    assert isinstance(shown, AgentRun) and shown.to_dict() == grounded_run.to_dict()
    data, metadata = shown._repr_mimebundle_()
    assert set(data) == {"text/html", "text/plain", VEGA, "image/svg+xml"}
    assert metadata["zlens"]["run_id"] == grounded_run.id
    html = data["text/html"]
    match = re.search(r'<img class="zlens-chart" src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert match is not None
    svg = base64.b64decode(match.group(1)).decode()
    assert svg == data["image/svg+xml"] and svg.lstrip().startswith("<svg")
    # The chart is drawn from the data: every category's name is in the picture.
    for segment in ("AUTOMOBILE", "BUILDING", "MACHINERY"):
        assert segment in svg
    assert 'alt="[bar chart: revenue by segment]"' in html
    # Once: one chip, one table, one set of Insert buttons.
    assert html.count('class="zlens-trust') == 1 and html.count("<table") == 1
    assert html.count('class="zlens-actions"') == 1


def test_a_chart_started_early_is_the_picture_the_card_shows(grounded_run):
    """`%zlens` starts drawing when the run returns; the card takes that same picture, and a
    card shown again (or a re-run with the same result) reuses it."""
    spec = vega_lite_spec(grounded_run.to_dict())
    assert spec is not None
    start_chart(grounded_run)
    first, _ = answer_display(grounded_run)
    again, _ = answer_display(answer_run(grounded_run))
    assert first["image/svg+xml"] == again["image/svg+xml"] == chart_svg(spec)
    assert first["text/html"] == again["text/html"]
    assert first["text/html"].count('<img class="zlens-chart"') == 1
    assert "zlens-chart-image" not in first["text/html"]  # the marker is gone


def test_a_run_without_a_chart_has_no_image(clarification_run):
    data, _ = answer_display(clarification_run)
    assert "image/svg+xml" not in data and "zlens-chart" not in data["text/html"]


def test_a_cancelled_run_reads_cancelled_everywhere():
    run = cancelled_run()
    assert run.status is RunStatus.CANCELLED
    assert run.trust_state.value == "review_required"  # the record keeps its trust state
    assert outcome_label(run.status, run.trust_state) == ("cancelled", "cancelled")
    html = answer_display(run)[0]["text/html"]
    assert 'data-trust="cancelled"' in html and ">cancelled</span>" in html
    assert "review required" not in html
    summary, _ = summary_bundle(run)
    assert 'data-orb="cancelled"' in summary["text/html"]
    assert 'data-trust="cancelled"' in summary["text/html"]
    # Where it stopped: the executor was at work.
    assert "stopped in Work (step 1)" in summary["text/plain"]
    assert " · cancelled · 1 step · " in summary["text/plain"]  # said once


def test_a_cancelled_panel_keeps_the_phase_it_stopped_in():
    run = cancelled_run()
    panel = RunPanel(run.question)
    for event in run.events:
        panel.on_event(event)
    panel.finish(run)
    assert panel.orb == "cancelled" and panel.phase == "work"
    assert panel.stoppable is False


def test_a_clarification_is_neutral(clarification_run):
    summary, _ = summary_bundle(clarification_run)
    assert 'data-orb="clarify"' in summary["text/html"]
    assert "needs clarification · not applicable" in summary["text/plain"]
    assert "review required" not in summary["text/plain"]


def test_the_summary_is_one_line_that_opens_to_the_trace(escalated_run):
    data, metadata = summary_bundle(escalated_run)
    assert "\n" not in data["text/plain"]
    html = data["text/html"]
    assert html.startswith('<div class="zl-panel zl-panel-static"')
    assert "<details" in html and "<summary" in html and "<script" not in html
    assert html.count('<li class="zl-step"') == len(escalated_run.steps)
    assert re.search(r"\d+/\d+ checks passed", data["text/plain"])
    assert metadata == {"zlens_panel": {"run_id": escalated_run.id, "orb": "done"}}


def test_a_run_that_failed_before_starting_leaves_a_finished_panel():
    panel = RunPanel("What is revenue?")
    assert panel.stoppable  # a new panel belongs to a run about to start
    panel.fail()
    assert (panel.orb, panel.phase, panel.stoppable) == ("failed", "done", False)
    data, _ = failed_bundle("What is revenue?", "the database is closed")
    assert 'data-orb="failed"' in data["text/html"]
    assert data["text/plain"] == "ZLens run did not start: the database is closed"


def test_stored_times_are_shown_local_and_labelled():
    shown = local_time("2026-12-01T09:30:00+00:00")
    assert re.fullmatch(r"2026-12-0[12] \d\d:\d\d:00 \S+", shown), shown
    assert local_time(None) == "-"


def test_table_numbers_read_like_the_sentence_but_ids_and_years_do_not(make_run):
    from zlens_jupyter.engine import Evaluation

    result = {
        "columns": ["customer_id", "year", "orders", "revenue"],
        "rows": [[10234, 2025, 17855, 1234.5], [10235, 2024, 912, 88.0]],
    }
    checks = [
        Evaluation(id="catalog-grounding", label="Catalog grounding", passed=True),
        Evaluation(id="result-executed", label="Result executed", passed=True),
    ]
    run = make_run(
        lambda ctx: StepOutcome(answer="ok", sql="SELECT 1", result=result, evaluations=checks)
    )
    data, _ = answer_display(run)
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", data["text/html"])
    assert cells[:4] == ["10234", "2025", "17,855", "1,234.50"]
    assert "10234  2025  17,855  1,234.50" in data["text/plain"]


def test_the_card_views_are_toggles_table_and_chart_open_sql_and_trace_folded(grounded_run):
    html = answer_display(grounded_run)[0]["text/html"]
    views = re.findall(r'<details class="zlens-view zlens-view-(\w+)"( open)?', html)
    assert views == [("table", " open"), ("chart", " open"), ("sql", ""), ("trace", "")]
    trace = html[html.index("zlens-view-trace") :]
    assert "1 step, " in trace and " checks passed</span></summary>" in trace
    assert 'class="zl-step"' in trace and "generated from the catalog" in trace
    # The SQL view holds the SQL and the block draft to copy by hand (no extension needed).
    sql = html[html.index("zlens-view-sql") : html.index("zlens-view-trace")]
    assert '<pre class="zlens-sql"' in sql and "GROUP BY 1" in sql
    assert '<pre class="zlens-source-dql"' in sql and "%%dql" in sql
    # Insert and Copy, once each, hidden until the ZLens lab extension's stylesheet shows them
    # (nothing else can act on them).
    buttons = re.findall(r'<button type="button" class="zlens-(?:insert|copy) [^>]*>', html)
    assert len(buttons) == 3 and all(" hidden " in b for b in buttons)
    for button in ("zlens-insert-dql", "zlens-insert-sql", "zlens-copy-sql"):
        assert (
            html.count(f'class="zlens-insert {button}"')
            + html.count(f'class="zlens-copy {button}"')
            == 1
        ), button
