"""Issue 12, deliverable 1: one named test per problem (each failed on the old guard), the
allow-list itself, the locked-down connection, and legitimate analytics SQL that must keep
working."""

from __future__ import annotations

import time
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.errors import GuardrailViolation, QueryError, ZLensError
from zlens_jupyter.warehouse import SQLGuardViolation, Warehouse, guard_read_only
from zlens_jupyter.warehouse.connection import bounded_cursor
from zlens_jupyter.warehouse.guard import FORBIDDEN_FUNCTIONS, allowed_functions

HERE = Path(__file__).parent
LEGITIMATE = [
    line
    for line in (HERE / "legitimate_sql.txt").read_text().splitlines()
    if line.strip() and not line.startswith("--")
]
SECRET = "s3cret-proxy-pw"


@pytest.fixture
def user(canary_path: Path) -> duckdb.DuckDBPyConnection:
    """The user's read-write connection with a credential in its settings."""
    con = duckdb.connect(str(canary_path))
    con.execute(f"SET http_proxy_password = '{SECRET}'")
    return con


# --- problem 1: settings and file paths leak through system catalogs -------------------


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT name, setting FROM pg_catalog.pg_settings WHERE name = 'http_proxy_password'",
        "SELECT * FROM pg_settings",
        "SELECT json_serialize_plan('SELECT current_setting(''http_proxy_password'')')",
        "SELECT json_serialize_sql('SELECT 1')",
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
        "SELECT * FROM pragma_database_list",
        "SELECT path FROM duckdb_databases()",
        "SELECT * FROM duckdb_databases",
        "SELECT * FROM duckdb_logs",
        "SELECT * FROM duckdb_settings()",
        "SELECT getvariable('x')",
    ],
)
def test_problem_1_settings_and_paths_never_leak(user: duckdb.DuckDBPyConnection, sql: str) -> None:
    warehouse = Warehouse.connect(user)
    with pytest.raises(GuardrailViolation) as refused:
        warehouse.preview(sql)
    assert SECRET not in str(refused.value)
    # The leak was real: the same SQL on the user's connection shows the secret or a path.
    if "pg_settings" in sql or "duckdb_settings" in sql:
        assert SECRET in str(user.execute(sql).fetchall())


# --- problem 2: state-changing functions on a user's read-write connection ------------


def test_problem_2_setval_commits_nothing_on_a_users_read_write_database(
    user: duckdb.DuckDBPyConnection, canary_path: Path
) -> None:
    warehouse = Warehouse.connect(user)
    for sql in ("SELECT setval('seq', 5000000)", "SELECT nextval('seq')", "SELECT setseed(0.1)"):
        with pytest.raises(GuardrailViolation, match="forbidden-function"):
            warehouse.preview(sql)
    # Defence in depth: even SQL that skipped the guard runs in a read-only transaction.
    with (
        bounded_cursor(user, 5.0) as (cursor, _),
        pytest.raises(duckdb.Error, match="read-only"),
    ):
        cursor.execute("SELECT setval('seq', 5000000)")
    user.execute("INSERT INTO items (label) VALUES ('next')")
    assert user.execute("SELECT max(id) FROM items").fetchone() == (2,)
    user.close()
    reopened = duckdb.connect(str(canary_path))
    assert reopened.execute("SELECT nextval('seq')").fetchone() == (3,)  # on disk too
    reopened.close()


# --- problem 3: "offline" SQL reaching for an extension -------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT '127.0.0.1'::INET",
        "SELECT CAST('10.0.0.1' AS INET)",
        "SELECT INET '10.0.0.1'",
        "SELECT TRY_CAST(owner AS INET) FROM accounts",
        "SELECT NULL::INET[]",
    ],
)
def test_problem_3_an_extension_type_is_refused_before_duckdb_sees_it(sql: str) -> None:
    with pytest.raises(SQLGuardViolation) as refused:
        guard_read_only(sql)
    assert refused.value.rule == "extension-type"


