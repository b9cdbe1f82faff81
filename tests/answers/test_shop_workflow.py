"""The sample shop: certified blocks first, research finds the planted story, and a person's
certification turns a draft into certified answers."""

from __future__ import annotations

import pytest

from zlens_jupyter.engine import Route, RunStatus, TrustState


def test_certified_block_answers_first(shop):
    run = shop.ask("What is revenue by segment?")
    assert run.route is Route.CERTIFIED_ANSWER
    assert run.trust_state is TrustState.CERTIFIED
    assert run.status is RunStatus.COMPLETED and len(run.steps) == 1
    assert run.result["columns"] == ["segment", "revenue"] and run.result["row_count"] == 4
    assert any(e.id == "block-tests" and e.passed for e in run.evaluations)


def test_block_whose_grain_lacks_the_dimension_does_not_answer(shop):
    run = shop.ask("What is revenue by segment and region?")
    assert run.route is Route.GENERATED_ANSWER
    assert run.trust_state is TrustState.GROUNDED
    assert set(run.result["columns"]) == {"segment", "region", "revenue"}
    assert any("region" in note for note in run.signals.notes)


def test_certified_block_with_filter_falls_to_generated(shop):
    run = shop.ask("What is revenue by segment in 2024?")
    assert run.route is Route.GENERATED_ANSWER
    assert "2024-01-01" in run.sql


def test_semantic_metric_answers_with_its_definition(shop):
    run = shop.ask("What is the average order value by region?")
    assert run.trust_state is TrustState.GROUNDED
    assert "AVG(orders.amount)" in run.sql.replace("\n", " ")


def test_research_finds_the_planted_story(shop):
    run = shop.ask("Why did revenue drop in December 2025?")
    assert run.route is Route.RESEARCH
    assert run.trust_state is TrustState.GROUNDED
    assert "region West" in run.answer and "Electronics" in run.answer
    dossier = next(a for a in run.artifacts if a.kind == "research_run")
    assert len(dossier.content["findings"]) == 3


def test_hostile_question_on_sample(shop):
    run = shop.ask("delete all orders")
    assert run.status is RunStatus.BLOCKED and run.result is None


def test_draft_certify_then_certified_answer(shop):
    question = "units sold by category"
    first = shop.ask(question)
    assert first.trust_state is TrustState.GROUNDED
    draft_run = shop.ask(f"draft a dql block for {question}")
    assert draft_run.route is Route.DQL_BLOCK_DRAFT
    assert draft_run.trust_state is TrustState.REVIEW_REQUIRED
    draft = next(a for a in draft_run.artifacts if a.kind == "dql_block_draft")
    assert draft.content["certifiable"] is False
    assert any("owner" in p for p in draft.content["problems"])
    # The reviewer adds an owner and saves the block into the project.
    source = draft.content["source"].replace(
        'status = "draft"', 'status = "review"\n  owner = "analyst@example.com"'
    )
    path = shop.project_dir / "blocks" / "units_sold_by_category.dql"
    path.write_text(source)
    shop.reload()
    block = shop.certify("Units sold by category", by="reviewer@example.com")
    assert block.certification["by"] == "reviewer@example.com"
    assert 'status = "certified"' in path.read_text()
    again = shop.ask(question)
    assert again.route is Route.CERTIFIED_ANSWER
    assert again.trust_state is TrustState.CERTIFIED
    assert again.result["rows"] == first.result["rows"]
    path.unlink()
    shop.reload()


def test_schema_drift_under_a_certified_block_withdraws_certification(
    sample_cache, tmp_path, monkeypatch
):
    import shutil

    import duckdb

    from zlens_jupyter.sample import open_sample
    from zlens_jupyter.session import Session

    monkeypatch.setenv("ZLENS_CACHE_DIR", str(sample_cache))
    database, project = open_sample()
    db_copy, project_copy = tmp_path / "shop.duckdb", tmp_path / "project"
    shutil.copy(database, db_copy)
    shutil.copytree(project, project_copy)
    writer = duckdb.connect(str(db_copy))  # the session shares this read-write connection
    session = Session(db_copy, project_copy)
    session.certify("Revenue by segment", by="reviewer@example.com")
    before = session.ask("What is revenue by segment?")
    assert before.trust_state is TrustState.CERTIFIED
    writer.execute("ALTER TABLE customers ADD COLUMN loyalty_tier VARCHAR")
    after = session.ask("What is revenue by segment?")
    assert after.route is Route.CERTIFIED_ANSWER
    assert after.trust_state is TrustState.REVIEW_REQUIRED
    drift = [e for e in after.evaluations if e.id == "certification-current"]
    assert drift and not drift[0].passed and "recertification" in drift[0].message
    block = next(a for a in after.steps[0].attempts if a.certified_block).certified_block
    assert block["status"] == "pending_recertification"
    session.close()
    writer.close()


