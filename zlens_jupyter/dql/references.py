"""Compile a block's `query`: resolve `@table @dim @metric @block @param` references.

`@param("x")` becomes the DuckDB named parameter `$x` and its value travels separately in
`CompiledQuery.params`; values are never spliced into SQL text. `@block("Other")` composes the
other block as a CTE named `"block:<name>"` (dependencies first, each once; cycles are an
error); the prefix keeps a block called like a table from shadowing that table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from zlens_jupyter.dql.block import Block
from zlens_jupyter.errors import UserError

MetricResolver = Callable[[str], "str | None"]

_REFERENCE = re.compile(
    r"""@(table|dim|metric|block|param)\(\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\)"""
)
_PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LEADING_WITH = re.compile(
    r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*WITH\s+(RECURSIVE\s+)?", re.IGNORECASE | re.DOTALL
)


class BlockLookup(Protocol):
    """What compilation needs from a library: find a block by name (case-insensitive)."""

    def get(self, name: str) -> Block | None: ...


@dataclass(frozen=True)
class QueryReference:
    """One `@kind("name")` found in a query, with its character range."""

    kind: str
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class CompiledQuery:
    """Runnable SQL plus the named parameter values it needs (`$name` in the SQL)."""

    sql: str
    params: dict[str, Any] = field(default_factory=dict)
    blocks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"sql": self.sql, "params": dict(self.params), "blocks": list(self.blocks)}


def find_references(sql: str) -> list[QueryReference]:
    """The `@...("...")` references in `sql`, ignoring SQL strings and comments.

    >>> [r.kind for r in find_references("SELECT @dim('t.a') FROM @table('t') -- @param('x')")]
    ['dim', 'table']
    """
    return list(_references(sql))


@functools.lru_cache(maxsize=1024)
def _references(sql: str) -> tuple[QueryReference, ...]:
    """`find_references`, remembered by the text itself: every ask compiles its block a few
    times (matching, running, the drift check), and this scan was most of each compile."""
    found: list[QueryReference] = []
    index = 0
    while index < len(sql):
        char = sql[index]
        if char == "@":
            match = _REFERENCE.match(sql, index)
            if match:
                name = match.group(2) if match.group(2) is not None else match.group(3)
                name = re.sub(r"\\(.)", r"\1", name)
                found.append(QueryReference(match.group(1), name, index, match.end()))
                index = match.end()
                continue
        index = _skip_literal(sql, index)
    return tuple(found)


def _skip_literal(sql: str, index: int) -> int:
    """Index after a string, quoted identifier or comment starting at `index` (else +1)."""
    if sql.startswith("--", index):
        end = sql.find("\n", index)
        return len(sql) if end == -1 else end
    if sql.startswith("/*", index):
        end = sql.find("*/", index + 2)
        return len(sql) if end == -1 else end + 2
    quote = sql[index]
    if quote in "'\"":
        end = index + 1
        while end < len(sql):
            if sql[end] == quote:
                if sql.startswith(quote * 2, end):  # doubled quote is an escaped quote
                    end += 2
                    continue
                return end + 1
            end += 1
        return len(sql)
    return index + 1


def quote_identifier(name: str, *, spark: bool = False) -> str:
    """A double-quoted SQL identifier (embedded quotes doubled); backticks for Spark SQL."""
    if spark:
        return "`" + name.replace("`", "``") + "`"
    return '"' + name.replace('"', '""') + '"'


def quote_dotted(name: str, *, spark: bool = False) -> str:
    """`schema.table` or `table.column` with each part quoted."""
    return ".".join(quote_identifier(part, spark=spark) for part in name.split("."))


def cte_name(block_name: str, *, spark: bool = False) -> str:
    """The quoted CTE identifier a composed block gets: `"block:<name>"`."""
    return quote_identifier(f"block:{block_name}", spark=spark)


def compile_block(
    block: Block,
    library: BlockLookup | None,
    *,
    params: Mapping[str, Any] | None = None,
    metric_resolver: MetricResolver | None = None,
    require_params: bool = True,
) -> CompiledQuery:
    """Resolve every reference in `block.query` and return runnable SQL with bound params.

    Missing parameter values raise UserError naming the parameter; parameters the query does
    not reference are ignored. Values come from `params`, else from the block's optional
    `params { name = default }` section. With `require_params=False` a missing value binds
    as None instead (for hashing the SQL without running it).

    >>> from zlens_jupyter.dql.parser import parse_block
    >>> b = parse_block("block B { query = \\"SELECT * FROM @table('t') WHERE a = @param('a')\\" }")
    >>> compile_block(b, None, params={"a": 1, "unused": 2})
    CompiledQuery(sql='SELECT * FROM "t" WHERE a = $a', params={'a': 1}, blocks=())
    """
    compiler = _Compiler(library, dict(params or {}), metric_resolver, require_params)
    # A block written in Spark SQL (`dialect = "spark"`) runs unchanged on Spark, so its
    # references compile to Spark's forms: backtick identifiers and `:name` parameter markers
    # (bound by `spark.sql(sql, args=...)`); every other block keeps DuckDB's `"t"` and `$name`.
    dialect = block.get("dialect")
    compiler.spark = isinstance(dialect, str) and dialect.lower() == "spark"
    main = compiler.expand(block, [block.name])
    sql = _prepend_ctes(main, list(compiler.ctes.values()), compiler.spark)
    return CompiledQuery(sql, compiler.bound, tuple(name for name, _ in compiler.ctes.values()))


class _Compiler:
    def __init__(
        self,
        library: BlockLookup | None,
        params: dict[str, Any],
        metric_resolver: MetricResolver | None,
        require_params: bool,
    ) -> None:
        self.library = library
        self.require_params = require_params
        self.params = params
        self.metric_resolver = metric_resolver
        self.ctes: dict[str, tuple[str, str]] = {}  # lower name -> (block name, body)
        self.bound: dict[str, Any] = {}
        self.spark = False  # compile to Spark SQL's identifier quoting and parameter markers

    def expand(self, block: Block, stack: list[str]) -> str:
        """`block.query` with references replaced; dependencies are added to `self.ctes`."""
        query = block.query
        if query is None:
            hint = (
                "semantic blocks are compiled by the semantic layer"
                if block.type == "semantic"
                else 'add query = """SELECT ..."""'
            )
            raise UserError(f"Block {block.name!r} has no query to run; {hint}.")
        pieces: list[str] = []
        cursor = 0
        for ref in find_references(query):
            pieces.append(query[cursor : ref.start])
            pieces.append(self._resolve(ref, block, stack))
            cursor = ref.end
        pieces.append(query[cursor:])
        return re.sub(r"[\s;]+\Z", "", "".join(pieces))

    def _resolve(self, ref: QueryReference, block: Block, stack: list[str]) -> str:
        if ref.kind in ("table", "dim"):
            return quote_dotted(ref.name, spark=self.spark)
        if ref.kind == "param":
            return self._bind(ref.name, block)
        if ref.kind == "metric":
            return self._metric(ref.name, block)
        return self._compose(ref.name, stack)

    def _bind(self, name: str, block: Block) -> str:
        if not _PARAM_NAME.fullmatch(name):
            raise UserError(
                f"Block {block.name!r}: @param({name!r}) is not a valid parameter "
                "name; use letters, digits and underscores."
            )
        if name not in self.bound:
            if name in self.params:
                self.bound[name] = self.params[name]
            elif name in block.param_defaults:
                default = block.param_defaults[name]
                self.bound[name] = str(default) if isinstance(default, str) else default
            elif not self.require_params:
                self.bound[name] = None
            else:
                raise UserError(
                    f"Block {block.name!r} needs a value for parameter {name!r}; "
                    f"pass params={{{name!r}: ...}}."
                )
        return f":{name}" if self.spark else f"${name}"

    def _metric(self, name: str, block: Block) -> str:
        if self.metric_resolver is None:
            raise UserError(
                f"Block {block.name!r} uses @metric({name!r}) but no semantic layer "
                "is loaded; define the metric in semantic/*.yml or pass "
                "metric_resolver=."
            )
        expression = self.metric_resolver(name)
        if not expression:
            raise UserError(
                f"Block {block.name!r} uses @metric({name!r}), which the semantic "
                "layer does not define."
            )
        return f"({expression})"

    def _compose(self, name: str, stack: list[str]) -> str:
        dependency = self.library.get(name) if self.library is not None else None
        if dependency is None:
            raise UserError(
                f"Block {stack[-1]!r} uses @block({name!r}), but no block has that "
                "name; check blocks/**/*.dql."
            )
        lowered = [s.lower() for s in stack]
        if dependency.name.lower() in lowered:
            cycle = [*stack[lowered.index(dependency.name.lower()) :], dependency.name]
            raise UserError(
                "@block references form a cycle: "
                + " → ".join(cycle)
                + "; remove one of the references."
            )
        key = dependency.name.lower()
        if key not in self.ctes:
            body = self.expand(dependency, [*stack, dependency.name])
            self.ctes[key] = (dependency.name, body)
        return cte_name(self.ctes[key][0], spark=self.spark)


def _prepend_ctes(main: str, ctes: list[tuple[str, str]], spark: bool = False) -> str:
    """Put dependency CTEs in front of `main`, merging with its own WITH if it has one."""
    if not ctes:
        return main
    definitions = ",\n".join(
        f"{cte_name(name, spark=spark)} AS (\n{body}\n)" for name, body in ctes
    )
    leading = _LEADING_WITH.match(main)
    if leading:
        recursive = "RECURSIVE " if leading.group(1) else ""
        return f"WITH {recursive}{definitions},\n{main[leading.end() :]}"
    return f"WITH {definitions}\n{main}"
