"""The guard knows the statement's own CTE names (issue 8, deliverable 4).

A composed block compiles `@block("Other")` to a CTE named `"block:Other"`; a table reference
that names a CTE in scope where it stands is that CTE, not a file. Anything else that looks
like a path is still a file, and each hole below is shown to read a real file in DuckDB, so
the refusal is not hypothetical.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.dql import Block
from zlens_jupyter.dql.parser import parse_block
from zlens_jupyter.dql.references import compile_block
from zlens_jupyter.warehouse import SQLGuardViolation, guard_read_only
from zlens_jupyter.warehouse.guard import SourcePolicy, _check_duckdb_tree, _check_sqlglot_tree

SECRET = 777  # the value in the file a hole would read

ALLOWED = [
    'WITH "block:Other" AS (SELECT 42 AS v) SELECT * FROM "block:Other"',
    'WITH "x.csv" AS (SELECT 42 AS v) SELECT * FROM "x.csv"',
    'WITH "x.csv" AS (SELECT 42 AS v), a AS (SELECT * FROM "x.csv") SELECT * FROM a',
    'WITH "x.csv" AS (SELECT 42 AS v) SELECT 1 AS v UNION ALL SELECT * FROM "x.csv"',
    'WITH "x.csv" AS (SELECT 42 AS v) SELECT * FROM (SELECT * FROM (SELECT * FROM "x.csv"))',
    'WITH "x.csv" AS (SELECT 42 AS v) SELECT (SELECT max(v) FROM "x.csv") AS v',
    'WITH "x.csv" AS MATERIALIZED (SELECT 42 AS v) FROM "x.csv"',
    'WITH "x.csv" AS (SELECT 42 AS v) '
    'SELECT * FROM (WITH b AS (SELECT * FROM "x.csv") SELECT * FROM b)',
    'WITH "block:A" AS (SELECT 42 AS v), "block:B" AS (SELECT * FROM "block:A") '
    'SELECT * FROM "block:B"',
]
# Allowed by DuckDB's tree (the recursive term sees its own CTE); sqlglot's second opinion
# does not model recursion and refuses it, which only errs on the safe side.
RECURSIVE = (
    'WITH RECURSIVE "x.csv" AS (SELECT 1 AS v UNION ALL SELECT v + 1 FROM "x.csv" WHERE v < 3) '
    'SELECT * FROM "x.csv"'
)

# Each reads the file x.csv in DuckDB: a name defined somewhere in the statement, but not in
# scope where it is used, or a CTE name that cannot shadow a file-reading function.
HOLES = [
    'SELECT * FROM "x.csv"',
    'WITH "y.csv" AS (SELECT 42 AS v) SELECT * FROM "x.csv"',
    # out of scope: defined inside a subquery, used beside it
    'SELECT * FROM (WITH "x.csv" AS (SELECT 42 AS v) SELECT * FROM "x.csv") a, "x.csv" b',
    'SELECT * FROM "x.csv" WHERE v NOT IN (WITH "x.csv" AS (SELECT 42 AS v) SELECT v FROM "x.csv")',
    'WITH a AS (WITH "x.csv" AS (SELECT 1 AS v) SELECT 1 AS v) SELECT * FROM a, "x.csv"',
    # a CTE's own body does not see itself, nor a CTE defined after it
    'WITH "x.csv" AS (SELECT * FROM "x.csv") SELECT * FROM "x.csv"',
    'WITH a AS (SELECT * FROM "x.csv"), "x.csv" AS (SELECT 42 AS v) SELECT * FROM a',
    # a recursive CTE sees itself only in its recursive term, not in its anchor
    'WITH RECURSIVE "x.csv" AS (SELECT v FROM "x.csv" UNION SELECT 1) SELECT * FROM "x.csv"',
]
# A CTE does not shadow a file-reading function (DuckDB's tree names the function and its
# literal path; sqlglot only lists table functions, so these are DuckDB's to refuse).
SHADOWS = [
    "WITH read_csv AS (SELECT 42 AS v) SELECT * FROM read_csv('x.csv')",
    "WITH \"x.csv\" AS (SELECT 42 AS v) SELECT * FROM read_csv('x.csv')",
]

# A qualified name is never a CTE reference (DuckDB reads it as the path "main.x.csv").
QUALIFIED = 'WITH "x.csv" AS (SELECT 42 AS v) SELECT * FROM main."x.csv"'


@pytest.fixture()
def in_folder_with_file(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "x.csv").write_text(f"v\n{SECRET}\n")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(here)


@pytest.mark.parametrize("sql", ALLOWED)
def test_a_reference_to_the_statements_own_cte_passes_and_reads_the_cte(
    sql: str, in_folder_with_file: Path
) -> None:
    statement = guard_read_only(sql)
    rows = duckdb.connect().execute(statement).fetchall()
    assert SECRET not in [v for row in rows for v in row]


@pytest.mark.parametrize("sql", HOLES + SHADOWS)
def test_a_path_name_that_is_not_a_cte_in_scope_is_still_a_file(
    sql: str, in_folder_with_file: Path
) -> None:
    # The hole is real: DuckDB itself reads the file here.
    rows = duckdb.connect().execute(sql).fetchall()
    assert SECRET in [v for row in rows for v in row]
    with pytest.raises(SQLGuardViolation) as caught:
        guard_read_only(sql)
    assert caught.value.rule == "file-access"


@pytest.mark.parametrize("sql", HOLES + [QUALIFIED])
@pytest.mark.parametrize("parser", ["duckdb", "sqlglot"])
def test_each_parser_refuses_the_holes_on_its_own(sql: str, parser: str) -> None:
    # Two independent opinions: neither may rely on the other to catch a scope mistake.
    check = _check_duckdb_tree if parser == "duckdb" else _check_sqlglot_tree
    with pytest.raises(SQLGuardViolation):
        check(sql, SourcePolicy(()))


@pytest.mark.parametrize("sql", SHADOWS)
def test_a_cte_named_like_a_file_function_does_not_hide_the_function(sql: str) -> None:
    with pytest.raises(SQLGuardViolation) as caught:
        _check_duckdb_tree(sql, SourcePolicy(()))
    assert "read_csv() would read 'x.csv'" in str(caught.value)


@pytest.mark.parametrize("sql", ALLOWED)
@pytest.mark.parametrize("parser", ["duckdb", "sqlglot"])
def test_each_parser_accepts_the_statements_own_ctes(sql: str, parser: str) -> None:
    check = _check_duckdb_tree if parser == "duckdb" else _check_sqlglot_tree
    check(sql, SourcePolicy(()))


def test_a_recursive_term_may_name_its_own_cte() -> None:
    _check_duckdb_tree(RECURSIVE, SourcePolicy(()))


def test_a_qualified_name_is_refused(in_folder_with_file: Path) -> None:
    with pytest.raises(SQLGuardViolation):
        guard_read_only(QUALIFIED)


def test_a_compiled_composed_block_passes_the_guard() -> None:
    library = {
        "other": parse_block('block "Other" { query = "SELECT 1 AS a, 2 AS b" }'),
        "middle": parse_block(
            'block "Middle" { query = """SELECT a, b FROM @block("Other") WHERE a > 0""" }'
        ),
    }
    top = parse_block(
        'block "Top" { query = """WITH m AS (SELECT * FROM @block("Middle"))\n'
        'SELECT m.a + o.b AS total FROM m JOIN @block("Other") o ON true""" }'
    )

    class Library:
        def get(self, name: str) -> Block | None:
            return library.get(name.lower())

    compiled = compile_block(top, Library())
    assert '"block:Other"' in compiled.sql and '"block:Middle"' in compiled.sql
    statement = guard_read_only(compiled.sql)
    assert duckdb.connect().execute(statement).fetchall() == [(3,)]
