"""app_build: a dashboard composed from certified blocks, one tile per part of the request.

    "build a dashboard of revenue by region and segment with monthly trend"
      -> parts: "revenue by region", "revenue by segment", "monthly revenue"
      -> each part matched to a certified block by meaning (`match_certified`, the same
         structured fit certified answers use)
      -> a part no certified block fits escalates along the seed's map
         (app_build -> dql_block_draft) with the hint carried, and becomes a draft tile that
         says so, or a tile that says what is missing
      -> filters: each block `@param` the tiles declare, and a range over a time grain
      -> saved as `dashboards/<name>.dql` (a draft: only a person certifies), then run

Trust is per tile; the run's label is the dashboard's, the lowest of its tiles.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..dql import Field, Section, parse_dql
from ..dql.dashboard import Dashboard
from ..dql.dashboard_files import save_dashboard
from ..dql.model import Item
from ..engine import (
    ESCALATION_MAP,
    Artifact,
    Evaluation,
    EventType,
    Executor,
    Route,
    Severity,
    StepContext,
    StepOutcome,
)
from ..engine.intent import strip_app_framing
from ..errors import UserError
from .certified import match_certified
from .dashboard_run import run_dashboard
from .kit import RouteKit, refuse_unsafe_request

MAX_PARTS = 8
_SPLIT = re.compile(r"\s*(?:,|;|&|\bwith\b|\bplus\b|\bas well as\b|\balong with\b|\band\b)\s*")
_TREND = re.compile(r"\b(trends?|over time|evolution|timeline|history)\b", re.IGNORECASE)
_GRAIN = {
    "daily": "daily",
    "day": "daily",
    "weekly": "weekly",
    "week": "weekly",
    "monthly": "monthly",
    "month": "monthly",
    "quarterly": "quarterly",
    "quarter": "quarterly",
    "yearly": "yearly",
    "annual": "yearly",
    "year": "yearly",
}
_RANKING = re.compile(r"\b(top|bottom|best|worst|highest|lowest|most|least)\b", re.IGNORECASE)
_FILLER = {"the", "a", "an", "of", "by", "in", "per", "our", "my", "its"}
_TIME_COLUMNS = ("month", "week", "day", "date", "quarter", "year")


def split_request(request: str, kit: RouteKit | None = None) -> list[str]:
    """The parts of a dashboard request, each a question one tile answers.

    A bare word after "X by Y and ..." is another grouping of the same measure; a trend
    ("with monthly trend") is that measure over time; a piece naming its own measure stands
    alone.

    >>> split_request("build a dashboard of revenue by region and segment with monthly trend")
    ['revenue by region', 'revenue by segment', 'monthly revenue']
    """
    core = strip_app_framing(request)
    pieces = [p.strip(" .!?") for p in _SPLIT.split(core) if p and p.strip(" .!?")]
    parts: list[str] = []
    measure: str | None = None
    after_by = False
    for piece in pieces:
        words = piece.split()
        if _TREND.search(piece) or (len(words) <= 2 and any(w.lower() in _GRAIN for w in words)):
            grain = next((_GRAIN[w.lower()] for w in words if w.lower() in _GRAIN), "monthly")
            rest = [
                w
                for w in _TREND.sub(" ", piece).split()
                if w.lower() not in _GRAIN and w.lower() not in _FILLER
            ]
            named = " ".join(rest) or measure
            if named:
                parts.append(f"{grain} {named}")
                measure = measure or named
            after_by = False
            continue
        if re.search(r"\bby\b", piece):
            head, _, tail = piece.partition(" by ") if " by " in piece else ("", "", piece[3:])
            head = head.strip() or measure or ""
            parts.append(f"{head} by {tail.strip()}".strip())
            measure = _measure_words(head) or measure
            after_by = True
            continue
        if _RANKING.search(piece) and measure and not _names_measure(piece, kit):
            parts.append(f"{piece} by {measure}")
            continue
        if after_by and measure and len(words) <= 3 and not _names_measure(piece, kit):
            parts.append(f"{measure} by {piece}")
            continue
        parts.append(piece)
        measure = _measure_words(piece) or measure
        after_by = False
    unique: list[str] = []
    for part in parts:
        if part.lower() not in [u.lower() for u in unique]:
            unique.append(part)
    return unique[:MAX_PARTS]


def _measure_words(text: str) -> str | None:
    words = [w for w in text.split() if w.lower() not in _FILLER and w.lower() not in _GRAIN]
    return " ".join(words) or None


def _names_measure(piece: str, kit: RouteKit | None) -> bool:
    return bool(kit is not None and kit.semantic.match_metrics(piece))


def dashboard_name(request: str) -> str:
    core = strip_app_framing(request) or "Dashboard"
    name = core[:1].upper() + core[1:]
    return name[:70]


class AppBuild:
    """The executor for `app_build`."""

    idempotent = True

    def __init__(self, kit: RouteKit, escalate: Executor | None = None) -> None:
        self.kit = kit
        # The executor of the route the seed's escalation map names for app_build.
        self.escalate = escalate

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        parts = split_request(ctx.question, self.kit)
        if not parts:
            return StepOutcome(
                clarification="Which numbers should the dashboard show? For example: "
                "'a dashboard of revenue by segment and monthly revenue'."
            )
        ctx.tool_called("split_request", {"parts": parts})
        tiles: list[Item] = []
        evaluations: list[Evaluation] = []
        for part in parts:
            tile, evaluation = self._tile_for(part, ctx)
            tiles.append(tile)
            evaluations.append(evaluation)
        dashboard = Dashboard(
            "dashboard",
            dashboard_name(ctx.question),
            [
                Field("status", "draft"),
                Field("description", f"Composed by ZLens from the request: {ctx.question}"),
                Field("request", ctx.question),
                Field("columns", 2),
                *self._filters(tiles),
                *tiles,
            ],
        )
        path = self._save(dashboard, evaluations)
        view = run_dashboard(
            dashboard, self.kit, on_tile=lambda name, args: ctx.tool_called(name, args)
        )
        view["path"] = str(path) if path else None
        for tile in view["tiles"]:
            ctx.tool_result(
                "run_block",
                f"{tile['title']}: {tile['trust']} ({tile['row_count']} rows)",
                {"tile": tile["title"], "trust": tile["trust"]},
            )
        answer = describe_dashboard(view)
        return StepOutcome(
            answer=answer,
            action_key=f"app:{'|'.join(parts)}",
            parsed_intent={"parts": parts, "shape": "dashboard"},
            provenance={"dashboard": {"trust": view["trust"], "reason": view["trust_reason"]}},
            evaluations=evaluations,
            artifacts=[
                Artifact(
                    kind="app_draft",
                    title=dashboard.name,
                    content={"dashboard": view, "source": view["dql"], "path": view["path"]},
                )
            ],
        )

    # -- tiles -------------------------------------------------------------------------

    def _tile_for(self, part: str, ctx: StepContext) -> tuple[Section, Evaluation]:
        match = match_certified(part, self.kit)
        if match.block is not None:
            block = match.block
            items: list[Item] = [Field("block", block.name), Field("part", part)]
            if {c.lower() for c in [*block.dimensions, block.grain or ""]} & set(_TIME_COLUMNS):
                items.append(Field("width", 2))  # a trend reads better wide
            return Section("tile", items, label=block.name), Evaluation(
                id="tile-certified-block",
                label=f"Tile: {part}",
                passed=True,
                message=f'certified block "{block.name}" fits (score {match.score})',
            )
        why = "; ".join(match.notes) or "no certified block matches"
        hint = f"no certified block fits '{part}' ({why})"
        target = ESCALATION_MAP[Route.APP_BUILD]
        ctx.emit(
            EventType.ESCALATED,
            f"{Route.APP_BUILD.value} -> {target.value}: {part}",
            payload={"part": part, "hint": hint, "to": target.value},
        )
        title = part[:1].upper() + part[1:]
        draft = self._draft(part, hint, ctx, target)
        if isinstance(draft, Section):
            tile = Section("tile", [Field("part", part), draft], label=title)
            return tile, Evaluation(
                id="tile-certified-block",
                label=f"Tile: {part}",
                passed=False,
                severity=Severity.WARNING,
                message=f"{hint}; escalated to {target.value}: a draft tile, review required",
            )
        tile = Section("tile", [Field("part", part)], label=title)
        return tile, Evaluation(
            id="tile-certified-block",
            label=f"Tile: {part}",
            passed=False,
            severity=Severity.WARNING,
            message=f"{hint}; no draft either: {draft}",
        )

    def _draft(self, part: str, hint: str, ctx: StepContext, target: Route) -> Section | str:
        if self.escalate is None:
            return f"the {target.value} route is not available"
        child = dataclasses.replace(ctx, question=part, route=target, hint=hint, previous=None)
        try:
            outcome = self.escalate(child)
        except UserError as exc:
            return str(exc)
        source = next(
            (a.content.get("source") for a in outcome.artifacts if a.kind == "dql_block_draft"),
            None,
        )
        if not isinstance(source, str):
            return outcome.clarification or "the question could not be grounded in the catalog"
        block = parse_dql(source).blocks[0]
        return Section("draft_block", list(block.items), label=block.name)

    def _filters(self, tiles: list[Item]) -> list[Section]:
        """A range filter over each time grain the tiles' certified blocks group by."""
        columns: list[str] = []
        for tile in tiles:
            assert isinstance(tile, Section)
            fields = {i.key: i.value for i in tile.items if isinstance(i, Field)}
            name = fields.get("block")
            block = self.kit.library.get(str(name)) if name else None
            if block is None:
                continue
            for column in [*block.dimensions, block.grain or ""]:
                if column.lower() in _TIME_COLUMNS and column not in columns:
                    columns.append(column)
        return [
            Section(
                "filter",
                [
                    Field("label", column.capitalize()),
                    Field("type", "range"),
                    Field("column", column),
                ],
                label=column,
            )
            for column in columns
        ]

    def _save(self, dashboard: Dashboard, evaluations: list[Evaluation]) -> Any:
        try:
            return save_dashboard(self.kit.project_dir, dashboard)
        except (UserError, OSError) as exc:
            evaluations.append(
                Evaluation(
                    id="dashboard-saved",
                    label="Dashboard saved",
                    passed=False,
                    severity=Severity.INFO,
                    message=f"not saved: {exc}",
                )
            )
            return None


def describe_dashboard(view: dict[str, Any]) -> str:
    """One sentence: the tiles and how far each can be trusted."""
    tiles = view["tiles"]
    counts: dict[str, list[str]] = {}
    for tile in tiles:
        key = "draft" if tile["draft"] and tile["kind"] != "missing" else tile["trust"]
        key = "missing" if tile["kind"] == "missing" else key
        counts.setdefault(key, []).append(tile["title"])
    said = "; ".join(
        f"{len(names)} {key.replace('_', ' ')} ({', '.join(names)})"
        for key, names in counts.items()
    )
    filters = ", ".join(f["label"] for f in view["filters"])
    plural = "s" if len(tiles) != 1 else ""
    text = f'Dashboard "{view["name"]}": {len(tiles)} tile{plural} — {said}.'
    if filters:
        text += f" Filters: {filters}."
    return text


__all__ = ["AppBuild", "describe_dashboard", "split_request"]
