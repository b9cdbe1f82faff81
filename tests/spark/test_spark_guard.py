"""The read-only guard on Spark: hostile Spark SQL is refused by rule and nothing runs; the
DuckDB hostile corpus, transpiled, runs nothing either; benign queries pass."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from zlens_jupyter.errors import GuardrailViolation, QueryError
from zlens_jupyter.warehouse.guard import SQLGuardViolation
from zlens_jupyter.warehouse.spark import SparkWarehouse
from zlens_jupyter.warehouse.spark.guard import guard_spark_plan

HERE = Path(__file__).parent
HARMLESS_ON_SPARK = ("version()", "lower(")
HOSTILE = yaml.safe_load((HERE / "hostile_spark_sql.yml").read_text(encoding="utf-8"))
DUCKDB_HOSTILE = yaml.safe_load(
    (HERE.parent / "warehouse" / "hostile_sql.yml").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def victim(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    """A Spark database with an `accounts` table, next to a scratch folder with a secret."""
    scratch = tmp_path_factory.mktemp("spark_scratch")
    (scratch / "secret.csv").write_text("id,owner,balance\n1,eve,5\n")
    session = spark.newSession()
    session.sql("CREATE DATABASE IF NOT EXISTS victim")
    session.catalog.setCurrentDatabase("victim")
    session.sql(
        "CREATE TABLE IF NOT EXISTS accounts USING parquet AS "
        "SELECT * FROM VALUES (1, 'ann', 10.0), (2, 'bob', 20.0) AS t(id, owner, balance)"
    )
    yield session, scratch


def _executions(session: Any) -> int:
    return int(session._jsparkSession.sharedState().statusStore().executionsCount())


def _state(session: Any, scratch: Path) -> tuple[Any, ...]:
    return (
        sorted(t.name for t in session.catalog.listTables()),
        sorted(d.name for d in session.catalog.listDatabases()),
        session.conf.get("spark.sql.ansi.enabled"),
        sorted(p.name for p in scratch.iterdir()),
    )


def test_the_spark_corpus_is_big_enough() -> None:
    assert len(HOSTILE) >= 70
    assert {e["rule"] for e in HOSTILE} >= {
        "single-statement",
        "select-only",
        "file-access",
        "forbidden-function",
        "table-function",
        "no-writes-in-query",
    }


def test_hostile_spark_sql_is_refused_by_rule_and_nothing_runs(victim: Any) -> None:
    session, scratch = victim
    warehouse = SparkWarehouse(session, written_in="spark")
    before, runs = _state(session, scratch), _executions(session)
    for entry in HOSTILE:
        sql = entry["sql"].replace("{tmp}", str(scratch))
        with pytest.raises((GuardrailViolation, QueryError)) as refused:
            warehouse.preview(sql)
        if entry["rule"] == "query-error":
            assert not isinstance(refused.value, GuardrailViolation), sql
        else:
            assert isinstance(refused.value, SQLGuardViolation), sql
            assert refused.value.rule == entry["rule"], (sql, str(refused.value))
    assert _executions(session) == runs  # Spark never executed (nor analysed) any of them
    assert _state(session, scratch) == before
    assert session.sql("SELECT count(*) FROM accounts").collect()[0][0] == 2


def test_the_duckdb_corpus_transpiled_runs_nothing_on_spark(victim: Any) -> None:
    """ZLens's own DuckDB-dialect attacks, read as house SQL and transpiled to Spark: each is
    refused by the guard, or (a DuckDB-only function Spark does not know) fails Spark's
    analysis; no job runs and nothing changes."""
    session, scratch = victim
    warehouse = SparkWarehouse(session)
    jobs = session.sparkContext.statusTracker()
    before = _state(session, scratch)
    refused = failed = 0
    ran: list[str] = []
    for entry in DUCKDB_HOSTILE:
        sql = entry["sql"].replace("{tmp}", str(scratch))
        try:
            warehouse.guard(sql)
        except (GuardrailViolation, QueryError):
            refused += 1
            continue
        group_before = set(jobs.getJobIdsForGroup(None) or [])
        try:
            warehouse.preview(sql, timeout_s=10)
        except QueryError:
            failed += 1
        else:
            ran.append(sql)
        assert set(jobs.getJobIdsForGroup(None) or []) == group_before, sql
    # DuckDB refuses these by its own allow-list; on Spark they are harmless built-ins.
    assert [s for s in ran if not any(f in s for f in HARMLESS_ON_SPARK)] == []
    assert refused + failed + len(ran) == len(DUCKDB_HOSTILE)
    assert refused > 0.5 * len(DUCKDB_HOSTILE)  # the rest fail Spark's analysis: never run
    assert _state(session, scratch) == before
    assert session.sql("SELECT count(*) FROM accounts").collect()[0][0] == 2


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT owner, balance FROM accounts ORDER BY balance DESC",
        "WITH t AS (SELECT * FROM accounts) SELECT count(*) AS n FROM t",
        "SELECT a.owner FROM accounts a JOIN accounts b ON a.id = b.id",
        "SELECT id FROM accounts UNION ALL SELECT id FROM range(3)",
        "SELECT explode(array(1, 2)) AS x",
        "SELECT owner FROM accounts WHERE id IN (SELECT id FROM accounts WHERE balance > 5)",
        "SELECT 'DROP TABLE accounts; --' AS text",
    ],
)
def test_benign_spark_sql_passes_and_runs(victim: Any, sql: str) -> None:
    session, _ = victim
    warehouse = SparkWarehouse(session, written_in="spark")
    assert warehouse.guard(sql) == sql
    assert warehouse.preview(sql).row_count >= 1


@pytest.mark.parametrize(
    ("sql", "rule", "says"),
    [
        ("SET spark.sql.ansi.enabled = false", "select-only", "SetCommand"),
        ("CACHE TABLE accounts", "select-only", "CacheTable"),
        ("ADD JAR /tmp/evil.jar", "select-only", "AddJarsCommand"),
        ("INSERT INTO accounts SELECT * FROM accounts", "select-only", "InsertIntoStatement"),
        ("SELECT * FROM csv.`/etc/passwd`", "file-access", "csv"),
        ("SELECT 1 WHERE 1 IN (SELECT reflect('a', 'b'))", "forbidden-function", "reflect"),
        ("SELECT TRANSFORM(id) USING 'cat' AS (x) FROM accounts", "select-only", "Script"),
    ],
)
def test_sparks_own_parser_refuses_on_its_own(victim: Any, sql: str, rule: str, says: str) -> None:
    """The second, independent reading: Spark's parser and plan, without sqlglot."""
    session, _ = victim
    with pytest.raises(SQLGuardViolation) as refused:
        guard_spark_plan(session, sql)
    assert refused.value.rule == rule
    assert says in str(refused.value)