def test_block_that_measures_something_else_does_not_answer(shop):
    # Shares "segment" with "Revenue by segment", but asks for a count of customers.
    run = shop.ask("How many customers are in each segment?")
    assert run.route is Route.GENERATED_ANSWER
    assert run.trust_state is TrustState.GROUNDED
    assert "revenue" not in run.result["columns"]


def test_metric_synonym_still_finds_the_certified_block(shop):
    run = shop.ask("sales by segment")
    assert run.route is Route.CERTIFIED_ANSWER and run.trust_state is TrustState.CERTIFIED


def test_output_column_is_not_a_grain(shop):
    # "Top products by revenue" outputs a category column, but its grain is product.
    run = shop.ask("What is revenue by category?")
    assert run.route is Route.GENERATED_ANSWER
    assert run.result["row_count"] == 5


SUMMARY_BLOCK = '''block "Order summary by segment" {
  domain = "sales"
  type = "custom"
  status = "review"
  description = "Orders, units and revenue per customer segment."
  owner = "analyst@example.com"
  grain = "segment"
  outputs = ["orders", "units", "revenue"]
  query = """
    SELECT c.segment,
           COUNT(DISTINCT o.order_id) AS orders,
           SUM(oi.quantity) AS units,
           ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue
    FROM order_items AS oi
    JOIN orders AS o ON o.order_id = oi.order_id
    JOIN customers AS c ON c.customer_id = o.customer_id
    GROUP BY c.segment
    ORDER BY revenue DESC
  """
  tests {
    assert row_count == 4
  }
}
'''


def test_a_block_of_several_measures_is_said_by_its_grain_not_by_its_measures(shop):
    """Its sentence groups by the block's grain and says one measure; it used to read
    "Revenue by segment, orders, units (4 groups): Consumer / 1,234 / 5,678 (…)"."""
    path = shop.project_dir / "blocks" / "order_summary_by_segment.dql"
    path.write_text(SUMMARY_BLOCK)
    try:
        shop.reload()
        shop.certify("Order summary by segment", by="reviewer@example.com")
        run = shop.ask("order summary by segment")
        assert run.route is Route.CERTIFIED_ANSWER
        assert run.trust_state is TrustState.CERTIFIED
        assert run.result["columns"] == ["segment", "orders", "units", "revenue"]
        top = run.result["rows"][0]
        assert run.answer.startswith(f"Revenue by segment (4 groups): {top[0]} (")
        assert "orders" not in run.answer and "units" not in run.answer
        assert any(e.id == "answer-faithful" and e.passed for e in run.evaluations)
    finally:
        path.unlink()
        shop.reload()


def test_the_grouping_a_sentence_says_keeps_text_labels_and_falls_back_when_unknown():
    from zlens_jupyter.routes.narrate import describe

    columns = ["flag", "status", "qty", "price", "orders"]
    rows = [["A", "F", 10.0, 2.5, 7], ["N", "O", 20.0, 1.5, 9]]
    result = {"columns": columns, "rows": rows, "row_count": 2}
    grain = ["flag", " status"]
    assert describe(result, "breakdown", grouping=grain) == (
        "Orders by flag, status (2 groups): A / F (7), N / O (9)."
    )
    # A declared measure is the one said.
    assert describe(result, "breakdown", grouping=grain, measure="price").startswith(
        "Price by flag, status (2 groups): A / F (2.50)"
    )
    # A grain named in other words than the columns: the sentence as before.
    assert describe(result, "breakdown", grouping=["return flag"]).startswith(
        "Orders by flag, status, qty, price (2 groups)"
    )
    # A product's name says more than its id: text columns stay.
    named = {
        "columns": ["product_id", "product_name", "units", "revenue"],
        "rows": [[1, "Desk", 3, 10.0], [2, "Chair", 4, 5.0]],
        "row_count": 2,
    }
    assert describe(named, "breakdown", grouping=["product_id"]) == (
        "Revenue by product_id, product_name (2 groups): 1 / Desk (10), 2 / Chair (5)."
    )


