"""Check the dev set's gold SQL with the public corpus's checker (eval/public/check_gold.py).

Every answerable case's gold query runs on its built file, returns a non-NULL row, and a
ranking (ORDER BY … LIMIT n) has no tie among its first n + 1 ranked values.

    python eval/dev/build.py && python eval/dev/check_gold.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(folder: Path = HERE) -> int:
    """Check every cases file in `folder` (the dev set's own by default; eval/fresh too)."""
    path = HERE.parent / "public" / "check_gold.py"
    spec = importlib.util.spec_from_file_location("zlens_public_check_gold", path)
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    files = checker.case_files(folder)
    problems = [p for path in files for p in checker.check_file(path)]
    for problem in problems:
        print(problem)
    print(f"{len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
