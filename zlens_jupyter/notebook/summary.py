"""The finished run panel as static HTML: one line (orb, label, steps, time, checks) that
opens to the trace.

When a `%zlens` run ends, its live widget is replaced by this output, so what the notebook
keeps needs no widget state and no kernel: it reads the same after a reopen with JupyterLab's
default settings (which save no widget state), in nbconvert's HTML, nbviewer and GitHub. A
<details> element opens the trace without any script. Styles are inline (nbviewer and GitHub
drop <style>), from JupyterLab's theme variables with fallbacks.

    >>> data, _ = summary_bundle({"id": "run_1", "question": "How many?", "status":
    ...     "completed", "trust_state": "grounded", "usage": {"steps": 1, "elapsed_s": 0.4}})
    >>> data["text/plain"]
    'ZLens run_1 · done · grounded · 1 step · 0.4 s · no checks — How many?'
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..engine.records import AgentRun
from ..labels import ORB_WORDS, ROUTE_WORDS, orb_of_status, outcome_label

_ORB_COLOURS = {
    "done": "var(--jp-success-color1, #388e3c)",
    "needs_review": "var(--jp-warn-color1, #f57c00)",
    "blocked": "var(--jp-error-color1, #d32f2f)",
    "clarify": "var(--jp-ui-font-color2, #757575)",
    "cancelled": "var(--jp-ui-font-color3, #9e9e9e)",
    "failed": "var(--jp-error-color1, #d32f2f)",
}
_LABEL_COLOURS = {
    "certified": "var(--jp-success-color1, #388e3c)",
    "grounded": "var(--jp-brand-color1, #1976d2)",
    "review_required": "var(--jp-warn-color1, #f57c00)",
    "blocked": "var(--jp-error-color1, #d32f2f)",
}
_GREY = "var(--jp-ui-font-color2, #616161)"
_MUTED = f"color: {_GREY}"
_BORDER = "var(--jp-border-color2, #d0d7de)"
_FONT = "var(--jp-ui-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif)"
# Which tracker phase each event type belongs to (DESIGN §4), to say where a run stopped.
_PHASE_OF_EVENT = {
    "run.started": "Plan",
    "plan.created": "Plan",
    "step.started": "Plan",
    "route.decided": "Plan",
    "executor.started": "Work",
    "tool.called": "Work",
    "tool.result": "Work",
    "answer.delta": "Work",
    "answer.retracted": "Verify",
    "evaluation.recorded": "Verify",
    "replan.decided": "Verify",
    "escalated": "Verify",
    "repair.attempted": "Verify",
}

Bundle = tuple[dict[str, Any], dict[str, Any]]


def summary_bundle(run: AgentRun | dict[str, Any]) -> Bundle:
    """The finished panel's output: HTML (summary line + trace) and one plain-text line."""
    data = run.to_dict() if isinstance(run, AgentRun) else run
    orb = orb_of_status(data.get("status"))
    return (
        {"text/html": summary_html(data, orb), "text/plain": summary_line(data, orb)},
        {"zlens_panel": {"run_id": data.get("id"), "orb": orb}},
    )


def failed_bundle(question: str, message: str) -> Bundle:
    """The panel of a run that failed before it started: finished, with the reason."""
    html = (
        f'<div class="zl-panel zl-panel-static" data-orb="failed" style="font-family: {_FONT};'
        f" font-size: 13px; border: 1px solid {_BORDER}; border-radius: 6px; padding: 4px 10px;"
        f' max-width: 860px">{_orb_html("failed")} <b>{escape(question)}</b>'
        f' <span class="zl-reason" style="{_MUTED}">did not start: {escape(message)}</span></div>'
    )
    return {"text/html": html, "text/plain": f"ZLens run did not start: {message}"}, {}


def _states(data: dict[str, Any], orb: str) -> list[str]:
    """The orb's words and the label's, once when they agree (`cancelled`, `blocked`)."""
    orb_words = ORB_WORDS.get(orb, orb)
    label = outcome_label(data.get("status"), data.get("trust_state"))[1]
    return [orb_words] if orb_words == label else [orb_words, label]


def summary_line(data: dict[str, Any], orb: str) -> str:
    states = " · ".join(_states(data, orb))
    facts = " · ".join(_facts(data))
    return f"ZLens {data.get('id', '?')} · {states} · {facts} — {data.get('question', '')}"


def _facts(data: dict[str, Any]) -> list[str]:
    usage = data.get("usage") or {}
    steps = int(usage.get("steps") or len(data.get("steps") or []))
    seconds = float(usage.get("elapsed_s") or 0)
    facts = [f"{steps} step{'s' if steps != 1 else ''}", f"{seconds:.1f} s"]
    passed, total = checks(data)
    facts.append(f"{passed}/{total} checks passed" if total else "no checks")
    stopped = stopped_at(data)
    if stopped:
        facts.append(stopped)
    return facts


def checks(data: dict[str, Any]) -> tuple[int, int]:
    """(passed, total) over the evaluations of each step's deciding attempt."""
    passed = total = 0
    for step in data.get("steps") or []:
        attempts = step.get("attempts") or []
        if not attempts:
            continue
        best = step.get("best_attempt")
        attempt = attempts[best] if isinstance(best, int) and best < len(attempts) else attempts[-1]
        for evaluation in attempt.get("evaluations") or []:
            total += 1
            passed += bool(evaluation.get("passed"))
    return passed, total


