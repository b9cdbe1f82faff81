"""research with a model: sub-queries in the tool loop become an evidence dossier."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from fake_openai import FakeOpenAIServer, final_answer, tool_call
from model_scripts import loop_requests, narration, one_step, truth

from zlens_jupyter.engine import Route, RunStatus, TrustState
from zlens_jupyter.routes.narrate import fmt
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]
QUESTION = "Why did revenue drop in December 2025?"
LINE_REVENUE = "oi.quantity * oi.unit_price * (1 - oi.discount)"
MONTHLY_SQL = (
    "SELECT CAST(date_trunc('month', o.order_date) AS DATE) AS month, "
    f"ROUND(SUM({LINE_REVENUE}), 2) AS revenue "
    "FROM order_items AS oi JOIN orders AS o ON oi.order_id = o.order_id "
    "GROUP BY 1 ORDER BY 1"
)
REGION_CHANGE_SQL = (
    "SELECT c.region, "
    f"ROUND(SUM(CASE WHEN o.order_date >= DATE '2025-12-01' THEN {LINE_REVENUE} ELSE 0 END) "
    f"- SUM(CASE WHEN o.order_date < DATE '2025-12-01' THEN {LINE_REVENUE} ELSE 0 END), 2) "
    "AS change FROM order_items AS oi JOIN orders AS o ON oi.order_id = o.order_id "
    "JOIN customers AS c ON o.customer_id = c.customer_id "
    "WHERE o.order_date >= DATE '2025-11-01' AND o.order_date < DATE '2026-01-01' "
    "GROUP BY 1 ORDER BY change"
)
PLAN = {
    "grain": "one row per month",
    "measures": ["revenue"],
    "dimensions": ["month"],
    "join_path": ["order_items.order_id = orders.order_id"],
}


def test_research_sub_queries_become_a_dossier_with_a_verified_summary(
    make_session: MakeSession, server: FakeOpenAIServer, shop_files: tuple[Path, Path]
) -> None:
    months = dict(truth(shop_files[0], MONTHLY_SQL))
    november, december = months[dt.date(2025, 11, 1)], months[dt.date(2025, 12, 1)]
    worst_region, worst_change = truth(shop_files[0], REGION_CHANGE_SQL)[0]
    sentence = (
        f"Revenue fell from {fmt(float(november))} in November to {fmt(float(december))} in "
        f"December 2025; {worst_region} changed most ({fmt(float(worst_change))})."
    )
    server.script(
        one_step("research", "Explain the December drop"),
        tool_call("run_sql_preview", sql=MONTHLY_SQL, limit=50),
        tool_call("run_sql_preview", sql=REGION_CHANGE_SQL, limit=10),
        final_answer(MONTHLY_SQL, "draft", PLAN),
        narration(sentence),
    )
    run = make_session().ask(QUESTION)

    assert run.route is Route.RESEARCH
    assert run.status is RunStatus.COMPLETED and run.trust_state is TrustState.GROUNDED
    assert run.answer == sentence
    dossier = [a for a in run.artifacts if a.kind == "research_run"]
    findings = dossier[0].content["findings"]
    assert [f["sql"] for f in findings] == [MONTHLY_SQL, REGION_CHANGE_SQL]
    assert findings[1]["result"]["rows"][0][0] == worst_region
    assert run.result["row_count"] == len(months)  # the main query, re-run by the kit
    best = run.steps[0].best
    assert best is not None and best.provenance["sub_queries"] == 2
    assert best.parsed_intent["shape"] == "timeseries"
    passed = {e.id for e in run.evaluations if e.passed}
    assert {"research-depth", "answer-faithful", "catalog-grounding"} <= passed
    system = loop_requests(server)[0].messages[0]["content"]
    assert "2 to 4 sub-queries" in system


def test_research_with_a_single_query_is_flagged(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        one_step("research", "Explain the December drop"),
        final_answer(MONTHLY_SQL, "draft", PLAN),
        narration("Revenue moved."),
    )
    run = make_session().ask(QUESTION)
    depth = [e for e in run.evaluations if e.id == "research-depth"]
    assert depth and depth[0].passed is False
    assert run.trust_state is TrustState.REVIEW_REQUIRED
