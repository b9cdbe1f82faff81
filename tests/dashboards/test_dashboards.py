"""app_build and dashboards on the real sample shop: real DuckDB, real blocks, real certify."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zlens_jupyter.cli import main
from zlens_jupyter.dashboards import certify_dashboard, export_html, open_dashboard
from zlens_jupyter.dql import Field, Section, format_dql, parse_dql
from zlens_jupyter.dql.dashboard import Dashboard
from zlens_jupyter.dql.dashboard_files import find_dashboard
from zlens_jupyter.engine import Action, IntentSignals, Mode, Route, TrustState
from zlens_jupyter.engine.intent import decide_action, select_route, strip_app_framing
from zlens_jupyter.errors import UserError
from zlens_jupyter.routes.app_build import split_request
from zlens_jupyter.routes.dashboard_run import run_dashboard

REQUEST = "build a dashboard of revenue by region and segment with monthly trend"
# The sample has no certified block for orders by channel (its block is a draft).
HALF = "build a dashboard of revenue by segment and orders by channel"
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


def test_the_sample_request_is_a_dashboard_of_certified_blocks(session) -> None:
    run = session.ask(REQUEST)
    assert run.steps[0].route is Route.APP_BUILD
    view = next(a for a in run.artifacts if a.kind == "app_draft").content["dashboard"]
    assert [(t["title"], t["block"], t["trust"]) for t in view["tiles"]] == [
        ("Revenue by region", "Revenue by region", "certified"),
        ("Revenue by segment", "Revenue by segment", "certified"),
        ("Monthly revenue", "Monthly revenue", "certified"),
    ]
    assert view["trust"] == "certified" and run.trust_state is TrustState.CERTIFIED
    # One shared filter, bound to the one tile grouped by month and to neither breakdown.
    [month] = view["filters"]
    assert month["name"] == "month" and month["tiles"] == ["Monthly revenue"]
    assert [t["binds"] for t in view["tiles"]] == [{}, {}, {"month": "rows"}]


def test_half_covered_request_gives_one_draft_tile_and_the_lowest_label(session, project):
    run = session.ask(HALF)
    assert run.steps[0].route is Route.APP_BUILD
    view = next(a for a in run.artifacts if a.kind == "app_draft").content["dashboard"]
    tiles = {t["title"]: t for t in view["tiles"]}
    assert [t["trust"] for t in view["tiles"]] == ["certified", "review_required"]
    draft = tiles["Orders by channel"]
    assert draft["draft"] and draft["block"] is None and draft["row_count"] == 3
    assert "no certified block fits 'orders by channel'" in draft["reason"]
    assert tiles["Revenue by segment"]["block"] == "Revenue by segment"
    # The dashboard is only as trusted as its least trusted tile, and the run says so.
    assert view["trust"] == "review_required"
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    # The uncovered part escalated along the seed's map, with the hint carried.
    escalated = [e for e in run.events if e.type.value == "escalated"]
    assert escalated and escalated[0].payload["to"] == "dql_block_draft"
    assert "orders by channel" in escalated[0].payload["hint"]
    # Saved as a draft file a person owns; it parses back to the same declaration.
    saved = find_dashboard(project, view["name"])
    assert saved.status.value == "draft" and len(saved.tiles) == 2
    assert saved.tiles[1].draft is not None and saved.tiles[1].draft.query


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


MONTHLY_FOR_A_REGION = '''block "Monthly revenue for a region" {
  domain = "sales"
  type = "custom"
  status = "review"
  description = "Gross revenue per calendar month, optionally for one customer region."
  owner = "analytics@sample-shop.example"
  grain = "month"
  outputs = ["month", "revenue"]
  filterBindings { region = "customers.region" }
  params { region = "all" }
  query = """
    SELECT CAST(date_trunc('month', o.order_date) AS DATE) AS month,
           ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue
    FROM order_items AS oi
    JOIN orders AS o ON o.order_id = oi.order_id
    JOIN customers AS c ON c.customer_id = o.customer_id
    WHERE @param("region") = 'all' OR c.region = @param("region")
    GROUP BY 1
    ORDER BY 1
  """
  tests { assert row_count == 24 }
}
'''


def test_a_filter_binds_every_tile_declaring_its_param_and_none_other(region_session, project):
    (project / "blocks" / "monthly_revenue_for_region.dql").write_text(MONTHLY_FOR_A_REGION)
    region_session.reload()
    region_session.certify("Monthly revenue for a region", by="reviewer@sample-shop.example")
    source = """dashboard "Regions" {
      filter "region" { param = "region" }
      filter "month" { type = "range" column = "month" }
      tile "Segments" { block = "Revenue by segment for a region" }
      tile "Trend" { block = "Monthly revenue for a region" }
      tile "Regions" { block = "Revenue by region" }
      tile "All months" { block = "Monthly revenue" }
    }"""
    view = run_dashboard(parse_dql(source).declarations[0], region_session.kit)
    assert view["trust"] == "certified"
    region, month = view["filters"]
    assert region["tiles"] == ["Segments", "Trend"]  # both declare @param("region")
    assert month["tiles"] == ["Trend", "All months"]  # both grouped by month
    tiles = {t["title"]: t for t in view["tiles"]}
    assert tiles["Trend"]["binds"] == {"region": "param", "month": "rows"}
    assert tiles["Regions"]["binds"] == {} and tiles["Regions"]["variants"] == {}
    assert tiles["All months"]["binds"] == {"month": "rows"}
    assert tiles["All months"]["variants"] == {}
    for title in ("Segments", "Trend"):
        variants = tiles[title]["variants"]
        assert sorted(variants) == [f"region={r}" for r in region["options"]]
        assert all(v["rows"] != tiles[title]["rows"] for v in variants.values())
    # Each region's trend is that region's own revenue, month by month.
    west = tiles["Trend"]["variants"]["region=West"]["rows"]
    regions = dict((r[0], r[1]) for r in tiles["Regions"]["rows"])
    assert round(sum(r[1] for r in west), 2) == pytest.approx(regions["West"], abs=0.5)


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
    run = session.ask(HALF)
    name = next(a for a in run.artifacts if a.kind == "app_draft").content["dashboard"]["name"]
    with pytest.raises(UserError, match="is a draft"):
        certify_dashboard(session, name, by="me")
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
