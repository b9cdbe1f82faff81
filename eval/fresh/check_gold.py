"""Check the fresh set's gold SQL with the dev set's checker (eval/dev/check_gold.py, which
runs the public corpus's): every answerable case's gold query runs on its built file, returns
a non-NULL row, and a ranking has no tie among its first n + 1 ranked values.

    python eval/fresh/build.py && python eval/fresh/check_gold.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    spec = importlib.util.spec_from_file_location(
        "zlens_dev_check_gold", HERE.parent / "dev" / "check_gold.py"
    )
    assert spec and spec.loader
    dev_checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev_checker)
    sys.exit(dev_checker.main(HERE))
