"""A session wires one connection, one project folder and (later) one model into an Engine.

>>> import zlens_jupyter
>>> session = zlens_jupyter.connect("sample")           # doctest: +SKIP
>>> session.ask("What is revenue by segment?").df       # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from . import gates
from .dql import (
    Block,
    BlockLibrary,
    BlockRun,
    certify,
    parse_dql,
    refresh_certification,
    run_block,
)
from .engine import (
    ESCALATION_MAP,
    AgentRun,
    Audience,
    Budget,
    CancelToken,
    Engine,
    Event,
    IntentSignals,
    Mode,
    Route,
    RunRequest,
)
from .engine.contracts import LazyExecutors
from .engine.intent import CERTIFIED_THRESHOLD
from .errors import ConfigError, UserError
from .inputs import check_budget
from .interrupts import cancel_on_interrupt
from .routes.app_build import AppBuild
from .routes.certified import CertifiedAnswer, match_certified
from .routes.kit import RouteKit, looks_like_sql
from .semantic import load_semantic
from .store import RunStore
from .warehouse import Warehouse
from .warehouse.interface import WarehouseEngine

MODES = tuple(m.value for m in Mode)


def _route(module: str, name: str) -> Any:
    """A route executor's class, its module imported on first use."""
    import importlib

    return getattr(importlib.import_module(f".routes.{module}", __package__), name)


class Session:
    """Ask questions of one database, governed by one project's blocks and semantic model."""

    def __init__(
        self,
        target: Any = "sample",
        project: str | os.PathLike[str] | None = None,
        *,
        budget: Budget | None = None,
        preview_limit: int = 1000,
        statement_timeout_s: float = 30.0,
        persist: bool = True,
        model: Any = None,
    ) -> None:
        if isinstance(target, str) and target == "sample":
            from .sample import open_sample

            database, sample_project = open_sample()
            target, project = database, project or sample_project
        self.target = target
        self.warehouse = _connect(target)
        self.project_dir = Path(project) if project is not None else Path.cwd()
        self.budget = budget or Budget()
        self.preview_limit = preview_limit
        self.statement_timeout_s = statement_timeout_s
        self.store = RunStore(self.project_dir) if persist else None
        self._record: tuple[AgentRun | None, bytes | None] = (None, None)  # run, its JSON
        # A model endpoint only when one is configured (argument or environment): offline
        # is the default, and with no configuration nothing touches the network.
        self.model_config = model if model is not None else _model_from_env()
        self.reload()

    def reload(self) -> None:
        """Re-read blocks and the semantic model (after certifying, or editing files)."""
        self.library = BlockLibrary.load(self.project_dir)
        self.semantic = load_semantic(self.project_dir)
        refresh_certification(
            self.library, self.warehouse, metric_resolver=self.semantic.metric_expression
        )
        self.warehouse.declare_relationships(
            [
                (r.from_table, r.from_column, r.to_table, r.to_column)
                for r in self.semantic.relationships
            ]
        )
        self.kit = RouteKit(
            self.warehouse,
            self.library,
            self.semantic,
            self.project_dir,
            preview_limit=self.preview_limit,
            statement_timeout_s=self.statement_timeout_s,
        )
        # Routes other than the certified one are built when first taken: their modules
        # import sqlglot, which a certified answer never needs (see LazyExecutors).
        kit = self.kit
        executors = LazyExecutors(
            {Route.CERTIFIED_ANSWER: CertifiedAnswer(kit)},
            {
                Route.GENERATED_ANSWER: lambda: _route("generated", "GeneratedAnswer")(kit),
                Route.RESEARCH: lambda: _route("research", "Research")(kit),
                Route.SQL_CELL: lambda: _route("drafts", "SqlCell")(kit),
                Route.DQL_BLOCK_DRAFT: lambda: _route("drafts", "BlockDraft")(kit),
                Route.CLARIFY: lambda: _route("conversation", "Clarify")(kit),
                Route.CONVERSE: lambda: _route("conversation", "Converse")(kit),
            },
        )
        # app_build's parts that no certified block fits escalate along the seed's map.
        escalation = ESCALATION_MAP[Route.APP_BUILD]
        executors[Route.APP_BUILD] = AppBuild(
            self.kit, escalate=lambda ctx: executors[escalation](ctx)
        )
        planner = None
        if self.model_config is not None:
            from .routes.modeled import model_executors, model_planner

            executors.update(model_executors(self.kit, self.model_config, fallback=executors))
            if self.model_config.plan_steps:
                planner = model_planner(self.kit, self.model_config)
        self.engine = Engine(
            executors,
            gates.evaluate,
            signals=self.signals,
            budget=self.budget,
            sink=self.store,
            planner=planner,
        )

    def signals(self, question: str) -> IntentSignals:
        """What the catalog says before routing: certified match, metric match, retrieval."""
        match = match_certified(question, self.kit)
        metrics = self.semantic.match_metrics(question)
        if match.score >= CERTIFIED_THRESHOLD:
            # A certified match decides the action and the route whatever keyword search
            # finds, so none is run (it was the only use of BM25 on a certified answer).
            return IntentSignals(
                certified_score=match.score,
                certified_block=match.block.name if match.block else None,
                metric_score=metrics[0][1] if metrics else 0.0,
                notes=match.notes,
            )
        linked = self.warehouse.link(question, k_columns=3)
        return IntentSignals(
            certified_score=match.score,
            certified_block=match.block.name if match.block else None,
            metric_score=metrics[0][1] if metrics else 0.0,
            has_retrieval=bool(linked.columns),
            # The user's own SQL is grounded by the catalog check, not by its words; a question
            # the parser resolves has its context, whatever keyword search found.
            missing_context=not linked.columns
            and not metrics
            and not looks_like_sql(question)
            and self.kit.parse(question).spec is None,
            notes=match.notes,
        )

    def ask(
        self,
        question: str,
        *,
        mode: str | Mode = Mode.AUTO,
        audience: str | Audience = Audience.ANALYST,
        on_event: Callable[[Event], None] | None = None,
        cancel: CancelToken | None = None,
        max_steps: int | None = None,
        deadline_s: float | None = None,
        max_cost_usd: float | None = None,
        max_tokens: int | None = None,
    ) -> AgentRun:
        check_budget(  # nan, infinities and values <= 0: one UserError, nothing run
            max_steps=max_steps,
            deadline_s=deadline_s,
            max_cost_usd=max_cost_usd,
            max_tokens=max_tokens,
        )
        budget = self.budget.merged(
            max_steps=max_steps,
            deadline_s=deadline_s,
            max_cost_usd=max_cost_usd,
            max_tokens=max_tokens,
        )
        request = RunRequest(
            question=question,
            mode=parse_mode(mode),
            audience=Audience(audience),
            budget=budget,
            context={"database": _describe(self.target), "project": str(self.project_dir)},
        )
        cancel = cancel or CancelToken()
        # Ctrl-C / Stop / a kernel interrupt cancels this run and its running statement.
        with cancel_on_interrupt(cancel), self.warehouse.pinned():  # one schema per run
            run = self.engine.run(request, on_event, cancel=cancel)
        record = self.store.saved_json(run) if self.store is not None else None
        notice = self.store.storage_problem(run) if self.store is not None else None
        if notice:  # never silent: the CLI and the notebook print it, the run carries it
            run.provenance["not_stored"] = notice
            record = None  # the run changed since it was saved
        self._record = (run, record)
        return run

    def take_record(self, run: AgentRun) -> dict[str, Any]:
        """`run.to_dict()` for the run `ask` just returned: the store's final save encoded it
        already (when it cut nothing), so the notebook parses that JSON (in C) instead of
        walking the run again. Taken once; any other run is serialized."""
        last, self._record = self._record, (None, None)
        if last[0] is run and last[1] is not None:
            return orjson.loads(last[1])
        return run.to_dict()

    # -- blocks ------------------------------------------------------------------------

    def blocks(self) -> list[Block]:
        """The project's blocks, with statuses as they stand now: a certified block whose SQL
        or schema drifted lists as `pending_recertification`, one certified only by its
        file's word as `review` (`library.lowered` says why for each)."""
        self.refresh_certification()
        return list(self.library.blocks)

    def refresh_certification(self) -> dict[str, str]:
        """Re-check every certified block against its record; {block: why it was lowered}."""
        lowered = dict(self.library.lowered)
        lowered.update(
            refresh_certification(
                self.library, self.warehouse, metric_resolver=self.semantic.metric_expression
            )
        )
        self.library.lowered = lowered
        return lowered

    def certify(self, name: str, *, by: str | None = None) -> Block:
        """A person's act: certify a reviewed block (refused with the reasons if it is not
        certifiable). Records who, when, the SQL hash and the schema fingerprint."""
        who = by or os.environ.get("ZLENS_USER") or os.environ.get("USER") or "unknown"
        block = certify(
            name,
            self.library,
            self.warehouse,
            by=who,
            metric_resolver=self.semantic.metric_expression,
        )
        self.reload()
        return block

    def run_dql(self, source: str, *, params: dict[str, Any] | None = None) -> BlockRun:
        """Run the (first) block in DQL source text, with its tests."""
        file = parse_dql(source, file="<cell>")
        blocks = [d for d in file.declarations if isinstance(d, Block)]
        if not blocks:
            raise UserError('No block in that DQL: write `block "Name" { query = ... }`.')
        return run_block(
            blocks[0],
            self.library,
            self.warehouse,
            params,
            metric_resolver=self.semantic.metric_expression,
        )

    def close(self) -> None:
        self.warehouse.close()


