"""The answer as a static rich mime bundle: it reads in JupyterLab, nbviewer, GitHub and a
terminal, long after the kernel is gone.

`answer_bundle(run)` returns `(data, metadata)` for `IPython.display.publish_display_data` or
`display(..., raw=True)`: `text/html` (trust chip and reason, sentence, then the Table, Chart,
SQL and Trace views as toggles, provenance, Insert and Copy buttons once), `text/plain`, and a
Vega-Lite chart when one fits. Every piece of text from the run is escaped; styling uses
JupyterLab's theme variables with fallbacks, inline, because nbviewer and GitHub drop <style>
blocks.

The Insert buttons carry their cell source (base64, `data-zlens-insert`) for the ZLens lab
extension, which inserts the cell below; Copy SQL copies the SQL view's text. Output HTML
cannot run scripts of its own, so where the extension is absent (nbviewer, classic viewers)
the buttons do nothing and the SQL view holds the same text to copy by hand.
"""

from __future__ import annotations

from concurrent.futures import Future
from html import escape
from typing import Any, NamedTuple

from ..engine.records import AgentRun
from ..engine.serde import record_fields, to_jsonable
from ..formatting import answer_sentence
from ..inputs import terminal_safe
from ..labels import ROUTE_WORDS, TRUST_WORDS, outcome_label
from .chart import VEGA_LITE, chart_choice, is_number, vega_lite_spec
from .chart_image import SVG, chart_svg, draw_soon, svg_data_uri
from .findings import findings_html, research_findings
from .insert import dql_draft_source, encode_source, sql_cell_source
from .numbers import kpi_html, kpi_values, table_cell
from .summary import checks, trace_html

PREVIEW_ROWS = 20

TRUST_LABELS = TRUST_WORDS  # one table of words (labels.py)
_TRUST_COLOURS = {
    "certified": "var(--jp-success-color1, #388e3c)",
    "grounded": "var(--jp-brand-color1, #1976d2)",
    "review_required": "var(--jp-warn-color1, #f57c00)",
    "blocked": "var(--jp-error-color1, #d32f2f)",
    "not_applicable": "var(--jp-ui-font-color2, #616161)",
    "cancelled": "var(--jp-ui-font-color2, #616161)",
}
_FONT = "var(--jp-ui-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif)"
_MONO = "var(--jp-code-font-family, ui-monospace, Menlo, Consolas, monospace)"
_MUTED = "color: var(--jp-ui-font-color2, #616161)"
_BORDER = "var(--jp-border-color2, #d0d7de)"
_BUTTON = (
    f"font: inherit; padding: 2px 10px; margin-right: 6px; border-radius: 4px; cursor: pointer;"
    f" border: 1px solid {_BORDER}; background: var(--jp-layout-color2, #f6f8fa);"
    " color: var(--jp-ui-font-color1, #1f2328)"
)
_PRE = (
    f"font-family: {_MONO}; font-size: var(--jp-code-font-size, 12px); white-space: pre-wrap;"
    " background: var(--jp-layout-color2, #f6f8fa); padding: 6px 8px; border-radius: 4px;"
    " margin: 4px 0"
)


Bundle = tuple[dict[str, Any], dict[str, Any]]


def answer_outputs(run: AgentRun | dict[str, Any]) -> list[Bundle]:
    """The outputs to display, in order: the answer, then its chart when one fits.

    A front end shows one mime type per output (JupyterLab ranks text/html above Vega-Lite),
    so a chart inside the answer's bundle would never be drawn; as its own output it is.
    """
    data, metadata = answer_bundle(run, chart=False)
    outputs = [(data, metadata)]
    spec = vega_lite_spec(run.to_dict() if isinstance(run, AgentRun) else run)
    if spec is not None:
        caption = chart_caption(spec)
        outputs.append(({VEGA_LITE: spec, "text/plain": caption}, {"zlens": metadata["zlens"]}))
    return outputs


