"""Every issue-11 bench, one table: `python bench/run_all.py [--quick]`.

Each part runs in its own process (start-up and memory are part of what is measured) and
prints JSON rows; this script only collects them. `--quick` uses fewer rounds and sizes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def parts(quick: bool) -> list[list[str]]:
    rounds = "5" if quick else "15"
    full = [
        ["user_path.py", "--sf", "0.1", "--rounds", rounds],
        ["user_path.py", "--sf", "1", "--rounds", rounds],
        ["scaling.py", "loadext"],
        ["scaling.py", "cli"],
        ["scaling.py", "flights"],
        ["scaling.py", "store", "--sizes", "10,1000,10000" + ("" if quick else ",100000")],
        ["scaling.py", "tables", "--sizes", "10,100" + ("" if quick else ",1000,5000")],
        ["scaling.py", "rss", "--sf", "0.1" if quick else "3"],
    ]
    if not quick:
        full.insert(2, ["user_path.py", "--sf", "3", "--rounds", "7"])
    return full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(
        f"{'bench':<30} {'contender':<30} {'median':>10} {'cpu':>9} {'ratio':>7} {'target':>8}"
        f" {'+wall':>7} {'+cpu':>7}"
    )
    for part in parts(args.quick):
        out = subprocess.run(
            [sys.executable, str(HERE / part[0]), *part[1:], "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            print(f"{' '.join(part)}: failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        for line in out.stdout.splitlines():
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            value = row.get("median_ms", row.get("value"))
            unit = row.get("unit", "ms")
            cpu = f"{row['cpu_ms']:.1f}" if "cpu_ms" in row else ""
            ratio = f"{row['ratio']:.3f}" if "ratio" in row else ""
            target = row.get("target_ms") or row.get("target_ratio") or ""
            target = f"{target:.3g}" if isinstance(target, float | int) else ""
            # Paired extra wall and CPU ms over raw DuckDB (user_path rows): the CPU figure
            # stays readable when neighbours make wall-clock ratios noisy.
            extra = f"{row['overhead_ms']:.1f}" if "overhead_ms" in row else ""
            extra_cpu = f"{row['cpu_over_raw_ms']:.1f}" if "cpu_over_raw_ms" in row else ""
            print(
                f"{row['bench']:<30} {row['contender']:<30} {value:8.1f}{unit:>3} "
                f"{cpu:>9} {ratio:>7} {target:>8} {extra:>7} {extra_cpu:>7}",
                flush=True,
            )


if __name__ == "__main__":
    main()
