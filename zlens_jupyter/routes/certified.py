"""certified_answer: match the question to a certified block, run it unchanged, check its tests.

Candidates are found by the block's own words (name, description, llmContext, tags, outputs,
terms, grain, dimensions); a candidate answers only when what it computes fits what the
question asks (`block_fit`: aggregate, grouping, filters, exclusions, direction, N, period).
Anything else scores zero and falls to generated_answer with the reason in the trace.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from ..dql import Block, check_drift, compile_block, evaluate_assertions
from ..dql.certification import RECORD_FIELDS
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
from ..errors import ZLensError
from ..parsing import (
    AGG_WORDS,
    GLUE_WORDS,
    GRAIN_WORDS,
    GROUP_MARKERS,
    STOPWORDS,
    SUPERLATIVES,
    QuestionFrame,
    question_tokens,
    stem,
)
from .block_fit import block_shape, fit_measures, shape_misfit
from .kit import RouteKit, refuse_unsafe_request
from .narrate import describe

_IGNORED = STOPWORDS | set(SUPERLATIVES) | {"which", "breakdown", "split", "show"}
# Words that shape a question rather than name data (aggregates, grouping, order, glue).
STRUCTURAL_WORDS = (
    GLUE_WORDS
    | _IGNORED
    | {w for phrase in AGG_WORDS for w in phrase}
    | {w for phrase in GROUP_MARKERS for w in phrase}
    | set(SUPERLATIVES)
    | set(GRAIN_WORDS)
    | {"day", "week", "month", "quarter", "year", "all", "overall", "bottom", "first", "last"}
    | {"selling", "performing", "much", "many", "number"}
)


@dataclass
class BlockMatch:
    block: Block | None
    score: float
    notes: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)  # @params the question binds


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
    """The certified block that answers the question, with a score in 0..1, or none.

    A block is a candidate when its name is what the question is about; it answers only
    when what it computes agrees with what the question asks (see `block_fit`). Blocks whose
    certification nothing backs any more (`library.lowered`) still match, so the answer can
    say why it is not certified, but never as certified.

    Routing matches and then the route matches again: the second gets a copy of the first
    while the question, the library (and what it lowered) and the catalog are the same."""
    lowered = kit.library.lowered
    blocks = tuple((id(b), b.status) for b in kit.library.blocks)
    key = (question, kit.library, blocks, tuple(lowered.items()), kit.warehouse.catalog())
    memo = kit._matched
    if memo is not None and all(a is b or a == b for a, b in zip(memo[0], key, strict=True)):
        return _copy(memo[1])
    match = _match(question, kit)
    kit._matched = (key, match)
    return _copy(match)


def _copy(match: BlockMatch) -> BlockMatch:
    return BlockMatch(match.block, match.score, list(match.notes), dict(match.params))


def _match(question: str, kit: RouteKit) -> BlockMatch:
    tokens = question_tokens(question)
    content = [stem(t) for t in tokens if t not in _IGNORED and not t.isdigit()]
    if not content:
        return BlockMatch(None, 0.0)
    frame = kit.frame(question)
    values = kit.warehouse.probe_values(question)
    value_words = {stem(w) for v in values for w in question_tokens(v.word)}
    best = BlockMatch(None, 0.0)
    asked = set(content)
    metric_words = _metric_words(question, kit)
    scored: list[tuple[float, Block, frozenset[str]]] = []
    for block in _candidates(kit):
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
        scored.append((0.5 * covered + 0.5 * named, block, vocab))
    # Only the most relevant blocks may answer: when the best one does not fit, a less
    # relevant one is not tried in its place (whatever order the library lists them in).
    top = max((score for score, _, _ in scored), default=0.0)
    for score, block, vocab in sorted(scored, key=lambda s: s[1].name):
        if score < top:
            continue
        params: dict[str, Any] = {}
        misfit = _misfit(frame, block, kit, values, metric_words | value_words, vocab, params)
        if not misfit:
            _, misfit = fit_measures(_asked_measures(question, frame, kit), _measure_outputs(block))
        if misfit:
            best.notes.append(f'"{block.name}": {misfit}')
            continue
        return BlockMatch(block, round(score, 3), best.notes, params)
    return best


def _candidates(kit: RouteKit) -> list[Block]:
    lowered = kit.library.lowered
    return [b for b in kit.library.blocks if b.is_certified or b.name in lowered]


def _metric_words(question: str, kit: RouteKit) -> set[str]:
    """Metric names the question reaches through synonyms ("sales" -> revenue)."""
    words: set[str] = set()
    for metric, score in kit.semantic.match_metrics(question):
        # Only a metric the question names (a whole name, label or synonym: score >= 0.5);
        # "average revenue" shares one word with average_order_value, which is not naming it.
        if score >= 0.5:
            words.update(stem(t) for t in question_tokens(metric.name.replace("_", " ")))
    return words


def _misfit(
    frame: QuestionFrame,
    block: Block,
    kit: RouteKit,
    values: list[Any],
    known: set[str],
    vocab: frozenset[str],
    params: dict[str, Any],
) -> str | None:
    """Why the block does not answer the question, or None; fills `params` with the values
    the question gives the block's declared `@param`s."""
    # Every word that names data must be one the block speaks of: "least profitable
    # products" is not "Top products by revenue", "sales without refunds" not "Revenue".
    unknown = [
        t
        for t in frame.tokens
        if t not in STRUCTURAL_WORDS
        and stem(t) not in STRUCTURAL_WORDS
        and not t.isdigit()
        and stem(t) not in vocab | known
    ]
    if unknown:
        return f"the question says '{unknown[0]}', which the block does not cover"
    compiled = _compiled_sql(block, kit)
    shape = block_shape(compiled, _measure_column(block)) if compiled else None
    if shape is None:
        return "its SQL could not be read to check what it computes"
    # The grain, not every dimension column: "Top products" lists each product's category,
    # but it does not answer "revenue by category". A block that groups nothing has no grain
    # to ask for, whatever its `grain` says ("one row", "all orders").
    grain = [stems_of(item) for item in (block.grain or "").split(",") if item.strip()]
    grain = grain if shape.grouped else []
    grain_all = frozenset().union(*grain) if grain else frozenset()
    measured = grain_words(block) - dimension_words(block)
    ranking = measured | known
    for words in frame.groupings:
        stems = [stem(w) for w in words]
        ranked_by = words in frame.by_groupings and all(w in ranking for w in stems)
        if ranked_by and not any(w in grain_all for w in stems):
            # "top products by revenue": ranked by a measure, not grouped; one the block
            # computes ("segments by revenue and orders" is not "Revenue by segment")
            if not _computes(words, measured, values, kit):
                return f"the question ranks by {' '.join(words)}, which the block does not compute"
            continue
        # "customer segment" is one phrase; one of its words must be the grain.
        if not any(w in grain_all or GRAIN_WORDS.get(w) in grain_all for w in stems):
            return f"its grain ({block.grain or 'none'}) has no '{' '.join(words)}'"
    misfit = shape_misfit(frame, shape, grain, stems_of(block.name))
    if misfit:
        return misfit
    # A block runs unchanged: a value the question filters on must be one it already keeps,
    # or one a declared @param binds. (`allowedFilters` says a filter may be added, but an
    # unchanged run adds none.)
    bindings = _param_columns(block, compiled or "")
    for value in values:
        param = bindings.get(value.column.lower())
        if param is not None and param not in params:
            params[param] = value.value
            continue
        kept = str(value.value).lower() in shape.filters
        if not kept and stem(value.word) not in grain_all:
            return f"it does not filter on {value.column} = {value.value}"
    # A parameter the question leaves open would filter by its default: a narrower question.
    unbound = [p for p in set(bindings.values()) if p not in params]
    if unbound:
        return f"its parameter '{sorted(unbound)[0]}' needs a value the question does not give"
    return None


