"""The read-only guard as a pure function: hostile corpus, benign corpus, a property test."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zlens_jupyter.errors import GuardrailViolation, QueryError
from zlens_jupyter.warehouse import SQLGuardViolation, guard_read_only

HERE = Path(__file__).parent
HOSTILE: list[dict[str, str]] = yaml.safe_load((HERE / "hostile_sql.yml").read_text())
BENIGN: list[str] = yaml.safe_load((HERE / "benign_sql.yml").read_text())


def test_the_corpora_are_big_enough() -> None:
    assert len(HOSTILE) >= 500
    assert len(BENIGN) >= 20


# Entries with `scope: database` name views stored in the victim database: only a guard that
# sees the database can judge them (test_guard_on_real_database runs them).
TEXT_ONLY = [e for e in HOSTILE if e.get("scope") != "database"]


@pytest.mark.parametrize("entry", TEXT_ONLY, ids=[f"h{i:04d}" for i in range(len(TEXT_ONLY))])
def test_hostile_statement_is_rejected_naming_its_rule(entry: dict[str, str]) -> None:
    sql = entry["sql"].replace("{tmp}", "/tmp/zlens-scratch")
    if entry["rule"] == "query-error":  # DuckDB-style error (parse, unknown name): not run
        with pytest.raises(QueryError) as refused:
            guard_read_only(sql)
        assert not isinstance(refused.value, GuardrailViolation)
        return
    with pytest.raises(GuardrailViolation) as caught:
        guard_read_only(sql)
    assert isinstance(caught.value, SQLGuardViolation)
    assert caught.value.rule == entry["rule"]
    assert f"[{entry['rule']}]" in str(caught.value)


@pytest.mark.parametrize("sql", BENIGN, ids=[f"b{i:03d}" for i in range(len(BENIGN))])
def test_benign_query_passes_as_one_select(sql: str) -> None:
    statement = guard_read_only(sql)
    assert statement in sql
    parsed = duckdb.connect().extract_statements(statement)
    assert [s.type for s in parsed] == [duckdb.StatementType.SELECT]


def test_outer_comments_and_semicolons_are_stripped_inner_text_kept() -> None:
    assert guard_read_only("SELECT 1; -- DROP TABLE t") == "SELECT 1"
    assert guard_read_only("/* a */ SELECT 'x;--' AS s ;; /* b */") == "SELECT 'x;--' AS s"
    inner = "SELECT a -- keep me\nFROM t"
    assert guard_read_only(inner) == inner


def test_non_ascii_text_is_normalized_by_characters_not_bytes() -> None:
    sql = "SELECT 'café ☕ 日本' AS s, 'ü' AS t; -- trailing ü"
    assert guard_read_only(sql) == "SELECT 'café ☕ 日本' AS s, 'ü' AS t"
    assert guard_read_only("/* é */ SELECT 'naïve' AS w -- done") == "SELECT 'naïve' AS w"


def test_unparseable_sql_is_a_query_error_not_a_violation() -> None:
    # A syntax error is repairable; it must not be classed as a policy violation.
    with pytest.raises(QueryError) as caught:
        guard_read_only("SELECT 1 /* never closed")
    assert not isinstance(caught.value, GuardrailViolation)
    assert "unterminated" in str(caught.value)


def test_empty_sql_is_rejected() -> None:
    with pytest.raises(SQLGuardViolation, match="single-statement"):
        guard_read_only("  ; -- nothing here\n")


def test_a_registered_file_may_be_read(tmp_path: Path) -> None:
    data = tmp_path / "sales.csv"
    data.write_text("a\n1\n")
    sql = f"SELECT * FROM read_csv('{data}')"
    with pytest.raises(SQLGuardViolation, match="file-access"):
        guard_read_only(sql)
    assert guard_read_only(sql, [str(data)]) == sql
    assert guard_read_only(f"FROM '{data}'", [str(data)]) == f"FROM '{data}'"


def test_a_registered_folder_allows_files_inside_but_not_escapes(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    allowed = [str(folder) + "/"]
    assert guard_read_only(f"SELECT * FROM read_parquet('{folder}/x/*.parquet')", allowed)
    with pytest.raises(SQLGuardViolation, match="file-access"):
        guard_read_only(f"SELECT * FROM read_text('{folder}/../secret.txt')", allowed)
    with pytest.raises(SQLGuardViolation, match="file-access"):
        guard_read_only(
            f"SELECT * FROM read_parquet(['{folder}/a.parquet', '/etc/passwd'])", allowed
        )


def test_a_registered_url_is_matched_exactly() -> None:
    url = "https://data.example/sales.parquet"
    assert guard_read_only(f"SELECT * FROM read_parquet('{url}')", [url])
    with pytest.raises(SQLGuardViolation, match="file-access"):
        guard_read_only("SELECT * FROM read_parquet('https://data.example/other.parquet')", [url])


def test_allowing_a_file_does_not_allow_forbidden_functions_next_to_it(tmp_path: Path) -> None:
    data = tmp_path / "ok.csv"
    data.write_text("a\n1\n")
    with pytest.raises(SQLGuardViolation, match="forbidden-function"):
        guard_read_only(f"SELECT getenv('HOME') FROM read_csv('{data}')", [str(data)])


# --- property: whatever the guard accepts, DuckDB sees as exactly one SELECT --------------

_FRAGMENTS = [
    "SELECT",
    "1",
    "*",
    "FROM",
    "flights",
    "t",
    "WHERE",
    "a",
    "=",
    "'x'",
    "';'",
    "'--'",
    ";",
    "--",
    "/*",
    "*/",
    "\n",
    " ",
    ",",
    "(",
    ")",
    "WITH",
    "x",
    "AS",
    "DROP",
    "TABLE",
    "DELETE",
    "INSERT",
    "INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "COPY",
    "TO",
    "'/tmp/o.csv'",
    "ATTACH",
    "PRAGMA",
    "CALL",
    "read_csv('/etc/passwd')",
    "range(3)",
    "getenv('HOME')",
    "UNION",
    "ALL",
    "RETURNING",
    "LIMIT",
    "'/etc/passwd'",
    "query('DROP TABLE t')",
    "EXPLAIN",
    "DESCRIBE",
    "LOAD",
    "INSTALL",
    "httpfs",
    "CHECKPOINT",
    "glob('*')",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=14).map(" ".join))
def test_anything_accepted_is_a_single_select(sql: str) -> None:
    try:
        statement = guard_read_only(sql)
    except (GuardrailViolation, QueryError):
        return
    assert statement in sql  # normalizing only trims; it never rewrites
    con = duckdb.connect()
    for text in (sql, statement):
        assert [s.type for s in con.extract_statements(text)] == [duckdb.StatementType.SELECT]
    # No dangerous function is called anywhere in DuckDB's own tree of the statement. (Text
    # search is no oracle: in `FROM flights query('x')`, `query` is an alias, not a call.)
    assert not called_functions(con, statement) & {"read_csv", "getenv", "query", "glob"}


def called_functions(con: duckdb.DuckDBPyConnection, statement: str) -> set[str]:
    """Every function name in DuckDB's serialized parse tree of `statement`."""
    (tree,) = con.execute("SELECT json_serialize_sql(?)", [statement]).fetchone()  # type: ignore[misc]
    names: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("function_name"), str):
                names.add(node["function_name"].lower())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(tree))
    return names


