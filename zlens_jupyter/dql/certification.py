"""Local, human certification of blocks, and drift detection afterwards.

A block is certifiable when it has domain, owner, description, grain and outputs; its query
is read-only, runs, returns every declared output, and it has at least one test, all passing.
(We require a test because "it ran" alone says nothing about whether the numbers are right.)

Certifying records who, when, a hash of the normalized compiled SQL, the referenced tables and
a fingerprint of their schema. A certified block whose SQL or schema has since changed has
drifted and becomes `pending_recertification` until a person certifies it again.

The record is what makes a block certified, not the word in its file: a block whose file says
`status = "certified"` with no complete record (someone typed it) is trusted no more than a
block under review, and says which command would certify it.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.library import BlockLibrary
from zlens_jupyter.dql.model import BlockStatus, Field, Section
from zlens_jupyter.dql.references import MetricResolver, compile_block, find_references
from zlens_jupyter.dql.runner import BlockRun, QueryRunner, run_block
from zlens_jupyter.errors import GuardrailViolation, UserError

# What a certification record must hold to vouch for a block.
RECORD_FIELDS = ("by", "at", "sql_hash", "schema_fingerprint")

REQUIRED_METADATA = ("domain", "owner", "description", "grain", "outputs")
_EXAMPLES = {
    "domain": 'domain = "finance"',
    "owner": 'owner = "analytics@company.com"',
    "description": 'description = "What this block answers."',
    "grain": 'grain = "one row per ..."',
    "outputs": 'outputs = ["col_a", "col_b"]',
}


@dataclass
class Verdict:
    """Whether a block may be certified, and if not, every reason why."""

    certifiable: bool
    problems: list[str] = field(default_factory=list)
    run: BlockRun | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "certifiable": self.certifiable,
            "problems": list(self.problems),
            "run": self.run.to_dict() if self.run else None,
        }


def certification_verdict(
    block: Block,
    library: BlockLibrary | None,
    runner: QueryRunner,
    *,
    params: Mapping[str, Any] | None = None,
    metric_resolver: MetricResolver | None = None,
) -> Verdict:
    """Check every certification requirement and list the problems (empty when certifiable)."""
    problems = [
        f"missing {name}: add {_EXAMPLES[name]}"
        for name in REQUIRED_METADATA
        if not _has(block, name)
    ]
    if block.status is BlockStatus.DEPRECATED:
        problems.append("block is deprecated: set status to draft or review before certifying")
    try:
        run = run_block(block, library, runner, params, metric_resolver=metric_resolver)
    except GuardrailViolation as exc:
        return Verdict(False, [*problems, f"query is not read-only: {exc}"])
    except UserError as exc:
        return Verdict(False, [*problems, str(exc)])
    except Exception as exc:  # a database error from the runner: report it, do not crash
        return Verdict(False, [*problems, f"query failed: {exc}"])
    returned = {c.lower() for c in run.preview.columns}
    missing = [name for name in block.outputs if name.lower() not in returned]
    if missing:
        problems.append(
            f"query does not return declared outputs {', '.join(missing)} "
            f"(it returns {', '.join(run.preview.columns)})"
        )
    if not block.tests:
        problems.append("no tests: add at least one assertion, e.g. tests { assert row_count > 0 }")
    problems.extend(f"test failed: {result.message}" for result in run.failures)
    return Verdict(not problems, problems, run)


def certify(
    block_name: str,
    library: BlockLibrary,
    runner: QueryRunner,
    *,
    by: str,
    now: dt.datetime | None = None,
    params: Mapping[str, Any] | None = None,
    metric_resolver: MetricResolver | None = None,
) -> Block:
    """Certify a block (a human act): verify it, record the certification, write the file.

    Raises UserError listing the problems when the block is not certifiable. Returns the
    block as re-read from the rewritten file.
    """
    block = library.require(block_name)
    if not by or not by.strip():
        raise UserError("Say who is certifying: certify(..., by='name@company.com').")
    verdict = certification_verdict(
        block, library, runner, params=params, metric_resolver=metric_resolver
    )
    if not verdict.certifiable or verdict.run is None:
        raise UserError(f"Cannot certify {block.name!r}:\n- " + "\n- ".join(verdict.problems))
    compiled = compile_block(block, library, metric_resolver=metric_resolver, require_params=False)
    tables = referenced_tables(compiled.sql)
    moment = now or dt.datetime.now(dt.UTC)
    record = Section(
        "certification",
        [
            Field("by", by.strip()),
            Field("at", moment.isoformat(timespec="seconds")),
            Field("sql_hash", sql_hash(compiled.sql)),
            Field("schema_fingerprint", runner.schema_fingerprint(tables)),
            Field("tables", list(tables)),
        ],
    )
    return library.update_block(
        block.name, fields={"status": str(BlockStatus.CERTIFIED)}, sections=[record]
    )


def certify_command(block_name: str) -> str:
    """The command a person runs to certify a block (what an unrecorded block's message says)."""
    return f'zlens certify "{block_name}" --by you@example.com'


def missing_record(block: Block) -> str | None:
    """Why a block that says `certified` has no certification record to back it, or None.

    >>> from zlens_jupyter.dql import parse_block
    >>> missing_record(parse_block('block "B" { status = "certified" }')).split(",")[:2]
    ['its file says certified', ' but there is no certification record (who']
    """
    if not block.is_certified:
        return None
    record = block.certification or {}
    absent = [name for name in RECORD_FIELDS if not record.get(name)]
    if not absent:
        return None
    what = (
        "there is no certification record (who, when, SQL hash, schema fingerprint)"
        if len(absent) == len(RECORD_FIELDS)
        else f"its certification record has no {', '.join(absent)}"
    )
    return f"its file says certified, but {what}; a person certifies it with: " + (
        certify_command(block.name)
    )


def check_drift(
    block: Block,
    library: BlockLibrary | None,
    runner: QueryRunner,
    *,
    metric_resolver: MetricResolver | None = None,
) -> str | None:
    """Why a certified block no longer matches its certification record, or None.

    Blocks that are not certified, or certified without a record (see `missing_record`), have
    nothing to compare against and return None.
    """
    record = block.certification
    if not block.is_certified or not record or missing_record(block):
        return None
    try:
        current_sql = _drift_sql(block, library, metric_resolver)
    except UserError as exc:
        return f"query no longer compiles: {exc}"
    recorded_hash = record.get("sql_hash")
    current_hash = sql_hash(current_sql)
    if recorded_hash != current_hash:
        return f"its SQL changed since certification ({recorded_hash} → {current_hash})"
    tables = record.get("tables")
    names = [str(t) for t in tables] if isinstance(tables, list) else referenced_tables(current_sql)
    try:
        current = runner.schema_fingerprint(names)
    except Exception as exc:  # a dropped table can make fingerprinting itself fail
        return f"the schema of {', '.join(names)} could not be read: {exc}"
    if current != record.get("schema_fingerprint"):
        return f"the schema of {', '.join(names) or 'the database'} changed since certification"
    return None


# The compiled SQL of self-contained blocks (no `@block` or `@metric` reference), by query text
# and dialect: the drift check runs on every certified answer, and such a block's SQL is a pure
# function of its text, so it is compiled once per text. A block composing others, or using a
# metric, depends on them too (they can change under it): it is compiled each time.
_SELF_CONTAINED_SQL: OrderedDict[tuple[str, str | None], str] = OrderedDict()
_SELF_CONTAINED_KEPT = 256


def _drift_sql(
    block: Block, library: BlockLibrary | None, metric_resolver: MetricResolver | None
) -> str:
    """The block's SQL as certification hashes it (parameters unbound)."""
    dialect = block.get("dialect")
    key = (block.query or "", dialect if isinstance(dialect, str) else None)
    known = _SELF_CONTAINED_SQL.get(key)
    if known is not None and block.query is not None:
        return known
    compiled = compile_block(block, library, metric_resolver=metric_resolver, require_params=False)
    query = block.query
    if query is not None and not compiled.blocks and not _uses_metrics(query):
        _SELF_CONTAINED_SQL[key] = compiled.sql
        while len(_SELF_CONTAINED_SQL) > _SELF_CONTAINED_KEPT:
            _SELF_CONTAINED_SQL.popitem(last=False)
    return compiled.sql


def _uses_metrics(query: str) -> bool:
    return any(ref.kind == "metric" for ref in find_references(query))


def refresh_certification(
    library: BlockLibrary,
    runner: QueryRunner,
    *,
    persist: bool = False,
    metric_resolver: MetricResolver | None = None,
) -> dict[str, str]:
    """Lower every block whose `certified` status nothing backs any more; {name: why}.

    A drifted block becomes `pending_recertification`; a block certified only by its file's
    word becomes `review` (nobody ever certified it, so there is nothing to re-certify). In
    memory unless `persist=True`, which writes the drifted statuses into the files (a block
    without a record keeps its file untouched: the user's text is theirs to fix).
    """
    lowered: dict[str, str] = {}
    for block in library.certified():
        unrecorded = missing_record(block)
        if unrecorded is not None:
            lowered[block.name] = unrecorded
            block.status = BlockStatus.REVIEW
            continue
        reason = check_drift(block, library, runner, metric_resolver=metric_resolver)
        if reason is None:
            continue
        lowered[block.name] = reason
        pending = str(BlockStatus.PENDING_RECERTIFICATION)
        if persist:
            library.update_block(block.name, fields={"status": pending})
        else:
            block.status = BlockStatus.PENDING_RECERTIFICATION
    library.lowered = dict(lowered)
    return lowered


# Memoized: a certified answer hashes the same block SQL on every ask (the drift check) and
# again in the renderer; sqlglot's parse + regenerate costs milliseconds each time. Pure in
# `sql`, so a stale entry is impossible; bounded, so memory is too. Kept on disk as well
# (see `disk_memo`): each `zlens ask` process checks every certified block for drift, and
# importing sqlglot alone costs ~0.2 s.
@functools.lru_cache(maxsize=1024)
def normalized_sql(sql: str) -> str:
    """SQL regenerated canonically: comments, whitespace and keyword/identifier case removed.

    >>> normalized_sql("select  A from T -- note") == normalized_sql("SELECT a\\nFROM t")
    True
    """
    from zlens_jupyter import disk_memo

    code, key = _normalizer_key(), disk_memo.input_key(sql)
    found = disk_memo.recall("normalized-sql", code, key)
    if found is None:
        found = _normalized_sql(sql)
        disk_memo.remember("normalized-sql", code, key, found)
    return found


@functools.cache
def _normalizer_key() -> str:
    """The code a normalized form depends on: this file and the sqlglot installed."""
    import importlib.util

    from zlens_jupyter import disk_memo

    spec = importlib.util.find_spec("sqlglot")
    return disk_memo.code_key(files=(__file__, spec.origin if spec else None))


def _normalized_sql(sql: str) -> str:
    import sqlglot  # on first use: `%load_ext` and block listing never need it
    from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
        return ";\n".join(
            normalize_identifiers(s, dialect="duckdb").sql(dialect="duckdb", comments=False)
            for s in statements
        )
    except sqlglot.errors.SqlglotError:
        # Not parseable by sqlglot (rare DuckDB syntax): fall back to whitespace folding.
        without_comments = re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql, flags=re.DOTALL)
        return " ".join(without_comments.split())