def _param_columns(block: Block, compiled: str) -> dict[str, str]:
    """{column: parameter} for each @param the block's SQL uses: the column named by the
    block's `filterBindings { param = "table.column" }`, else the column it is compared with
    (`WHERE c.segment = @param("segment")`), else a column of the parameter's own name."""
    dialect = block.get("dialect")
    spark = isinstance(dialect, str) and dialect.lower() == "spark"  # `:name` markers
    use, comparison = (
        (_SPARK_PARAM_USE, _SPARK_PARAM_COMPARISON) if spark else (_PARAM_USE, _PARAM_COMPARISON)
    )
    used = sorted(set(use.findall(compiled)))
    declared = {str(k): str(v) for k, v in block.filter_bindings.items()}
    compared = dict(comparison.findall(compiled))
    out: dict[str, str] = {}
    for param in used:
        column = declared.get(param) or next((c for c, p in compared.items() if p == param), param)
        out[column.split(".")[-1].strip('"`' if spark else '"').lower()] = param
    return out


def _computes(words: list[str], measured: frozenset[str], values: list[Any], kit: RouteKit) -> bool:
    """Whether the measure a question ranks by ("by orders") is one of the block's: its words
    are the block's measure words, directly or through the metric they name ("by sales" is
    the metric revenue); a value the question names is not a measure, and passes."""
    stems = {stem(w) for w in words}
    said = {stem(w) for v in values for w in question_tokens(v.word)}
    if stems <= measured | said:
        return True
    return any(
        score >= 0.5 and stems_of(metric.name.replace("_", " ")) <= measured
        for metric, score in kit.semantic.match_metrics(" ".join(words))
    )


