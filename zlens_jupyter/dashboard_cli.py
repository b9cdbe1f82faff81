"""`zlens dashboard ...`: list, run (`--json` for scripts), export one HTML file, certify.

zlens dashboard list
zlens dashboard run "Sales overview" --json
zlens dashboard export "Sales overview" --html sales.html
zlens dashboard certify "Sales overview" --by you@example.com
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .errors import UserError


def add_dashboard_parser(
    sub: Any,
    with_db: Callable[[argparse.ArgumentParser], None],
    session: Callable[[argparse.Namespace], Any],
) -> None:
    """Register `zlens dashboard` and its subcommands on the CLI's subparsers."""
    parser = sub.add_parser("dashboard", help="dashboards: list, run, export, certify")
    verbs = parser.add_subparsers(dest="dashboard_command", required=True)

    listing = verbs.add_parser("list", help="the project's dashboards (dashboards/*.dql)")
    with_db(listing)
    listing.set_defaults(func=lambda a, out, err: _list(session(a), out))

    run = verbs.add_parser("run", help="run a dashboard: every tile and its trust label")
    run.add_argument("name")
    run.add_argument("--json", action="store_true", help="print the view as one JSON object")
    with_db(run)
    run.set_defaults(func=lambda a, out, err: _run(session(a), a, out))

    export = verbs.add_parser("export", help="write one self-contained HTML file")
    export.add_argument("name")
    export.add_argument("--html", required=True, help="the file to write, e.g. out.html")
    with_db(export)
    export.set_defaults(func=lambda a, out, err: _export(session(a), a, out))

    cert = verbs.add_parser("certify", help="certify a dashboard (every tile certified)")
    cert.add_argument("name")
    cert.add_argument("--by", default=None, help="who certifies (default: $USER)")
    with_db(cert)
    cert.set_defaults(func=lambda a, out, err: _certify(session(a), a, out))


def _list(session: Any, out: Console) -> int:
    from .dashboards import list_dashboards

    table = Table("name", "status", "tiles")
    for dashboard in list_dashboards(session):
        table.add_row(Text(dashboard.name), Text(str(dashboard.status)), str(len(dashboard.tiles)))
    out.print(table)
    return 0


def _run(session: Any, args: argparse.Namespace, out: Console) -> int:
    from .dashboards import open_dashboard
    from .notebook.render import TRUST_LABELS

    view = open_dashboard(session, args.name)
    if args.json:
        print(json.dumps(view, default=str))
        return 0
    trust = str(view["trust"])
    out.print(Text(f"{view['name']} — {TRUST_LABELS.get(trust, trust.replace('_', ' '))}"))
    out.print(Text(str(view["trust_reason"])))
    table = Table("tile", "trust", "kind", "rows", "why")
    for tile in view["tiles"]:
        title = tile["title"] + (" [draft]" if tile["draft"] else "")
        cells = (title, str(tile["trust"]), tile["kind"], str(tile["row_count"]), tile["reason"])
        table.add_row(*(Text(c) for c in cells))
    out.print(table)
    return 0


def _export(session: Any, args: argparse.Namespace, out: Console) -> int:
    from .dashboards import open_dashboard, write_html

    target = Path(args.html)
    if target.suffix.lower() not in (".html", ".htm"):
        raise UserError(f"--html takes a .html file name, not {target.name!r}.")
    path = write_html(open_dashboard(session, args.name), target)
    out.print(Text(f"wrote {path} ({path.stat().st_size:,} bytes)"))
    return 0


def _certify(session: Any, args: argparse.Namespace, out: Console) -> int:
    from .dashboards import certify_dashboard

    dashboard = certify_dashboard(session, args.name, by=args.by)
    record = dashboard.certification or {}
    by, at = record.get("by"), record.get("at")
    out.print(Text(f'certified dashboard "{dashboard.name}" by {by} at {at}'))
    return 0
