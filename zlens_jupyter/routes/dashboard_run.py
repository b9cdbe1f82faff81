"""Run a `dashboard` declaration: every tile's block, every filter variant, every trust label.

The result is one JSON-ready dict (the *view*) that the notebook widget draws, the exported
HTML file embeds and `zlens dashboard run --json` prints: one schema for all three.

Filters work without a kernel because the view carries what each filter can show:

- a `select` filter bound to a block's `@param("x")` re-runs that block once per option (the
  block still runs unchanged: a parameter is part of what a person certified), and each run is
  stored under a variant key such as `region=North`;
- a filter bound to a column a tile's result is *grouped by* (a month range, a segment) selects
  rows of that result in the browser. A tile that neither declares the parameter nor groups by
  the column is not bound, and says so, rather than pretending to be filtered.

Trust is per tile: `certified` only for a certified block whose record is current and whose
tests pass; a drifted block is `pending_recertification`; anything else (a draft, a block under
review, a failed test, an error) is `review_required`; a guardrail stop is `blocked`. The
dashboard's label is the lowest of its tiles.
"""

from __future__ import annotations

import datetime as dt
import decimal
import itertools
import math
from collections.abc import Callable
from typing import Any

from ..dql import (
    Block,
    check_drift,
    compile_block,
    evaluate_assertions,
    find_references,
    format_dql,
    sql_hash,
)
from ..dql.dashboard import Dashboard, FilterSpec, TileSpec
from ..errors import GuardrailViolation, ZLensError
from .kit import RouteKit

# Lowest first: the dashboard's label is the first of these any tile has.
LABEL_ORDER = ("blocked", "review_required", "pending_recertification", "certified")
TILE_ROWS = 500  # rows embedded per tile variant
MAX_VARIANTS = 64  # filter combinations embedded per tile
MAX_OPTIONS = 50
_TIME_COLUMNS = ("month", "week", "day", "date", "quarter", "year")

TileHook = Callable[[str, dict[str, Any]], None]


def lowest_label(labels: list[str]) -> str:
    """The least trusted label of a dashboard's tiles (`review_required` when there are none).

    >>> lowest_label(["certified", "pending_recertification", "certified"])
    'pending_recertification'
    """
    known = [label for label in labels if label in LABEL_ORDER]
    return min(known, key=LABEL_ORDER.index) if known else "review_required"


def run_dashboard(
    dashboard: Dashboard, kit: RouteKit, *, on_tile: TileHook | None = None
) -> dict[str, Any]:
    """Run every tile (and filter variant) of `dashboard`; return its view."""
    metric = kit.semantic.metric_expression
    tiles = [_TileRun(spec, kit, metric) for spec in dashboard.tiles]
    filters = [_filter_view(spec, tiles, kit) for spec in dashboard.filters]
    views = []
    for tile in tiles:
        if on_tile is not None:
            on_tile("run_block", {"tile": tile.spec.title, "block": tile.block_name})
        views.append(tile.view(filters))
    for view in filters:
        view["tiles"] = [t["title"] for t in views if view["name"] in t["binds"]]
    label = lowest_label([t["trust"] for t in views])
    weakest = [t for t in views if t["trust"] == label]
    reason = (
        "every tile runs a certified block whose record is current"
        if label == "certified"
        else "; ".join(f"{t['title']}: {t['reason']}" for t in weakest[:3])
    )
    return {
        "kind": "zlens-dashboard",
        "version": 1,
        "name": dashboard.name,
        "status": str(dashboard.status),
        "description": dashboard.description,
        "request": dashboard.request,
        "owner": dashboard.owner,
        "columns": dashboard.columns,
        "trust": label,
        "trust_reason": reason,
        "problems": dashboard.problems(),
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "filters": filters,
        "tiles": views,
        "dql": "// dql-format: 1\n" + format_dql(dashboard),
    }


def block_hashes(dashboard: Dashboard, kit: RouteKit) -> dict[str, str]:
    """`{block name (lower case): sql_hash}` for the blocks the tiles run."""
    out = {}
    for tile in dashboard.tiles:
        block = kit.library.get(tile.block) if tile.block else None
        if block is None:
            continue
        compiled = compile_block(
            block,
            kit.library,
            metric_resolver=kit.semantic.metric_expression,
            require_params=False,
        )
        out[block.name.lower()] = sql_hash(compiled.sql)
    return out


