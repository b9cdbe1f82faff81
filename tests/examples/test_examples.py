"""The example notebooks run top to bottom, headless, in a real kernel (nbclient).

Each runs in its own kernel (this venv's python), with the sample cache in a temporary
folder (ZLENS_CACHE_DIR) and a temporary working directory, so nothing is written to the
user's cache or to examples/. The magics report errors as one stderr line rather than
raising, so "ran without error" also means "no `zlens:` line on stderr".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOTEBOOKS = ("quickstart", "certified_workflow", "your_own_data")
WIDGET = "application/vnd.jupyter.widget-view+json"


def execute(name: str, cache: Path, cwd: Path) -> Any:
    notebook = nbformat.read(EXAMPLES / f"{name}.ipynb", as_version=4)
    client = NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",  # jupyter_client starts it with this interpreter
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute(env={**os.environ, "ZLENS_CACHE_DIR": str(cache)})
    return notebook


def outputs_of(notebook: Any, starts_with: str) -> list[dict[str, Any]]:
    """The outputs of the one code cell whose source starts with `starts_with`."""
    cells = [
        c for c in notebook.cells if c.cell_type == "code" and c.source.startswith(starts_with)
    ]
    assert len(cells) == 1, f"expected one cell starting {starts_with!r}, found {len(cells)}"
    return list(cells[0].outputs)


def plain(outputs: list[dict[str, Any]]) -> str:
    """Everything a terminal would show: streams and text/plain of displays and results."""
    parts = []
    for output in outputs:
        if output["output_type"] == "stream":
            parts.append(output["text"])
        elif "data" in output:
            parts.append(output["data"].get("text/plain", ""))
    return "\n".join(parts)


def answer_text(outputs: list[dict[str, Any]]) -> str:
    """The text/plain of the answer (the display carrying ZLens metadata and HTML)."""
    answers = [
        o for o in outputs if "text/html" in o.get("data", {}) and "zlens" in o.get("metadata", {})
    ]
    assert len(answers) == 1, plain(outputs)
    return str(answers[0]["data"]["text/plain"])


@pytest.fixture
def run_example(tmp_path: Path) -> Any:
    def run(name: str) -> Any:
        cwd = tmp_path / "cwd"
        cwd.mkdir(exist_ok=True)
        notebook = execute(name, tmp_path / "cache", cwd)
        for cell in notebook.cells:
            for output in cell.get("outputs", []):
                if output["output_type"] == "stream" and output["name"] == "stderr":
                    assert "zlens:" not in output["text"], (cell.source, output["text"])
        assert list(cwd.iterdir()) == [], "an example wrote into the working directory"
        return notebook

    return run


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_examples_are_committed_without_outputs(name: str) -> None:
    notebook = nbformat.read(EXAMPLES / f"{name}.ipynb", as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)
    assert notebook.metadata["kernelspec"]["name"] == "python3"


def test_quickstart(run_example: Any) -> None:
    nb = run_example("quickstart")
    assert "connected to sample" in plain(outputs_of(nb, "%zlens connect sample"))

    segment = outputs_of(nb, "%zlens What is revenue by segment?")
    # The live panel ended as its one-line summary; the answer is the cell's value, once.
    assert not any(WIDGET in o.get("data", {}) for o in segment), "a panel needs widget state"
    [summary] = [o for o in segment if "zlens_panel" in o.get("metadata", {})]
    assert " · done · certified · 1 step · " in summary["data"]["text/plain"]
    text = answer_text(segment)
    assert "Trust: certified" in text and "Consumer" in text and "Enterprise" in text
    [answer] = [o for o in segment if o["output_type"] == "execute_result"]
    assert {"application/vnd.vegalite.v5+json", "image/svg+xml"} <= set(answer["data"])

    assert "Trust: grounded" in answer_text(outputs_of(nb, "%zlens What is revenue by category?"))
    research = answer_text(outputs_of(nb, "%zlens Why did revenue drop"))
    assert "research · 1 step" in research
    assert "2025-12" in research and "Trust: grounded" in research

    draft = answer_text(outputs_of(nb, "%zlens draft a dql block"))
    assert "Trust: review required" in draft and "block draft · 1 step" in draft

    dql = plain(outputs_of(nb, "%%dql --save --force"))
    assert "✓ row_count == 5 — observed 5" in dql and "3/3 tests passed" in dql
    assert "saved " in dql and "units_sold_by_category.dql" in dql
    certified = plain(outputs_of(nb, '%zlens certify "Units sold by category"'))
    assert certified.startswith('certified "Units sold by category" by analyst@')

    again = answer_text(outputs_of(nb, "%zlens -o run How many units"))
    assert 'Trust: certified — certified block "Units sold by category"' in again
    frame = plain(outputs_of(nb, "run.df"))
    assert "units_sold" in frame and "Office Supplies" in frame and "173377" in frame

    # The done-when: one cell gives a dashboard of the sample's certified blocks.
    request = "%zlens build a dashboard of revenue by region and segment with monthly trend"
    built = outputs_of(nb, request)
    dashboard = answer_text(built)
    assert dashboard.startswith(
        'Dashboard "Revenue by region and segment with monthly trend": 3 tiles — 3 certified '
        "(Revenue by region, Revenue by segment, Monthly revenue). Filters: Month."
    )
    assert "Trust: certified — every tile runs a certified block" in dashboard
    [widget] = [o for o in built if WIDGET in o.get("data", {})]  # the live dashboard
    for tile in ("Revenue by region", "Revenue by segment", "Monthly revenue"):
        assert f"{tile}: certified — certified block '{tile}' ran unchanged" in plain([widget])
    exported = plain(outputs_of(nb, "%zlens dashboard export"))
    assert exported.startswith("wrote ") and exported.strip().endswith(
        "dashboards/revenue_by_region_and_segment_with_monthly_trend.html"
    )
    page = Path(exported.strip().removeprefix("wrote ")).read_text()
    assert "default-src 'none'" in page and "3 tiles, trust certified." in page
    assert page.count('"trust":"certified"') == 4  # the dashboard and each of its tiles

    panel = outputs_of(nb, "import zlens_jupyter")
    assert any(WIDGET in o.get("data", {}) for o in panel)


def test_certified_workflow(run_example: Any) -> None:
    nb = run_example("certified_workflow")
    first = answer_text(outputs_of(nb, "%zlens -o run What is revenue by channel?"))
    assert "Trust: grounded" in first and "web" in first
    draft = plain(outputs_of(nb, "from zlens_jupyter.notebook.insert import dql_draft_source"))
    assert draft.startswith("%%dql\n") and 'status = "draft"' in draft
    assert 'block "What is revenue by channel"' in draft
    assert "3/3 tests passed" in plain(outputs_of(nb, "%%dql --save --force"))
    assert "Revenue by channel" in plain(outputs_of(nb, "%zlens blocks"))
    certify = plain(outputs_of(nb, '%zlens certify "Revenue by channel"'))
    assert 'certified "Revenue by channel" by reviewer@sample-shop.example' in certify
    again = answer_text(outputs_of(nb, "%zlens -o again What is revenue by channel?"))
    assert 'Trust: certified — certified block "Revenue by channel"' in again
    assert plain(outputs_of(nb, "again.trust_state.value")) == "('certified', 'certified_answer')"


def test_certified_workflow_runs_again_on_the_same_project(run_example: Any) -> None:
    run_example("certified_workflow")
    nb = run_example("certified_workflow")  # same cache: the block is already certified
    again = answer_text(outputs_of(nb, "%zlens -o again What is revenue by channel?"))
    assert "Trust: certified" in again
    assert "certified" in plain(outputs_of(nb, '%zlens certify "Revenue by channel"'))


def test_your_own_data(run_example: Any) -> None:
    nb = run_example("your_own_data")
    connected = plain(outputs_of(nb, "%load_ext zlens_jupyter"))
    assert "tables airlines, airports, flights, planes, weather" in connected
    carriers = answer_text(outputs_of(nb, "%zlens How many flights by carrier?"))
    assert "Trust: grounded" in carriers and "UA" in carriers and "58,665" in carriers
    delays = plain(outputs_of(nb, "delays.df"))
    assert "EWR" in delays and "15.11" in delays
    assert "tables fleet" in plain(outputs_of(nb, "%zlens connect fleet"))
    seats = answer_text(outputs_of(nb, "%zlens What is the average number of seats"))
    assert "Trust: grounded" in seats and "Turbo-fan" in seats
