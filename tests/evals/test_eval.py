"""`zlens eval`: the cases format, the comparison of results, and the trap corpus as CI's gate.

Everything runs the documented path: the CLI's own entry function, a real session over the
sample DuckDB file with the run store on, blocks certified by the certify code.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from zlens_jupyter.cli import main
from zlens_jupyter.errors import UserError
from zlens_jupyter.evals import load_cases, same_result

REPO = Path(__file__).resolve().parents[2]
TRAPS = REPO / "eval" / "traps.yml"


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_trap_corpus_has_no_wrong_trusted_answer_and_keeps_certified_recall(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(capsys, "eval", str(TRAPS), "--json", "--min-accuracy", "0.9")
    report = json.loads(out)
    totals = report["totals"]
    traps = [c for c in report["cases"] if c["expected_route"] != "certified_answer"]
    assert len(traps) >= 60 and totals["cases"] >= 80
    assert totals["wrong_certified"] == 0 and totals["wrong_grounded"] == 0, [
        (c["id"], c["label"], c["problems"]) for c in report["cases"] if c["verdict"] == "wrong"
    ]
    assert totals["label_violations"] == 0
    assert all(c["label"] != "certified" for c in traps)
    # Every block that truly answers its question still answers it, certified.
    assert totals["certified_recall"] == 1.0, [
        (c["id"], c["route"], c["problems"])
        for c in report["cases"]
        if c["expected_route"] == "certified_answer" and c["label"] != "certified"
    ]
    assert code == 0, err


def _cases(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "cases.yml"
    path.write_text(body, encoding="utf-8")
    return path


def test_a_wrong_answer_fails_the_gate_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The gold is deliberately another question's: the certified answer is then "wrong".
    path = _cases(
        tmp_path,
        "cases:\n"
        "  - id: mismatched-gold\n"
        "    question: What is revenue by segment?\n"
        "    gold_sql: SELECT region, COUNT(*) FROM customers GROUP BY 1\n"
        "  - id: weather\n"
        "    question: What will the weather be tomorrow?\n"
        "    expect: clarify\n",
    )
    code, out, err = run_cli(capsys, "eval", str(path), "--json")
    report = json.loads(out)
    verdicts = {c["id"]: (c["verdict"], c["label"]) for c in report["cases"]}
    assert verdicts["mismatched-gold"] == ("wrong", "certified")
    assert verdicts["weather"][0] == "correct"
    assert report["totals"]["wrong_certified"] == 1
    assert code == 1 and "1 wrong answers labelled certified or grounded" in err


def test_accuracy_threshold_and_forbidden_labels_set_the_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _cases(
        tmp_path,
        "cases:\n"
        "  - question: What is revenue by segment?\n"
        "    gold_sql: >-\n"
        "      SELECT c.segment, SUM(oi.quantity * oi.unit_price * (1 - oi.discount))\n"
        "      FROM order_items oi JOIN orders o USING (order_id)\n"
        "      JOIN customers c USING (customer_id) GROUP BY 1\n"
        "    forbid: [certified]\n"
        "  - question: Which planet has the most moons?\n"
        "    gold_sql: SELECT 1\n",
    )
    code, out, err = run_cli(capsys, "eval", str(path), "--min-accuracy", "0.9")
    assert code == 1
    assert "forbidden label" in err and "accuracy 0.5 is below 0.9" in err
    assert "accuracy=0.5" in out


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("cases: []\n", "no cases"),
        ("cases:\n  - question: q\n", "needs 'gold_sql:'"),
        ("cases:\n  - question: q\n    expect: maybe\n", "expect 'maybe' is not one of"),
        ("cases:\n  - question: q\n    expect: clarify\n    forbid: [trusted]\n", "forbid"),
        ("cases:\n  - question: q\n    expect: clarify\n    gold: x\n", "unknown field 'gold'"),
        ("[1, 2", "not valid YAML"),
        (
            "cases:\n  - {id: a, question: q, expect: clarify}\n  - {id: a, question: r, "
            "expect: clarify}\n",
            "used twice",
        ),
    ],
)
def test_a_bad_cases_file_is_one_clear_error(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        load_cases(_cases(tmp_path, body))


def test_a_bad_cases_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "eval", str(_cases(tmp_path, "cases: 3\n")))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(capsys, "eval", str(tmp_path))
    assert code == 2 and "not a regular file" in err


def test_results_compare_by_value_order_and_rounding() -> None:
    gold = [("West", 10.0), ("East", 20.5)]
    assert same_result([["East", 20.504], ["West", 10]], gold)
    assert not same_result([["East", 20.6], ["West", 10]], gold)
    assert not same_result([["East", 20.5]], gold)  # a row missing
    assert same_result([["East", 20.5, 3], ["West", 10, 4]], gold)  # extra columns are fine
    assert not same_result([["East", 20.5], ["West", 10]], gold, ordered=True)
    assert same_result([["West", 10], ["East", 20.5]], gold, ordered=True)
    # A year shown as a date is not the year.
    assert not same_result([["2015-01-01", 3]], [(2015, 3)])
    assert same_result([[2015, 3]], [(2015, 3)])
    # The months of one year, shown as their first days, are the month numbers ...
    months = [[dt.date(2010, m, 1), c] for m, c in ((1, 7), (2, 6), (3, 14))]
    assert same_result(months, [(1, 7), (2, 6), (3, 14)], ordered=True)
    assert not same_result(months, [(1, 7), (2, 14), (3, 6)], ordered=True)
    # ... but not across years, where the number alone would not say which January.
    two_years = [[dt.date(2009, 12, 1), 7], [dt.date(2010, 1, 1), 6]]
    assert not same_result(two_years, [(12, 7), (1, 6)])


def test_the_held_out_traps_have_no_wrong_trusted_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Written after the matcher; one case ("worst 10 products") found a wrong certified
    # answer on its first run, which is why a count after any superlative is now its N.
    code, out, err = run_cli(capsys, "eval", str(REPO / "eval" / "traps-heldout.yml"), "--json")
    totals = json.loads(out)["totals"]
    assert totals["cases"] >= 20
    assert totals["wrong_certified"] == 0 and totals["wrong_grounded"] == 0
    assert code == 0, err


@pytest.mark.parametrize(
    ("question", "limit", "descending"),
    [
        ("worst 10 products by revenue", 10, False),
        ("top 3 segments by revenue", 3, True),
        ("Which product has the highest revenue?", 1, True),
        ("Which products have the lowest revenue?", None, False),
        ("What are the best-selling products?", None, True),
    ],
)
def test_a_ranking_reads_its_direction_and_n(
    question: str, limit: int | None, descending: bool
) -> None:
    from zlens_jupyter.parsing import read_frame

    frame = read_frame(question)
    assert frame.ranked and frame.limit == limit and frame.descending is descending
