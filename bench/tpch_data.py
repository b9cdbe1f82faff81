"""Build (once) a TPC-H DuckDB file at a scale factor with tpchgen-cli (bench extras).

    python bench/tpch_data.py 0.1 1 3 [--workdir /tmp/zlens-bench]

The file is reused while it exists: generating SF3 takes minutes, timing it is not the point.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb

TABLES = ["lineitem", "orders", "customer", "nation", "region", "part", "supplier", "partsupp"]
WORKDIR = Path("/tmp/zlens-bench")


def tpch_database(sf: str, workdir: Path = WORKDIR) -> Path:
    """The path of `tpch-sf{sf}.duckdb` under `workdir`, generated when missing."""
    folder = workdir / f"sf{sf}"
    db = folder / f"tpch-sf{sf}.duckdb"
    if db.exists():
        return db
    parquet = folder / "parquet"
    parquet.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    cli = shutil.which("tpchgen-cli") or str(Path(sys.executable).parent / "tpchgen-cli")
    subprocess.run([cli, "parquet", "-s", sf, f"--output-dir={parquet}"], check=True)
    partial = db.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial))
    for table in TABLES:
        con.execute(
            f"CREATE TABLE {table} AS SELECT * FROM read_parquet(?)",
            [str(parquet / f"{table}.parquet")],
        )
    con.close()
    partial.rename(db)  # only a complete file is ever reused
    shutil.rmtree(parquet)
    print(f"built {db} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sf", nargs="+")
    parser.add_argument("--workdir", type=Path, default=WORKDIR)
    args = parser.parse_args()
    for sf in args.sf:
        print(tpch_database(sf, args.workdir))


if __name__ == "__main__":
    main()