class Card(NamedTuple):
    """What an answer's card is drawn from, made by `start_chart`: the run's record, its
    chart's spec, and the picture being drawn (None: no spec, or one that cannot be kept)."""

    record: dict[str, Any]
    spec: dict[str, Any] | None
    picture: Future[str | None] | None


def start_chart(run: AgentRun | dict[str, Any]) -> Card:
    """Start drawing the answer's static chart on a worker thread (see `chart_image`), so
    `answer_display` finds it drawn, or nearly, once the panel has settled. Returns what was
    made for it: `answer_display(run, card=...)` of the same, unchanged run needs no more."""
    data = run.to_dict() if isinstance(run, AgentRun) else run
    spec = vega_lite_spec(data)
    return Card(data, spec, draw_soon(spec) if spec is not None else None)


def answer_display(run: AgentRun | dict[str, Any], *, card: Card | None = None) -> Bundle:
    """The answer as ONE output: what `%zlens` returns and `Out[n]` shows.

    Front ends draw one mime type per output and rank HTML first, so the card's HTML carries
    the chart as a static image (drawn offline); the bundle also holds the Vega-Lite spec and
    the SVG for tools that pick those (nbconvert's HTML, nbviewer, GitHub fall back to them).
    `card`: what `start_chart` made from this run as it still is (its record, spec, picture),
    not made again.
    """
    if card is not None:
        data, spec, picture = card
    else:
        data = card_record(run) if isinstance(run, AgentRun) else run
        spec = vega_lite_spec(data)
        # Drawn on a worker thread while the card's HTML is built; its entry is kept here, so
        # the picture is taken from it without keying the spec (a JSON dump) a second time.
        picture = draw_soon(spec) if spec is not None else None
    # A marker where the picture goes, replaced once it is drawn (the HTML is built once).
    marker = "<!--zlens-chart-image-->" if spec is not None else ""
    bundle, metadata = answer_bundle(data, chart=False, image=marker)
    svg = None if spec is None else picture.result() if picture is not None else chart_svg(spec)
    if spec is not None and svg is None:  # could not be drawn: the card has no Chart view
        bundle["text/html"] = answer_html(data)
    elif spec is not None and svg is not None:
        image = (
            f'<div class="zlens-chart-box" style="margin: 6px 0"><img class="zlens-chart"'
            f' src="{svg_data_uri(svg)}" alt="{escape(chart_caption(spec))}"'
            ' style="max-width: 100%; background: #fff; border-radius: 4px; padding: 4px">'
            "</div>"
        )
        bundle["text/html"] = bundle["text/html"].replace(marker, image, 1)
    # Text from data and questions is shown, never obeyed: Jupyter renders ANSI escapes in
    # text output, so control characters read as escapes here too.
    bundle = {mime: terminal_safe(value) for mime, value in bundle.items()}
    if spec is None:
        return bundle, metadata
    bundle[VEGA_LITE] = spec
    if svg is None:
        bundle["text/plain"] += f"\n{chart_caption(spec)}"
    else:
        bundle[SVG] = svg
    return bundle, metadata


def card_record(run: AgentRun) -> dict[str, Any]:
    """`run.to_dict()` less its event log, which nothing on the card reads: the log is about
    half of a record's serialization, paid on every display of an answer."""
    return {
        name: to_jsonable(getattr(run, name))
        for name in record_fields(type(run))
        if name != "events"
    }


def chart_caption(spec: dict[str, Any]) -> str:
    """`[bar chart: revenue by segment]`: the chart in words, for text-only readers."""
    encoding = spec["encoding"]
    if "theta" in encoding:
        measure, by = encoding["theta"], [encoding["color"]]
    else:
        across = "y" if encoding.get("x", {}).get("type") == "quantitative" else "x"
        measure = encoding["y" if across == "x" else "x"]
        by = [encoding[across]] + ([encoding["color"]] if "color" in encoding else [])
    words = " by ".join(str(c["title"]) for c in [measure, *by])
    return f"[{spec['mark']['type']} chart: {words.lower()}]"


