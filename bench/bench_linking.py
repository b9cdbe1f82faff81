"""Schema-linking speed on a large synthetic catalog (run by hand, not in CI).

Targets: index build for 2,000 tables x 20 columns <= 2 s; query p50 <= 20 ms.

    python bench/bench_linking.py                 # Catalog objects built in Python
    python bench/bench_linking.py --duckdb        # also: 2,000 real (empty) DuckDB tables,
                                                  #   timing Warehouse.catalog() + link()

The synthetic schema mixes a business vocabulary into table and column names, adds
comments to some columns and sampled values to some text columns, so documents look like a
real warehouse's rather than random strings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from zlens_jupyter.warehouse import Catalog, ColumnInfo, TableInfo, Warehouse
from zlens_jupyter.warehouse.linking import SchemaIndex, _analyze_cached


def _words(text: str) -> list[str]:
    return text.split()


NOUNS = _words("""customer order invoice payment product supplier shipment warehouse store region
country city employee department account ledger campaign click session device browser
ticket agent call contract subscription plan refund return discount coupon inventory stock
price cost margin revenue budget forecast vendor partner lead opportunity quote asset
vehicle route driver trip fare station flight airport carrier aircraft passenger booking
hotel room guest review rating patient doctor visit claim policy premium loan branch
transaction card merchant terminal fraud alert""")
MEASURES = _words("""amount total count qty price cost delay duration distance weight score rate
balance fee tax discount margin revenue profit volume""")
ATTRIBUTES = _words("""name code type status category segment channel source tier level kind
label description email phone address zip country city state""")
TIMES = _words("""created_at updated_at shipped_at paid_at date month year week start_ts end_ts""")
VALUES = _words("""Gold Silver Bronze North South East West Online Retail Partner Active Closed
Pending Open Premium Basic Enterprise SMB Consumer""")


def synthetic_catalog(n_tables: int, n_columns: int, seed: int = 7) -> Catalog:
    rng = random.Random(seed)
    tables: dict[str, TableInfo] = {}
    for t in range(n_tables):
        subject = rng.choice(NOUNS)
        name = f"{subject}_{rng.choice(NOUNS)}_{t}" if t % 3 else f"{subject}s_{t}"
        columns = [ColumnInfo(f"{subject}_id", "BIGINT")]
        while len(columns) < n_columns:
            kind = rng.random()
            if kind < 0.35:
                col = ColumnInfo(
                    f"{rng.choice(NOUNS)}_{rng.choice(MEASURES)}",
                    "DOUBLE",
                    f"{rng.choice(MEASURES)} of the {rng.choice(NOUNS)}"
                    if rng.random() < 0.3
                    else None,
                )
            elif kind < 0.7:
                values = tuple(sorted(rng.sample(VALUES, rng.randint(2, 8))))
                col = ColumnInfo(
                    f"{rng.choice(NOUNS)}_{rng.choice(ATTRIBUTES)}",
                    "VARCHAR",
                    None,
                    values if rng.random() < 0.4 else (),
                )
            elif kind < 0.85:
                col = ColumnInfo(rng.choice(TIMES), "TIMESTAMP")
            else:
                col = ColumnInfo(f"{rng.choice(NOUNS)}_id", "BIGINT")
            if all(c.name != col.name for c in columns):
                columns.append(col)
        tables[name] = TableInfo(
            name, "table", f"{subject} facts" if t % 5 == 0 else None, 1000, tuple(columns)
        )
    return Catalog(tables, (), "synthetic")


def questions(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    shapes = [
        "total {m} by {a} for each {n}",
        "average {n} {m} per {n2} last month",
        "how many {n}s by {a}",
        "top 10 {n}s by {m}",
        "{n} {m} trend by week for {v} {n2}s",
    ]
    return [
        rng.choice(shapes).format(
            m=rng.choice(MEASURES),
            a=rng.choice(ATTRIBUTES),
            n=rng.choice(NOUNS),
            n2=rng.choice(NOUNS),
            v=rng.choice(VALUES),
        )
        for _ in range(n)
    ]


def percentile(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[int(q) - 1]


def bench_index(n_tables: int, n_columns: int, n_queries: int) -> None:
    catalog = synthetic_catalog(n_tables, n_columns)
    n_docs = sum(len(t.columns) for t in catalog.tables.values())
    builds, build_cpu = [], []
    for _ in range(3):
        _analyze_cached.cache_clear()  # every build starts cold
        started, cpu = time.perf_counter(), time.process_time()
        index = SchemaIndex(catalog)
        builds.append(time.perf_counter() - started)
        build_cpu.append(time.process_time() - cpu)
    timings, cpu_timings = [], []
    for question in questions(n_queries):
        started, cpu = time.perf_counter(), time.process_time()
        index.search(question)
        timings.append((time.perf_counter() - started) * 1000)
        cpu_timings.append((time.process_time() - cpu) * 1000)
    # Wall time suffers when other processes share the cores; CPU time of this process is
    # what the build costs on an idle machine (the index build is single-threaded Python).
    print(f"catalog: {n_tables} tables x {n_columns} columns = {n_docs} column documents")
    print(
        f"index build: wall best {min(builds):.3f} s / worst {max(builds):.3f} s; "
        f"cpu best {min(build_cpu):.3f} s / worst {max(build_cpu):.3f} s (3 cold runs)"
    )
    print(
        f"query wall: p50 {percentile(timings, 50):.2f} ms, "
        f"p95 {percentile(timings, 95):.2f} ms, max {max(timings):.2f} ms"
    )
    print(
        f"query cpu:  p50 {percentile(cpu_timings, 50):.2f} ms, "
        f"p95 {percentile(cpu_timings, 95):.2f} ms over {n_queries} questions"
    )


def bench_duckdb(n_tables: int, n_columns: int, n_queries: int) -> None:
    import duckdb

    catalog = synthetic_catalog(n_tables, n_columns)
    con = duckdb.connect()
    started = time.perf_counter()
    for table in catalog.tables.values():
        columns = ", ".join(f'"{c.name}" {c.type}' for c in table.columns)
        con.execute(f'CREATE TABLE "{table.name}" ({columns})')
    print(f"duckdb: created {n_tables} empty tables in {time.perf_counter() - started:.2f} s")
    warehouse = Warehouse.connect(con)
    started = time.perf_counter()
    warehouse.catalog()
    print(f"duckdb: first Warehouse.catalog() {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    warehouse.catalog()
    print(
        f"duckdb: cached Warehouse.catalog() (shape check) "
        f"{(time.perf_counter() - started) * 1000:.1f} ms"
    )
    started = time.perf_counter()
    warehouse.link("warm up the index")
    print(f"duckdb: first link() incl. index build {time.perf_counter() - started:.2f} s")
    timings = []
    for question in questions(n_queries):
        started = time.perf_counter()
        warehouse.link(question)
        timings.append((time.perf_counter() - started) * 1000)
    print(
        f"duckdb: Warehouse.link() p50 {percentile(timings, 50):.2f} ms, "
        f"p95 {percentile(timings, 95):.2f} ms (includes the schema-change check)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--columns", type=int, default=20)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--duckdb", action="store_true", help="also bench a real DuckDB")
    args = parser.parse_args()
    bench_index(args.tables, args.columns, args.queries)
    if args.duckdb:
        bench_duckdb(args.tables, args.columns, args.queries)


if __name__ == "__main__":
    main()