class _TileRun:
    """One tile: its block, its trust, and its data for every filter variant."""

    def __init__(self, spec: TileSpec, kit: RouteKit, metric: Any) -> None:
        self.spec, self.kit, self.metric = spec, kit, metric
        self.block: Block | None = kit.library.get(spec.block) if spec.block else spec.draft
        self.block_name = self.block.name if self.block else (spec.block or spec.part or "")
        self.params = _params_of(self.block)
        self.error: str | None = None
        self.base = self._run({}) if self.block is not None else None

    def _run(self, params: dict[str, Any]) -> dict[str, Any] | None:
        assert self.block is not None
        try:
            compiled = compile_block(
                self.block,
                self.kit.library,
                params=params,
                metric_resolver=self.metric,
                require_params=False,
            )
            preview = self.kit.warehouse.preview(
                compiled.sql,
                params=compiled.params or None,
                limit=TILE_ROWS,
                timeout_s=self.kit.statement_timeout_s,
            )
        except GuardrailViolation as exc:
            self.error = f"blocked: {exc}"
            return None
        except ZLensError as exc:
            self.error = str(exc)
            return None
        return {
            "sql": compiled.sql,
            "columns": list(preview.columns),
            "rows": [[json_value(v) for v in row] for row in preview.rows],
            "raw_rows": preview.rows,
            "row_count": preview.row_count,
            "truncated": preview.truncated,
        }

    def grain_columns(self) -> set[str]:
        if self.block is None:
            return set()
        words = [*self.block.dimensions, *(self.block.grain or "").split(",")]
        return {w.strip().lower() for w in words if w.strip()}

    def trust(self) -> tuple[str, str, list[dict[str, Any]]]:
        """(label, reason, test results) for the tile as it ran."""
        if self.block is None:
            why = f"no certified block fits '{self.spec.part}'" if self.spec.part else ""
            return "review_required", why or f"no block named {self.spec.block!r}", []
        if self.base is None:
            label = "blocked" if (self.error or "").startswith("blocked") else "review_required"
            return label, f"the block did not run: {self.error}", []
        columns, rows = self.base["columns"], [tuple(r) for r in self.base["raw_rows"]]
        tests = [
            {k: json_value(v) for k, v in r.to_dict().items()}
            for r in evaluate_assertions(self.block, columns, rows)
        ]
        failed = [t for t in tests if not t["passed"]]
        if self.spec.block is None:
            why = f"no certified block fits '{self.spec.part}'" if self.spec.part else "a draft"
            return "review_required", f"{why}: a block ZLens drafted, for a person to review", tests
        lowered = self.kit.library.lowered.get(self.block.name)
        drift = lowered or check_drift(
            self.block, self.kit.library, self.kit.warehouse, metric_resolver=self.metric
        )
        if drift and (self.block.certification or {}).get("sql_hash"):
            return "pending_recertification", f"{self.block.name!r}: {drift}", tests
        if drift or not self.block.is_certified:
            why = drift or f"block {self.block.name!r} is {self.block.status}, not certified"
            return "review_required", why, tests
        if failed:
            return "review_required", f"test failed: {failed[0]['message']}", tests
        return "certified", f"certified block {self.block.name!r} ran unchanged", tests

    def view(self, filters: list[dict[str, Any]]) -> dict[str, Any]:
        label, reason, tests = self.trust()
        base = self.base or {"columns": [], "rows": [], "row_count": 0, "truncated": False}
        kind, x, y = tile_kind(self.spec, self.block, base)
        binds: dict[str, str] = {}
        bound_params: list[dict[str, Any]] = []
        for view in filters:
            param = view.get("param")
            if param and param in self.params and view["options"]:
                bound_params.append(view)
                binds[view["name"]] = "param"
            elif view.get("column") and self._groups_by(view["column"], base):
                binds[view["name"]] = "rows"
        variants = self._variants(bound_params, binds) if self.base else {}
        return {
            "title": self.spec.title,
            "block": self.spec.block if self.spec.block else None,
            "draft_block": self.spec.draft.name if self.spec.draft else None,
            "part": self.spec.part,
            "draft": self.spec.block is None,
            "status": str(self.block.status) if self.block else "missing",
            "trust": label,
            "reason": reason,
            "kind": kind,
            "x": x,
            "y": y,
            "width": self.spec.width,
            "columns": base["columns"],
            "rows": base["rows"],
            "row_count": base["row_count"],
            "truncated": base["truncated"],
            "sql": (self.base or {}).get("sql"),
            "tests": tests,
            "binds": binds,
            "variants": variants,
            "draft_source": format_dql(self.spec.draft) if self.spec.draft else None,
        }

    def _groups_by(self, column: str, base: dict[str, Any]) -> bool:
        column = column.lower()
        return column in {c.lower() for c in base["columns"]} and column in self.grain_columns()

    def _variants(
        self, bound: list[dict[str, Any]], binds: dict[str, str]
    ) -> dict[str, dict[str, Any]]:
        if not bound:
            return {}
        choices = [["*", *view["options"]] for view in bound]
        if math.prod(len(c) for c in choices) > MAX_VARIANTS:
            for view in bound:  # too many to embed: say so rather than filter some of them
                binds.pop(view["name"], None)
            return {}
        out = {}
        for combo in itertools.product(*choices):
            key = variant_key({v["param"]: value for v, value in zip(bound, combo, strict=True)})
            if all(value == "*" for value in combo):
                continue  # the base run
            params = {v["param"]: value for v, value in zip(bound, combo, strict=True)}
            params = {k: v for k, v in params.items() if v != "*"}
            ran = self._run(params)
            if ran is None:
                continue
            out[key] = {"rows": ran["rows"], "row_count": ran["row_count"]}
        return out


