"""The run a notebook gets back IS its answer: `%zlens` returns an `AnswerRun`, an `AgentRun`
(same fields, same `to_dict()`, `.df`, `.sql`) whose rich display is the answer card, so
`Out[n]` shows the answer, not a repr.

The display lives here, not on `AgentRun`: the engine imports nothing from the layers above it.
"""

from __future__ import annotations

from typing import Any

from ..engine.records import AgentRun
from .render import Card, answer_display

_CARD = "_zlens_card"  # not a field: never serialized, compared or copied by `replace`


class AnswerRun(AgentRun):
    """An `AgentRun` that displays as its answer card (HTML, text, Vega-Lite, SVG)."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return answer_display(self, card=self.take_card())

    def take_card(self) -> Card | None:
        """What `%zlens` made for this run's card (see `answer_run`), once: later displays
        draw the card from the run as it is then."""
        card: Card | None = self.__dict__.pop(_CARD, None)
        return card


def answer_run(run: AgentRun, card: Card | None = None) -> AnswerRun:
    """The same run, shown as its answer (its fields are shared, not copied).

    `card` is what `start_chart` made from this run's record for its first display. Give it
    only when nothing can change the run before that display (`%zlens` gives it when the
    cell is the magic alone): the card is then drawn from it, not from the run again."""
    if isinstance(run, AnswerRun):
        shown = run
    else:
        shown = AnswerRun.__new__(AnswerRun)
        shown.__dict__.update(run.__dict__)
    if card is not None:
        shown.__dict__[_CARD] = card
    return shown


__all__ = ["AnswerRun", "answer_run"]
