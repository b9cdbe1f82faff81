"""The engine's own backoff (an executor raising a transient error) obeys the run's clock."""

from __future__ import annotations

from zlens_jupyter.engine import Budget, Engine, Route, RunRequest, StepContext, StepOutcome
from zlens_jupyter.errors import TransientError


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def test_the_engine_never_backs_off_past_the_deadline() -> None:
    clock = FakeClock()

    def flaky(ctx: StepContext) -> StepOutcome:
        raise TransientError("busy")

    engine = Engine({Route.GENERATED_ANSWER: flaky}, clock=clock, sleep=clock.sleep)
    request = RunRequest(
        "What is revenue by segment?", budget=Budget(deadline_s=0.12, max_transient_retries=5)
    )
    run = engine.run(request)
    assert run.route is Route.GENERATED_ANSWER
    assert clock.waits, "a transient failure is retried while the deadline allows"
    assert sum(clock.waits) < 0.12  # every wait fit in the time that was left