def sql_hash(sql: str) -> str:
    """`sha256:<hex>` of the normalized SQL."""
    return "sha256:" + hashlib.sha256(normalized_sql(sql).encode("utf-8")).hexdigest()


def referenced_tables(sql: str) -> list[str]:
    """Tables the SQL reads (as written, qualified if qualified), excluding CTE names.

    >>> referenced_tables("WITH x AS (SELECT * FROM flights) SELECT * FROM x JOIN main.airlines")
    ['flights', 'main.airlines']
    """
    import sqlglot
    from sqlglot import exp
    from sqlglot.optimizer.scope import traverse_scope

    sources = None
    for dialect in ("duckdb", "spark"):  # a block may be written in Spark SQL (backticks)
        try:
            tree = sqlglot.parse_one(sql, read=dialect)
            # Scopes tell a table from a CTE or subquery of the same name.
            sources = [src for scope in traverse_scope(tree) for src in scope.sources.values()]
            break
        except sqlglot.errors.SqlglotError:
            continue
    if sources is None:
        return []
    found: dict[str, str] = {}
    for table in sources:
        if not isinstance(table, exp.Table) or not isinstance(table.this, exp.Identifier):
            continue  # CTEs, subqueries and table functions such as read_csv(...)
        qualified = ".".join(p for p in (table.catalog, table.db, table.name) if p)
        found.setdefault(qualified.lower(), qualified)
    return sorted(found.values(), key=str.lower)


def _has(block: Block, name: str) -> bool:
    value = getattr(block, name)
    return bool(value)
