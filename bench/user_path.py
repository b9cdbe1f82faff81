"""The documented path, timed against raw DuckDB and JupySQL on the same TPC-H file.

Contenders, each run once per round in a freshly shuffled order (so drift, caches and noisy
neighbours hit all alike); ratios are paired within a round, then the median is reported:

- raw      `duckdb.connect(db, read_only=True).execute(sql).fetchall()`
- api      `zlens_jupyter.connect(db, project).ask(question)`, run store on
- magic    `%zlens --no-panel QUESTION` in an in-process IPython shell
- panel    `%zlens QUESTION` (the live run panel, then the answer), once with the answer's
           chart picture drawn afresh (as when the data changed) and once with it kept from the
           last identical answer (a re-run cell whose result did not change)
- jupysql  `%sql SELECT ...` on a DuckDB connection in the same shell (JupySQL)

Blocks are written as reviewed drafts and certified by the real certify code
(`Session.certify`), so every answer is `certified` with a current record, as users get it.

    python bench/user_path.py --sf 1 [--rounds 15] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from tpch_data import tpch_database

Q1_SQL = """SELECT l_returnflag, l_linestatus,
       SUM(l_quantity) AS sum_qty,
       SUM(l_extendedprice) AS sum_base_price,
       SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       AVG(l_quantity) AS avg_qty, AVG(l_extendedprice) AS avg_price,
       AVG(l_discount) AS avg_disc, COUNT(*) AS count_order
FROM lineitem
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus"""

# TPC-H Q5's joins and region filter, without Q5's year filter: the figures in the notes were
# measured this way. (A block that keeps the asked year now answers "… in 1994" certified.)
Q5_SQL = """SELECT n.n_name AS nation,
       ROUND(SUM(l.l_extendedprice * (1 - l.l_discount)), 2) AS revenue
