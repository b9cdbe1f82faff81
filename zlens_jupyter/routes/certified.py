"""certified_answer: match the question to a certified block, run it unchanged, check its tests.

Matching is on the block's own words (name, description, llmContext, tags, outputs, terms,
grain, dimensions). A block must not answer a question it does not fit: if the question
groups by a dimension the block's grain lacks, or filters on something the block cannot
filter, the score is zero and the question falls to generated_answer.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from ..dql import Block, check_drift, compile_block, evaluate_assertions
from ..engine import (
    Artifact,
    Evaluation,
    RepairAction,
    RepairKind,
    Route,
    Severity,
    StepContext,
    StepOutcome,
)
from .kit import RouteKit, refuse_unsafe_request
from .language import STOPWORDS, question_tokens, stem
from .narrate import describe
from .phrasing import GRAIN_WORDS, GROUP_MARKERS, find_time_range, find_top_n, match_at

_IGNORED = STOPWORDS | {"which", "most", "top", "highest", "lowest", "breakdown", "split", "show"}


@dataclass
class BlockMatch:
    block: Block | None
    score: float
    notes: list[str] = field(default_factory=list)


def block_vocabulary(block: Block) -> frozenset[str]:
    text = " ".join(
        str(x)
        for x in [
            block.name,
            block.description or "",
            block.llm_context or "",
            " ".join(block.tags),
            " ".join(block.outputs),
            " ".join(block.terms),
            block.grain or "",
            " ".join(block.dimensions),
        ]
    )
    return stems_of(text)


@functools.lru_cache(maxsize=4096)
def stems_of(text: str) -> frozenset[str]:
    """The stemmed words of a text. Remembered by the text itself, so an edited block gets
    fresh words; every question scores every certified block, and stemming dominated that."""
    return frozenset(stem(t) for t in question_tokens(text.replace("_", " ")))


def grain_words(block: Block) -> frozenset[str]:
    return stems_of(" ".join([block.grain or "", *block.dimensions, *block.outputs]))


def dimension_words(block: Block) -> frozenset[str]:
    """What the block groups by (grain and dimensions), without its measures."""
    return stems_of(" ".join([block.grain or "", *block.dimensions]))


def match_certified(question: str, kit: RouteKit) -> BlockMatch:
    """The best certified block for a question, with a score in 0..1 (coverage of the
    question's content words by the block's vocabulary), zeroed when the grain does not fit."""
    tokens = question_tokens(question)
    content = [stem(t) for t in tokens if t not in _IGNORED and not t.isdigit()]
    if not content:
        return BlockMatch(None, 0.0)
    best = BlockMatch(None, 0.0)
    asked = set(content)
    metric_words = _metric_words(question, kit)
    for block in kit.library.certified():
        vocab = block_vocabulary(block)
        covered = sum(1 for w in content if w in vocab) / len(content)
        # The block's own name must be what the question is about, not just share a word
        # with its description ("how many customers" is not "Revenue by segment").
        name = [stem(t) for t in question_tokens(block.name) if t not in _IGNORED]
        named = sum(1 for w in name if w in asked) / len(name) if name else 0.0
        if named < 0.5:
            continue
        # What the block measures (its name minus its grain) must be what the question asks
        # for: "customers by segment" is not "Revenue by segment", however close the words.
        dims = dimension_words(block)
        measures = [w for w in name if w not in dims and GRAIN_WORDS.get(w, w) not in dims]
        if measures and not all(w in asked | metric_words for w in measures):
            best.notes.append(f'"{block.name}": it measures {" ".join(measures)}, not that')
            continue
        score = 0.5 * covered + 0.5 * named
        if score <= best.score:
            continue
        misfit = _misfit(tokens, block, kit, question, metric_words)
        if misfit:
            best = BlockMatch(None, 0.0, best.notes + [f'"{block.name}": {misfit}'])
            continue
        best = BlockMatch(block, round(score, 3), best.notes)
    return best


def _metric_words(question: str, kit: RouteKit) -> set[str]:
    """Metric names the question reaches through synonyms ("sales" -> revenue)."""
    words: set[str] = set()
    for metric, _ in kit.semantic.match_metrics(question):
        words.update(stem(t) for t in question_tokens(metric.name.replace("_", " ")))
    return words


def _misfit(
    tokens: list[str], block: Block, kit: RouteKit, question: str, metric_words: set[str]
) -> str | None:
    # The grain, not every dimension column: "Top products" lists each product's category,
    # but it does not answer "revenue by category".
    dims = {stem(t) for t in question_tokens((block.grain or "").replace("_", " "))}
    ranking = grain_words(block) - dimension_words(block) | metric_words
    for i in range(len(tokens)):
        for phrase in GROUP_MARKERS:
            if match_at(tokens, i, phrase):
                for words in _grouped_phrases(tokens[i + len(phrase) :]):
                    stems = [stem(w) for w in words]
                    if phrase == ("by",) and all(w in ranking for w in stems):
                        continue  # "top products by revenue": ranked by a measure, not grouped
                    # "per customer", "for each customer" always group (or divide): never a
                    # ranking, so a measure column of that name does not make the block fit.
                    # "customer segment" is one phrase; one of its words must be the grain.
                    if not any(w in dims for w in stems):
                        return f"its grain ({block.grain}) has no '{' '.join(words)}'"
    if find_top_n(list(tokens), set())[0] is not None:
        return "the question asks for its own top N; the block's rows are fixed"
    if find_time_range(list(tokens), set()) is not None:
        return "the question names a period the block cannot filter"
    values = kit.warehouse.probe_values(question)
    allowed = {a.lower() for a in block.allowed_filters}
    grain = grain_words(block)
    for value in values:
        if value.column.lower() not in allowed and stem(value.word.lower()) not in grain:
            return f"it cannot filter on {value.column} = {value.value}"
    return None


_END_OF_GROUPING = {
    "in",
    "for",
    "from",
    "during",
    "where",
    "with",
    "since",
    "before",
    "after",
    "top",
    "over",
    "between",
    "when",
    "whose",
    "that",
    "which",
}


def _grouped_phrases(after: list[str]) -> list[list[str]]:
    """What a grouping asks for: "by segment and region in 2024" -> [segment], [region]."""
    phrases: list[list[str]] = [[]]
    for token in after:
        if token in _END_OF_GROUPING:
            break
        if token in ("and", ","):
            phrases.append([])
        elif token not in _IGNORED and not token.isdigit():
            phrases[-1].append(token)
    return [p for p in phrases if p]


class CertifiedAnswer:
    idempotent = True

    def __init__(self, kit: RouteKit) -> None:
        self.kit = kit

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        match = match_certified(ctx.question, self.kit)
        if match.block is None:
            return StepOutcome(evaluations=[_no_block(match.notes)])
        block = match.block
        ctx.tool_called("run_block", {"block": block.name})
        compiled = compile_block(block, self.kit.library, metric_resolver=self._metric_sql)
        result, facts = self.kit.execute(compiled.sql, ctx, params=compiled.params or None)
        drift = check_drift(block, self.kit.library, self.kit.warehouse)
        status = "pending_recertification" if drift else block.status
        certified = {
            "name": block.name,
            "status": str(status),
            "trust_source": block.trust_source,
            "drift": drift,
            "certification": block.certification,
        }
        facts["block"] = block.name
        facts["visualization"] = block.visualization or None
        evaluations = [_tests_evaluation(block, result), _drift_evaluation(block, drift)]
        shape = "scalar" if result and result["row_count"] == 1 else "breakdown"
        measure = (block.visualization or {}).get("y")
        answer = (
            describe(result, shape, measure=str(measure) if measure else None) if result else None
        )
        return StepOutcome(
            answer=answer,
            sql=compiled.sql,
            result=result,
            action_key=f"block:{block.name}",
            parsed_intent={"block": block.name, "score": match.score, "shape": shape},
            provenance=facts,
            certified_block=certified,
            evaluations=[e for e in evaluations if e is not None],
            artifacts=[
                Artifact(
                    kind="answer",
                    title=block.name,
                    content={"answer": answer, "sql": compiled.sql, "block": block.name},
                )
            ]
            if result
            else [],
        )

    def _metric_sql(self, name: str) -> str | None:
        metric = self.kit.semantic.metric(name)
        return self.kit.semantic.metric_sql(metric) if metric else None


def _no_block(notes: list[str]) -> Evaluation:
    why = "; ".join(notes) or "no certified block matches the question"
    return Evaluation(
        id="certified-match",
        label="Certified block",
        passed=False,
        severity=Severity.WARNING,
        message=why,
        repair_action=RepairAction(
            kind=RepairKind.ESCALATE, route=Route.GENERATED_ANSWER, hint=why
        ),
    )


def _tests_evaluation(block: Block, result: dict[str, Any] | None) -> Evaluation | None:
    if result is None or not block.tests:
        return None
    results = evaluate_assertions(block, result["columns"], [tuple(r) for r in result["rows"]])
    failed = [r for r in results if not r.passed]
    if failed:
        return Evaluation(
            id="block-tests",
            label="Block tests",
            passed=False,
            severity=Severity.WARNING,
            message="; ".join(r.message for r in failed),
            evidence={"assertions": [vars(r) for r in results]},
        )
    return Evaluation(
        id="block-tests",
        label="Block tests",
        passed=True,
        message=f"{len(results)} test{'s' if len(results) != 1 else ''} passed",
        evidence={"assertions": [r.expression for r in results]},
    )


def _drift_evaluation(block: Block, drift: str | None) -> Evaluation | None:
    if drift is None:
        return None
    return Evaluation(
        id="certification-current",
        label="Certification current",
        passed=False,
        severity=Severity.WARNING,
        message=f"{block.name} needs recertification: {drift}",
    )
