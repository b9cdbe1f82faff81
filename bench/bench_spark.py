"""ZLens on Spark SQL (local mode) over TPC-H Parquet, next to DuckDB.

(a) overhead: a certified answer on Spark (the whole governed loop: routing, guard through
    sqlglot and Spark's parser, job group, limit n+1, tests, trust) / the same SQL through
    `spark.sql(sql).collect()` on the same session;
(b) engines: TPC-H Q1 (full lineitem scan) and Q5 (six-way join) on DuckDB (its own file)
    and on Spark local, raw and as certified answers;
(c) what connecting costs on Spark: the catalog profile (counts, approx_count_distinct,
    sampled values, key checks).

    python bench/bench_spark.py [--sf 1] [--repeat 3] [--master 'local[2]']

Needs Java 17+ and the test or spark extra (pyspark), plus tpchgen-cli (bench extra).
Timings alternate the contenders run by run and report medians.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

sys.path.insert(0, str(Path(__file__).parent))
from bench_tpch import BLOCK_SQL, Q1_SQL, block_source
from tpch_data import TABLES, WORKDIR, tpch_database

# Q1 over every line (its ship-date cut keeps ~98% of lineitem): a block that filters on a
# date answers certified only when the question asks for that period.
Q1_ALL = Q1_SQL.replace("WHERE l_shipdate <= DATE '1998-09-02'\n", "")
Q1_OUTPUTS = [
    "l_returnflag",
    "l_linestatus",
    "sum_qty",
    "sum_base_price",
    "sum_disc_price",
    "sum_charge",
    "avg_qty",
    "avg_price",
    "avg_disc",
    "count_order",
]
QUERIES = [
    (
        "Q1",
        "Pricing summary report",
        "pricing summary report by l_returnflag and l_linestatus",
        Q1_ALL,
        Q1_OUTPUTS,
        4,
        "returnflag, linestatus",
    ),
    (
        "Q5",
        "Local supplier revenue by nation",
        "local supplier revenue by nation in ASIA in 1994",
        BLOCK_SQL,
        ["nation", "revenue"],
        5,
        "nation",
    ),
]


def parquet_folder(sf: str, workdir: Path) -> Path:
    folder = workdir / "spark" / f"sf{sf}"
    if all((folder / f"{t}.parquet").exists() for t in TABLES):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    cli = shutil.which("tpchgen-cli") or str(Path(sys.executable).parent / "tpchgen-cli")
    subprocess.run([cli, "parquet", "-s", sf, f"--output-dir={folder}"], check=True)
    return folder


def project_with_blocks(folder: Path) -> Path:
    (folder / "blocks").mkdir(parents=True, exist_ok=True)
    for key, name, _, sql, outputs, rows, grain in QUERIES:
        source = block_source(name, sql, grain, outputs, rows).replace(
            'status = "certified"', 'status = "review"'
        )
        (folder / "blocks" / f"{key.lower()}.dql").write_text(source, encoding="utf-8")
    return folder


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sf", default="1")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--workdir", type=Path, default=WORKDIR)
    args = parser.parse_args()

    from zlens_jupyter.session import Session
    from zlens_jupyter.warehouse.spark.launch import start_spark

    folder = parquet_folder(args.sf, args.workdir)
    started = time.perf_counter()
    spark = start_spark(args.master, tables=folder)
    spark_start = time.perf_counter() - started
    work = Path(tempfile.mkdtemp(prefix="zlens-bench-spark-"))
    try:
        started = time.perf_counter()
        on_spark = Session(spark, project_with_blocks(work / "spark"), persist=False)
        spark_connect = time.perf_counter() - started
        duck_db = tpch_database(args.sf, args.workdir)
        started = time.perf_counter()
        on_duck = Session(duck_db, project_with_blocks(work / "duck"), persist=False)
        duck_connect = time.perf_counter() - started
        raw_duck = duckdb.connect(str(duck_db), read_only=True)
        for _, name, *_ in QUERIES:
            on_spark.certify(name, by="bench@example.com")
            on_duck.certify(name, by="bench@example.com")
        print(
            f"TPC-H SF{args.sf}, Spark {spark.version} {args.master}: SparkSession "
            f"{spark_start:.1f} s; connect (catalog profile of {len(TABLES)} tables) "
            f"{spark_connect:.1f} s on Spark, {duck_connect:.2f} s on DuckDB"
        )
        print(
            "| query | DuckDB raw | DuckDB certified | Spark raw collect() | Spark certified "
            "| Spark overhead (certified / raw) |"
        )
        print("|---|---|---|---|---|---|")
        for key, _, question, sql, *_ in QUERIES:
            engine_sql = on_spark.warehouse.engine_sql(sql)
            for session in (on_spark, on_duck):  # warm: JIT, file cache, catalog
                run = session.ask(question)
                assert run.trust_state is not None and run.trust_state.value == "certified", (
                    run.trust_reason
                )
            spark.sql(engine_sql).collect()
            raw_duck.execute(sql).fetchall()
            times: dict[str, list[float]] = {k: [] for k in ("dr", "dc", "sr", "sc")}
            for _ in range(args.repeat):
                for label in ("sr", "sc", "dr", "dc"):
                    t = time.perf_counter()
                    out: Any
                    if label == "sr":
                        out = spark.sql(engine_sql).collect()
                    elif label == "dr":
                        out = raw_duck.execute(sql).fetchall()
                    else:
                        out = (on_spark if label == "sc" else on_duck).ask(question)
                        assert out.trust_state.value == "certified"
                    times[label].append(time.perf_counter() - t)
            dr, dc, sr, sc = (median_ms(times[k]) for k in ("dr", "dc", "sr", "sc"))
            print(
                f"| {key} | {dr:.0f} ms | {dc:.0f} ms | {sr:.0f} ms | {sc:.0f} ms "
                f"| {sc / sr:.3f} (+{sc - sr:.0f} ms) |"
            )
        on_spark.close()
        on_duck.close()
        raw_duck.close()
    finally:
        spark.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