def stopped_at(data: dict[str, Any]) -> str | None:
    """`stopped in Work (step 1)` for a cancelled run: the last phase its events reached."""
    if outcome_label(data.get("status"), None)[0] != "cancelled":
        return None
    phase = "Plan"
    for event in data.get("events") or []:
        phase = _PHASE_OF_EVENT.get(str(event.get("type")), phase)
    steps = data.get("steps") or []
    where = f" (step {len(steps)})" if steps else ""
    return f"stopped in {phase}{where}"


def _orb_html(orb: str) -> str:
    colour = _ORB_COLOURS.get(orb, _GREY)
    return (
        f'<span class="zl-orb zl-orb-{escape(orb)}" data-state="{escape(orb)}"'
        f' title="{escape(ORB_WORDS.get(orb, orb))}"'
        f' style="display: inline-block; width: 10px; height: 10px; border-radius: 50%;'
        f' background: {colour}; vertical-align: middle"></span>'
    )


def summary_html(data: dict[str, Any], orb: str) -> str:
    key, words = outcome_label(data.get("status"), data.get("trust_state"))
    colour = _LABEL_COLOURS.get(key, _GREY)
    chip = (
        f'<span class="zl-chip zl-trust zl-trust-{escape(key)}" data-trust="{escape(key)}"'
        f' style="border: 1px solid'
        f" {colour}; color: {colour}; border-radius: 10px; padding: 0 7px; font-weight: 600;"
        f' font-size: 12px">{escape(words)}</span>'
    )
    facts = "".join(
        f'<span class="zl-fact" style="{_MUTED}"> · {escape(fact)}</span>' for fact in _facts(data)
    )
    orb_label = ""
    if len(_states(data, orb)) == 2:
        orb_label = f' <span class="zl-orb-label" style="{_MUTED}">{ORB_WORDS.get(orb, orb)}</span>'

    head = (
        f'<summary style="cursor: pointer; list-style-position: inside">{_orb_html(orb)}'
        f"{orb_label} {chip}{facts}"
        f' <span class="zl-question" style="{_MUTED}"> — {escape(str(data.get("question", "")))}'
        "</span></summary>"
    )
    return (
        f'<div class="zl-panel zl-panel-static" data-orb="{escape(orb)}"'
        f' data-zlens-run="{escape(str(data.get("id", "")))}" style="font-family: {_FONT};'
        " font-size: 13px; color: var(--jp-ui-font-color1, inherit); border: 1px solid"
        f' {_BORDER}; border-radius: 6px; padding: 3px 10px; max-width: 860px">'
        f'<details class="zl-trace">{head}{trace_html(data)}</details></div>'
    )


def trace_html(data: dict[str, Any]) -> str:
    """The run's steps (route, status, attempts, repairs) with each attempt's checks."""
    rows = []
    for step in data.get("steps") or []:
        route = ROUTE_WORDS.get(str(step.get("route")), str(step.get("route") or ""))
        status = str(step.get("status") or "").replace("_", " ")
        tries = len(step.get("attempts") or [])
        notes = [f"{tries} attempt{'s' if tries != 1 else ''}"]
        if step.get("repairs"):
            notes.append(f"{step['repairs']} repair{'s' if step['repairs'] != 1 else ''}")
        if step.get("escalated_to"):
            notes.append(f"escalated to {ROUTE_WORDS.get(step['escalated_to'], '?')}")
        evaluations = []
        for attempt in step.get("attempts") or []:
            for evaluation in attempt.get("evaluations") or []:
                mark = "✓" if evaluation.get("passed") else "✗"
                message = evaluation.get("message") or ""
                evaluations.append(
                    f'<li class="zl-eval">{mark} {escape(str(evaluation.get("label", "")))}'
                    f'<span style="{_MUTED}"> {escape(str(message))}</span></li>'
                )
        rows.append(
            f'<li class="zl-step" data-status="{escape(str(step.get("status", "")))}">'
            f"<b>{int(step.get('index', 0)) + 1}</b> {escape(route)} · {escape(status)}"
            f'<span style="{_MUTED}"> · {escape(" · ".join(notes))}</span>'
            f'<div style="{_MUTED}; font-size: 12px">{escape(str(step.get("goal") or ""))}</div>'
            f'<ul style="margin: 2px 0 4px 16px; padding: 0; list-style: none; font-size: 12px">'
            f"{''.join(evaluations)}</ul></li>"
        )
    reason = escape(str(data.get("trust_reason") or ""))
    summary = escape(str(data.get("summary") or ""))
    return (
        f'<div class="zl-reason" style="{_MUTED}; margin: 4px 0">{reason}</div>'
        f'<ol class="zl-steps" style="margin: 2px 0; padding-left: 0; list-style: none">'
        f"{''.join(rows)}</ol>"
        f'<div class="zl-summary" style="{_MUTED}; font-size: 12px">{summary}'
        f" · run {escape(str(data.get('id', '')))}</div>"
    )


__all__ = [
    "checks",
    "failed_bundle",
    "stopped_at",
    "summary_bundle",
    "summary_html",
    "trace_html",
]
