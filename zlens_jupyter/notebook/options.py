"""Options of a question in `%zlens` / `%%zlens`: leading flags, then the question verbatim.

Questions contain apostrophes and quotes ("What's revenue?"), so the question itself is never
shell-split; only the flags in front of it are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError
from ..inputs import check_budget

_VALUED = {
    "--mode": "mode",
    "--max-steps": "max_steps",
    "--budget-usd": "budget_usd",
    "--deadline": "deadline",
    "-o": "output",
    "--output": "output",
}
_FLAGS = {
    "--deep": "deep",
    "--background": "background",
    "--no-panel": "no_panel",
    "--insert": "insert",
}
_NUMBERS = {"max_steps": int, "budget_usd": float, "deadline": float}
_BUDGET_KEY = {"max_steps": "max_steps", "budget_usd": "max_cost_usd", "deadline": "deadline_s"}


@dataclass
class AskOptions:
    question: str = ""
    mode: str | None = None
    deep: bool = False
    max_steps: int | None = None
    budget_usd: float | None = None
    deadline: float | None = None
    background: bool = False
    no_panel: bool = False
    insert: bool = False
    output: str | None = None


def parse_ask(line: str, cell: str | None = None) -> AskOptions:
    """`--mode sql --max-steps 2 What is revenue?` -> options + question.

    For `%%zlens` the flags are on the magic's line and the question is the cell body.

    >>> parse_ask("--deep -o r Why did revenue drop?").question
    'Why did revenue drop?'
    """
    options = AskOptions()
    words = line.split()
    i = 0
    while i < len(words) and words[i].startswith("-"):
        word = words[i]
        if word in _FLAGS:
            setattr(options, _FLAGS[word], True)
            i += 1
            continue
        if word not in _VALUED:
            raise UserError(f"Unknown option {word}: see %zlens help.")
        if i + 1 >= len(words):
            raise UserError(f"{word} needs a value: see %zlens help.")
        field = _VALUED[word]
        raw = words[i + 1]
        try:
            value = _NUMBERS[field](raw) if field in _NUMBERS else raw
        except ValueError:
            raise UserError(f"{word} takes a number, not {raw!r}.") from None
        if field in _NUMBERS:
            check_budget(**{_BUDGET_KEY[field]: value}, flags={_BUDGET_KEY[field]: word})
        setattr(options, field, value)
        i += 2
    rest = " ".join(words[i:])
    options.question = (cell if cell is not None and cell.strip() else rest).strip()
    if cell is None:
        # `%zlens What is revenue?;`: IPython's trailing semicolon hides the cell's output;
        # it is no part of the question
        options.question = options.question.rstrip(";").rstrip()
    if not options.question:
        raise UserError("The question is empty: try %zlens What is revenue by segment?")
    if options.output is not None and not options.output.isidentifier():
        raise UserError(f"-o needs a variable name, not {options.output!r}.")
    return options