def test_a_block_of_one_measure_never_answers_a_question_of_two_as_certified(shop):
    """ "Revenue and orders by segment" used to come back certified from "Revenue by
    segment": the revenue column alone, half the question, under the certified label."""
    for question, second in [
        ("revenue and orders by segment", "orders"),
        ("total revenue and average order value by region", "average order value"),
        ("revenue and number of orders by segment", "orders"),
    ]:
        run = shop.ask(question)
        assert run.trust_state is not TrustState.CERTIFIED, question
        assert run.route is Route.GENERATED_ANSWER, question
        assert any("2 measures" in note for note in run.signals.notes), run.signals.notes
        # Both measures are in the result and in the sentence, each by name.
        assert len(run.result["columns"]) == 3, run.result["columns"]
        assert f"{second} " in run.answer and "revenue " in run.answer, run.answer
    # One measure asked: the block answers as before.
    assert shop.ask("What is revenue by segment?").trust_state is TrustState.CERTIFIED


def test_a_block_of_both_measures_answers_and_says_each(shop):
    run = shop.ask("monthly revenue and orders")
    assert run.route is Route.CERTIFIED_ANSWER and run.trust_state is TrustState.CERTIFIED
    assert run.result["columns"] == ["month", "revenue", "orders"]
    first = run.result["rows"][0]
    assert run.answer.startswith("Revenue and orders by month (24 groups): 2024-01 (revenue ")
    assert f"orders {first[2]:,}" in run.answer
    assert any(e.id == "answer-faithful" and e.passed for e in run.evaluations)
    # Asked for one of them, the block's sentence says that one.
    assert "orders" not in shop.ask("monthly revenue").answer


def test_several_measures_are_said_by_name_and_grouped_by_the_rest():
    from zlens_jupyter.routes.narrate import describe

    result = {
        "columns": ["segment", "revenue", "orders"],
        "rows": [["Consumer", 1500.5, 12], ["Corporate", 900.0, 7], ["Home", 10.0, 1]],
        "row_count": 3,
    }
    # It used to read "Orders by segment, revenue (3 groups): Consumer / 1,500.50 (12), …"
    assert describe(result, "breakdown", measures=["revenue", "orders"]) == (
        "Revenue and orders by segment (3 groups): Consumer (revenue 1,500.50, orders 12), "
        "Corporate (revenue 900, orders 7), Home (revenue 10, orders 1)."
    )
    assert describe(result, "topn", measures=["revenue", "orders"], order_desc=True, limit=2) == (
        "Top 2 segments by revenue: Consumer (revenue 1,500.50, orders 12), "
        "Corporate (revenue 900, orders 7), Home (revenue 10, orders 1)."
    )


def test_measures_fit_one_column_each_by_their_words():
    from zlens_jupyter.routes.block_fit import fit_measures

    assert fit_measures([["revenue"]], ["revenue"]) == ([], None)  # one asked: not this check
    assert fit_measures([["revenue"], ["orders"]], ["total_revenue", "order_count"]) == (
        ["total_revenue", "order_count"],
        None,
    )
    # The average order value is not the number of orders, though both say "order".
    columns, why = fit_measures([["revenue"], ["orders"]], ["revenue", "avg_order_value"])
    assert columns == [] and why == "the question asks for orders, which the block does not compute"
    # Two measures asked of the same word need two columns.
    columns, why = fit_measures([["revenue"], ["revenue"]], ["revenue", "units"])
    assert columns == [] and why is not None


def _truth(sql: str) -> dict[str, tuple[float, ...]]:
    """Hand-written SQL on its own read-only connection to the sample file: {group: values}."""
    import duckdb

    from zlens_jupyter.sample import sample_database_path

    con = duckdb.connect(str(sample_database_path()), read_only=True)
    try:
        return {row[0]: tuple(float(v) for v in row[1:]) for row in con.execute(sql).fetchall()}
    finally:
        con.close()


