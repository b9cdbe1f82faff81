"""Running Spark SQL bounded: one job group per statement, cancelled on Stop or deadline.

Every statement runs under its own job group (`setJobGroup(..., interruptOnCancel=True)`);
the shared statement watchdog (warehouse.deadline) calls `cancelJobGroup` when the deadline
passes or the run is stopped, which kills the group's running tasks on every executor. The
result is `DataFrame.limit(n+1).collect()`: the limit is part of the plan (a
TakeOrderedAndProject or CollectLimit), so at most n+1 rows ever leave the cluster.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from typing import Any

from zlens_jupyter.errors import QueryError, QueryTimeout
from zlens_jupyter.warehouse.deadline import Deadline
from zlens_jupyter.warehouse.models import Preview
from zlens_jupyter.warehouse.spark.types import house_type

_GROUPS = itertools.count(1)


class JobGroup:
    """One statement's Spark job group; `interrupt()` (the watchdog's call) cancels it."""

    def __init__(self, spark: Any, purpose: str) -> None:
        self.spark = spark
        self.id = f"zlens-{os.getpid()}-{next(_GROUPS)}"
        self.purpose = purpose

    def __enter__(self) -> JobGroup:
        context = self.spark.sparkContext
        context.setJobGroup(self.id, f"ZLens: {self.purpose}", interruptOnCancel=True)
        return self

    def __exit__(self, *exc_info: object) -> None:
        context = self.spark.sparkContext
        for key in ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel"):
            context.setLocalProperty(key, None)

    def interrupt(self) -> None:
        # Called from the watchdog thread; py4j gives each Python thread its own channel.
        self.spark.sparkContext.cancelJobGroup(self.id)


def run_spark_preview(
    spark: Any,
    statement: str,
    *,
    params: Any = None,
    limit: int = 1000,
    timeout_s: float = 30.0,
    should_stop: Callable[[], bool] | None = None,
) -> Preview:
    """Run an already-guarded Spark `statement`; named parameters are bound by Spark.

    Raises QueryTimeout past `timeout_s`, KeyboardInterrupt when stopped, QueryError with
    Spark's own message otherwise.
    """
    if limit < 0:
        raise ValueError("limit must be >= 0")
    started = time.perf_counter()
    group = JobGroup(spark, "preview")
    with group, Deadline(group, timeout_s, should_stop) as deadline:
        try:
            if deadline.stop_requested():  # cancelled before it started: never start it
                raise KeyboardInterrupt
            frame = spark.sql(statement, args=params) if params else spark.sql(statement)
            rows = frame.limit(limit + 1).collect()
        except KeyboardInterrupt:
            group.interrupt()  # the main thread was interrupted: the jobs must stop too
            raise
        except Exception as error:
            if deadline.stop_requested() or deadline.cancelled:
                raise KeyboardInterrupt from None
            if deadline.expired:
                raise QueryTimeout(
                    f"the query ran past its {timeout_s:g} s limit and was stopped; "
                    "narrow it (filters, fewer joins) or allow a longer timeout"
                ) from None
            raise QueryError(spark_error_message(error)) from None
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    truncated = len(rows) > limit
    kept = [tuple(r) for r in rows[:limit]]
    return Preview(
        sql=statement,
        columns=list(frame.columns),
        column_types=[house_type(f.dataType.simpleString()) for f in frame.schema.fields],
        rows=kept,
        row_count=len(kept),
        truncated=truncated,
        elapsed_ms=elapsed_ms,
    )


def fetch_spark_best_effort(spark: Any, sql: str, *, timeout_s: float) -> list[Any] | None:
    """All rows of a small catalog query, or None when it failed or ran past `timeout_s`
    (a broken or huge table must not break the catalog). A Stop still stops."""
    group = JobGroup(spark, "catalog profile")
    with group, Deadline(group, timeout_s) as deadline:
        try:
            return [tuple(r) for r in spark.sql(sql).collect()]
        except KeyboardInterrupt:
            group.interrupt()
            raise
        except Exception:
            if deadline.cancelled:
                raise KeyboardInterrupt from None
            return None


def spark_error_message(error: BaseException) -> str:
    """Spark's own words, without the JVM stack trace."""
    text = str(error).strip()
    return text.split("\n\tat ", 1)[0].split("\nJVM stacktrace:", 1)[0].strip()
