"""The exported dashboard in real headless Chromium, offline: every tile with its trust label,
and filters that change the bound tiles (and only those) with no kernel and no network."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from dashboard_fixtures import add_region_dashboard

from zlens_jupyter.dashboards import open_dashboard, write_html
from zlens_jupyter.sample import CACHE_ENV_VAR, open_sample
from zlens_jupyter.session import Session

REQUEST = "build a dashboard of revenue by region and segment with monthly trend"


@pytest.fixture
def exports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "cache"))
    database, bundled = open_sample()
    project = tmp_path / "project"
    shutil.copytree(bundled, project)
    session = Session(str(database), project)
    try:
        run = session.ask(REQUEST)
        name = next(a for a in run.artifacts if a.kind == "app_draft").title
        add_region_dashboard(session, project)
        return {
            "sample": write_html(open_dashboard(session, name), tmp_path / "sample.html"),
            "regional": write_html(
                open_dashboard(session, "Regional sales"), tmp_path / "regional.html"
            ),
        }
    finally:
        session.close()


def _open(browser: Any, path: Path) -> tuple[Any, Any, list[str], float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_selector(".zlens-tile")
    seconds = time.perf_counter() - started
    assert errors == []
    return context, page, requests, seconds


def _rows(page: Any) -> dict[str, str]:
    return page.eval_on_selector_all(
        ".zlens-tile",
        "els => Object.fromEntries(els.map(e => "
        "[e.dataset.tile, e.querySelector('.zlens-tile-body').dataset.rows]))",
    )


def test_sample_export_shows_every_tile_with_its_label_offline(browser: Any, exports) -> None:
    path = exports["sample"]
    context, page, requests, seconds = _open(browser, path)
    try:
        tiles = page.eval_on_selector_all(
            ".zlens-tile", "els => els.map(e => [e.dataset.tile, e.dataset.trust])"
        )
        assert tiles == [
            ["Revenue by region", "certified"],
            ["Revenue by segment", "certified"],
            ["Monthly revenue", "certified"],
        ]
        assert page.locator(".zlens-draft-badge").count() == 0
        assert page.get_attribute(".zlens-dashboard", "data-trust") == "certified"
        assert page.locator(".zlens-bar-rect").count() == 8  # two bar charts of four
        assert page.locator(".zlens-point").count() == 24  # the monthly line
        # The month range narrows the trend only: the breakdowns do not group by month.
        page.select_option(".zlens-filter-from", "2025-01-01")
        assert _rows(page) == {
            "Revenue by region": "4",
            "Revenue by segment": "4",
            "Monthly revenue": "12",
        }
        assert page.locator(".zlens-point").count() == 12
        feet = page.eval_on_selector_all(
            ".zlens-tile", "els => els.map(e => e.querySelector('.zlens-tile-foot').innerText)"
        )
        assert feet == [
            "block: Revenue by region · not filtered by Month",
            "block: Revenue by segment · not filtered by Month",
            "block: Monthly revenue · filtered by Month",
        ]
        page.select_option(".zlens-filter-to", "2025-03-01")
        assert _rows(page)["Monthly revenue"] == "3"
        page.select_option(".zlens-filter-from", "*")
        page.select_option(".zlens-filter-to", "*")
        assert page.locator(".zlens-point").count() == 24
        assert all(url.startswith("file://") for url in requests), requests
        print(
            f"\nsample export: {path.stat().st_size:,} bytes, first tile drawn in {seconds:.3f} s"
        )
    finally:
        context.close()


def test_region_filter_changes_the_bound_tile_and_not_the_other(browser: Any, exports) -> None:
    context, page, requests, _ = _open(browser, exports["regional"])
    try:
        before = page.inner_text(".zlens-tile[data-tile='Segments in the region']")
        trend = page.inner_text(".zlens-tile[data-tile='Monthly revenue'] .zlens-tile-body")
        page.select_option(".zlens-filter[data-filter='region'] select", "North")
        after = page.inner_text(".zlens-tile[data-tile='Segments in the region']")
        assert after != before
        assert page.inner_text(".zlens-tile[data-tile='Monthly revenue'] .zlens-tile-body") == trend
        assert "not filtered by Region" in page.inner_text(
            ".zlens-tile[data-tile='Monthly revenue']"
        )
        page.select_option(".zlens-filter[data-filter='region'] select", "*")
        assert page.inner_text(".zlens-tile[data-tile='Segments in the region']") == before
        assert all(url.startswith("file://") for url in requests), requests
    finally:
        context.close()
