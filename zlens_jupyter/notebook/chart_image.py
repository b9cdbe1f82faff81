"""A static picture of an answer's chart, drawn offline, for every place that cannot run
Vega-Lite: nbconvert's HTML, nbviewer, GitHub, a notebook reopened without its kernel.

`vl-convert-python` renders Vega-Lite with its own embedded engine (no browser, no network);
the spec already carries its data inline, and no base URL is allowed, so nothing is fetched.
SVG rather than PNG: a tenth of the size, and sharp at any zoom.
"""

from __future__ import annotations

import base64
import logging
from typing import Any

log = logging.getLogger(__name__)

SVG = "image/svg+xml"


def chart_svg(spec: dict[str, Any]) -> str | None:
    """The chart as an SVG document, or None when it cannot be drawn (the spec is bad)."""
    try:
        import vl_convert
    except ImportError:  # a pinned dependency; only a broken install lacks it
        log.warning("vl-convert-python is missing: charts have no static image")
        return None
    try:
        svg: str = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])
    except Exception as exc:  # a chart that cannot be drawn must never cost the answer
        log.warning("could not draw the chart: %s", exc)
        return None
    return svg


def svg_data_uri(svg: str) -> str:
    """An <img src> for the SVG: sanitizers that drop inline <svg> keep a data: image."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


__all__ = ["SVG", "chart_svg", "svg_data_uri"]
