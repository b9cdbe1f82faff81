"""Small read-only views for the magics: runs, blocks, a trace, a DQL result, a SQL preview.

Each is HTML for notebooks with a plain-text twin for terminal IPython.
"""

from __future__ import annotations

import html
from typing import Any

from ..engine import AgentRun
from ..labels import local_time, outcome_label


class View:
    def __init__(
        self, title: str, columns: list[str], rows: list[list[Any]], notes: list[str] | None = None
    ) -> None:
        self.title, self.columns, self.rows, self.notes = title, columns, rows, notes or []

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in self.columns)
        body = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape('' if v is None else str(v))}</td>" for v in row)
            + "</tr>"
            for row in self.rows
        )
        notes = "".join(f"<div>{html.escape(n)}</div>" for n in self.notes)
        return (
            f"<div class='zlens-view'><b>{html.escape(self.title)}</b>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}</div>"
        )

    def __repr__(self) -> str:
        widths = [
            max([len(str(c))] + [len(str(r[i])) for r in self.rows])
            for i, c in enumerate(self.columns)
        ]
        line = lambda vals: "  ".join(str(v).ljust(w) for v, w in zip(vals, widths, strict=False))  # noqa: E731
        parts = [self.title, line(self.columns)] + [line(r) for r in self.rows] + self.notes
        return "\n".join(parts)


_LABEL_COLOURS = {
    "certified": "var(--jp-success-color1, #388e3c)",
    "grounded": "var(--jp-brand-color1, #1976d2)",
    "review_required": "var(--jp-warn-color1, #f57c00)",
    "blocked": "var(--jp-error-color1, #d32f2f)",
}
_GREY = "var(--jp-ui-font-color2, #616161)"
_BORDER = "var(--jp-border-color2, #d0d7de)"


class RunsView(View):
    """`%zlens runs`: a styled table whose rows open the run (`%zlens show ID` in a new cell
    below, run at once, through the ZLens lab extension)."""

    def __init__(self, title: str, columns: list[str], rows: list[list[Any]]) -> None:
        super().__init__(title, columns, [r[:-1] for r in rows])
        self.keys = [r[-1] for r in rows]  # each row's label key, for its colour

    def _repr_html_(self) -> str:
        from .insert import encode_source

        cell = f"padding: 2px 10px; border-bottom: 1px solid {_BORDER}; text-align: left"
        head = "".join(f'<th style="{cell}">{html.escape(c)}</th>' for c in self.columns)
        body = []
        for row, key in zip(self.rows, self.keys, strict=True):
            colour = _LABEL_COLOURS.get(key, _GREY)
            values = [html.escape(str(v)) for v in row]
            values[3] = (
                f'<span class="zlens-trust zlens-trust-{html.escape(key)}"'
                f' data-trust="{html.escape(key)}" style="border: 1px'
                f" solid {colour}; color: {colour}; border-radius: 10px; padding: 0 7px;"
                f' font-size: 12px; font-weight: 600">{values[3]}</span>'
            )
            source = f"%zlens show {row[0]}"
            # The source rides as hidden text too: a reopened notebook's sanitizer drops data-*.
            values[0] += f'<span class="zlens-ask-source" hidden>{html.escape(source)}</span>'
            body.append(
                f'<tr class="zlens-run-row" data-zlens-ask="{encode_source(source)}"'
                f' title="Open this run" style="cursor: pointer">'
                + "".join(f'<td style="{cell}">{v}</td>' for v in values)
                + "</tr>"
            )
        return (
            "<div class='zlens-view zlens-runs' style=\"font-family: var(--jp-ui-font-family,"
            ' sans-serif); font-size: 13px">'
            f'<div style="font-weight: 600; margin-bottom: 4px">{html.escape(self.title)}</div>'
            f'<table style="border-collapse: collapse"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>"
            f'<div style="color: {_GREY}; font-size: 12px">Click a run to open its trace and'
            " answer. Times are this machine's local time.</div></div>"
        )


def runs_view(session: Any) -> View:
    rows = [
        [
            s.id,
            local_time(s.started_at),
            s.status.replace("_", " "),
            *reversed(outcome_label(s.status, s.trust_state)),  # words, then the key
            s.question[:70],
        ]
        for s in (session.store.list(limit=30) if session.store else [])
    ]
    # The key rides last (RunsView keeps it for the colour, not as a column).
    rows = [[r[0], r[1], r[2], r[3], r[5], r[4]] for r in rows]
    return RunsView("Runs (newest first)", ["id", "started", "status", "label", "question"], rows)


def blocks_view(session: Any) -> View:
    rows = [[b.name, str(b.status), b.domain or "", b.grain or ""] for b in session.blocks()]
    notes = [f"{name}: not certified: {why}" for name, why in session.library.lowered.items()]
    notes += [f"bad block file: {e}" for e in session.library.errors]
    return View("DQL blocks", ["name", "status", "domain", "grain"], rows, notes)


def trace_view(run: AgentRun) -> View:
    rows = []
    for step in run.steps:
        for attempt in step.attempts:
            for e in attempt.evaluations:
                rows.append(
                    [
                        step.index + 1,
                        step.route.value,
                        attempt.number + 1,
                        "pass" if e.passed else "FAIL",
                        e.severity.value,
                        f"{e.label}: {e.message}",
                    ]
                )
    trust = run.trust_state.value if run.trust_state else "-"
    return View(
        f"{run.question} — {run.status.value}, trust {trust}",
        ["step", "route", "attempt", "check", "severity", "message"],
        rows,
        [run.summary],
    )


def dql_result_view(result: Any, block: Any) -> View:
    preview = result.preview
    notes = [
        f"{'✓' if a.passed else '✗'} {a.expression} — observed {a.observed}"
        for a in result.assertions
    ]
    status = str(block.status)
    trust = (
        "certified"
        if block.is_certified and result.passed
        else ("review required" if result.passed else "tests failing: review required")
    )
    notes.append(
        f"status: {status}; trust: {trust}; "
        f"{sum(a.passed for a in result.assertions)}/{len(result.assertions)} tests passed"
    )
    rows = [list(r) for r in preview.rows[:50]]
    title = f"{block.name} — {preview.row_count} row(s)" + (
        " (truncated)" if preview.truncated else ""
    )
    return View(title, list(preview.columns), rows, notes)


def sql_result_view(preview: Any) -> View:
    rows = [list(r) for r in preview.rows[:50]]
    more = " (preview truncated)" if preview.truncated else ""
    return View(f"{preview.row_count} row(s){more}", list(preview.columns), rows)
