"""A research answer's evidence, one section per finding: its sentence, its own table, its
own chart (drawn offline), its SQL and an Insert button for that query.

The trend table shows the rows around the periods compared (a 24-month series cut at its
first 20 rows would hide the months the sentence is about); a change-by-dimension table
shows the change of each value, with the bookkeeping columns left out, and its chart ranks
the ten largest changes.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..formatting import cell_text
from .chart import is_number, title_of, vega_lite_spec
from .chart_image import chart_svg, svg_data_uri
from .insert import encode_source

ROWS = 12
DRIVERS_CHARTED = 10
_HIDDEN = {"source_table", "source_column", "beyond_share"}
_MUTED = "color: var(--jp-ui-font-color2, #616161)"
_BORDER = "var(--jp-border-color2, #d0d7de)"
_MONO = "var(--jp-code-font-family, ui-monospace, Menlo, Consolas, monospace)"
_BUTTON = (
    "font: inherit; padding: 1px 8px; border-radius: 4px; cursor: pointer; font-size: 12px;"
    f" border: 1px solid {_BORDER}; background: var(--jp-layout-color2, #f6f8fa);"
    " color: var(--jp-ui-font-color1, #1f2328)"
)


def research_findings(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings of the run's research dossier (empty for any other answer)."""
    for artifact in data.get("artifacts") or []:
        if artifact.get("kind") == "research_run":
            findings = (artifact.get("content") or {}).get("findings") or []
            return [f for f in findings if isinstance(f, dict) and f.get("result")]
    return []


def findings_html(findings: list[dict[str, Any]]) -> str:
    return "".join(_finding_html(index, f) for index, f in enumerate(findings, start=1))


def finding_rows(finding: dict[str, Any]) -> tuple[list[str], list[list[Any]], str]:
    """(columns, rows, note) of a finding's table: the rows that hold what it says."""
    result = finding["result"]
    columns = [str(c) for c in result.get("columns") or []]
    rows = [list(r) for r in result.get("rows") or []]
    keep = [i for i, c in enumerate(columns) if c not in _HIDDEN]
    compared = [str(p) for p in finding.get("compared") or []]
    if compared and len(rows) > ROWS:
        # The window of rows that ends at the latest period compared.
        hits = [i for i, r in enumerate(rows) if str(r[0])[:7] in compared]
        end = (max(hits) + 1) if hits else len(rows)
        start = max(0, end - ROWS)
        shown = rows[start:end]
        note = f"{len(rows)} rows; showing {start + 1}–{end}, up to {compared[-1]}"
    else:
        shown = rows[:ROWS]
        note = f"{len(rows)} rows" + (f"; showing the first {ROWS}" if len(rows) > ROWS else "")
    return [columns[i] for i in keep], [[r[i] for i in keep] for r in shown], note


def finding_chart(finding: dict[str, Any]) -> dict[str, Any] | None:
    """The finding's chart: its series as is, or the largest changes by value."""
    result = finding["result"]
    columns = [str(c) for c in result.get("columns") or []]
    if {"dimension", "value", "change"} <= set(columns):
        d, v, c = (columns.index(n) for n in ("dimension", "value", "change"))
        rows = [[f"{r[d]}: {r[v]}", r[c]] for r in result.get("rows") or [] if is_number(r[c])][
            :DRIVERS_CHARTED
        ]
        spec = vega_lite_spec(
            {
                "question": finding.get("title"),
                "result": {"columns": ["value", "change"], "rows": rows},
            }
        )
        for channel in (spec or {}).get("encoding", {}).values():
            if "sort" in channel:
                channel["sort"] = None  # the query's ranking: the top driver first
        return spec
    return vega_lite_spec({"question": finding.get("title"), "result": result})


def _finding_html(index: int, finding: dict[str, Any]) -> str:
    columns, rows, note = finding_rows(finding)
    cell = f"padding: 1px 8px; border-bottom: 1px solid {_BORDER}"
    head = "".join(
        f'<th style="{cell}; text-align: left">{escape(title_of(c))}</th>' for c in columns
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td style="{cell}; text-align: {"right" if is_number(v) else "left"}">'
            f"{escape(cell_text(v))}</td>"
            for v in row
        )
        + "</tr>"
        for row in rows
    )
    spec = finding_chart(finding)
    svg = chart_svg(spec) if spec is not None else None
    image = (
        f'<img class="zlens-chart zlens-finding-chart" src="{svg_data_uri(svg)}"'
        f' alt="{escape(str(finding.get("title", "")))}" style="max-width: 100%;'
        ' background: #fff; border-radius: 4px; padding: 4px">'
        if svg
        else ""
    )
    sql = str(finding.get("sql") or "").strip()
    title = str(finding.get("title") or f"Finding {index}")
    source = f"%%zlens_sql\n-- {title}\n{sql}\n" if sql else ""
    insert = (
        f'<button type="button" class="zlens-insert zlens-insert-finding"'
        f' data-zlens-insert="{encode_source(source)}" hidden style="{_BUTTON}">'
        "Insert SQL cell</button>"
        # The source as hidden text too, for a reopened notebook whose sanitizer dropped data-*.
        f'<pre class="zlens-source-finding" hidden>{escape(source)}</pre>'
        if source
        else ""
    )
    return (
        f'<section class="zlens-finding" data-finding="{index}" style="border-top: 1px solid'
        f' {_BORDER}; padding: 6px 0 4px; margin-top: 4px">'
        f'<div style="font-weight: 600">{index}. {escape(title)}</div>'
        f'<p class="zlens-finding-sentence" style="margin: 2px 0 4px">'
        f"{escape(str(finding.get('sentence') or ''))}</p>"
        f'<div style="display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start">'
        f'<div><table class="zlens-table zlens-finding-table" style="border-collapse: collapse;'
        f' font-variant-numeric: tabular-nums; font-size: 12px"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
        f'<div class="zlens-rows" style="{_MUTED}; font-size: 12px">{escape(note)}</div></div>'
        f"{image}</div>"
        f'<details class="zlens-finding-sql"><summary style="cursor: pointer; font-size: 12px;'
        f' {_MUTED}">SQL</summary><pre style="font-family: {_MONO}; font-size: 12px;'
        f' white-space: pre-wrap; margin: 2px 0">{escape(sql)}</pre></details>'
        f"{insert}</section>"
    )


__all__ = ["finding_chart", "finding_rows", "findings_html", "research_findings"]
