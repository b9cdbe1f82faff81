"""Run a block through a query runner: compile, guard, bounded preview, then its tests.

The runner is duck-typed (`QueryRunner`) so this package does not depend on the warehouse
layer; anything with `preview`, `guard` and `schema_fingerprint` works. This is the only
place in `dql/` that causes SQL to execute.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from zlens_jupyter.dql.assertions import (
    AssertionResult,
    assertion_summary_sql,
    evaluate_assertions,
    evaluate_from_summary,
)
from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.references import (
    BlockLookup,
    CompiledQuery,
    MetricResolver,
    compile_block,
)


class PreviewResult(Protocol):
    """A bounded result: at most `limit` rows, `truncated` when more existed."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    row_count: int
    truncated: bool


class QueryRunner(Protocol):
    """What running and certifying blocks needs from the warehouse."""

    def preview(self, sql: str, *, params: dict[str, Any] | None = None, limit: int = 1000) -> Any:
        """Run read-only `sql` with named `params`; return a `PreviewResult`."""
        ...

    def guard(self, sql: str) -> str:
        """Return `sql` if it is a single read-only statement, else raise GuardrailViolation."""
        ...

    def schema_fingerprint(self, tables: Iterable[str] | None = None) -> str:
        """A stable digest of the columns (names, types) of `tables` (all when None)."""
        ...


@dataclass
class BlockRun:
    """One execution of a block: the SQL that ran, its bounded result and its test results."""

    block: str
    compiled: CompiledQuery
    preview: Any
    assertions: list[AssertionResult] = field(default_factory=list)
    passed: bool = True

    @property
    def failures(self) -> list[AssertionResult]:
        return [a for a in self.assertions if not a.passed]

    def to_dict(self) -> dict[str, Any]:
        return {
            "block": self.block,
            "compiled": self.compiled.to_dict(),
            "columns": list(self.preview.columns),
            "row_count": self.preview.row_count,
            "truncated": self.preview.truncated,
            "assertions": [a.to_dict() for a in self.assertions],
            "passed": self.passed,
        }


def run_block(
    block: Block,
    library: BlockLookup | None,
    runner: QueryRunner,
    params: Mapping[str, Any] | None = None,
    *,
    metric_resolver: MetricResolver | None = None,
    limit: int = 1000,
) -> BlockRun:
    """Compile, guard and preview `block`, then evaluate its tests on the result.

    Tests see the whole result: when the preview was cut at `limit`, the observations are
    computed by one aggregate query over the full result instead of over the first rows.
    `passed` is True when every assertion passed (vacuously so for a block with no tests).
    """
    compiled = compile_block(block, library, params=params, metric_resolver=metric_resolver)
    runner = reading_dialect(runner, block)
    sql = runner.guard(compiled.sql)
    bound = compiled.params or None
    preview = runner.preview(sql, params=bound, limit=limit)
    if preview.truncated and block.tests:
        summary_sql = runner.guard(assertion_summary_sql(block.tests, sql, preview.columns))
        summary = runner.preview(summary_sql, params=bound, limit=1)
        observed = dict(zip(summary.columns, summary.rows[0], strict=True))
        results = evaluate_from_summary(block.tests, observed, preview.columns, preview.rows)
    else:
        results = evaluate_assertions(block, preview.columns, preview.rows)
    return BlockRun(block.name, compiled, preview, results, all(r.passed for r in results))


def reading_dialect(runner: QueryRunner, block: Block) -> QueryRunner:
    """The runner reading the block's declared `dialect` ("spark", "duckdb"): a block runs
    unchanged on an engine that speaks it. Without a declaration, or on a runner that reads
    one dialect only, the runner as it is."""
    dialect = block.get("dialect")
    reading = getattr(runner, "reading", None)
    if isinstance(dialect, str) and dialect and callable(reading):
        return reading(dialect.lower())
    return runner
