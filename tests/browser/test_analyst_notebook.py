"""Issue 10 in a real JupyterLab with the REAL magics on the sample data: one answer per cell,
a Stop that stops exactly its own run, notebooks that reopen and export whole."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FIRST_RUN_S = 120  # the first run of a kernel builds the sample shop and loads the routes
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "browser"

# One DuckDB statement that runs for minutes unless something stops it.
SLOW = "SELECT count(*) FROM range(100000000000) AS a"
OTHER_CELL = "import time\nfor _ in range(40):\n    time.sleep(0.25)\nprint('other cell finished')"
NATURAL_WIDTH = "img => img.complete ? img.naturalWidth : 0"


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


def output_text(nb, index: int) -> str:
    return str(nb.cell(index).locator(".jp-OutputArea").inner_text())


def test_one_answer_per_cell_and_the_panel_ends_as_one_line(lab_page, tmp_path):
    nb = lab_page
    open_and_connect(nb, "one_answer.ipynb", ["%zlens What is revenue by segment?"], tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    cell = nb.cell(1)
    answer = cell.locator(".zlens-answer")
    answer.wait_for()
    # Two outputs: the finished panel's one line, then the answer as the cell's value.
    assert cell.locator(".jp-OutputArea-child").count() == 2
    assert cell.locator(".zlens-answer").count() == 1
    assert cell.locator(".zlens-trust").count() == 1  # the label chip, once
    assert re.fullmatch(r"\[\d+\]:", cell.locator(".jp-OutputPrompt").nth(1).inner_text().strip())
    assert "<AgentRun" not in output_text(nb, 1)
    summary = cell.locator(".zl-panel-static")
    line = summary.locator("summary").inner_text()
    assert "done" in line and "certified" in line and "checks passed" in line
    assert not summary.locator(".zl-step").first.is_visible()  # collapsed
    # The chart is a picture in the card, drawn in the kernel.
    chart = answer.locator("img.zlens-chart")
    assert chart.evaluate(NATURAL_WIDTH) > 100
    nb.shot("collapsed")
    summary.locator("summary").click()  # expands to the trace
    summary.locator(".zl-step").first.wait_for(state="visible")
    assert "certified block" in summary.locator(".zl-step").first.inner_text()
    nb.shot("expanded")


def test_stop_ends_a_long_statement_and_the_panel_says_where(lab_page, tmp_path):
    nb = lab_page
    open_and_connect(nb, "stop_sync.ipynb", [f"%zlens {SLOW}"], tmp_path)
    nb.start(1)
    panel = nb.cell(1).locator(".zl-panel")
    panel.locator(".zl-orb[data-state=working]").wait_for(timeout=FIRST_RUN_S * 1000)
    # Offline: no token or cost meters; the seconds meter moves while the statement runs.
    meters = panel.locator(".zl-meter").evaluate_all("els => els.map(e => e.dataset.meter)")
    assert meters == ["steps", "repairs", "seconds"]
    seconds = panel.locator("[data-meter=seconds] .zl-meter-value")
    nb.page.wait_for_function(
        "el => parseFloat(el.textContent) >= 1.0", arg=seconds.element_handle(), timeout=10_000
    )
    nb.shot("working")
    clicked = time.monotonic()
    panel.locator(".zl-stop").click()
    nb.wait_done(1, timeout=30)
    stopped_after = time.monotonic() - clicked
    summary = nb.cell(1).locator(".zl-panel-static")
    summary.wait_for()
    assert summary.get_attribute("data-orb") == "cancelled"
    line = summary.locator("summary").inner_text()
    assert "cancelled" in line and "stopped in Work" in line and "review required" not in line
    answer = nb.cell(1).locator(".zlens-answer")
    assert answer.locator(".zlens-trust").get_attribute("data-trust") == "cancelled"
    assert nb.cell(1).locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    # The statement ends within 1 s of the click (measured here: about 0.25 s, prompt
    # polling included).
    assert stopped_after < 1.0, f"the statement ended {stopped_after:.2f} s after Stop"
    nb.shot("cancelled")


def test_stop_on_a_background_run_leaves_another_running_cell_untouched(lab_page, tmp_path):
    nb = lab_page
    cells = [f"%zlens --background {SLOW}", OTHER_CELL]
    open_and_connect(nb, "stop_background.ipynb", cells, tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)  # returns at once: the run works in a thread
    panel = nb.cell(1).locator(".zl-panel")
    panel.locator(".zl-orb[data-state=working]").wait_for()
    nb.start(2)
    time.sleep(1.0)
    assert "*" in nb.prompt(2)
    panel.locator(".zl-stop").click()
    # The background run ends cancelled while the other cell is still at work ...
    summary = nb.cell(1).locator(".zl-panel-static[data-orb=cancelled]")
    summary.wait_for(timeout=8_000)
    assert "*" in nb.prompt(2)
    nb.shot("stopped_while_other_runs")
    # ... and the other cell was never interrupted.
    nb.wait_done(2, timeout=30)
    text = output_text(nb, 2)
    assert "other cell finished" in text and "KeyboardInterrupt" not in text
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").get_attribute("data-trust") == "cancelled"


def test_a_saved_notebook_reopens_whole_with_default_settings(lab_defaults_page, tmp_path):
    nb = lab_defaults_page
    cells = [
        "%zlens What is revenue by segment?",
        "%zlens --background What is revenue by category?",
    ]
    name = "reopen.ipynb"
    open_and_connect(nb, name, cells, tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    nb.run(2)
    for index in (1, 2):
        nb.cell(index).locator(".zlens-answer").wait_for()
        nb.cell(index).locator(".zl-panel-static").wait_for()
    saved = nb.save(name)
    outputs = [o for c in saved["cells"] for o in c.get("outputs", [])]
    assert not any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)

    nb.server.shutdown_sessions()  # reopen with a fresh kernel and no widget state
    nb.open(name)
    for index in (1, 2):
        nb.cell(index).locator(".zlens-answer").wait_for()
        assert nb.cell(index).locator(".zl-panel-static").count() == 1
        chart = nb.cell(index).locator("img.zlens-chart")
        assert chart.evaluate(NATURAL_WIDTH) > 100
    page_text = nb.page.locator(".jp-Notebook").inner_text()
    assert "model not found" not in page_text and "Error displaying widget" not in page_text
    nb.shot("reopened")


def test_nbconvert_execute_html_shows_the_chart_and_the_summary(page, tmp_path):
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    notebook.cells = [
        nbformat.v4.new_code_cell(setup_cell(tmp_path / "cache")),
        nbformat.v4.new_code_cell("%zlens What is revenue by segment?"),
    ]
    source = tmp_path / "export.ipynb"
    nbformat.write(notebook, str(source))
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--execute", "--to", "html", str(source)],
        check=True,
        capture_output=True,
        env=env,
        timeout=FIRST_RUN_S,
    )
    html = tmp_path / "export.html"
    assert "<ZLens run panel" not in html.read_text()
    # Offline, as a reader's browser might be: only the file itself loads.
    page.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())
    page.goto(Path(html).as_uri(), wait_until="domcontentloaded")
    chart = page.locator("img.zlens-chart")
    chart.wait_for()
    page.wait_for_function(f"() => ({NATURAL_WIDTH})(document.querySelector('img.zlens-chart'))")
    assert chart.evaluate(NATURAL_WIDTH) > 100
    line = page.locator(".zl-panel-static summary").inner_text()
    assert "certified" in line and "checks passed" in line
    assert page.locator(".zlens-answer .zlens-trust").inner_text() == "certified"
    # The card's views read as foldable sections: Table and Chart open, SQL and Trace folded.
    answer = page.locator(".zlens-answer")
    assert answer.locator("table.zlens-table").is_visible()
    assert answer.locator("table.zlens-table tbody tr").count() == 4
    sql = answer.locator("pre.zlens-sql")
    assert not sql.is_visible()
    answer.locator("details.zlens-view-sql > summary").click()
    assert sql.is_visible() and "segment" in sql.inner_text().lower()
    # No Insert or Copy buttons where nothing could act on them.
    assert answer.locator("button.zlens-insert, button.zlens-copy").count() == 3
    assert answer.locator("button:visible").count() == 0
    folder = ARTIFACTS / "test_nbconvert_execute_html_shows_the_chart_and_the_summary"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "export.png"), full_page=True)


def test_a_clarification_button_answers_the_question(lab_page, tmp_path):
    nb = lab_page
    open_and_connect(nb, "clarify.ipynb", ["%zlens What is revenue by segmnt?"], tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").inner_text() == "not applicable"
    summary = nb.cell(1).locator(".zl-panel-static")
    assert summary.get_attribute("data-orb") == "clarify"  # neutral, not "review required"
    option = answer.locator("button.zlens-option", has_text="Segment").first
    assert "e.g. Consumer, Corporate, Enterprise" in option.inner_text()
    nb.shot("options")
    option.click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 3"
    )
    assert nb.editor_text(2) == "%zlens What is revenue by segment?"
    nb.wait_done(2, timeout=60)
    again = nb.cell(2).locator(".zlens-answer")
    again.wait_for()
    assert again.locator(".zlens-trust").get_attribute("data-trust") in ("certified", "grounded")
    assert again.locator("table.zlens-table tbody tr").count() == 4
    nb.shot("answered")


def test_a_research_answer_shows_its_drill_down(lab_page, tmp_path):
    nb = lab_page
    cells = ["%zlens Why did revenue drop in December 2025?"]
    open_and_connect(nb, "research.ipynb", cells, tmp_path)
    nb.run(1, timeout=FIRST_RUN_S)
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    findings = answer.locator("section.zlens-finding")
    assert findings.count() == 3  # the period compared, the top driver, the drill-down
    assert findings.nth(2).locator("div").first.inner_text().startswith("3. Within ")
    for index in range(3):
        finding = findings.nth(index)
        assert finding.locator("table.zlens-finding-table tbody tr").count() > 1
        chart = finding.locator("img.zlens-chart")
        assert chart.evaluate(NATURAL_WIDTH) > 100
        assert finding.locator("button.zlens-insert-finding").count() == 1
    # The trend's table holds the months the sentence compares.
    assert "2025-12-01" in findings.nth(0).locator("table").inner_text()
    findings.nth(2).scroll_into_view_if_needed()
    nb.shot("drill_down")
    # Each finding's SQL inserts as its own cell, directly below.
    findings.nth(2).locator("button.zlens-insert-finding").click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 3"
    )
    saved = [c["source"] for c in nb.save("research.ipynb")["cells"]]
    source = "".join(saved[2]) if isinstance(saved[2], list) else saved[2]
    assert source.startswith("%%zlens_sql\n-- Within ")
