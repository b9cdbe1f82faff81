"""`%zlens build a dashboard ...` and `%zlens dashboard NAME` in a real IPython shell."""

from __future__ import annotations

import base64
import re

from zlens_jupyter.notebook.dashboard import DashboardWidget

WIDGET = "application/vnd.jupyter.widget-view+json"
REQUEST = "build a dashboard of revenue by region and segment with monthly trend"


def test_one_cell_gives_a_dashboard_widget_and_reopens_by_name(nb, monkeypatch) -> None:
    shown: list[DashboardWidget] = []
    original = DashboardWidget.__init__

    def record(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        original(self, *args, **kwargs)
        shown.append(self)

    monkeypatch.setattr(DashboardWidget, "__init__", record)
    nb.run("%zlens connect sample")
    run, captured = nb.run(f"%zlens {REQUEST}")
    assert run.route.value == "app_build" and run.trust_state.value == "certified"
    assert len(shown) == 1
    view = shown[0].view
    assert [t["trust"] for t in view["tiles"]] == ["certified", "certified", "certified"]
    # The answer card's Insert button carries the dashboard's DQL for a %%dql cell.
    html = nb.answer(captured).data["text/html"]
    encoded = re.search(r'data-zlens-insert="([^"]+)"', html).group(1)
    source = base64.b64decode(encoded).decode()
    assert source.startswith("%%dql\n") and 'dashboard "' in source
    nb.run(f"%zlens dashboard {view['name']}")
    assert len(shown) == 2 and shown[1].view["name"] == view["name"]
    # Running the inserted cell runs the dashboard again, from its DQL alone.
    nb.run(source)
    assert len(shown) == 3 and [t["title"] for t in shown[2].view["tiles"]] == [
        t["title"] for t in view["tiles"]
    ]