def answer_bundle(run: AgentRun | dict[str, Any], *, chart: bool = True, image: str = "") -> Bundle:
    """The answer's mime bundle and metadata (with a Vega-Lite chart unless `chart=False`;
    `image` is the chart's static picture markup for the card's HTML).

    >>> data, meta = answer_bundle({"id": "run_1", "question": "How many?", "status":
    ...     "completed", "trust_state": "grounded", "answer": "There are 3.", "sql": "select 3"})
    >>> sorted(data), meta["zlens"]["trust_state"]
    (['text/html', 'text/plain'], 'grounded')
    """
    data = run.to_dict() if isinstance(run, AgentRun) else run
    shown = _shown(data)  # the table's cells, formatted once for the text and the HTML
    bundle: dict[str, Any] = {
        "text/plain": _answer_text(data, shown),
        "text/html": _answer_html(data, image, shown),
    }
    spec = vega_lite_spec(data) if chart else None
    if spec is not None:
        bundle[VEGA_LITE] = spec
    sql = data.get("sql")
    metadata = {
        "zlens": {
            "run_id": data.get("id"),
            "question": data.get("question"),
            "trust_state": data.get("trust_state"),
            "sql_hash": _sql_hash(sql) if sql else None,
            "model": _model(data),
        }
    }
    return bundle, metadata


# -- the sentence, the table and the provenance line -------------------------------------------


def _preview(data: dict[str, Any]) -> tuple[list[str], list[list[Any]], str] | None:
    result = data.get("result") or {}
    columns = [str(c) for c in result.get("columns") or []]
    if not columns:
        return None
    rows = [list(r) for r in (result.get("rows") or [])]
    shown = rows[:PREVIEW_ROWS]
    total = result.get("row_count")
    total = len(rows) if total is None else int(total)
    if result.get("truncated"):
        note = f"more than {total:,} rows (preview truncated); showing {len(shown)}"
    elif total > len(shown):
        note = f"{total:,} rows; showing the first {len(shown)}"
    else:
        note = f"{total:,} row{'s' if total != 1 else ''}"
    return columns, shown, note


class _Shown(NamedTuple):
    """The card's table (`_preview`) with each cell's text: the same cells are shown in the
    text and in the HTML, so they are formatted once per card, not once for each."""

    columns: list[str]
    rows: list[list[Any]]
    note: str
    cells: list[list[str]]


def _shown(data: dict[str, Any]) -> _Shown | None:
    preview = _preview(data)
    if preview is None:
        return None
    columns, rows, note = preview
    cells = [[table_cell(c, v) for c, v in zip(columns, row, strict=False)] for row in rows]
    return _Shown(columns, rows, note, cells)


def provenance_line(data: dict[str, Any]) -> str:
    """how it was answered · steps · repairs · model (or offline) · run id."""
    usage = data.get("usage") or {}
    steps, repairs = usage.get("steps", 0), usage.get("repairs", 0)
    parts = [
        ROUTE_WORDS.get(str(data.get("route")), str(data.get("route") or "-")),
        f"{steps} step{'s' if steps != 1 else ''}",
        f"{repairs} repair{'s' if repairs != 1 else ''}",
        _model(data) or "offline",
        f"run {data.get('id', '?')}",
    ]
    return " · ".join(parts)


def _model(data: dict[str, Any]) -> str | None:
    model = (data.get("provenance") or {}).get("model")
    return str(model) if model else None


def _sql_hash(sql: str) -> str:
    from ..dql.certification import sql_hash  # sqlglot is heavy; load it only when needed

    return sql_hash(sql)


# -- text/plain -------------------------------------------------------------------------------


def answer_text(data: dict[str, Any]) -> str:
    """The answer for a terminal: sentence, a small aligned table, trust, SQL, provenance."""
    return _answer_text(data, _shown(data))