def test_the_oracle_sees_calls_and_not_aliases() -> None:
    con = duckdb.connect()
    assert called_functions(con, "FROM query('SELECT 1')") == {"query"}
    assert called_functions(con, "SELECT upper(getenv('HOME'))") == {"upper", "getenv"}
    assert called_functions(con, "FROM flights query('DROP TABLE t')") == set()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_arbitrary_text_never_slips_through_as_a_non_select(sql: str) -> None:
    try:
        statement = guard_read_only(sql)
    except (GuardrailViolation, QueryError):
        return
    assert statement in sql
    parsed = duckdb.connect().extract_statements(statement)
    assert [s.type for s in parsed] == [duckdb.StatementType.SELECT]


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        # Lone surrogates (category Cs) are not encodable text; they have their own test.
        alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
        max_size=40,
    )
)
def test_any_string_literal_survives_normalization(text: str) -> None:
    literal = "'" + text.replace("'", "''") + "'"
    assert guard_read_only(f"SELECT {literal} AS s; -- bye") == f"SELECT {literal} AS s"


@pytest.mark.parametrize("bad", ["\ud800", "ok \udfff then"])
def test_a_lone_surrogate_is_one_clear_query_error(bad: str) -> None:
    with pytest.raises(QueryError, match="not valid Unicode at position"):
        guard_read_only(f"SELECT '{bad}' AS s")
