"""Checking SQL's table and column names against the catalog before it runs.

sqlglot's scope analysis says which tables, aliases, CTEs and derived tables each part of a
query can see; a name none of them has is reported with the nearest real names, so a
hallucinated `dep_dely` is repaired to `dep_delay` from a precise message rather than from
a database error. Where a name cannot be judged (a `*` from a derived table, a table
function, a DataFrame scan) the check stays silent rather than guess.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from zlens_jupyter.warehouse.guard import PATH_MARKS
from zlens_jupyter.warehouse.models import Catalog, IdentifierProblem

if TYPE_CHECKING:  # sqlglot is imported when a statement is first checked (~0.2 s)
    from sqlglot import exp
    from sqlglot.optimizer.scope import Scope

_OTHER_SCHEMAS = frozenset({"information_schema", "pg_catalog"})


def validate_identifiers(sql: str, catalog: Catalog) -> list[IdentifierProblem]:
    """Tables and columns in `sql` the catalog does not know, each with the nearest names.

    SQL that sqlglot cannot parse yields no problems: the database's own error, which comes
    next, says more than a guess here would.
    """
    import sqlglot
    from sqlglot import exp
    from sqlglot.optimizer.scope import traverse_scope

    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return []
    if tree is None:
        return []
    problems: list[IdentifierProblem] = []
    seen: set[tuple[str, str]] = set()

    def report(problem: IdentifierProblem) -> None:
        if (problem.kind, problem.name.lower()) not in seen:
            seen.add((problem.kind, problem.name.lower()))
            problems.append(problem)

    cte_names = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    for table in tree.find_all(exp.Table):
        if _is_catalog_reference(table, cte_names) and catalog.table(table.name) is None:
            nearest = nearest_names(table.name, list(catalog.tables), fallback=True)
            report(
                IdentifierProblem(
                    "table",
                    table.name,
                    nearest,
                    f"no table or view named {table.name}" + _did_you_mean(nearest),
                )
            )
    try:
        scopes = traverse_scope(tree)
    except (sqlglot.errors.SqlglotError, KeyError, ValueError):
        return problems
    for scope in scopes:
        for column in scope.columns:
            problem = _check_column(column, scope, catalog, cte_names)
            if problem:
                report(problem)
    return problems


def _is_catalog_reference(table: exp.Table, cte_names: set[str]) -> bool:
    """A plain `name` / `main.name` table, not a CTE, a function, a file or another schema."""
    from sqlglot import exp

    if not isinstance(table.this, exp.Identifier):
        return False
    if table.db and table.db.lower() in _OTHER_SCHEMAS:
        return False
    name = table.name
    return bool(name) and name.lower() not in cte_names and not any(m in name for m in PATH_MARKS)


def _check_column(
    column: exp.Column, scope: Scope, catalog: Catalog, cte_names: set[str]
) -> IdentifierProblem | None:
    from sqlglot import exp

    if isinstance(column.this, exp.Star):
        return None
    name = column.name
    if column.table:
        source = _find_source(scope, column.table)
        if source is None:
            # `s.field` may be a struct field of column `s`, not an alias: stay silent.
            return None
        known = _source_columns(source, catalog, cte_names)
        if known is None or name.lower() in {k.lower() for k in known}:
            return None
        where = source.name if isinstance(source, exp.Table) else column.table
        nearest = nearest_names(name, known)
        return IdentifierProblem(
            "column",
            f"{column.table}.{name}",
            nearest,
            f"column {name} not found in {where}" + _did_you_mean(nearest),
        )
    candidates: list[str] = []
    searched: list[str] = []
    current: Scope | None = scope
    while current is not None:  # an unqualified name may belong to an enclosing query
        if name.lower() in _select_aliases(current):
            return None
        for alias, (_node, source) in current.selected_sources.items():
            known = _source_columns(source, catalog, cte_names)
            if known is None:
                return None
            if name.lower() in {k.lower() for k in known}:
                return None
            candidates.extend(known)
            searched.append(source.name if isinstance(source, exp.Table) else alias)
        current = current.parent
    if not candidates:
        candidates = [c.name for t in catalog.tables.values() for c in t.columns]
    nearest = nearest_names(name, candidates)
    where = f" in {', '.join(dict.fromkeys(searched))}" if searched else ""
    return IdentifierProblem(
        "column", name, nearest, f"no column named {name}{where}" + _did_you_mean(nearest)
    )


def _find_source(scope: Scope, alias: str) -> exp.Table | Scope | None:
    from sqlglot import exp
    from sqlglot.optimizer.scope import Scope

    current: Scope | None = scope
    while current is not None:
        for key, source in current.sources.items():
            if key.lower() == alias.lower():
                return source if isinstance(source, exp.Table | Scope) else None
        current = current.parent
    return None


def _source_columns(source: object, catalog: Catalog, cte_names: set[str]) -> list[str] | None:
    """Column names a FROM source provides, or None when they cannot be known."""
    from sqlglot import exp
    from sqlglot.optimizer.scope import Scope

    if isinstance(source, Scope):
        expression = source.expression
        if not isinstance(expression, exp.Query):
            return None
        names = expression.named_selects
        return None if "*" in names or not names else list(names)
    if isinstance(source, exp.Table) and _is_catalog_reference(source, cte_names):
        table = catalog.table(source.name)
        # An unknown table is reported once as a table problem; its columns stay silent.
        return None if table is None else [c.name for c in table.columns]
    return None


def _select_aliases(scope: Scope) -> set[str]:
    from sqlglot import exp

    expression = scope.expression
    if not isinstance(expression, exp.Select):
        return set()
    return {e.alias.lower() for e in expression.expressions if isinstance(e, exp.Alias)}


def nearest_names(name: str, candidates: Iterable[str], *, fallback: bool = False) -> list[str]:
    by_lower = {c.lower(): c for c in candidates}
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=3, cutoff=0.6)
    if not close and fallback:
        close = difflib.get_close_matches(name.lower(), list(by_lower), n=3, cutoff=0.0)
    return [by_lower[c] for c in close]


def _did_you_mean(nearest: list[str]) -> str:
    return f"; did you mean {' or '.join(nearest)}?" if nearest else ""