def test_problem_3_a_private_database_cannot_load_or_install_anything(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    warehouse.preview("SELECT 1")
    con = warehouse.connection
    settings = dict(
        con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('lock_configuration', "
            "'autoload_known_extensions', 'autoinstall_known_extensions', "
            "'enable_external_access')"
        ).fetchall()
    )
    assert settings == {
        "lock_configuration": "true",
        "autoload_known_extensions": "false",
        "autoinstall_known_extensions": "false",
        "enable_external_access": "false",
    }
    # Even SQL that skipped the guard: no download, no load, no way to unlock.
    with pytest.raises(duckdb.Error, match="inet extension"):
        con.execute("SELECT '127.0.0.1'::INET").fetchall()
    with pytest.raises(duckdb.Error, match="locked"):
        con.execute("SET autoinstall_known_extensions = true")
    warehouse.close()


# --- problem 4: a stored view reading local files ---------------------------------------


def test_problem_4_a_view_reading_a_file_is_refused_and_never_sampled(
    canary_path: Path, scratch: Path
) -> None:
    warehouse = Warehouse.connect(canary_path)
    catalog = warehouse.catalog()
    for name in ("file_view", "nested_view", "setting_view", "settings_catalog_view"):
        view = catalog.tables[name]
        assert view.row_count == -1
        assert all(not c.distinct_values for c in view.columns), name
        with pytest.raises(SQLGuardViolation) as refused:
            warehouse.preview(f"SELECT * FROM {name}")
        assert refused.value.rule == "view"
    # Tables are still profiled; the file's contents ("eve") are nowhere in catalog data.
    accounts = catalog.tables["accounts"]
    assert accounts.row_count == 2
    assert accounts.column("owner").distinct_values == ("alice", "bob")
    assert "eve" not in repr(catalog)
    assert warehouse.probe_values("what did eve spend") == []
    warehouse.close()


def test_a_view_over_tables_is_still_readable_and_sampled(nyc: Warehouse) -> None:
    view = nyc.catalog().tables["long_delays"]
    assert view.row_count > 0
    assert nyc.preview("SELECT count(*) FROM long_delays").rows[0][0] == view.row_count


# --- problem 10 (SQL part): UPDATE EXTENSIONS and deep nesting --------------------------


@pytest.mark.parametrize("sql", ["UPDATE EXTENSIONS", "update extensions (inet)"])
def test_update_extensions_is_one_clear_violation(sql: str) -> None:
    with pytest.raises(SQLGuardViolation) as refused:
        guard_read_only(sql)
    assert refused.value.rule == "select-only"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT " + "(" * 5000 + "1" + ")" * 5000,
        "SELECT " + "(" * 900 + "1" + ")" * 900,  # under DuckDB's limit, past Python's
        "SELECT " + "(SELECT " * 2000 + "1" + ")" * 2000,
        "SELECT * FROM " + "(SELECT * FROM " * 600 + "accounts" + ") s" * 600,
        "SELECT " + "NOT " * 5000 + "true",
        "SELECT " + "CASE WHEN true THEN " * 3000 + "1" + " END" * 3000,
        "SELECT (" * 4000,
    ],
    ids=["parens", "parens-900", "subqueries", "from-subqueries", "not", "case", "unclosed"],
)
def test_deeply_nested_sql_is_one_clear_error_quickly(sql: str, canary_path: Path) -> None:
    started = time.perf_counter()
    with pytest.raises(ZLensError) as refused:
        guard_read_only(sql)
    assert isinstance(refused.value, GuardrailViolation | QueryError)
    warehouse = Warehouse.connect(canary_path)
    with pytest.raises(ZLensError):
        warehouse.preview(sql)
    warehouse.close()
    assert time.perf_counter() - started < 5


# --- the allow-list itself --------------------------------------------------------------


def test_the_allow_list_keeps_analytics_and_drops_side_effects() -> None:
    allowed = allowed_functions()
    assert {"sum", "avg", "row_number", "regexp_matches", "date_trunc", "list_sort"} <= allowed
    assert {"strftime", "split_part", "if", "unnest", "random"} <= allowed
    assert not allowed & set(FORBIDDEN_FUNCTIONS)
    flagged = {
        name
        for (name,) in duckdb.connect()
        .execute("SELECT function_name FROM duckdb_functions() WHERE has_side_effects")
        .fetchall()
    }
    # The only side-effect-flagged functions allowed are the volatile value makers.
    assert allowed & flagged <= {"random", "uuid", "uuidv4", "uuidv7", "gen_random_uuid"}
    assert not {n for n in allowed if n.startswith(("pragma_", "duckdb_", "__internal"))}


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT pg_catalog.pg_get_viewdef(1)",  # DuckDB has it, in pg_catalog: not allowed
        "SELECT memory.main.upper('x')",  # qualified into a database: maybe a user macro
        "SELECT current_query()",
        "SELECT sleep_ms(10)",
    ],
)
def test_a_known_function_not_on_the_allow_list_is_a_violation(sql: str) -> None:
    with pytest.raises(SQLGuardViolation) as refused:
        guard_read_only(sql)
    assert refused.value.rule in {"function-not-allowed", "forbidden-function"}


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT avgg(dep_delay) FROM flights",  # a typo
        "SELECT my_macro(1)",  # a user macro: its body is not the guard's to see
        "SELECT st_point(1, 2)",  # an extension's function
        "SELECT сurrent_setting('x')",  # Cyrillic 'с': no such function
    ],
)
def test_a_function_duckdb_does_not_have_is_its_kind_of_error(sql: str) -> None:
    # Not on the list, so not run; but the class is DuckDB's own "does not exist", so a
    # typo stays repairable from the suggestion, as it was when DuckDB raised it.
    with pytest.raises(QueryError, match="does not exist") as refused:
        guard_read_only(sql)
    assert not isinstance(refused.value, GuardrailViolation)


