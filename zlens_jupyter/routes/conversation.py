"""clarify and converse: the routes that answer with words, not data."""

from __future__ import annotations

from ..engine import StepContext, StepOutcome
from .clarify_options import clarification_options
from .generated import clarification
from .kit import RouteKit, refuse_unsafe_request


class Clarify:
    """Ask one sharp question, naming the closest things the data does have."""

    idempotent = True

    def __init__(self, kit: RouteKit) -> None:
        self.kit = kit

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        parsed = self.kit.parse(ctx.question)
        question = parsed.clarification
        candidates = list(parsed.candidates)
        if not question:
            linked = self.kit.warehouse.link(ctx.question, k_columns=5)
            candidates = [f"{c.table}.{c.column}" for c in linked.columns[:3]]
            names = ", ".join(candidates)
            question = "Which measure do you mean" + (f": {names}?" if names else "?")
        options = clarification_options(self.kit, ctx.question, parsed.unresolved, candidates)
        return clarification(question, candidates, parsed.unresolved, options)


class Converse:
    """Greetings and thanks: a short reply that says what can be asked, from this project."""

    idempotent = True

    def __init__(self, kit: RouteKit) -> None:
        self.kit = kit

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        examples = [b.name for b in self.kit.library.certified()][:3]
        metrics = [m.display_name for m in self.kit.semantic.metrics][:4]
        tables = list(self.kit.warehouse.catalog().tables)[:4]
        parts = ["Hello! Ask me a question about your data."]
        if examples:
            parts.append("Certified answers: " + "; ".join(examples) + ".")
        if metrics:
            parts.append("Metrics: " + ", ".join(metrics) + ".")
        elif tables:
            parts.append("Tables: " + ", ".join(tables) + ".")
        return StepOutcome(answer=" ".join(parts), action_key="converse")
