"""In a real JupyterLab and Notebook 7: `%%dql` and `%%zlens_sql` cells are highlighted as SQL
(not Python), and the answer card's views (Table, Chart, SQL, Trace) are one row of toggles
with Insert and Copy once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FIRST_RUN_S = 120
SQL_CELL = "%%zlens_sql\nSELECT segment, SUM(amount) AS revenue FROM orders GROUP BY 1"
DQL_CELL = (
    "%%dql\n"
    'block "Revenue by segment" {\n'
    '  status = "draft"\n'
    '  query = """\n'
    "    SELECT segment FROM orders WHERE amount > 0\n"
    '  """\n'
    "}"
)
# The same words in a cell that is Python: SELECT is a name there, not a keyword.
PYTHON_CELL = "%%capture\nSELECT = 1"
# The colour JupyterLab's theme gives keywords, read from its CSS variable.
KEYWORD_COLOUR = """() => {
  const probe = document.createElement('span');
  probe.style.color = 'var(--jp-mirror-editor-keyword-color)';
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}"""


KEYWORDS_IN_CELL = """(cell, colour) => [...cell.querySelectorAll('.cm-line span')]
  .filter(el => getComputedStyle(el).color === colour).map(el => el.textContent)"""


def keywords(nb, index: int, colour: str) -> list[str]:
    """The tokens of cell `index` drawn in the keyword colour."""
    return list(nb.cell(index).evaluate(KEYWORDS_IN_CELL, colour))


def wait_for_keyword(nb, index: int, colour: str, word: str, present: bool = True) -> None:
    deadline = 10_000  # the SQL language loads lazily; an edit is re-highlighted at once
    nb.page.wait_for_function(
        f"([cell, colour, word, present]) => ({KEYWORDS_IN_CELL})(cell, colour)"
        ".includes(word) === present",
        arg=[nb.cell(index).element_handle(), colour, word, present],
        timeout=deadline,
    )


def check_magic_cells_are_sql(nb) -> None:
    name = nb.write("highlight.ipynb", [SQL_CELL, DQL_CELL, PYTHON_CELL])
    nb.open(name)
    keyword = nb.page.evaluate(KEYWORD_COLOUR)
    text = nb.page.evaluate(
        "() => getComputedStyle(document.querySelector('.jp-Notebook .cm-content')).color"
    )
    assert keyword != text  # the theme tells keywords apart
    wait_for_keyword(nb, 0, keyword, "SELECT")
    assert {"SELECT", "AS", "FROM", "GROUP", "BY"} <= set(keywords(nb, 0, keyword)), "SQL"
    # The DQL cell: its declaration keyword, and the SQL inside the block's query string.
    assert {"block", "SELECT", "FROM", "WHERE"} <= set(keywords(nb, 1, keyword)), "%%dql"
    assert "segment" not in keywords(nb, 1, keyword)
    # The same word in a Python cell is a name, not a keyword.
    assert "SELECT" in nb.cell(2).locator(".cm-content").inner_text()
    assert "SELECT" not in keywords(nb, 2, keyword)
    nb.shot("highlighted")

    # Typing the magic in front of a Python cell makes it SQL at once; removing it undoes it.
    nb.cell(2).locator(".cm-content").click()
    nb.page.keyboard.press("Control+Home")
    nb.page.keyboard.type("%%zlens_sql\n")
    wait_for_keyword(nb, 2, keyword, "SELECT")
    for _ in range(5):  # undo the typing
        if nb.editor_text(2) == PYTHON_CELL:
            break
        nb.page.keyboard.press("Control+z")
    assert nb.editor_text(2) == PYTHON_CELL
    wait_for_keyword(nb, 2, keyword, "SELECT", present=False)


def test_magic_cells_are_highlighted_as_sql_in_lab(lab_page):
    check_magic_cells_are_sql(lab_page)


def test_magic_cells_are_highlighted_as_sql_in_notebook7(notebook7_page):
    check_magic_cells_are_sql(notebook7_page)


def setup_cell(cache: Path) -> str:
    return (
        "import os\n"
        f"os.environ['ZLENS_CACHE_DIR'] = {str(cache)!r}\n"
        "%load_ext zlens_jupyter\n"
        "%zlens connect sample"
    )


def test_the_answer_card_toggles_its_views_and_copies_its_sql(lab_page, tmp_path):
    nb = lab_page
    nb.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    name = nb.write("card.ipynb", [setup_cell(tmp_path), "%zlens What is revenue by category?"])
    nb.open(name)
    nb.run(0, timeout=FIRST_RUN_S)
    nb.run(1, timeout=FIRST_RUN_S)
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    bar = answer.locator(".zlens-tabbar")
    bar.wait_for()
    tabs = bar.locator("button.zlens-tab")
    names = [t.split(" · ")[0] for t in tabs.all_inner_texts()]
    assert names == ["Table", "Chart", "SQL", "Trace"]
    pressed = tabs.evaluate_all("els => els.map(e => e.getAttribute('aria-pressed'))")
    assert pressed == ["true", "true", "false", "false"]  # the result shows, SQL and Trace fold
    assert "checks passed" in tabs.nth(3).inner_text()
    assert not answer.locator("details.zlens-view > summary").first.is_visible()  # one row
    table, chart = answer.locator("table.zlens-table"), answer.locator("img.zlens-chart")
    sql = answer.locator("pre.zlens-sql")
    assert table.is_visible() and chart.is_visible() and not sql.is_visible()
    assert table.locator("tbody tr").count() == 5  # one row per category
    nb.shot("card")

    tabs.nth(2).click()  # SQL
    sql.wait_for(state="visible")
    assert re.search(r"\bcategory\b", sql.inner_text(), re.IGNORECASE)
    tabs.nth(3).click()  # Trace: the steps and their checks
    step = answer.locator(".zlens-view-trace .zl-step").first
    step.wait_for(state="visible")
    assert "✓" in answer.locator(".zlens-view-trace").inner_text()
    tabs.nth(0).click()  # Table off
    table.wait_for(state="hidden")
    assert tabs.nth(0).get_attribute("aria-pressed") == "false" and chart.is_visible()
    nb.shot("toggled")

    # Insert and Copy, once each; Copy puts the SQL on the clipboard.
    for button in ("zlens-insert-dql", "zlens-insert-sql", "zlens-copy-sql"):
        assert nb.cell(1).locator(f"button.{button}").count() == 1, button
    copy = answer.locator("button.zlens-copy-sql")
    copy.click()
    nb.page.wait_for_function(
        "el => el.getAttribute('data-zlens-copied') === 'true'", arg=copy.element_handle()
    )
    copied = nb.page.evaluate("() => navigator.clipboard.readText()")
    assert copied.strip() == sql.inner_text().strip() and copied.strip()
    assert nb.cell_count() == 2  # copying inserts nothing


