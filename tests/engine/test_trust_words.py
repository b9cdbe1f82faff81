"""A trust reason is read by people: it names what was produced, never an internal route."""

from __future__ import annotations

import re

from zlens_jupyter.engine import Engine, Evaluation, Mode, Route, RunRequest, StepOutcome


def grounded_outcome(ctx):  # type: ignore[no-untyped-def]
    checks = [
        Evaluation(id="catalog-grounding", label="Catalog grounding", passed=True),
        Evaluation(id="result-executed", label="Result executed", passed=True),
    ]
    return StepOutcome(
        answer="ok", sql="SELECT 1", result={"columns": ["a"], "rows": [[1]]}, evaluations=checks
    )


def test_capped_routes_say_what_they_made_in_words():
    for mode, words in ((Mode.SQL, "SQL written for a cell"), (Mode.BLOCK, "a drafted block")):
        request = RunRequest("revenue by region", mode=mode)
        run = Engine({route: grounded_outcome for route in Route}).run(request)
        assert run.trust_state.value == "review_required"
        assert run.trust_reason == f"{words} is at most review required until a person reviews it"
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", run.trust_reason), run.trust_reason
