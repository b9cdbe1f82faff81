"""The quickstart in a real JupyterLab with the REAL magics on the sample data: a certified
answer, a draft inserted below and run as it is, and a block certified by hand."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

UNITS_BLOCK = '''%%dql --save --force
block "Units sold by category" {
  domain = "sales"
  type = "custom"
  status = "review"
  owner = "analytics@sample-shop.example"
  description = "Units sold per product category."
  llmContext = "Use for units sold or quantity sold by product category."
  grain = "category"
  outputs = ["category", "units_sold"]

  query = """
    SELECT p.category, SUM(oi.quantity) AS units_sold
    FROM order_items AS oi
    JOIN products AS p ON p.product_id = oi.product_id
    GROUP BY p.category
    ORDER BY units_sold DESC
  """

  tests {
    assert row_count == 5
    assert unique(category) == true
  }
}'''

# The first run of a kernel builds the sample shop and loads the routes: allow for it.
FIRST_RUN_S = 120


def setup_cell(cache: Path) -> str:
    """Points the kernel's sample cache at the test's tmp folder, then connects."""
    return (
        "import os\n"
        f"os.environ['ZLENS_CACHE_DIR'] = {str(cache)!r}\n"
        "%load_ext zlens_jupyter\n"
        "%zlens connect sample"
    )


def open_and_connect(nb, name: str, cells: list[str], cache: Path) -> None:
    nb.write(name, [setup_cell(cache), *cells])
    nb.open(name)
    nb.run(0, timeout=FIRST_RUN_S)
    assert "connected to sample" in nb.cell(0).locator(".jp-OutputArea").inner_text()


def test_a_certified_answer_with_its_panel_and_table(lab_page, tmp_path):
    nb = lab_page
    open_and_connect(nb, "qs_certified.ipynb", ["%zlens What is revenue by segment?"], tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    panel = nb.cell(1).locator(".zl-panel")
    panel.locator(".zl-trust").wait_for()
    assert panel.locator(".zl-trust").get_attribute("data-trust") == "certified"
    assert panel.locator(".zl-orb").get_attribute("data-state") == "done"
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    chip = answer.locator(".zlens-trust")
    assert chip.inner_text() == "certified"
    assert chip.get_attribute("data-trust") == "certified"
    table = answer.locator("table.zlens-table")
    assert table.locator("th").all_inner_texts() == ["segment", "revenue"]
    assert table.locator("tbody tr").count() == 4
    assert table.locator("tbody tr").first.inner_text().split() == ["Consumer", "17,855,834.59"]
    # The chart, drawn in the kernel, is a picture inside the card (it reads anywhere).
    chart = answer.locator("img.zlens-chart")
    assert chart.evaluate("img => img.complete ? img.naturalWidth : 0") > 100
    # No help popup: the trailing "?" belongs to the question, not to IPython's `obj?`.
    assert nb.cell(1).locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    nb.shot("certified")


def test_a_draft_inserted_below_runs_as_it_is(lab_page, tmp_path):
    nb = lab_page
    cells = ["%zlens draft a dql block for units sold by category", "# after"]
    open_and_connect(nb, "qs_draft.ipynb", cells, tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").inner_text() == "review required"
    button = answer.locator("button.zlens-insert-dql")
    assert button.inner_text() == "Insert as DQL cell"
    expected = base64.b64decode(button.get_attribute("data-zlens-insert")).decode()
    assert expected.startswith("%%dql\n") and 'block "Units sold by category"' in expected
    button.scroll_into_view_if_needed()
    nb.shot("draft")
    button.click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 4"
    )
    # Read the sources from the saved file: CodeMirror only draws the lines in view.
    saved = [cell["source"] for cell in nb.save("qs_draft.ipynb")["cells"]]
    sources = ["".join(s) if isinstance(s, list) else s for s in saved]
    assert sources[2].strip() == expected.strip()  # directly below the answer
    assert sources[3] == "# after"
    nb.run(2)  # edited by nobody: the draft runs as inserted
    output = nb.cell(2).locator(".jp-OutputArea")
    view = output.locator(".zlens-view")
    view.wait_for()
    rows = view.locator("tbody tr")
    assert rows.count() == 5
    assert rows.first.inner_text().split() == ["Office", "Supplies", "173377"]
    text = output.inner_text()
    assert "✓ row_count > 0 — observed 5" in text
    assert "✓ unique(category) == true — observed True" in text
    assert "✗" not in text
    assert "status: draft; trust: review required; 2/2 tests passed" in text
    output.scroll_into_view_if_needed()
    nb.shot("inserted_and_run")


def test_certify_a_saved_block_then_the_answer_is_certified(lab_page, tmp_path):
    nb = lab_page
    cells = [
        UNITS_BLOCK,
        '%zlens certify "Units sold by category" --by analyst@sample-shop.example',
        "%zlens How many units were sold by category?",
    ]
    open_and_connect(nb, "qs_certify.ipynb", cells, tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    saved = nb.cell(1).locator(".jp-OutputArea").inner_text()
    assert "2/2 tests passed" in saved and "units_sold_by_category.dql" in saved
    assert (tmp_path / "sample-project" / "blocks" / "units_sold_by_category.dql").is_file()
    nb.run(2)
    certified = nb.cell(2).locator(".jp-OutputArea").inner_text().strip()
    assert certified.startswith('certified "Units sold by category" by analyst@sample-shop')
    nb.run(3)
    answer = nb.cell(3).locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").get_attribute("data-trust") == "certified"
    reason = answer.locator(".zlens-reason").inner_text()
    assert 'certified block "Units sold by category"' in reason
    panel_chip = nb.cell(3).locator(".zl-panel .zl-trust")
    panel_chip.wait_for()
    assert panel_chip.get_attribute("data-trust") == "certified"
    answer.scroll_into_view_if_needed()
    nb.shot("certified_again")


def test_the_interactive_panel_runs_a_question_from_its_button(lab_page, tmp_path):
    nb = lab_page
    cells = ["import zlens_jupyter\nzlens_jupyter.panel(question='What is revenue by segment?')"]
    open_and_connect(nb, "qs_panel.ipynb", cells, tmp_path)
    nb.run(1)
    box = nb.cell(1).locator(".zlens-ask-panel")
    box.wait_for()
    box.locator("button", has_text="Ask").click()  # the kernel is idle: a comm callback runs it
    answer = box.locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").get_attribute("data-trust") == "certified"
    # As in a %zlens cell, the run's panel ends as one line (nothing left to Stop).
    line = box.locator(".zl-panel-static summary")
    assert "done" in line.inner_text() and "checks passed" in line.inner_text()
    assert box.locator(".zl-panel .zl-trust").get_attribute("data-trust") == "certified"
    assert box.locator(".zl-stop").count() == 0
    options = box.locator(".widget-select select option")  # the history list
    assert options.count() == 1
    label = options.first.inner_text().replace("\xa0", " ")  # the Select shows nbsp for spaces
    assert label.endswith(" · certified · What is revenue by segment?")
    nb.shot("panel")
    # The answer inside the panel inserts like any answer: a new cell right below this one.
    button = answer.locator("button.zlens-insert-sql")
    expected = base64.b64decode(button.get_attribute("data-zlens-insert")).decode()
    button.click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 3"
    )
    saved = [cell["source"] for cell in nb.save("qs_panel.ipynb")["cells"]]
    sources = ["".join(s) if isinstance(s, list) else s for s in saved]
    assert sources[2].strip() == expected.strip() and "segment" in expected


def test_stop_ends_a_run_started_from_the_interactive_panel(lab_page, tmp_path):
    # The run executes inside the Ask button's comm callback, so the kernel is busy and a
    # Stop *message* would wait behind it; Stop interrupts the kernel instead.
    nb = lab_page
    slow = "SELECT count(*) FROM range(100000000000) AS a"
    cells = [f"import zlens_jupyter\nzlens_jupyter.panel(question={slow!r})"]
    open_and_connect(nb, "qs_panel_stop.ipynb", cells, tmp_path)
    nb.run(1)
    box = nb.cell(1).locator(".zlens-ask-panel")
    box.wait_for()
    box.locator("button", has_text="Ask").click()
    run_panel = box.locator(".zl-panel")
    run_panel.locator(".zl-orb[data-state=working]").wait_for()
    nb.shot("panel_working")
    run_panel.locator(".zl-stop").click()
    # Cancelled reads "cancelled" (grey), never "review required", on the panel's one line.
    # When the run ends the live panel gives way to its one-line static summary: wait for
    # that line (under load the live panel can still be showing for a moment).
    run_panel = box.locator(".zl-panel-static")
    run_panel.locator(".zl-trust[data-trust=cancelled]").wait_for(timeout=30_000)
    assert run_panel.locator(".zl-orb").get_attribute("data-state") == "cancelled"
    line = run_panel.locator("summary").first
    assert "stopped in" in line.inner_text() and "review required" not in line.inner_text()
    line.click()  # opens to the trace, with the reason
    assert "cancelled" in run_panel.locator(".zl-reason").inner_text()
    label = box.locator(".widget-select select option").first.inner_text().replace("\xa0", " ")
    assert " · " in label and label.endswith(slow)
    assert not box.locator("button", has_text="Ask").is_disabled()  # ready for the next one
    nb.shot("panel_cancelled")


def test_one_cell_gives_a_dashboard_of_certified_blocks_with_a_live_filter(lab_page, tmp_path):
    # The done-when, as the quickstart shows it: one cell, three certified tiles.
    nb = lab_page
    cells = ["%zlens build a dashboard of revenue by region and segment with monthly trend"]
    open_and_connect(nb, "qs_dashboard.ipynb", cells, tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    board = nb.cell(1).locator(".zlens-dashboard")
    board.wait_for()
    assert board.get_attribute("data-trust") == "certified"
    tiles = board.locator(".zlens-tile").evaluate_all(
        "els => els.map(e => [e.dataset.tile, e.dataset.trust])"
    )
    assert tiles == [
        ["Revenue by region", "certified"],
        ["Revenue by segment", "certified"],
        ["Monthly revenue", "certified"],
    ]
    assert board.locator(".zlens-draft-badge").count() == 0
    assert (
        board.locator(".zlens-bar-rect").count() == 8
        and board.locator(".zlens-point").count() == 24
    )
    # The month filter works in the browser at once, on the trend only.
    board.locator(".zlens-filter-from").select_option("2025-07-01")
    assert board.locator(".zlens-point").count() == 6
    assert board.locator(".zlens-bar-rect").count() == 8
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").get_attribute("data-trust") == "certified"
    board.scroll_into_view_if_needed()
    nb.shot("dashboard")
    # Export HTML asks the kernel (idle now) to write the offline file next to the DQL.
    button = board.locator("button.zlens-export-dashboard")
    button.click()
    nb.page.wait_for_function(
        "b => b.textContent.startsWith('Saved ')", arg=button.element_handle(), timeout=30_000
    )
    folder = tmp_path / "sample-project" / "dashboards"
    exported = folder / "revenue_by_region_and_segment_with_monthly_trend.html"
    assert button.inner_text() == f"Saved {exported}"
    assert "3 tiles, trust certified." in exported.read_text()
