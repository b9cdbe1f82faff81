"""`python -m zlens_jupyter.sample`: (re)build the sample database and report time and size."""

from __future__ import annotations

import time

from zlens_jupyter.sample.build import build_sample_database, sample_database_target


def main() -> None:
    """Rebuild the sample database in the cache (replacing any copy) and print the timing."""
    target = sample_database_target()
    target.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    build_sample_database(target)
    elapsed = time.perf_counter() - started
    print(f"built {target} in {elapsed:.2f} s ({target.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