def _answer_text(data: dict[str, Any], shown: _Shown | None) -> str:
    lines = [answer_sentence(data), ""]
    options = clarification_options(data)
    if options:
        lines += [f"  - {o['question']}" for o in options] + [""]
    if shown is not None:
        columns, rows, note, cells = shown
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
        numeric = [all(is_number(r[i]) or r[i] is None for r in rows) for i in range(len(columns))]

        def fmt(values: list[str]) -> str:
            return "  ".join(
                v.rjust(w) if num else v.ljust(w)
                for v, w, num in zip(values, widths, numeric, strict=True)
            ).rstrip()

        lines += [fmt(columns), fmt(["-" * w for w in widths])]
        lines += [fmt(r) for r in cells]
        lines += [f"({note})", ""]
    if data.get("trust_state"):
        reason = data.get("trust_reason")
        words = outcome_label(data.get("status"), data.get("trust_state"))[1]
        lines.append(f"Trust: {words}" + (f" — {reason}" if reason else ""))
    if data.get("sql"):
        lines += ["SQL:", *("  " + line for line in str(data["sql"]).strip().splitlines())]
    lines.append(provenance_line(data))
    return "\n".join(lines)


# -- text/html --------------------------------------------------------------------------------


def answer_html(data: dict[str, Any], *, chart: str = "") -> str:
    """The answer as self-contained HTML (no scripts: sanitized front ends drop them);
    `chart` is the chart's static image markup, the Chart view."""
    return _answer_html(data, chart, _shown(data))


def _answer_html(data: dict[str, Any], chart: str, shown: _Shown | None) -> str:
    parts = [
        f'<div class="zlens-answer" data-zlens-run="{escape(str(data.get("id", "")))}"'
        f' style="font-family: {_FONT}; font-size: var(--jp-content-font-size1, 14px);'
        f' color: var(--jp-ui-font-color1, inherit); line-height: 1.45; max-width: 900px">',
        _trust_html(data),
        f'<p class="zlens-sentence" style="margin: 4px 0 8px">{escape(answer_sentence(data))}</p>',
    ]
    findings = research_findings(data)
    if findings:  # research: each finding with its own table, chart, SQL and Insert
        parts.append(findings_html(findings))
    # The block draft is shown in the SQL view and carried by Insert: formatted once.
    draft = None if findings else dql_draft_source(data)
    parts.append(
        _views_html(
            data, "" if findings else chart, with_result=not findings, draft=draft, shown=shown
        )
    )
    parts.append(
        f'<div class="zlens-provenance" style="{_MUTED}; font-size: 12px; margin: 4px 0">'
        f"{escape(provenance_line(data))}</div>"
    )
    parts.append(_options_html(data))
    parts.append(_actions_html(data, draft))
    parts.append("</div>")
    return "\n".join(p for p in parts if p)


def _views_html(
    data: dict[str, Any],
    chart: str,
    *,
    with_result: bool,
    draft: str | None = None,
    shown: _Shown | None,
) -> str:
    """The answer's views as toggles: Table and Chart open, SQL and Trace folded.

    Each view is a <details> (sanitizers keep it, and nbviewer, GitHub and nbconvert open
    and close it without a script); the ZLens lab extension gathers their summaries into one
    row of toggle buttons. Classes, not data-* attributes, name them: JupyterLab's sanitizer
    drops data-* from a reopened (untrusted) notebook's HTML.
    """
    views = []
    if with_result:
        table = _table_html(data, shown)
        if table:
            views.append(("table", "Table", "", table, True))
        if chart:
            views.append(("chart", "Chart", "", chart, True))
    sql = all_sql(data)
    if sql:
        note = f"{len(research_findings(data))} queries" if not with_result else ""
        views.append(("sql", "SQL", note, _sql_view_html(data, sql, draft), False))
    if data.get("steps"):
        passed, total = checks(data)
        steps = len(data.get("steps") or [])
        note = f"{steps} step{'s' if steps != 1 else ''}"
        note += f", {passed}/{total} checks passed" if total else ""
        views.append(("trace", "Trace", note, trace_html(data), False))
    if not views:
        return ""
    boxes = []
    for kind, name, note, body, is_open in views:
        wide = kind in ("sql", "trace")  # a row of their own; Table and Chart sit side by side
        summary = (
            f'<summary style="cursor: pointer; font-size: 12px; {_MUTED}">'
            f'<span class="zlens-view-name">{name}</span>'
            + (f'<span class="zlens-view-note"> · {escape(note)}</span>' if note else "")
            + "</summary>"
        )
        boxes.append(
            f'<details class="zlens-view zlens-view-{kind}"{" open" if is_open else ""}'
            f' style="{"flex: 1 1 100%; " if wide else ""}min-width: 0">'
            f"{summary}{body}</details>"
        )
    return (
        '<div class="zlens-views" style="display: flex; flex-wrap: wrap; gap: 2px 18px;'
        f' align-items: flex-start; margin: 2px 0">{"".join(boxes)}</div>'
    )


