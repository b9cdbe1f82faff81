"""The project's `dashboards/*.dql` files: where a dashboard lives, loading them all, finding
one by name, and saving one without overwriting a person's work.

Apart from `dashboard.py` (the declaration's typed accessors) because reading a file needs the
parser, and the parser builds `Dashboard`s: together they were an import circle.
"""

from __future__ import annotations

import re
from pathlib import Path

from zlens_jupyter.dql.dashboard import DASHBOARDS_DIR, Dashboard
from zlens_jupyter.dql.editing import write_text_atomic
from zlens_jupyter.dql.formatter import format_dql
from zlens_jupyter.dql.model import BlockStatus
from zlens_jupyter.dql.parser import load_dql
from zlens_jupyter.errors import DQLSyntaxError, UserError


def dashboard_path(project_dir: str | Path, name: str) -> Path:
    """Where a dashboard called `name` lives: `dashboards/<slug>.dql`."""
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "dashboard"
    return Path(project_dir) / DASHBOARDS_DIR / f"{slug}.dql"


def load_dashboards(project_dir: str | Path) -> tuple[list[Dashboard], list[DQLSyntaxError]]:
    """Every `dashboard` declaration under `dashboards/`, and the files that did not parse."""
    found: list[Dashboard] = []
    errors: list[DQLSyntaxError] = []
    for path in sorted((Path(project_dir) / DASHBOARDS_DIR).glob("*.dql")):
        try:
            parsed = load_dql(path)
        except DQLSyntaxError as exc:
            errors.append(exc)
            continue
        found += [d for d in parsed.declarations if isinstance(d, Dashboard)]
    return found, errors


def find_dashboard(project_dir: str | Path, name: str) -> Dashboard:
    """The dashboard called `name` (case-insensitive), or a UserError listing the others."""
    dashboards, errors = load_dashboards(project_dir)
    for dashboard in dashboards:
        if dashboard.name.strip().lower() == name.strip().lower():
            return dashboard
    known = ", ".join(repr(d.name) for d in dashboards) or "none yet"
    bad = f" ({len(errors)} file(s) did not parse: {errors[0]})" if errors else ""
    raise UserError(f"No dashboard named {name!r} in {DASHBOARDS_DIR}/ (known: {known}){bad}.")


def save_dashboard(project_dir: str | Path, dashboard: Dashboard) -> Path:
    """Write the dashboard to its file. A reviewed or certified dashboard of the same name is
    a person's work: it is never overwritten by a draft (UserError)."""
    path = dashboard_path(project_dir, dashboard.name)
    if path.exists():
        try:
            existing = [d for d in load_dql(path).declarations if isinstance(d, Dashboard)]
        except DQLSyntaxError:
            existing = []
        owned = [d for d in existing if d.status is not BlockStatus.DRAFT]
        if owned and dashboard.status is BlockStatus.DRAFT:
            raise UserError(
                f"{path} holds a {owned[0].status} dashboard {owned[0].name!r}; "
                "a draft never replaces it. Rename the draft or edit the file."
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "// dql-format: 1\n" + format_dql(dashboard)
    write_text_atomic(path, text)
    return path
