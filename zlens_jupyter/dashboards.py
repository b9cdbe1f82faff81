"""Dashboards for a session: reopen one by name, certify it, export it as one HTML file.

>>> import zlens_jupyter
>>> session = zlens_jupyter.connect("sample")                        # doctest: +SKIP
>>> run = session.ask("a dashboard of revenue by segment and monthly revenue")  # doctest: +SKIP
>>> view = open_dashboard(session, "Revenue by segment and monthly revenue")  # doctest: +SKIP
>>> write_html(view, "sales.html")                                 # doctest: +SKIP

The exported file is self-contained: the view (every tile's rows, every filter variant) is
embedded as JSON, the renderer is the same small script the notebook widget runs, and a
Content-Security-Policy of `default-src 'none'` forbids the page any network access at all.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any

from .dql.dashboard import (
    Dashboard,
    certification_drift,
    certification_problems,
    certification_record,
    set_certification,
)
from .dql.dashboard_files import dashboard_path, find_dashboard, load_dashboards
from .errors import ConfigError, UserError
from .routes.dashboard_run import block_hashes, lowest_label, run_dashboard

DASHBOARD_JS = Path(__file__).resolve().parent / "static" / "dashboard.js"
_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def open_dashboard(session: Any, name: str) -> dict[str, Any]:
    """Run the saved dashboard `name` against the session's database; return its view."""
    session.refresh_certification()
    dashboard = find_dashboard(session.project_dir, name)
    view = run_dashboard(dashboard, session.kit)
    drift = certification_drift(dashboard, block_hashes(dashboard, session.kit))
    if drift:
        # The dashboard's own record no longer matches its tiles: it needs a person again.
        view["status"] = "pending_recertification"
        view["trust"] = lowest_label([view["trust"], "pending_recertification"])
        view["trust_reason"] = f"dashboard: {drift}; " + view["trust_reason"]
    view["path"] = str(dashboard_path(session.project_dir, dashboard.name))
    return view


def list_dashboards(session: Any) -> list[Dashboard]:
    return load_dashboards(session.project_dir)[0]


def certify_dashboard(session: Any, name: str, *, by: str | None = None) -> Dashboard:
    """A person's act: certify a dashboard whose every tile runs a certified block with a
    current record. Refused (UserError) with every reason otherwise."""
    who = by or os.environ.get("ZLENS_USER") or os.environ.get("USER") or ""
    if not who.strip():
        raise UserError("Say who is certifying: --by name@company.com.")
    session.refresh_certification()
    dashboard = find_dashboard(session.project_dir, name)
    blocks = {b.name.lower(): b for b in session.library.blocks}
    problems = certification_problems(dashboard, blocks, session.library.lowered)
    if problems:
        raise UserError(f"Cannot certify dashboard {dashboard.name!r}:\n- " + "\n- ".join(problems))
    view = run_dashboard(dashboard, session.kit)
    failing = [t for t in view["tiles"] if t["trust"] != "certified"]
    if failing:
        why = "\n- ".join(f"{t['title']}: {t['reason']}" for t in failing)
        raise UserError(f"Cannot certify dashboard {dashboard.name!r}:\n- {why}")
    record = certification_record(dashboard, block_hashes(dashboard, session.kit), by=who)
    set_certification(dashboard, record)
    from .dql.dashboard_files import save_dashboard

    save_dashboard(session.project_dir, dashboard)
    return find_dashboard(session.project_dir, dashboard.name)


def dashboard_script() -> str:
    """The renderer's source (built from js/dashboard.js by `npm run build`)."""
    try:
        return DASHBOARD_JS.read_text(encoding="utf-8")
    except OSError:
        raise ConfigError(
            f"The dashboard script is not built ({DASHBOARD_JS} is missing): run "
            "`pip install -e .` (or `npm install && npm run build`) in the source tree."
        ) from None


def export_html(view: dict[str, Any]) -> str:
    """One self-contained HTML page: data embedded, charts drawn, filters working offline."""
    data = json.dumps(view, ensure_ascii=False, default=str, separators=(",", ":"))
    # Inside <script>, only "</" (and "<!--") can end the element early.
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    script = dashboard_script().replace("</script", "<\\/script")
    title = html.escape(f"{view.get('name', 'Dashboard')} — ZLens dashboard")
    fallback = html.escape(
        f"{view.get('name')}: {len(view.get('tiles', []))} tiles, trust "
        f"{str(view.get('trust', '')).replace('_', ' ')}. Enable JavaScript to see the charts."
    )
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        f"<title>{title}</title></head>"
        '<body style="margin:16px;background:#fff;color:#1f2328">'
        f'<div id="zlens-dashboard"><noscript>{fallback}</noscript></div>\n'
        f'<script type="application/json" id="zlens-dashboard-data">{data}</script>\n'
        f'<script type="module">{script}</script>\n'
        "</body></html>\n"
    )


def write_html(view: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write the export to `path` (parent folders must exist); returns the path."""
    target = Path(path)
    if not target.parent.is_dir():
        raise UserError(f"No folder {target.parent} to write {target.name} into.")
    target.write_text(export_html(view), encoding="utf-8")
    return target


def insert_source(view: dict[str, Any]) -> str:
    """The `%%dql` cell that reopens (and `--save`s) the dashboard."""
    return "%%dql\n" + str(view.get("dql") or "")


__all__ = [
    "certify_dashboard",
    "export_html",
    "insert_source",
    "list_dashboards",
    "open_dashboard",
    "write_html",
]