def all_sql(data: dict[str, Any]) -> str:
    """The answer's SQL: for research, every finding's query under its title, in order."""
    findings = research_findings(data)
    if not findings:
        return str(data.get("sql") or "").strip()
    return "\n\n".join(
        f"-- {' '.join(str(f.get('title') or '').split())}\n{str(f['sql']).strip()};"
        for f in findings
        if str(f.get("sql") or "").strip()
    )


def _sql_view_html(data: dict[str, Any], sql: str, draft: str | None) -> str:
    """The SQL, then the same query as a block draft `draft` (the Insert buttons' sources)."""
    parts = [f'<pre class="zlens-sql" style="{_PRE}">{escape(sql)}</pre>']
    if research_findings(data):  # each finding has its own Insert SQL cell
        return "".join(parts)
    if draft:
        parts.append(
            f'<div style="{_MUTED}; font-size: 12px">As a block draft (Insert as DQL cell)</div>'
            f'<pre class="zlens-source-dql" style="{_PRE}">{escape(draft)}</pre>'
        )
    cell = sql_cell_source(data)
    if cell:  # what Insert SQL cell inserts, for the extension when data-* was stripped
        parts.append(f'<pre class="zlens-source-sql" hidden>{escape(cell)}</pre>')
    return "".join(parts)


def _trust_html(data: dict[str, Any]) -> str:
    if not data.get("trust_state"):
        return ""
    trust, words = outcome_label(data.get("status"), data.get("trust_state"))
    colour = _TRUST_COLOURS.get(trust, _TRUST_COLOURS["not_applicable"])
    chip = (
        f'<span class="zlens-trust zlens-trust-{escape(trust)}" data-trust="{escape(trust)}"'
        f' style="display: inline-block; border: 1px solid {colour}; color: {colour};'
        f' border-radius: 10px; padding: 0 8px; font-weight: 600; font-size: 12px">'
        f"{escape(words)}</span>"
    )
    reason = escape(str(data.get("trust_reason") or ""))
    return (
        f'<div class="zlens-head">{chip} <span class="zlens-reason"'
        f' style="{_MUTED}; font-size: 12px">{reason}</span></div>'
    )


def _table_html(data: dict[str, Any], shown: _Shown | None) -> str:
    if shown is None:
        return ""
    tiles = kpi_values(data)
    if tiles is not None:  # one number is a tile, not a one-cell table
        return kpi_html(tiles)
    columns, rows, note, cells = shown
    cell = f"padding: 2px 10px; border-bottom: 1px solid {_BORDER}"
    head = "".join(f'<th style="{cell}; text-align: left">{escape(c)}</th>' for c in columns)
    body = []
    for row, texts in zip(rows, cells, strict=True):
        tds = "".join(
            f'<td style="{cell}; text-align: {"right" if is_number(v) else "left"}">'
            f"{escape(text)}</td>"
            for v, text in zip(row, texts, strict=False)
        )
        body.append(f"<tr>{tds}</tr>")
    return (
        '<table class="zlens-table" style="border-collapse: collapse; margin: 4px 0;'
        ' font-variant-numeric: tabular-nums">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f'<div class="zlens-rows" style="{_MUTED}; font-size: 12px">{escape(note)}</div>'
    )


