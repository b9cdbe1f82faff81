"""app_build and dashboards on the real sample shop: real DuckDB, real blocks, real certify."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zlens_jupyter.cli import main
from zlens_jupyter.dashboards import certify_dashboard, export_html, open_dashboard
from zlens_jupyter.dql import Field, Section, format_dql, parse_dql
from zlens_jupyter.dql.dashboard import Dashboard, find_dashboard
from zlens_jupyter.engine import Action, IntentSignals, Mode, Route, TrustState
from zlens_jupyter.engine.intent import decide_action, select_route, strip_app_framing
from zlens_jupyter.errors import UserError
from zlens_jupyter.routes.app_build import split_request
from zlens_jupyter.routes.dashboard_run import run_dashboard

REQUEST = "build a dashboard of revenue by region and segment with monthly trend"
FRAMING = {"build", "dashboard", "app", "scorecard", "monitor", "overview", "kpi", "page"}


@pytest.mark.parametrize(
    "phrase",
    [
        REQUEST,
        "Build me a dashboard of revenue by segment",
        "make a sales app for revenue by segment",
        "a scorecard of total orders and revenue by segment",
        "report page: monthly revenue",
        "monitor revenue by region",
        "I want to keep an eye on monthly revenue",
        "KPI page for orders by channel",
        "give me an overview of revenue by segment",
    ],
)
def test_compose_app_phrasing_reaches_app_build(phrase: str) -> None:
    signals = IntentSignals(certified_score=0.9)
    action = decide_action(phrase, signals)
    assert action is Action.COMPOSE_APP
    assert select_route(action, phrase, signals) is Route.APP_BUILD
    words = set(strip_app_framing(phrase).lower().split())
    assert not words & FRAMING, strip_app_framing(phrase)


@pytest.mark.parametrize(
    "question", ["sales of monitors by region", "what is revenue by app", "revenue by segment"]
)
def test_data_words_are_not_app_requests(question: str) -> None:
    assert decide_action(question, IntentSignals()) is not Action.COMPOSE_APP


def test_mode_app_forces_app_build() -> None:
    signals = IntentSignals(certified_score=0.9)
    route = select_route(Action.ANSWER, "revenue by segment", signals, mode=Mode.APP)
    assert route is Route.APP_BUILD


def test_request_splits_into_parts_by_meaning(session) -> None:
    assert split_request(REQUEST, session.kit) == [
        "revenue by region",
        "revenue by segment",
        "monthly revenue",
    ]


def test_half_covered_request_gives_one_draft_tile_and_the_lowest_label(session, project):
    run = session.ask(REQUEST)
    assert run.steps[0].route is Route.APP_BUILD
    view = next(a for a in run.artifacts if a.kind == "app_draft").content["dashboard"]
    tiles = {t["title"]: t for t in view["tiles"]}
    assert [t["trust"] for t in view["tiles"]] == ["review_required", "certified", "certified"]
    draft = tiles["Revenue by region"]
    assert draft["draft"] and draft["block"] is None and draft["row_count"] == 4
    assert "no certified block fits 'revenue by region'" in draft["reason"]
    assert tiles["Revenue by segment"]["block"] == "Revenue by segment"
    assert tiles["Monthly revenue"]["kind"] == "line"
    # The dashboard is only as trusted as its least trusted tile, and the run says so.
    assert view["trust"] == "review_required"
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    # The uncovered part escalated along the seed's map, with the hint carried.
    escalated = [e for e in run.events if e.type.value == "escalated"]
    assert escalated and escalated[0].payload["to"] == "dql_block_draft"
    assert "revenue by region" in escalated[0].payload["hint"]
    # Saved as a draft file a person owns; it parses back to the same declaration.
    saved = find_dashboard(project, view["name"])
    assert saved.status.value == "draft" and len(saved.tiles) == 3
    assert saved.tiles[0].draft is not None and saved.tiles[0].draft.query


def test_fully_covered_request_is_certified(session):
    run = session.ask("build a dashboard of revenue by segment and monthly revenue")
    view = next(a for a in run.artifacts if a.kind == "app_draft").content["dashboard"]
    assert [t["block"] for t in view["tiles"]] == ["Revenue by segment", "Monthly revenue"]
    assert view["trust"] == "certified"
    assert run.trust_state is TrustState.CERTIFIED
    # The month range filter binds the trend (grouped by month), not the segment breakdown.
    month = next(f for f in view["filters"] if f["name"] == "month")
    assert month["tiles"] == ["Monthly revenue"] and len(month["options"]) == 24


def test_filter_changes_every_bound_tile_and_no_unbound_one(region_session):
    view = open_dashboard(region_session, "Regional sales")
    region = next(f for f in view["filters"] if f["name"] == "region")
    assert region["options"] == ["East", "North", "South", "West"]  # from filterBindings
    segments, monthly = view["tiles"]
    assert segments["trust"] == "certified" and segments["binds"] == {"region": "param"}
    assert "region" not in monthly["binds"] and monthly["variants"] == {}
    truth = region_session.warehouse.preview(
        "SELECT c.segment, ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) "
        "FROM order_items oi JOIN orders o ON o.order_id = oi.order_id "
        "JOIN customers c ON c.customer_id = o.customer_id WHERE c.region = 'North' "
        "GROUP BY 1 ORDER BY 2 DESC"
    )
    north = segments["variants"]["region=North"]["rows"]
    assert north == [[r[0], float(r[1])] for r in truth.rows]
    assert north != segments["rows"]
    for option in region["options"]:
        assert segments["variants"][f"region={option}"]["rows"] != segments["rows"]


def test_drifted_block_turns_its_tile_and_the_dashboard_pending(session, project):
    session.ask("build a dashboard of revenue by segment and monthly revenue")
    name = "Revenue by segment and monthly revenue"
    assert open_dashboard(session, name)["trust"] == "certified"
    path = project / "blocks" / "monthly_revenue.dql"
    path.write_text(path.read_text().replace("COUNT(DISTINCT o.order_id)", "COUNT(*)"))
    session.reload()
    view = open_dashboard(session, name)
    tiles = {t["title"]: t for t in view["tiles"]}
    assert tiles["Monthly revenue"]["trust"] == "pending_recertification"
    assert "SQL changed" in tiles["Monthly revenue"]["reason"]
    assert tiles["Revenue by segment"]["trust"] == "certified"
    assert view["trust"] == "pending_recertification"


def test_certifying_a_dashboard_needs_every_tile_certified(region_session, session):
    session.ask(REQUEST)
    with pytest.raises(UserError, match="is a draft"):
        certify_dashboard(session, "Revenue by region and segment with monthly trend", by="me")
    certified = certify_dashboard(region_session, "Regional sales", by="lead@example.com")
    assert certified.status.value == "certified"
    assert certified.certification["blocks"] == [
        "Revenue by segment for a region",
        "Monthly revenue",
    ]
    assert open_dashboard(region_session, "Regional sales")["status"] == "certified"


def test_cli_run_json_and_export(region_session, project, sample_files, tmp_path, capsys):
    db = str(sample_files[0])
    code = main(
        ["dashboard", "run", "Regional sales", "--json", "--db", db, "--project", str(project)]
    )
    assert code == 0
    view = json.loads(capsys.readouterr().out)
    assert view["name"] == "Regional sales" and view["trust"] == "certified"
    out = tmp_path / "regional.html"
    args = ["dashboard", "export", "Regional sales", "--html", str(out)]
    assert main([*args, "--db", db, "--project", str(project)]) == 0
    page = out.read_text()
    assert "default-src 'none'" in page and "<script src" not in page
    assert '"Regional sales"' in page


def test_export_cannot_be_broken_out_of_by_data(region_session):
    view = open_dashboard(region_session, "Regional sales")
    view["tiles"][0]["rows"][0][0] = "</script><script>alert(1)</script>"
    page = export_html(view)
    assert page.count("</script>") == 2  # the data script and the renderer, nothing injected


def test_run_dashboard_from_dql_text(session):
    source = 'dashboard "D" { tile "Segments" { block = "Revenue by segment" } }'
    dashboard = parse_dql(source).declarations[0]
    assert isinstance(dashboard, Dashboard)
    view = run_dashboard(dashboard, session.kit)
    assert view["tiles"][0]["trust"] == "certified" and view["tiles"][0]["kind"] == "bar"
    missing = parse_dql('dashboard "D" { tile "X" { block = "Nope" } }').declarations[0]
    assert run_dashboard(missing, session.kit)["tiles"][0]["kind"] == "missing"


# -- the declaration round-trips through the formatter ------------------------------------

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12)
tiles = st.builds(
    lambda title, block, width: Section(
        "tile", [Field("block", block), Field("width", width)], label=title
    ),
    names.filter(bool),
    names,
    st.integers(1, 4),
)
filters = st.builds(
    lambda name, values: Section(
        "filter", [Field("param", name or "p"), Field("values", values)], label=name
    ),
    names,
    st.lists(names, max_size=3),
)


@settings(max_examples=150, deadline=None)
@given(names, st.lists(filters, max_size=2), st.lists(tiles, min_size=1, max_size=3))
def test_dashboard_declaration_round_trips(name, filter_sections, tile_sections) -> None:
    dashboard = Dashboard(
        "dashboard", name, [Field("status", "draft"), *filter_sections, *tile_sections]
    )
    text = format_dql(dashboard)
    parsed = parse_dql(text).declarations[0]
    assert isinstance(parsed, Dashboard) and parsed == dashboard
    assert format_dql(parsed) == text
    assert [t.title for t in parsed.tiles] == [s.label for s in tile_sections]
