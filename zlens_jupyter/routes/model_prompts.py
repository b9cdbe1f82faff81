"""What the model executors say to the model: route instructions, certified examples, the
task for this attempt (with the real error when repairing), and the narration request.

Everything here is text built from the catalog, the block library and the previous attempt;
nothing is sent that a person could not read back from the step's `show_prompt`.
"""

from __future__ import annotations

import json
from typing import Any

from ..dql import Block, compile_block
from ..engine import Route, StepContext
from ..engine.planner import planned_step
from ..llm import DEFAULT_SYSTEM_PROMPT
from ..parsing import STOPWORDS, question_tokens, stem
from .certified import block_vocabulary
from .kit import RouteKit
from .narrate import fmt

MAX_EXAMPLES = 2
MAX_EXAMPLE_SQL_CHARS = 1200
MAX_NARRATED_ROWS = 20
_MAX_ERROR_CHARS = 1500

_ROUTE_INSTRUCTIONS = {
    Route.GENERATED_ANSWER: (
        "Answer the question with ONE query. Prefer the governed metric definitions "
        "(lookup_metric) over your own formulas."
    ),
    Route.RESEARCH: (
        "Investigate the question: run 2 to 4 sub-queries with run_sql_preview, for example the "
        "measure by period to find the change, then the change between the two periods broken "
        "down by the dimensions most likely to explain it. Then call final_answer: sql is the "
        "main query (the measure by period), answer states the findings."
    ),
}

NARRATION_PROMPT = """\
You write the answer sentence for an analytics question from a verified query result.
Write one or two plain sentences that answer the question. State only numbers that appear in
the result, written exactly as shown there. Do not describe how the answer was found, do not
mention SQL, errors or retries, and add nothing that is not in the result."""


def system_prompt(route: Route, examples: list[tuple[str, str]]) -> str:
    """The tool loop's system prompt for `route`, with certified examples to imitate."""
    parts = [DEFAULT_SYSTEM_PROMPT, _ROUTE_INSTRUCTIONS.get(route, "")]
    if examples:
        shown = "\n\n".join(f'Certified block "{name}":\n{sql}' for name, sql in examples)
        parts.append(
            "Queries people have reviewed and certified for this database (follow their "
            "joins and formulas where they fit):\n" + shown
        )
    return "\n\n".join(p for p in parts if p)


def certified_examples(kit: RouteKit, question: str) -> list[tuple[str, str]]:
    """(name, SQL) of the certified blocks closest to the question (shared content words)."""
    words = {stem(t) for t in question_tokens(question) if t not in STOPWORDS}
    if not words:
        return []
    scored: list[tuple[int, str, Block]] = []
    for block in kit.library.certified():
        overlap = len(words & block_vocabulary(block))
        if overlap and block.query:
            scored.append((overlap, block.name, block))
    scored.sort(key=lambda item: (-item[0], item[1]))
    examples = []
    for _, name, block in scored[:MAX_EXAMPLES]:
        try:
            sql = compile_block(
                block,
                kit.library,
                metric_resolver=kit.semantic.metric_expression,
                require_params=False,
            ).sql
        except Exception:  # an example that does not compile is simply not shown
            continue
        examples.append((name, sql[:MAX_EXAMPLE_SQL_CHARS]))
    return examples


def task_text(ctx: StepContext) -> str:
    """The question for this attempt, with the step's goal and what went wrong last time.

    The repair part carries the database's own error message: the model fixes from facts.
    """
    parts = [ctx.question]
    default_goal = planned_step(ctx.route).goal
    if ctx.goal and ctx.goal != default_goal:
        parts.append(f"Goal of this step: {ctx.goal}")
    previous = ctx.previous
    error = previous_error(ctx)
    if previous is not None and previous.sql and error:
        parts.append(
            "Your previous SQL failed.\nSQL:\n"
            f"{previous.sql}\nError from the database: {error}\n"
            "Fix the SQL (check names and types with the tools) and call final_answer again."
        )
    if ctx.hint and not (error and error[:200] in ctx.hint):
        parts.append(f"Reviewer note on the previous attempt: {ctx.hint}")
    return "\n\n".join(parts)


def previous_error(ctx: StepContext) -> str | None:
    """The real error of the previous attempt's SQL: DuckDB's message or the catalog check."""
    previous = ctx.previous
    if previous is None:
        return None
    facts = previous.provenance or {}
    if facts.get("error"):
        return str(facts["error"])[:_MAX_ERROR_CHARS]
    problems = facts.get("validation_problems") or []
    if problems:
        return "; ".join(str(p.get("message", "")) for p in problems)[:_MAX_ERROR_CHARS]
    return None


def narration_messages(
    question: str, results: list[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Ask for the answer sentence from result facts only (bounded rows, formatted values)."""
    blocks = []
    for title, result in results:
        rows = [[fmt(v) for v in row] for row in result.get("rows", [])[:MAX_NARRATED_ROWS]]
        total = result.get("row_count", len(rows))
        blocks.append(
            f"{title} ({len(rows)} of {total} rows shown):\n"
            + json.dumps({"columns": result.get("columns", []), "rows": rows}, ensure_ascii=False)
        )
    user = f"Question: {question}\n\n" + "\n\n".join(blocks)
    return [{"role": "system", "content": NARRATION_PROMPT}, {"role": "user", "content": user}]
