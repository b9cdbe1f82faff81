"""The static answer bundle: what a notebook keeps after the kernel is gone."""

from __future__ import annotations

import base64
from html.parser import HTMLParser

from zlens_jupyter.engine import RunStatus, StepOutcome, TrustState
from zlens_jupyter.notebook.render import VEGA_LITE, answer_bundle, dql_draft_source

ALLOWED_TAGS = {
    "div",
    "span",
    "p",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "pre",
    "button",
    "details",
    "summary",
    # the Trace view's steps and checks
    "ol",
    "ul",
    "li",
    "b",
}


class TagCollector(HTMLParser):
    """Every start tag and attribute, plus the text, of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> TagCollector:
    collector = TagCollector()
    collector.feed(html)
    return collector


def test_grounded_bundle_has_sentence_table_chip_sql_and_provenance(grounded_run):
    data, metadata = answer_bundle(grounded_run)
    html = data["text/html"]
    page = parse(html)
    text = "".join(page.text)
    assert grounded_run.trust_state is TrustState.GROUNDED
    assert "MACHINERY leads revenue with 1,733.00." in text
    chip = next(a for t, a in page.tags if t == "span" and a.get("data-trust"))
    assert chip["data-trust"] == "grounded"
    assert "grounded in the catalog and executed" in text
    assert sum(1 for t, _ in page.tags if t == "tr") == 1 + 3  # header + 3 rows
    assert "1,250.50" in text and "3 rows" in text
    assert "GROUP BY 1" in text  # the SQL, in a <pre>
    assert "generated from the catalog · 1 step · 0 repairs · offline" in text
    assert "generated_answer" not in text  # no internal route names
    assert metadata == {
        "zlens": {
            "run_id": grounded_run.id,
            "question": "What is revenue by segment?",
            "trust_state": "grounded",
            "sql_hash": metadata["zlens"]["sql_hash"],
            "model": None,
        }
    }
    assert metadata["zlens"]["sql_hash"].startswith("sha256:")


def test_insert_buttons_carry_the_cell_sources(grounded_run):
    html = answer_bundle(grounded_run)[0]["text/html"]
    buttons = {a["class"]: a for t, a in parse(html).tags if t == "button"}
    dql = buttons["zlens-insert zlens-insert-dql"]["data-zlens-insert"]
    sql = buttons["zlens-insert zlens-insert-sql"]["data-zlens-insert"]
    assert base64.b64decode(dql).decode() == dql_draft_source(grounded_run)
    assert base64.b64decode(sql).decode().startswith("%%zlens_sql\n-- What is revenue")
    # The same sources are readable in <details> for front ends without the extension.
    pres = [a["class"] for t, a in parse(html).tags if t == "pre"]
    assert {"zlens-source-dql", "zlens-source-sql"} <= set(pres)


def test_certified_run_shows_the_certified_chip_and_block(certified_run):
    data, metadata = answer_bundle(certified_run)
    assert certified_run.trust_state is TrustState.CERTIFIED
    assert metadata["zlens"]["trust_state"] == "certified"
    assert 'data-trust="certified"' in data["text/html"]
    assert "Revenue by segment" in data["text/html"]
    assert "certified block · 1 step" in data["text/plain"]


def test_blocked_run_says_why_and_offers_no_chart(blocked_run):
    data, _ = answer_bundle(blocked_run)
    assert blocked_run.status is RunStatus.BLOCKED
    html = data["text/html"]
    assert 'data-trust="blocked"' in html
    assert "The run was blocked: Read-only guard" in "".join(parse(html).text)
    assert "<b>here</b>" not in html and "&lt;b&gt;here&lt;/b&gt;" in html
    assert VEGA_LITE not in data
    assert "Trust: blocked — Read-only guard" in data["text/plain"]


def test_clarification_run_asks_its_question_without_insert_buttons(clarification_run):
    data, metadata = answer_bundle(clarification_run)
    assert clarification_run.status is RunStatus.NEEDS_CLARIFICATION
    assert metadata["zlens"]["trust_state"] == "not_applicable"
    assert metadata["zlens"]["sql_hash"] is None
    assert "Which year do you mean: 2013 or 2014?" in data["text/plain"].splitlines()[0]
    assert "<button" not in data["text/html"]
    assert 'data-trust="not_applicable"' in data["text/html"]


def test_hostile_text_is_escaped_everywhere(make_run):
    hostile = "<script>alert('q')</script> revenue?"
    result = {
        "columns": ['<img src=x onerror="alert(1)">', "n"],
        "rows": [["</td><script>alert(2)</script>", 1], ["b", 2]],
        "row_count": 2,
    }
    run = make_run(
        lambda ctx: StepOutcome(
            answer="Answer <iframe src=//evil></iframe>",
            sql="SELECT '<script>' AS x",
            result=result,
        ),
        hostile,
    )
    data, metadata = answer_bundle(run)
    page = parse(data["text/html"])
    assert {tag for tag, _ in page.tags} <= ALLOWED_TAGS
    assert not [name for _, attrs in page.tags for name in attrs if name.startswith("on")]
    assert "<script" not in data["text/html"].lower()
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in data["text/html"]
    assert "Answer <iframe src=//evil></iframe>" in "".join(page.text)  # shown, not run
    assert metadata["zlens"]["question"] == hostile  # metadata is data, not markup


def test_text_plain_is_an_aligned_readable_table(grounded_run):
    text = answer_bundle(grounded_run)[0]["text/plain"]
    lines = text.splitlines()
    assert lines[0] == "MACHINERY leads revenue with 1,733.00."
    header = lines.index("segment      revenue")  # number headers align right
    assert lines[header + 1] == "----------  --------"
    assert lines[header + 2] == "AUTOMOBILE  1,250.50"
    assert lines[header + 4] == "MACHINERY   1,733.00"
    assert "(3 rows)" in lines
    assert any(line.startswith("Trust: grounded — grounded in the catalog") for line in lines)
    assert "SQL:" in lines and "  GROUP BY 1" in lines


def test_large_results_preview_twenty_rows_and_say_so(make_run):
    rows = [[f"carrier {i}", i] for i in range(600)]
    result = {"columns": ["carrier", "flights"], "rows": rows, "row_count": 600, "truncated": True}
    run = make_run(lambda ctx: StepOutcome(answer="Many.", sql="SELECT 1", result=result))
    data, _ = answer_bundle(run)
    assert sum(1 for t, _ in parse(data["text/html"]).tags if t == "tr") == 1 + 20
    assert "more than 600 rows (preview truncated); showing 20" in data["text/html"]
    assert "carrier 19" in data["text/plain"] and "carrier 20" not in data["text/plain"]
    # 600 categories are too many for a bar chart.
    assert VEGA_LITE not in data


def test_the_card_of_a_run_is_the_card_of_its_record(
    grounded_run, escalated_run, certified_run, blocked_run, clarification_run, draft_artifact_run
):
    """Issue 11: a run's card is drawn from its record less the event log (nothing on the
    card reads it): the same bundle as from the whole record."""
    from zlens_jupyter.notebook.render import answer_display, card_record

    for run in (
        grounded_run,
        escalated_run,
        certified_run,
        blocked_run,
        clarification_run,
        draft_artifact_run,
    ):
        full = run.to_dict()
        assert card_record(run) == {k: v for k, v in full.items() if k != "events"}
        assert answer_display(run) == answer_display(full)
