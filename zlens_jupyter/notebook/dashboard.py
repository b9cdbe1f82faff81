"""The dashboard in the notebook: one anywidget drawn by the same script as the exported file.

The whole view (tiles, rows, filter variants, trust labels) is one synced trait, so filters
change tiles in the browser at once, and a saved notebook reopens showing the dashboard.
"Export HTML" asks the kernel to write `dashboards/<name>.html`; "Insert DQL cell" puts the
dashboard's declaration in a `%%dql` cell below (through the ZLens lab extension).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..dashboards import dashboard_script, insert_source, write_html
from .render import TRUST_LABELS


class DashboardWidget(anywidget.AnyWidget):
    """A live dashboard. `view` is what `open_dashboard` / the app_build route produced."""

    view = traitlets.Dict().tag(sync=True)
    insert_source = traitlets.Unicode("").tag(sync=True)

    def __init__(self, view: dict[str, Any], *, export_dir: str | Path | None = None) -> None:
        self._esm = dashboard_script()
        super().__init__(view=view, insert_source=insert_source(view))
        self.export_dir = Path(export_dir) if export_dir else None
        self.exported: Path | None = None
        self.on_msg(self._handle_message)

    def export(self, path: str | Path | None = None) -> Path:
        """Write the self-contained HTML file (default: next to the dashboard's DQL file)."""
        if path is None:
            folder = self.export_dir or Path(self.view.get("path") or "dashboard.dql").parent
            stem = Path(self.view.get("path") or "dashboard.dql").stem
            path = folder / f"{stem}.html"
        self.exported = write_html(self.view, path)
        return self.exported

    def _handle_message(self, _widget: object, content: dict[str, Any], _buffers: object) -> None:
        if not isinstance(content, dict) or content.get("kind") != "export":
            return
        try:
            self.send({"kind": "exported", "path": str(self.export())})
        except Exception as exc:  # reported on the button, never raised into the comm
            self.send({"kind": "exported", "error": str(exc)})

    def __repr__(self) -> str:
        return dashboard_text(self.view)


def dashboard_text(view: dict[str, Any]) -> str:
    """The dashboard for a terminal: its label, then one line per tile."""
    trust = str(view.get("trust", ""))
    lines = [f"{view.get('name')} — {TRUST_LABELS.get(trust, trust.replace('_', ' '))}"]
    for tile in view.get("tiles", []):
        label = str(tile["trust"]).replace("_", " ")
        draft = " [DRAFT]" if tile.get("draft") else ""
        lines.append(f"  {tile['title']}{draft}: {label} — {tile['reason']}")
    return "\n".join(lines)


def dashboard_summary_html(view: dict[str, Any]) -> str:
    """A static line under the widget (reads without a kernel): label and tiles."""
    items = "".join(
        f"<li>{escape(t['title'])}{' (draft)' if t.get('draft') else ''}: "
        f"{escape(str(t['trust']).replace('_', ' '))}</li>"
        for t in view.get("tiles", [])
    )
    return (
        f'<div class="zlens-dashboard-summary" data-trust="{escape(str(view.get("trust")))}">'
        f"<b>{escape(str(view.get('name')))}</b>: "
        f"{escape(str(view.get('trust', '')).replace('_', ' '))}<ul>{items}</ul></div>"
    )
