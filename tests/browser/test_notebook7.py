"""Notebook 7 opens a notebook whose answer was saved elsewhere (an untrusted notebook, so
its HTML goes through the sanitizer) and still shows the answer, the chart, and the buttons."""

from __future__ import annotations

import nbformat

from zlens_jupyter.engine import Engine, Evaluation, Route, StepOutcome
from zlens_jupyter.notebook.render import answer_outputs, sql_cell_source

SQL = "SELECT carrier, COUNT(*) AS flights FROM flights GROUP BY 1 ORDER BY 2 DESC"
RESULT = {
    "columns": ["carrier", "flights"],
    "rows": [["UA", 58665], ["B6", 54635], ["EV", 54173], ["DL", 48110]],
    "row_count": 4,
}


def saved_answer_notebook() -> tuple[list[str], dict[int, list], str]:
    def executor(ctx):
        checks = [
            Evaluation(id="catalog-grounding", label="Catalog grounding", passed=True),
            Evaluation(id="result-executed", label="Result executed", passed=True),
        ]
        return StepOutcome(
            answer="UA flew the most flights.", sql=SQL, result=RESULT, evaluations=checks
        )

    run = Engine({route: executor for route in Route}).run("Which carrier flew the most?")
    outputs = [
        nbformat.v4.new_output("display_data", data=data, metadata=metadata)
        for data, metadata in answer_outputs(run)
    ]
    source = sql_cell_source(run)
    assert source is not None
    return ["%zlens Which carrier flew the most?", "# after"], {0: outputs}, source


def test_notebook7_shows_the_saved_answer_and_inserts_below(notebook7_page):
    nb = notebook7_page
    cells, outputs, expected_sql = saved_answer_notebook()
    name = nb.write("nb7_answer.ipynb", cells, outputs)
    nb.open(name)
    answer = nb.cell(0).locator(".zlens-answer")
    answer.wait_for()
    assert "UA flew the most flights." in answer.inner_text()
    assert answer.locator(".zlens-trust").inner_text() == "grounded"
    assert answer.locator("table tr").count() == 1 + 4
    sql = answer.locator("pre.zlens-sql")
    assert not sql.is_visible()  # folded: the SQL toggle opens it
    answer.locator(".zlens-tabbar button.zlens-tab-sql").click()
    sql.wait_for(state="visible")
    assert "GROUP BY 1" in sql.inner_text()
    nb.cell(0).locator(".vega-embed").wait_for()
    nb.shot("answer")
    # The sanitizer may strip data-* attributes from untrusted HTML; the extension then
    # reads the source from the <pre> the button names by class.
    answer.locator("button.zlens-insert-sql").click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 3"
    )
    assert nb.editor_text(1).strip() == expected_sql.strip()
    assert nb.editor_text(2) == "# after"
    nb.shot("inserted")


def test_notebook7_runs_the_magic_to_one_answer_and_a_one_line_panel(notebook7_page, tmp_path):
    nb = notebook7_page
    setup = (
        "import os\n"
        f"os.environ['ZLENS_CACHE_DIR'] = {str(tmp_path)!r}\n"
        "%load_ext zlens_jupyter\n"
        "%zlens connect sample"
    )
    nb.open(nb.write("nb7_magic.ipynb", [setup, "%zlens What is revenue by segment?"]))
    nb.run(0, timeout=120)
    nb.run(1, timeout=120)
    cell = nb.cell(1)
    cell.locator(".zlens-answer").wait_for()
    assert cell.locator(".jp-OutputArea-child").count() == 2  # the summary line, the answer
    line = cell.locator(".zl-panel-static summary").inner_text()
    assert "done" in line and "certified" in line and "checks passed" in line
    chart = cell.locator(".zlens-answer img.zlens-chart")
    assert chart.evaluate("img => img.complete ? img.naturalWidth : 0") > 100
    assert "<AgentRun" not in cell.locator(".jp-OutputArea").inner_text()
    nb.shot("magic")
