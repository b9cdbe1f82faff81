"""`Dashboard`: typed accessors over a `dashboard "Name" { ... }` declaration, and its
certification (the files under `dashboards/` are read and written by `dashboard_files`).

A dashboard is a file a person owns, like a block. It names its tiles' blocks rather than
copying them, so a tile is exactly as trustworthy as the block it runs, and shared filters bind
to what the blocks declare (`@param`s) or to a column a tile's result is grouped by:

    dashboard "Sales overview" {
      domain = "sales"
      status = "draft"
      owner = "analytics@company.com"
      description = "Revenue by segment and orders by channel."
      request = "revenue by segment and orders by channel"
      columns = 2

      filter "region" {
        label = "Region"
        param = "region"                 // binds @param("region") in every tile's block
        values = ["North", "South", "East", "West"]
      }

      filter "month" {
        label = "Month"
        type = "range"                   // rows whose `column` lies in the chosen range
        column = "month"
      }

      tile "Revenue by segment" {
        block = "Revenue by segment"
        chart = "bar"
        width = 1
      }

      tile "Orders by channel" {         // no certified block: a draft, shown as one
        part = "orders by channel"
        draft_block "Orders by channel" { query = "SELECT ..." }
      }
    }

Certifying a dashboard (a human act) needs every tile's block certified with a current record;
the record lists each block with the SQL hash it was certified at.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.model import (
    BlockStatus,
    Declaration,
    Field,
    Section,
    section_to_dict,
)

DASHBOARDS_DIR = "dashboards"
FILTER_TYPES = ("select", "range")
CHARTS = ("bar", "line", "area", "single_value", "table", "pie", "scatter")


@dataclass(frozen=True)
class TileSpec:
    """One `tile "Title" { ... }` section, read."""

    title: str
    block: str | None  # the library block it runs, by name
    part: str | None  # the words of the request it serves
    chart: str | None
    width: int
    draft: Block | None  # an inline `draft_block "Name" { ... }`: AI output, never certified

    @property
    def is_draft(self) -> bool:
        return self.block is None


@dataclass(frozen=True)
class FilterSpec:
    """One `filter "name" { ... }` section, read."""

    name: str
    label: str
    type: str  # select | range
    param: str | None  # the @param it binds (select filters)
    column: str | None  # the result column it selects rows by
    values: tuple[Any, ...]


@dataclass(eq=True)
class Dashboard(Declaration):
    """`dashboard "Name" { ... }`: tiles that run blocks, and filters shared between them."""

    @property
    def status(self) -> BlockStatus:
        raw = self._text("status")
        return BlockStatus(raw) if raw else BlockStatus.DRAFT

    @status.setter
    def status(self, value: BlockStatus | str) -> None:
        self.set("status", str(BlockStatus(value)), after=("domain",))

    @property
    def request(self) -> str | None:
        return self._text("request")

    @property
    def columns(self) -> int:
        value = self.get("columns")
        return max(1, min(4, int(value))) if isinstance(value, int | float) else 2

    @property
    def tiles(self) -> list[TileSpec]:
        out = []
        for item in self.items:
            if not isinstance(item, Section) or item.name != "tile":
                continue
            fields = {i.key: i.value for i in item.items if isinstance(i, Field)}
            draft = next(
                (
                    Block("block", s.label or item.label or "Draft", list(s.items))
                    for s in item.items
                    if isinstance(s, Section) and s.name == "draft_block"
                ),
                None,
            )
            width = fields.get("width")
            out.append(
                TileSpec(
                    title=item.label or str(fields.get("block") or "Tile"),
                    block=_text(fields.get("block")),
                    part=_text(fields.get("part")),
                    chart=_text(fields.get("chart")),
                    width=max(1, min(4, int(width))) if isinstance(width, int | float) else 1,
                    draft=draft,
                )
            )
        return out

    @property
    def filters(self) -> list[FilterSpec]:
        out = []
        for item in self.items:
            if not isinstance(item, Section) or item.name != "filter":
                continue
            fields = section_to_dict(item)
            name = item.label or str(fields.get("param") or fields.get("column") or "filter")
            kind = str(fields.get("type") or "select")
            values = fields.get("values")
            out.append(
                FilterSpec(
                    name=name,
                    label=str(fields.get("label") or name.replace("_", " ").capitalize()),
                    type=kind if kind in FILTER_TYPES else "select",
                    param=_text(fields.get("param")),
                    column=_text(fields.get("column")),
                    values=tuple(values) if isinstance(values, list) else (),
                )
            )
        return out

    @property
    def certification(self) -> dict[str, Any] | None:
        section = self.section("certification")
        return None if section is None else section_to_dict(section)

    def problems(self) -> list[str]:
        """What is malformed in the declaration itself (before any block is looked up)."""
        found = []
        titles = [t.title.lower() for t in self.tiles]
        if not titles:
            found.append('no tiles: add tile "Title" { block = "Block name" }')
        for title in sorted({t for t in titles if titles.count(t) > 1}):
            found.append(f"two tiles are called {title!r}; give each its own title")
        for tile in self.tiles:
            if tile.block is None and tile.draft is None and tile.part is None:
                found.append(f'tile {tile.title!r} names no block (block = "...")')
            if tile.chart is not None and tile.chart not in CHARTS:
                found.append(f"tile {tile.title!r}: chart {tile.chart!r} is not one of {CHARTS}")
        for spec in self.filters:
            if spec.type == "select" and not (spec.param or spec.column):
                found.append(f"filter {spec.name!r} binds nothing: set param or column")
            if spec.type == "range" and not spec.column:
                found.append(f'filter {spec.name!r}: a range filter needs column = "..."')
        return found

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": str(self.status),
            "domain": self.domain,
            "owner": self.owner,
            "description": self.description,
            "request": self.request,
            "columns": self.columns,
            "tiles": [
                {"title": t.title, "block": t.block, "part": t.part, "chart": t.chart}
                for t in self.tiles
            ],
            "filters": [f.name for f in self.filters],
            "certification": self.certification,
            "source": self.source,
        }


def _text(value: Any) -> str | None:
    return str(value) if isinstance(value, str) and value else None


# -- certification --------------------------------------------------------------------------


def certification_problems(
    dashboard: Dashboard, blocks: dict[str, Block], lowered: dict[str, str]
) -> list[str]:
    """Why the dashboard cannot be certified (empty when it can): every tile must run a
    certified block whose record is current; a draft tile never can be."""
    problems = list(dashboard.problems())
    for field_name in ("domain", "owner", "description"):
        if not dashboard.get(field_name):
            problems.append(f'missing {field_name}: add {field_name} = "..."')
    for tile in dashboard.tiles:
        if tile.block is None:
            problems.append(
                f"tile {tile.title!r} is a draft: review its block, save it under blocks/, "
                'certify it, then point the tile at it with block = "..."'
            )
            continue
        block = blocks.get(tile.block.lower())
        if block is None:
            problems.append(f"tile {tile.title!r}: no block named {tile.block!r}")
        elif tile.block in lowered or block.name in lowered:
            problems.append(f"tile {tile.title!r}: {block.name!r} {lowered[block.name]}")
        elif not block.is_certified:
            problems.append(f"tile {tile.title!r}: block {block.name!r} is {block.status}")
    return problems


def certification_record(
    dashboard: Dashboard, hashes: dict[str, str], *, by: str, now: dt.datetime | None = None
) -> Section:
    """The `certification { ... }` section: who, when, and each tile's block with its hash."""
    moment = now or dt.datetime.now(dt.UTC)
    names = [t.block for t in dashboard.tiles if t.block]
    return Section(
        "certification",
        [
            Field("by", by.strip()),
            Field("at", moment.isoformat(timespec="seconds")),
            Field("blocks", [str(n) for n in names]),
            Field("sql_hashes", [hashes[str(n).lower()] for n in names]),
        ],
    )


def certification_drift(dashboard: Dashboard, hashes: dict[str, str]) -> str | None:
    """Why a certified dashboard's record no longer matches its tiles, or None."""
    record = dashboard.certification
    if dashboard.status is not BlockStatus.CERTIFIED:
        return None
    if not record or not record.get("by") or not record.get("sql_hashes"):
        return "its file says certified, but there is no certification record"
    names = [str(n).lower() for n in record.get("blocks") or []]
    current = [t.block.lower() for t in dashboard.tiles if t.block]
    if names != current or any(t.block is None for t in dashboard.tiles):
        return "its tiles changed since certification"
    recorded = dict(zip(names, [str(h) for h in record.get("sql_hashes") or []], strict=False))
    for name in names:
        if hashes.get(name) != recorded.get(name):
            return f"the SQL of {name!r} changed since the dashboard was certified"
    return None


def set_certification(dashboard: Dashboard, record: Section) -> None:
    dashboard.status = BlockStatus.CERTIFIED
    dashboard.set_section(record)