def clarification_options(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The options a clarifying question offers (each re-asks the question), if any."""
    for artifact in data.get("artifacts") or []:
        if artifact.get("kind") == "clarification":
            options = (artifact.get("content") or {}).get("options") or []
            return [o for o in options if isinstance(o, dict) and o.get("question")]
    return []


def reask_source(question: str) -> str:
    """The cell that asks `question` again (a cell magic when it spans lines)."""
    return f"%%zlens\n{question}" if "\n" in question else f"%zlens {question}"


def _option_detail(option: dict[str, Any]) -> str:
    where = f"{option['table']}.{option['column']}" if option.get("column") else ""
    parts = [where, str(option.get("type") or "").lower()]
    samples = option.get("samples") or []
    if samples:
        parts.append("e.g. " + ", ".join(str(v) for v in samples))
    if option.get("description"):
        parts.append(str(option["description"]))
    return " · ".join(p for p in parts if p)


def _options_html(data: dict[str, Any]) -> str:
    """A clarification's options as buttons: a click asks again with that choice, below."""
    options = clarification_options(data)
    if not options:
        return ""
    buttons = "".join(
        f'<button type="button" class="zlens-option zlens-option-{escape(str(o.get("kind")))}"'
        f' data-zlens-ask="{encode_source(reask_source(str(o["question"])))}"'
        f' title="{escape("Ask: " + str(o["question"]))}"'
        f' style="{_BUTTON}; margin: 2px 6px 2px 0; text-align: left">'
        f"<b>{escape(str(o.get('label') or o.get('column') or ''))}</b>"
        f' <span style="{_MUTED}; font-size: 12px">{escape(_option_detail(o))}</span>'
        # The same source as text, for a reopened notebook whose sanitizer dropped data-*.
        f'<span class="zlens-ask-source" hidden>{escape(reask_source(str(o["question"])))}'
        "</span></button>"
        for o in options
    )
    return (
        f'<div class="zlens-options" style="margin: 4px 0 8px">'
        f'<div style="{_MUTED}; font-size: 12px">Pick one to ask again:</div>{buttons}</div>'
    )


def _actions_html(data: dict[str, Any], draft: str | None) -> str:
    """Insert as DQL cell, Insert SQL cell and Copy SQL, once per answer.

    Only the ZLens lab extension can act on them, so they are `hidden` until its stylesheet
    shows them: nbviewer, GitHub and nbconvert's HTML show no buttons that do nothing, and
    the SQL view holds the same text to copy by hand.
    """
    # A research answer's queries are inserted one cell each, from its findings.
    research = bool(research_findings(data))
    sources = [
        ("dql", "Insert as DQL cell", None if research else draft),
        ("sql", "Insert SQL cell", None if research else sql_cell_source(data)),
    ]
    buttons = [
        f'<button type="button" class="zlens-insert zlens-insert-{kind}"'
        f' data-zlens-insert="{encode_source(source)}" data-zlens-cell-type="code"'
        f' title="Insert a new cell below with this source" hidden'
        f' style="{_BUTTON}">{escape(label)}</button>'
        for kind, label, source in sources
        if source
    ]
    if all_sql(data):
        buttons.append(
            '<button type="button" class="zlens-copy zlens-copy-sql" title="Copy the SQL to'
            f' the clipboard" hidden style="{_BUTTON}">Copy SQL</button>'
        )
    if not buttons:
        return ""
    return f'<div class="zlens-actions" style="margin: 6px 0">{"".join(buttons)}</div>'


__all__ = [
    "VEGA_LITE",
    "Card",
    "answer_bundle",
    "answer_display",
    "answer_html",
    "answer_outputs",
    "answer_sentence",
    "answer_text",
    "chart_choice",
    "dql_draft_source",
    "provenance_line",
    "sql_cell_source",
    "start_chart",
    "vega_lite_spec",
]