def variant_key(values: dict[str, Any]) -> str:
    """The key of a filter combination, the same in Python and in the browser.

    >>> variant_key({"segment": "*", "region": "North"})
    'region=North&segment=*'
    """
    return "&".join(f"{k}={values[k]}" for k in sorted(values))


def tile_kind(
    spec: TileSpec, block: Block | None, result: dict[str, Any]
) -> tuple[str, str | None, str | None]:
    """(kpi | bar | line | table | missing, x column, y column) for a tile's result."""
    columns = list(result.get("columns") or [])
    if block is None or not columns:
        return "missing", None, None
    vis = block.visualization
    chart = spec.chart or str(vis.get("chart") or "")
    rows = result.get("rows") or []
    numeric = [c for i, c in enumerate(columns) if rows and _is_number(rows[0][i])]
    y = str(vis["y"]) if vis.get("y") in columns else (numeric[0] if numeric else None)
    others = [c for c in columns if c not in numeric]
    x = str(vis["x"]) if vis.get("x") in columns else (others[0] if others else None)
    if chart == "single_value" or (len(rows) == 1 and y is not None and not others):
        return "kpi", None, y
    if chart == "table" or x is None or y is None:
        return "table", x, y
    if chart in ("line", "area") or x.lower() in _TIME_COLUMNS:
        return "line", x, y
    return ("bar" if len(rows) <= 40 else "table"), x, y


def _filter_view(spec: FilterSpec, tiles: list[_TileRun], kit: RouteKit) -> dict[str, Any]:
    options: list[Any] = [json_value(v) for v in spec.values]
    if not options and spec.column:
        seen: dict[str, Any] = {}
        for tile in tiles:
            base = tile.base or {}
            columns = [c.lower() for c in base.get("columns", [])]
            if spec.column.lower() in columns and spec.column.lower() in tile.grain_columns():
                at = columns.index(spec.column.lower())
                for row in base.get("rows", []):
                    seen.setdefault(str(row[at]), row[at])
        options = sorted(seen.values(), key=str)[: 10 * MAX_OPTIONS]
    if not options and spec.param:
        options = _param_options(spec.param, tiles, kit)
    return {
        "name": spec.name,
        "label": spec.label,
        "type": spec.type,
        "param": spec.param,
        "column": spec.column,
        "options": options,
    }


def _param_options(param: str, tiles: list[_TileRun], kit: RouteKit) -> list[Any]:
    """A parameter's values, read from the column a block binds it to (`filterBindings`)."""
    for tile in tiles:
        if tile.block is None or param not in tile.params:
            continue
        column = tile.block.filter_bindings.get(param)
        if not isinstance(column, str) or "." not in column:
            continue
        table, name = column.rsplit(".", 1)
        sql = f'SELECT DISTINCT "{name}" FROM "{table}" WHERE "{name}" IS NOT NULL ORDER BY 1'
        try:
            preview = kit.warehouse.preview(sql, limit=MAX_OPTIONS)
        except ZLensError:
            continue
        return [json_value(r[0]) for r in preview.rows]
    return []


def _params_of(block: Block | None) -> set[str]:
    if block is None or not block.query:
        return set()
    return {r.name for r in find_references(block.query) if r.kind == "param"}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_value(value: Any) -> Any:
    """A cell as JSON: dates as ISO text, decimals as floats, NaN as null."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)
