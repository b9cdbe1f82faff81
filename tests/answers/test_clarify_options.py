"""A clarifying question offers real choices, each one the question asked again: near
spellings of the word it could not place (columns and metrics), then the columns schema
linking found, with words, units, type and sample values; the same options in the run
record that `zlens ask --json` prints."""

from __future__ import annotations

import json

from zlens_jupyter.cli import main
from zlens_jupyter.notebook.render import answer_display


def options_of(record: dict) -> list[dict]:
    [artifact] = [a for a in record["artifacts"] if a["kind"] == "clarification"]
    return artifact["content"]["options"]


def test_a_misspelt_column_offers_the_near_spelling_with_samples(shop):
    run = shop.ask("What is revenue by segmnt?")
    assert run.status.value == "needs_clarification"
    assert run.clarification.endswith("Did you mean segment?")
    first = options_of(run.to_dict())[0]
    assert first["kind"] == "near_spelling"
    assert (first["table"], first["column"], first["label"]) == ("customers", "segment", "Segment")
    assert first["samples"] == ["Consumer", "Corporate", "Enterprise"]
    assert first["question"] == "What is revenue by segment?"
    # The choice answers: asked again, the question gets its data answer.
    again = shop.ask(first["question"])
    assert again.status.value == "completed" and again.result["row_count"] == 4


def test_a_misspelt_metric_and_several_words_at_once(shop):
    run = shop.ask("Why did revnue drop in December 2025?")
    [metric] = [o for o in options_of(run.to_dict()) if o["kind"] == "metric"]
    assert metric["metric"] == "revenue"
    assert metric["question"] == "Why did revenue drop in December 2025?"
    both = options_of(shop.ask("What is the total revnue by regin?").to_dict())[0]
    assert both["kind"] == "spellings" and both["label"] == "revenue, region"
    assert both["question"] == "What is the total revenue by region?"


def test_the_notebook_shows_options_as_buttons_that_ask_again(shop):
    data, _ = answer_display(shop.ask("What is revenue by segmnt?"))
    html = data["text/html"]
    assert html.count('class="zlens-option ') >= 1 and "data-zlens-ask=" in html
    assert "customers.segment · varchar · e.g. Consumer, Corporate, Enterprise" in html
    assert "  - What is revenue by segment?" in data["text/plain"]


def test_zlens_ask_json_carries_the_options(sample_cache, monkeypatch, capsys):
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(sample_cache))
    code = main(["ask", "What is revenue by segmnt?", "--db", "sample", "--json", "--quiet"])
    assert code == 0
    record = json.loads(capsys.readouterr().out)
    assert options_of(record)[0]["question"] == "What is revenue by segment?"


def test_a_word_is_never_offered_as_its_own_spelling(shop):
    from zlens_jupyter.routes.clarify_options import clarification_options

    options = clarification_options(shop.kit, "Why did revenue drop?", ["revenue"], [])
    assert all(o["question"] != "Why did revenue drop?" for o in options)
    assert not [o for o in options if o["kind"] == "metric"]
