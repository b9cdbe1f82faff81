"""A static picture of an answer's chart, drawn offline, for every place that cannot run
Vega-Lite: nbconvert's HTML, nbviewer, GitHub, a notebook reopened without its kernel.

The shapes answers take (bars, lines, points: see `chart_drawing`) are drawn in well under a
millisecond by `chart_drawing.draw_svg`, at once. Any other spec (a pie, a hint's bars on a
time axis) goes to `vl-convert-python`, which renders Vega-Lite with its own embedded engine
(no browser, no network; the spec carries its data inline and no base URL is allowed, so
nothing is fetched). That costs 25-35 ms of CPU (Vega's layout and text measurement, even
for five bars), so `%zlens` starts it on a worker thread as soon as the run returns
(`draw_soon`), while the panel settles and the run is stored; the answer card then takes the
finished picture. vl-convert releases the GIL, so the two overlap on a second core.
SVG rather than PNG: a tenth of the size, and sharp at any zoom.

A picture is a pure function of its spec: the last few are kept, so a re-run cell whose
result did not change, or a card shown twice, draws once.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any

from .chart_drawing import draw_svg

log = logging.getLogger(__name__)

SVG = "image/svg+xml"

_KEPT = 16  # pictures kept (an SVG is ~20-60 KB)
_lock = threading.Lock()
_drawn: OrderedDict[str, Future[str | None]] = OrderedDict()


def chart_svg(spec: dict[str, Any]) -> str | None:
    """The chart as an SVG document, or None when it cannot be drawn (the spec is bad)."""
    key, future, mine = _claim(spec)
    if mine:
        _draw_into(future, spec)
    elif key is None:  # a spec JSON cannot write: drawn here, not kept
        return _draw(spec)
    return future.result()


def draw_soon(spec: dict[str, Any]) -> Future[str | None] | None:
    """Draw `spec` now when it is quick, else start on a worker thread; a later
    `chart_svg(spec)` takes the result. Returns the picture's future (`.result()` is what
    `chart_svg(spec)` would return, without keying the spec again), or None for a spec that
    cannot be kept (then `chart_svg(spec)` draws it)."""
    key, future, mine = _claim(spec)
    if key is None:
        return None
    if mine:
        try:
            svg = _draw_quickly(spec)
        except BaseException:  # interrupted (Ctrl-C): forgotten, never left pending
            _forget(future)
            future.set_result(None)
            raise
        if svg is not None:
            future.set_result(svg)
        else:
            threading.Thread(
                target=_draw_into, args=(future, spec), name="zlens-chart", daemon=True
            ).start()
    return future


def _claim(spec: dict[str, Any]) -> tuple[str | None, Future[str | None], bool]:
    """The spec's entry, and whether the caller is the one to draw it."""
    try:
        key = json.dumps(spec, sort_keys=True, allow_nan=True)
    except (TypeError, ValueError):
        return None, Future(), False
    with _lock:
        future = _drawn.get(key)
        if future is not None:
            _drawn.move_to_end(key)
            return key, future, False
        future = Future()
        _drawn[key] = future
        while len(_drawn) > _KEPT:
            _drawn.popitem(last=False)
    return key, future, True


def _draw_into(future: Future[str | None], spec: dict[str, Any]) -> None:
    svg = None
    try:
        svg = _draw(spec)
    except BaseException:  # interrupted (Ctrl-C): forgotten, so the next ask draws again
        _forget(future)
        raise
    finally:
        future.set_result(svg)  # never leaves a waiter waiting


def _forget(future: Future[str | None]) -> None:
    with _lock:
        for key, kept in list(_drawn.items()):
            if kept is future:
                del _drawn[key]


def _draw(spec: dict[str, Any]) -> str | None:
    svg = _draw_quickly(spec)
    return svg if svg is not None else _draw_with_vega(spec)


def _draw_quickly(spec: dict[str, Any]) -> str | None:
    try:
        return draw_svg(spec)
    except Exception as exc:  # our bug: Vega's engine still draws the chart
        log.warning("could not draw the chart quickly, drawing it with Vega: %r", exc)
        return None


def _draw_with_vega(spec: dict[str, Any]) -> str | None:
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


__all__ = ["SVG", "chart_svg", "draw_soon", "svg_data_uri"]
