"""Engine overhead with instant executors: 10,000 runs of 1-4 steps.

Target (issue 2): <= 0.2 ms per step, and flat memory across runs.

    python bench/bench_engine.py [--runs 10000]

Memory is sampled with tracemalloc after every 1,000 runs (the engine keeps nothing between
runs, so the traced size should not grow); each run's record is dropped after it ends, as a
long notebook session that does not keep its runs would.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

from zlens_jupyter.engine import (
    Engine,
    Evaluation,
    Plan,
    Route,
    StepOutcome,
)
from zlens_jupyter.engine.planner import DeterministicPlanner, planned_step

RESULT = {"columns": ["n"], "rows": [[1]], "row_count": 1, "truncated": False}
PASSED = [
    Evaluation(id="result-executed", label="Executed", passed=True),
    Evaluation(id="catalog-grounding", label="Grounded", passed=True),
]


class CyclePlanner(DeterministicPlanner):
    """Plans 1, 2, 3, 4, 1, 2, ... steps so the mix of run lengths is even."""

    def __init__(self) -> None:
        self.n = 0

    def plan(self, request, route, budget):  # type: ignore[no-untyped-def]
        self.n += 1
        steps = 1 + (self.n - 1) % 4
        return Plan(steps=[planned_step(Route.GENERATED_ANSWER) for _ in range(steps)])


def instant(ctx):  # type: ignore[no-untyped-def]
    return StepOutcome(answer="1", sql="SELECT 1", result=RESULT, action_key=f"k{ctx.step_index}")


def gate(ctx, outcome):  # type: ignore[no-untyped-def]
    return PASSED


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    engine = Engine({Route.GENERATED_ANSWER: instant}, gate, planner=CyclePlanner())
    for _ in range(200):  # warm up caches (type hints, enum lookups)
        engine.run("How many flights?")
    gc.collect()
    tracemalloc.start()
    samples = []
    steps = 0
    started = time.perf_counter()
    for i in range(1, args.runs + 1):
        run = engine.run("How many flights?")
        steps += len(run.steps)
        del run
        if i % 1000 == 0:
            samples.append(tracemalloc.get_traced_memory()[0])
    elapsed = time.perf_counter() - started
    tracemalloc.stop()
    per_step_ms = elapsed * 1000 / steps
    print(f"runs={args.runs} steps={steps} total={elapsed:.2f}s (tracemalloc on)")
    print(f"per run={elapsed * 1000 / args.runs:.3f} ms  per step={per_step_ms:.3f} ms")
    kib = [round(s / 1024) for s in samples]
    print(f"traced memory after each 1,000 runs (KiB): {kib}")
    growth = (samples[-1] - samples[0]) / 1024
    print(f"growth first->last sample: {growth:+.0f} KiB")

    # Timing without tracemalloc, which slows allocation-heavy code down by ~2x. CPU time is
    # reported next to wall time: on a shared 2-core machine wall time partly measures the
    # neighbours.
    started, cpu_started = time.perf_counter(), time.process_time()
    steps = 0
    for _ in range(args.runs):
        steps += len(engine.run("How many flights?").steps)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(
        f"without tracemalloc: per step wall={elapsed * 1000 / steps:.3f} ms "
        f"cpu={cpu * 1000 / steps:.3f} ms (target <= 0.2 ms)"
    )


if __name__ == "__main__":
    main()
