"""Starting a SparkSession for the command line: `zlens ask ... --spark local[2]`.

In a notebook you pass your own SparkSession; on the command line ZLens builds one from a
master URL (`local[2]`, `spark://host:7077`, `yarn`) and finds the tables in one of two ways:

- `--spark-tables DIR`: every `NAME.parquet` file or `NAME/` folder of Parquet files in DIR
  becomes a temporary view `NAME` (nothing is written anywhere);
- `--spark-warehouse DIR` (with `--spark-database NAME`): the tables a Spark warehouse
  directory holds (`spark.sql.warehouse.dir`, as `saveAsTable` lays it out: `DIR/TABLE/` for
  the default database, `DIR/NAME.db/TABLE/` for another). With a metastore that already
  knows the database (spark-defaults.conf on a cluster), its catalog is used as it is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from zlens_jupyter.errors import ConfigError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def start_spark(
    master: str,
    *,
    tables: str | Path | None = None,
    warehouse: str | Path | None = None,
    database: str | None = None,
) -> Any:
    """A SparkSession on `master` with the tables found (see the module's docstring)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise ConfigError(
            "--spark needs PySpark: pip install 'zlens-jupyter[spark]' (and Java 17+)"
        ) from None
    builder = SparkSession.builder.master(master).appName("zlens")
    builder = builder.config("spark.ui.showConsoleProgress", "false")
    if master.startswith("local"):  # one machine: small shuffles, no web UI port
        builder = builder.config("spark.sql.shuffle.partitions", "4")
        builder = builder.config("spark.ui.enabled", "false")
    if warehouse is not None:
        builder = builder.config("spark.sql.warehouse.dir", str(Path(warehouse).resolve()))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    if database and spark.catalog.databaseExists(database):
        spark.catalog.setCurrentDatabase(database)
    elif tables is None and warehouse is not None:
        # No metastore knows these tables: read them from the directory layout.
        folder = Path(warehouse)
        tables = folder / f"{database}.db" if database and database != "default" else folder
    if tables is not None:
        register_parquet_folder(spark, Path(tables))
    return spark


def register_parquet_folder(spark: Any, folder: Path) -> list[str]:
    """Each `NAME.parquet` file or `NAME/` folder in `folder` as temporary view `NAME`."""
    if not folder.is_dir():
        raise ConfigError(f"--spark-tables {folder}: no such folder")
    names: list[str] = []
    for path in sorted(folder.iterdir()):
        name = path.stem if path.suffix == ".parquet" else path.name
        is_table = path.suffix == ".parquet" or (path.is_dir() and any(path.glob("*.parquet")))
        if not is_table or not _NAME.match(name):
            continue
        spark.read.parquet(str(path)).createOrReplaceTempView(name)
        names.append(name)
    if not names:
        raise ConfigError(f"--spark-tables {folder}: no NAME.parquet files or NAME/ folders")
    return names