def test_a_row_of_zlens_runs_opens_that_run_below(lab_page, tmp_path):
    nb = lab_page
    cells = [setup_cell(tmp_path), "%zlens What is revenue by category?", "%zlens runs"]
    nb.open(nb.write("runs.ipynb", cells))
    for index in range(3):
        nb.run(index, timeout=FIRST_RUN_S)
    row = nb.cell(2).locator("tr.zlens-run-row")
    assert row.count() == 1
    run_id = row.locator("td").first.inner_text().strip()
    assert run_id.startswith("run_")
    assert row.locator(".zlens-trust").get_attribute("data-trust") == "grounded"
    assert "local time" in nb.cell(2).locator(".zlens-runs").inner_text()
    nb.shot("runs")
    row.click()  # a new cell below, running `%zlens show ID`
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 4"
    )
    assert nb.editor_text(3) == f"%zlens show {run_id}"
    nb.wait_done(3, timeout=60)
    shown = nb.cell(3).locator(".zlens-answer")
    shown.wait_for()
    assert shown.get_attribute("data-zlens-run") == run_id
    assert shown.locator(".zlens-trust").get_attribute("data-trust") == "grounded"


def test_a_reopened_notebook_keeps_options_findings_and_runs_clickable(
    lab_page, tmp_path, monkeypatch
):
    # Saved elsewhere, so untrusted here: JupyterLab's sanitizer drops every data-* attribute,
    # and the buttons fall back to the sources the card carries as hidden text.
    import nbformat

    from zlens_jupyter.notebook.render import answer_display
    from zlens_jupyter.notebook.views import runs_view
    from zlens_jupyter.session import Session

    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    session = Session("sample")
    try:
        clarification = session.ask("What is revenue by segmnt?")
        research = session.ask("Why did revenue drop in December 2025?")
        runs_html = runs_view(session)._repr_html_()
    finally:
        session.close()

    def output(data, metadata=None):
        return [nbformat.v4.new_output("display_data", data=data, metadata=metadata or {})]

    outputs = {
        0: output(*answer_display(clarification)),
        1: output(*answer_display(research)),
        2: output({"text/html": runs_html, "text/plain": "runs"}),
    }
    cells = [f"%zlens {clarification.question}", f"%zlens {research.question}", "%zlens runs"]
    nb = lab_page
    name = nb.write("reopened.ipynb", [*cells, "# end"], outputs)
    nb.open(name)
    options = nb.cell(0).locator("button.zlens-option")
    options.first.wait_for()
    assert nb.page.locator(".jp-Notebook [data-zlens-ask], [data-zlens-insert]").count() == 0
    hidden = nb.page.locator(".zlens-ask-source, pre.zlens-source-finding, pre.zlens-source-sql")
    assert hidden.count() > 3 and not any(hidden.nth(i).is_visible() for i in range(hidden.count()))

    # The sanitizer dropped the chips' inline colours; the extension's stylesheet keeps them.
    brand = nb.page.evaluate(
        KEYWORD_COLOUR.replace("--jp-mirror-editor-keyword-color", "--jp-brand-color1")
    )
    chip = nb.cell(2).locator(".zlens-runs .zlens-trust-grounded")
    assert chip.evaluate("el => getComputedStyle(el).color") == brand
    assert chip.evaluate("el => getComputedStyle(el).borderTopWidth") == "1px"
    answer_chip = nb.cell(1).locator(".zlens-answer .zlens-trust")
    assert answer_chip.evaluate("el => getComputedStyle(el).color") == brand  # grounded
    assert "color" not in answer_chip.evaluate("el => el.getAttribute('style') || ''")
    nb.shot("reopened")

    options.filter(has_text="Segment").first.click()  # asks again, in a new cell below
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 5"
    )
    assert nb.editor_text(1) == "%zlens What is revenue by segment?"

    finding = nb.cell(2).locator("section.zlens-finding").nth(2)
    finding.locator("button.zlens-insert-finding").click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 6"
    )
    assert nb.editor_text(3).startswith("%%zlens_sql\n-- Within ")

    row = nb.cell(4).locator("tr.zlens-run-row").first
    run_id = row.locator("td").first.inner_text().strip()
    assert run_id in (clarification.id, research.id)
    row.click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 7"
    )
    assert nb.editor_text(5) == f"%zlens show {run_id}"
    nb.shot("clicked")