def connect(
    target: Any = "sample", project: str | os.PathLike[str] | None = None, **options: Any
) -> Session:
    """Open a session: `"sample"`, a .duckdb path, `":memory:"`, a DuckDB connection or a
    PySpark SparkSession (its current database's tables and temporary views)."""
    return Session(target, project, **options)


def parse_mode(mode: str | Mode) -> Mode:
    try:
        return Mode(mode)
    except ValueError:
        raise UserError(f"Unknown mode '{mode}': use one of {', '.join(MODES)}.") from None


def _connect(target: Any) -> WarehouseEngine:
    if not isinstance(target, str | os.PathLike):
        # (A path is never a Spark session: Spark's modules, whose guard loads sqlglot, are
        # not imported for one.)
        from .warehouse.spark import SparkWarehouse, is_spark_session

        if is_spark_session(target):  # an existing SparkSession: its catalog, its cluster
            return SparkWarehouse(target)
    if isinstance(target, str | os.PathLike) and str(target) != ":memory:":
        path = Path(target)
        if not path.exists():
            raise ConfigError(
                f"No database at {path}. Pass an existing .duckdb file, ':memory:' or 'sample'."
            )
    return Warehouse.connect(target)


def _model_from_env() -> Any:
    if not (os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL")):
        return None  # offline (ModelConfig.from_env's own rule), without importing the llm layer
    from .llm import ModelConfig

    return ModelConfig.from_env()


def _describe(target: Any) -> str:
    return str(target) if isinstance(target, str | os.PathLike) else type(target).__name__