def test_a_typo_gets_duckdbs_suggestion() -> None:
    with pytest.raises(QueryError, match='Did you mean "avg"'):
        guard_read_only("SELECT avgg(1)")


def test_a_users_own_enum_type_may_be_cast_to(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    assert warehouse.preview("SELECT 'ok'::mood AS m").rows == [("ok",)]
    warehouse.close()
    with pytest.raises(SQLGuardViolation, match="extension-type"):
        guard_read_only("SELECT 'ok'::mood")  # without the database, it is unknown


# --- the user's own connection keeps its settings ----------------------------------------


def test_a_users_connection_keeps_its_settings_and_its_freedom(
    user: duckdb.DuckDBPyConnection, scratch: Path
) -> None:
    def settings() -> list[tuple[str, str]]:
        return user.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('lock_configuration', "
            "'autoload_known_extensions', 'autoinstall_known_extensions', "
            "'enable_external_access', 'threads', 'http_proxy_password') ORDER BY 1"
        ).fetchall()

    before = settings()
    warehouse = Warehouse.connect(user)
    assert not warehouse.is_private
    warehouse.catalog()
    assert warehouse.preview("SELECT count(*) FROM accounts").rows == [(2,)]
    assert settings() == before
    # They can still change settings, read their files and write their tables.
    user.execute("SET threads = 1")
    assert user.execute(f"SELECT owner FROM read_csv('{scratch}/secret.csv')").fetchall()
    user.execute("INSERT INTO accounts VALUES (3, 'carol', 1)")
    assert warehouse.preview("SELECT count(*) FROM accounts").rows == [(3,)]


def test_a_source_registered_after_the_lock_reopens_and_reads(
    canary_path: Path, scratch: Path
) -> None:
    warehouse = Warehouse.connect(canary_path)
    warehouse.preview("SELECT 1")  # locked now
    secret = scratch / "secret.csv"
    warehouse.allow_source(str(secret))
    assert warehouse.preview(f"SELECT owner FROM read_csv('{secret}')").rows == [("eve",)]
    # Only that file: DuckDB itself refuses any other, even for SQL that skipped the guard.
    (scratch / "other.csv").write_text("x\n1\n")
    with pytest.raises(duckdb.Error, match="disabled by configuration"):
        warehouse.connection.execute(f"SELECT * FROM read_csv('{scratch}/other.csv')")
    warehouse.close()


# --- legitimate analytics SQL keeps working ----------------------------------------------


def test_there_are_enough_legitimate_queries() -> None:
    assert len(LEGITIMATE) >= 40


@pytest.mark.parametrize("sql", LEGITIMATE, ids=[f"ok{i:02d}" for i in range(len(LEGITIMATE))])
def test_legitimate_analytics_sql_passes_and_runs(sql: str, nyc: Warehouse) -> None:
    assert nyc.guard(sql) in sql
    preview = nyc.preview(sql, limit=5)
    assert preview.columns


def test_a_file_zlens_opened_stays_the_users_to_open_too(canary_path: Path, scratch: Path) -> None:
    """ZLens's locked instance is its own: the user opening the same file read-only in the
    same process gets an ordinary connection (settings, file reads, replacement scans)."""
    warehouse = Warehouse.connect(canary_path)
    warehouse.preview("SELECT 1")
    assert warehouse.is_private
    mine = duckdb.connect(str(canary_path), read_only=True)
    assert mine.execute("SELECT current_setting('lock_configuration')").fetchone() == (False,)
    mine.execute("SET threads = 2")
    assert mine.execute(f"SELECT count(*) FROM read_csv('{scratch}/secret.csv')").fetchone()
    assert warehouse.preview("SELECT count(*) FROM accounts").rows == [(2,)]
    mine.close()
    warehouse.close()


def test_a_macro_shadowing_a_built_in_is_refused_and_stops_sampling(hostile_path: Path) -> None:
    user = duckdb.connect(str(hostile_path))
    user.execute(f"SET http_proxy_password = '{SECRET}'")
    assert user.execute("SELECT lower('A')").fetchone() == (SECRET,)  # the hole is real
    warehouse = Warehouse.connect(user)
    with pytest.raises(SQLGuardViolation, match="defined in this database"):
        warehouse.preview("SELECT lower(owner) FROM accounts")
    with pytest.raises(SQLGuardViolation, match="defined in this database"):
        warehouse.preview("SELECT tidy(1)")
    # The catalog scan's own SQL could call a shadowed built-in: nothing is sampled.
    catalog = warehouse.catalog()
    assert catalog.tables["accounts"].row_count == -1
    assert SECRET not in repr(catalog)
    user.close()
