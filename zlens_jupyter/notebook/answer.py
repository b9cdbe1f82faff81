"""The run a notebook gets back IS its answer: `%zlens` returns an `AnswerRun`, an `AgentRun`
(same fields, same `to_dict()`, `.df`, `.sql`) whose rich display is the answer card, so
`Out[n]` shows the answer, not a repr.

The display lives here, not on `AgentRun`: the engine imports nothing from the layers above it.
"""

from __future__ import annotations

from typing import Any

from ..engine.records import AgentRun
from .render import answer_display


class AnswerRun(AgentRun):
    """An `AgentRun` that displays as its answer card (HTML, text, Vega-Lite, SVG)."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return answer_display(self)


def answer_run(run: AgentRun) -> AnswerRun:
    """The same run, shown as its answer (its fields are shared, not copied)."""
    if isinstance(run, AnswerRun):
        return run
    shown = AnswerRun.__new__(AnswerRun)
    shown.__dict__.update(run.__dict__)
    return shown


__all__ = ["AnswerRun", "answer_run"]