FROM customer AS c
JOIN orders AS o ON c.c_custkey = o.o_custkey
JOIN lineitem AS l ON l.l_orderkey = o.o_orderkey
JOIN supplier AS s ON l.l_suppkey = s.s_suppkey AND c.c_nationkey = s.s_nationkey
JOIN nation AS n ON s.s_nationkey = n.n_nationkey
JOIN region AS r ON n.n_regionkey = r.r_regionkey
WHERE r.r_name = 'ASIA'
GROUP BY n.n_name
ORDER BY revenue DESC"""

QUERIES = {
    "Q1": (
        "Pricing summary report",
        "pricing summary report by l_returnflag and l_linestatus",
        Q1_SQL,
        4,
    ),
    "Q5": (
        "Local supplier revenue by nation",
        "local supplier revenue by nation in ASIA",
        Q5_SQL,
        5,
    ),
}


GRAINS = {
    "Pricing summary report": "l_returnflag, l_linestatus",
    "Local supplier revenue by nation": "nation",
}
OUTPUTS = {
    "Pricing summary report": ["l_returnflag", "l_linestatus", "sum_qty", "count_order"],
    "Local supplier revenue by nation": ["nation", "revenue"],
}


def block_source(name: str, sql: str, rows: int) -> str:
    body = "\n".join("    " + line for line in sql.splitlines())
    return f'''block "{name}" {{
  domain = "tpch"
  type = "custom"
  status = "review"
  description = "{name} (TPC-H)."
  owner = "bench@example.com"
  grain = "{GRAINS[name]}"
  outputs = {json.dumps(OUTPUTS[name])}
  query = """
{body}
  """
  tests {{
    assert row_count == {rows}
  }}
}}
'''


def make_project(db: Path, names: list[str]) -> Path:
    """A project whose blocks a person certified with the real certify code."""
    from zlens_jupyter.session import Session

    project = Path(tempfile.mkdtemp(prefix="zlens-bench-project-"))
    (project / "blocks").mkdir()
    for key in names:
        name, _, sql, rows = QUERIES[key]
        (project / "blocks" / f"{key.lower()}.dql").write_text(block_source(name, sql, rows))
    session = Session(db, project, persist=False)
    for key in names:
        session.certify(QUERIES[key][0], by="bench@example.com")
    session.close()
    return project


def _jupysql_without_broken_spark() -> None:
    """JupySQL imports pyspark's Connect client when pyspark is installed, and that import
    fails without pyarrow (a Spark install for another engine): then JupySQL is loaded as
    if pyspark were absent, which is what it does when pyspark is not installed."""
    try:
        import pyspark.sql.connect.dataframe  # noqa: F401
    except ModuleNotFoundError:
        pass
    except Exception:
        sys.modules["pyspark.sql.connect.dataframe"] = None  # type: ignore[assignment]


def shell_with_extensions() -> Any:
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    shell = InteractiveShell.instance(config=config)
    shell.run_line_magic("load_ext", "zlens_jupyter")
    _jupysql_without_broken_spark()
    shell.run_line_magic("load_ext", "sql")
    shell.run_line_magic("config", "SqlMagic.displaylimit = 10")
    shell.run_line_magic("config", "SqlMagic.displaycon = False")
    shell.run_line_magic("config", "SqlMagic.autopandas = False")
    return shell


def run_cell(shell: Any, source: str) -> None:
    from IPython.utils.capture import capture_output

    with capture_output(display=True):
        result = shell.run_cell(source, store_history=False)
    if not result.success:
        raise RuntimeError(f"cell failed: {source!r}: {result.error_in_exec}")


def forget_chart_pictures() -> None:
    """The next answer's chart is drawn afresh, as it is whenever the data changed (the
    pictures are kept per spec, and the bench asks the same question every round)."""
    from zlens_jupyter.notebook import chart_image

    with chart_image._lock:
        chart_image._drawn.clear()


def measure(sf: str, rounds: int, queries: list[str]) -> list[dict[str, Any]]:
    import duckdb

    from zlens_jupyter.session import Session

    db = tpch_database(sf)
    project = make_project(db, queries)
    session = Session(db, project)
    raw = duckdb.connect(str(db), read_only=True)
    shell = shell_with_extensions()
    run_cell(shell, f"%zlens connect {db} --project {project}")
    shell.user_ns["bench_con"] = raw
    run_cell(shell, "%sql bench_con --alias bench")
    rows: list[dict[str, Any]] = []
    for key in queries:
        _, question, sql, _ = QUERIES[key]
        check = session.ask(question)
        state = check.trust_state.value if check.trust_state else None
        if state != "certified":
            raise SystemExit(
                f"{key}: expected a certified answer, got {state}: {check.trust_reason}"
            )
        one_line_sql = " ".join(sql.split())
        contenders: dict[str, Callable[[], object]] = {
            "raw DuckDB": lambda sql=sql: raw.execute(sql).fetchall(),
            "API ask": lambda q=question: session.ask(q),
            "%zlens --no-panel": lambda q=question: run_cell(shell, f"%zlens --no-panel {q}"),
            "%zlens (panel)": lambda q=question: run_cell(shell, f"%zlens {q}"),
            "%zlens (panel, drawn)": lambda q=question: (
                forget_chart_pictures(),
                run_cell(shell, f"%zlens {q}"),
            ),
            "JupySQL %sql": lambda s=one_line_sql: run_cell(shell, f"%sql {s}"),
        }
        for fn in contenders.values():  # warm every path once
            fn()
        wall: dict[str, list[float]] = {k: [] for k in contenders}
        cpu: dict[str, list[float]] = {k: [] for k in contenders}
        order = list(contenders)
        for _ in range(rounds):
            random.shuffle(order)
            for name in order:
                c0, t0 = time.process_time(), time.perf_counter()
                contenders[name]()
                wall[name].append(time.perf_counter() - t0)
                cpu[name].append(time.process_time() - c0)
        base = wall["raw DuckDB"]
        base_cpu = cpu["raw DuckDB"]
        for name in contenders:
            ratios = [a / b for a, b in zip(wall[name], base, strict=True)]
            extra = [a - b for a, b in zip(wall[name], base, strict=True)]
            # CPU time over raw DuckDB's, paired per round: steadier than wall time when
            # other processes share the cores (what ZLens adds, whatever the neighbours do).
            extra_cpu = [a - b for a, b in zip(cpu[name], base_cpu, strict=True)]
            rows.append(
                {
                    "bench": f"SF{sf} {key}",
                    "contender": name,
                    "median_ms": statistics.median(wall[name]) * 1000,
                    "cpu_ms": statistics.median(cpu[name]) * 1000,
                    "ratio": statistics.median(ratios),
                    "overhead_ms": statistics.median(extra) * 1000,
                    "cpu_over_raw_ms": statistics.median(extra_cpu) * 1000,
                }
            )
    session.close()
    shutil.rmtree(project, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sf", default="1")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--queries", default="Q1,Q5")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # The profile cache of the bench's databases stays beside them, not in the user's cache.
    os.environ.setdefault("ZLENS_CACHE_DIR", "/tmp/zlens-bench/cache")
    rows = measure(args.sf, args.rounds, args.queries.split(","))
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{row['bench']:<10} {row['contender']:<22} {row['median_ms']:8.1f} ms "
                f"cpu {row['cpu_ms']:8.1f} ms  ratio {row['ratio']:.3f}  "
                f"+{row['overhead_ms']:.1f} ms  cpu +{row['cpu_over_raw_ms']:.1f} ms"
            )


if __name__ == "__main__":
    main()
