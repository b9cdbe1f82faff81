"""Research you can see: the answer card shows each finding with its own table (holding the
periods it talks about), its own chart and its own SQL to insert; progress names each
sub-query while it runs."""

from __future__ import annotations

import base64
import re
from html import unescape

from zlens_jupyter.notebook.findings import research_findings
from zlens_jupyter.notebook.render import answer_display

QUESTION = "Why did revenue drop in December 2025?"


def sections(html: str) -> list[str]:
    return re.findall(r'<section class="zlens-finding".*?</section>', html, flags=re.S)


def test_each_finding_has_its_table_chart_and_sql(shop):
    run = shop.ask(QUESTION)
    assert run.route.value == "research" and run.status.value == "completed"
    data, _ = answer_display(run)
    findings = research_findings(run.to_dict())
    parts = sections(data["text/html"])
    assert len(parts) == len(findings) == 3  # the period compared, the driver, the drill-down
    for part, finding in zip(parts, findings, strict=True):
        assert finding["sentence"] in part.replace("&#x27;", "'")
        assert 'class="zlens-table zlens-finding-table"' in part
        assert '<img class="zlens-chart zlens-finding-chart" src="data:image/svg+xml;' in part
        [encoded] = re.findall(r'data-zlens-insert="([^"]+)"', part)
        source = base64.b64decode(encoded).decode()
        assert source.startswith("%%zlens_sql\n") and finding["sql"].strip() in source
    # The months the sentence compares are in the table, though the series has 24 rows.
    assert "2025-11-01" in parts[0] and "2025-12-01" in parts[0]
    assert "showing 13–24, up to 2025-12" in parts[0]
    # Bookkeeping columns stay out of the driver tables.
    [head] = re.findall(r"<thead>.*?</thead>", parts[1])
    assert re.findall(r"<th[^>]*>([^<]*)</th>", head) == [
        "Dimension",
        "Value",
        "Previous",
        "Latest",
        "Change",
    ]


def test_progress_names_each_sub_query(shop):
    run = shop.ask(QUESTION)
    purposes = [
        e.payload["arguments"].get("purpose") for e in run.events if e.type.value == "tool.called"
    ]
    assert "measure by month" in purposes
    assert any(p and p.startswith("comparing 2025-12 with 2025-11 by ") for p in purposes)
    assert any(p and p.startswith("Within ") and "comparing 2025-12" in p for p in purposes)


def test_the_sql_view_and_copy_cover_every_query(shop):
    run = shop.ask(QUESTION)
    html = answer_display(run)[0]["text/html"]
    findings = research_findings(run.to_dict())
    [sql_view] = re.findall(r'<details class="zlens-view zlens-view-sql".*?</details>', html, re.S)
    assert "3 queries" in sql_view
    [shown] = re.findall(r'<pre class="zlens-sql"[^>]*>(.*?)</pre>', sql_view, re.S)
    shown = unescape(shown)
    for finding in findings:  # each query, in order, under its title
        assert f"-- {finding['title']}\n{finding['sql'].strip()};" in shown
    assert shown.index(findings[0]["sql"].strip()) < shown.index(findings[2]["sql"].strip())
    # Insert is per finding (one cell per query); Copy SQL copies them all, once.
    assert html.count('class="zlens-insert zlens-insert-finding"') == 3
    assert "zlens-insert-sql" not in html and "zlens-insert-dql" not in html
    assert html.count('class="zlens-copy zlens-copy-sql"') == 1