def _asked_measures(question: str, frame: QuestionFrame, kit: RouteKit) -> list[list[str]]:
    """The measures the question asks for, each as the names the parser gave it, when it may
    ask for several ("revenue and orders by segment"); [] when it asks for one or the parser
    cannot say. Parsed only for a question with a conjunction or two aggregates: a certified
    answer to any other question never loads the parser."""
    if len(set(frame.aggregates)) < 2 and not _CONJUNCTIONS.intersection(frame.tokens):
        return []
    # The parser's reading, the one the generated answer is built from: "how many orders in
    # total" is one count, though it says two aggregate words.
    spec = kit.parse(question).spec
    if spec is None or len(spec.measures) < 2:
        return []
    return [
        [name for name in (m.alias, m.target.name if m.target else "") if name]
        for m in spec.measures
    ]


_CONJUNCTIONS = frozenset({"and", "plus", "with", "also", "both", "well", "&"})


def _measure_outputs(block: Block) -> list[str]:
    """The block's output columns that are measures: its outputs less its grain and
    dimensions."""
    grouped = {d.strip().lower() for d in [*(block.grain or "").split(","), *block.dimensions]}
    return [o for o in block.outputs if o.strip().lower() not in grouped]


def _measure_column(block: Block) -> str | None:
    y = (block.visualization or {}).get("y")
    return str(y) if y else None


def _compiled_sql(block: Block, kit: RouteKit) -> str | None:
    try:
        return compile_block(
            block, kit.library, metric_resolver=kit.semantic.metric_expression, require_params=False
        ).sql
    except ZLensError:
        return None


# `$segment` in compiled SQL, and `<column> = $param` comparisons (either side).
_PARAM_USE = re.compile(r"\$([A-Za-z_]\w*)")
_PARAM_COMPARISON = re.compile(r'([\w."]+)\s*=\s*\$([A-Za-z_]\w*)')
# The same in a block written in Spark SQL: `:segment` (not a `::` cast), backtick names.
_SPARK_PARAM_USE = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_SPARK_PARAM_COMPARISON = re.compile(r"([\w.`]+)\s*=\s*(?<!:):([A-Za-z_]\w*)")


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
        compiled = compile_block(
            block, self.kit.library, params=match.params, metric_resolver=self._metric_sql
        )
        dialect = block.get("dialect")
        result, facts = self.kit.execute(
            compiled.sql,
            ctx,
            params=compiled.params or None,
            dialect=dialect if isinstance(dialect, str) else None,
        )
        # Lowered at load (no record, or drifted then), or drifted since: never certified.
        lowered = self.kit.library.lowered.get(block.name)
        drift = lowered or check_drift(
            block, self.kit.library, self.kit.warehouse, metric_resolver=self._metric_sql
        )
        status = block.status if lowered or not drift else "pending_recertification"
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
        frame = self.kit.frame(ctx.question)
        # "monthly revenue and orders" from a block of both: each asked for is said.
        asked, _ = fit_measures(
            _asked_measures(ctx.question, frame, self.kit), _measure_outputs(block)
        )
        answer = (
            describe(
                result,
                shape,
                measure=str(measure) if measure else None,
                order_desc=frame.descending,
                grouping=(block.grain or "").split(","),
                measures=asked or None,
            )
            if result
            else None
        )
        return StepOutcome(
            answer=answer,
            sql=compiled.sql,
            result=result,
            action_key=f"block:{block.name}",
            parsed_intent={
                "block": block.name,
                "score": match.score,
                "shape": shape,
                "params": match.params,
            },
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


def _why_not_certified(block: Block) -> str:
    record = block.certification or {}
    if all(record.get(name) for name in RECORD_FIELDS):
        return "needs recertification"  # a person certified it; something changed since
    return "is not certified"


def _drift_evaluation(block: Block, drift: str | None) -> Evaluation | None:
    if drift is None:
        return None
    return Evaluation(
        id="certification-current",
        label="Certification current",
        passed=False,
        severity=Severity.WARNING,
        message=f'"{block.name}" {_why_not_certified(block)}: {drift}',
    )