def _answered(run) -> dict[str, tuple[float, ...]]:
    return {row[0]: tuple(float(v) for v in row[1:]) for row in run.result["rows"]}


def test_measures_of_two_tables_are_each_taken_over_their_own_rows(shop):
    """One SELECT over order_items joined to orders counted an order once per line (web:
    145,890 "orders" where there are 58,437) and averaged order amounts weighted by their
    lines. Each measure now comes out as it does when asked alone."""
    generated = shop.ask("revenue, orders and units by channel")
    assert generated.trust_state is TrustState.GROUNDED
    assert generated.result["columns"] == ["channel", "revenue", "orders", "units_sold"]
    got = _answered(generated)
    truth = _truth(
        "SELECT o.channel, SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), "
        "(SELECT COUNT(*) FROM orders x WHERE x.channel = o.channel), SUM(oi.quantity) "
        "FROM order_items oi JOIN orders o USING (order_id) GROUP BY 1"
    )
    assert {c: tuple(round(v, 2) for v in got[c]) for c in got} == {
        c: tuple(round(v, 2) for v in truth[c]) for c in truth
    }
    aov = _answered(shop.ask("total revenue and average order value by region"))
    truth = _truth(
        "SELECT c.region, AVG(o.amount) FROM orders o JOIN customers c USING (customer_id) "
        "GROUP BY 1"
    )
    assert {region: round(v[1], 2) for region, v in aov.items()} == {
        region: round(v[0], 2) for region, v in truth.items()
    }


def test_measures_of_two_tables_with_a_share_ask_for_one_at_a_time(shop):
    from zlens_jupyter.parsing import Filter
    from zlens_jupyter.routes.sqlbuild import Unbuildable, build_sql

    spec = shop.kit.parse("revenue and orders by segment").spec
    assert spec is not None and len(spec.measures) == 2
    spec.share_of = [Filter("orders", "channel", "=", "web")]
    with pytest.raises(Unbuildable, match="ask for each measure alone"):
        build_sql(spec, shop.warehouse.dated_catalog(), shop.semantic)


def test_rows_repeated_by_a_join_are_counted_once(shop):
    """Orders grouped by product category meet each of their lines: COUNT(orders.order_id)
    counted an order once per line (Office Supplies: 75,055 lines for 55,310 orders), and
    AVG(orders.amount) weighted each order by its lines."""
    run = shop.ask("how many orders by category")
    assert run.trust_state is TrustState.GROUNDED
    truth = _truth(
        "SELECT p.category, COUNT(DISTINCT o.order_id) FROM orders o JOIN order_items oi "
        "USING (order_id) JOIN products p USING (product_id) GROUP BY 1"
    )
    assert _answered(run) == truth
    # Joins that repeat nothing are left as they were: orders by segment is a plain count.
    assert "DISTINCT" not in shop.ask("how many orders by segment").sql
    # A count of rows the question never named ("the most returns") is of the rows matched,
    # as joined: each returned line, not each product.
    returns = shop.ask("which category has the most returns")
    lines = _truth(
        "SELECT p.category, COUNT(*) FROM order_items oi JOIN orders o USING (order_id) "
        "JOIN products p USING (product_id) WHERE o.status = 'returned' "
        "GROUP BY 1 ORDER BY 2 DESC LIMIT 1"
    )
    assert _answered(returns) == lines
    # A sum or an average is taken over each order once per category it has a line in,
    # never with each order's amount weighted by its lines (Electronics: 740.19, not 807.24).
    averaged = shop.ask("average order value by category")
    assert averaged.trust_state is TrustState.GROUNDED
    truth = _truth(
        "SELECT category, AVG(amount) FROM (SELECT DISTINCT p.category, o.order_id, o.amount "
        "FROM orders o JOIN order_items oi USING (order_id) JOIN products p USING (product_id)) "
        "GROUP BY 1"
    )
    assert {k: round(v[0], 2) for k, v in _answered(averaged).items()} == {
        k: round(v[0], 2) for k, v in truth.items()
    }
    # One number over the repeated rows: each order once.
    one = shop.ask("average order amount for electronics")
    only = _truth(
        "SELECT 'all', AVG(amount) FROM orders WHERE order_id IN (SELECT order_id FROM "
        "order_items JOIN products USING (product_id) WHERE category = 'Electronics')"
    )
    assert round(float(one.result["rows"][0][0]), 2) == round(only["all"][0], 2)


def test_a_ranking_by_a_metric_that_is_also_a_table_ranks_by_the_metric(shop):
    """ "top 3 segments by orders" asked which measure; "top 3 segments by revenue and
    orders" grouped by each order (its id) and segment and came back grounded."""
    run = shop.ask("top 3 segments by orders")
    assert run.trust_state is TrustState.GROUNDED
    assert run.result["columns"] == ["segment", "orders"] and run.result["row_count"] == 3
    truth = _truth(
        "SELECT c.segment, COUNT(*) FROM orders o JOIN customers c USING (customer_id) "
        "GROUP BY 1 ORDER BY 2 DESC LIMIT 3"
    )
    assert _answered(run) == truth
    both = shop.ask("top 3 segments by revenue and orders")
    assert both.result is None and "revenue or orders" in both.clarification
    # Not the certified "Revenue by segment": it computes no orders.
    listed = shop.ask("segments by revenue and orders")
    assert listed.trust_state is not TrustState.CERTIFIED
    assert any("ranks by orders" in note for note in listed.signals.notes)


def test_things_said_by_their_names_are_told_apart_by_their_keys(shop):
    """10,000 customers share 2,465 names: "orders per customer" grouped by the name alone
    gave "Elena Moore" the 151 orders of ten different customers."""
    run = shop.ask("orders per customer")
    assert run.trust_state is TrustState.GROUNDED
    assert run.result["columns"] == ["customer_name", "orders"]
    truth = _truth(
        "SELECT c.name, COUNT(*) FROM orders o JOIN customers c USING (customer_id) "
        "GROUP BY c.customer_id, c.name ORDER BY 2 DESC, 1 LIMIT 3"
    )
    top = run.result["rows"][:3]
    assert [(name, float(n)) for name, n in top] == [(k, v[0]) for k, v in truth.items()]
    assert "GROUP BY\n  customers.name,\n  customers.customer_id" in run.sql
    # Two measures of two tables, joined on the key as well: namesakes never meet.
    both = shop.ask("revenue and orders per customer")
    assert both.result["columns"] == ["customer_name", "revenue", "orders"]
    assert both.result["rows"][0][2] == top[0][1]


def test_two_groupings_in_a_row_are_two_not_one_phrase(shop):
    """ "revenue per customer by segment" was read as one grouping, "customer segment", and
    answered certified by "Revenue by segment" (revenue of each segment, not per customer)."""
    run = shop.ask("revenue per customer by segment")
    assert run.trust_state is not TrustState.CERTIFIED
    assert any("has no 'customer'" in note for note in run.signals.notes), run.signals.notes
    assert "customer_name" in run.result["columns"]
    # Said as one phrase, it is the segment of each customer: the block answers.
    assert shop.ask("revenue per customer segment").trust_state is TrustState.CERTIFIED


def test_top_with_no_number_ranks_every_group(shop):
    """ "top products by revenue in 2025" stopped at "I can't group by 'revenue' here": with
    no N, "top" and "bottom" rank every group, and no N is made up."""
    run = shop.ask("top products by revenue in 2025")
    assert run.trust_state is TrustState.GROUNDED
    assert run.result["columns"] == ["product_name", "revenue"]
    assert run.result["row_count"] == 500 and "highest first" in run.answer
    truth = _truth(
        "SELECT p.name, SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi "
        "JOIN orders o USING (order_id) JOIN products p USING (product_id) "
        "WHERE o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01' "
        "GROUP BY p.product_id, p.name ORDER BY 2 DESC LIMIT 1"
    )
    top = run.result["rows"][0]
    assert {top[0]: (round(float(top[1]), 2),)} == {k: (round(v[0], 2),) for k, v in truth.items()}
    lowest = shop.ask("bottom regions by orders")
    counts = [row[1] for row in lowest.result["rows"]]
    assert counts == sorted(counts) and "lowest first" in lowest.answer
