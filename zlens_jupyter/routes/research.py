"""research, offline: why / trend questions as 2-4 grounded sub-queries and a dossier.

1. the measure by period, to find the latest period the question is about and the one before;
2-4. the change between those two periods broken down by the most relevant dimensions.
Each finding carries its evidence table; the summary sentence only states numbers that are in
those tables.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlglot import exp

from ..engine import Artifact, StepContext, StepOutcome
from ..parsing import Filter, GroupBy, QuestionSpec, TimeRange, is_key
from .clarify_options import clarification_options
from .generated import clarification
from .kit import RouteKit, refuse_unsafe_request
from .narrate import fmt, humanize
from .sqlbuild import Unbuildable, build_sql

MAX_DIMENSIONS = 8


class Research:
    idempotent = True

    def __init__(self, kit: RouteKit) -> None:
        self.kit = kit

    def __call__(self, ctx: StepContext) -> StepOutcome:
        refuse_unsafe_request(ctx.question)
        parsed = self.kit.parse(_without_why(ctx.question))
        if parsed.spec is None or not parsed.spec.measures:
            return clarification(
                parsed.clarification or "Which measure should I investigate?",
                parsed.candidates,
                parsed.unresolved,
                clarification_options(self.kit, ctx.question, parsed.unresolved, parsed.candidates),
            )
        spec = parsed.spec
        spec.measures = spec.measures[:1]
        catalog = self.kit.warehouse.dated_catalog()
        trend = replace(
            spec, group_by=[], time_grain="month", time_range=None, limit=None, order_desc=None
        )
        try:
            trend_sql = build_sql(trend, catalog, self.kit.semantic)
        except Unbuildable as exc:
            return clarification(str(exc), [], [])
        ctx.tool_called("run_sql_preview", {"sql": trend_sql, "purpose": "measure by month"})
        series, facts = self.kit.execute(trend_sql, ctx)
        if series is None or series["row_count"] < 2:
            return StepOutcome(
                sql=trend_sql,
                result=series,
                provenance=facts,
                parsed_intent={"shape": "timeseries"},
                action_key=trend_sql,
            )
        latest, previous = _periods(series, spec.time_range)
        findings = [_trend_finding(spec, series, latest, previous, trend_sql)]
        dims = self._dimensions(spec)
        driver = self._drivers(ctx, spec, dims, latest, previous, "")
        if driver is not None:
            findings.append(driver)
            top = driver["top"]
            inside = replace(
                spec,
                filters=[
                    *spec.filters,
                    Filter(top["table"], top["column"], "=", top["value"], label=top["dim"]),
                ],
            )
            rest = [g for g in dims if (g.table, g.column) != (top["table"], top["column"])]
            drill = self._drivers(
                ctx, inside, rest, latest, previous, f"Within {top['dim']} {top['value']}, "
            )
            if drill is not None:
                findings.append(drill)
        answer = " ".join(f["sentence"] for f in findings)
        numbers = [
            v
            for f in findings
            for row in f["result"]["rows"]
            for v in row
            if isinstance(v, int | float)
        ]
        facts["numbers_from_sub_results"] = numbers
        facts["sub_queries"] = len(findings)
        for f in findings:
            f.pop("top", None)
        dossier = Artifact(
            kind="research_run",
            title="Research dossier",
            content={"question": ctx.question, "findings": findings},
        )
        return StepOutcome(
            answer=answer,
            sql=trend_sql,
            result=series,
            action_key=trend_sql,
            parsed_intent={**spec.to_dict(), "shape": "timeseries", "periods": [previous, latest]},
            provenance=facts,
            artifacts=[dossier],
        )

    def _dimensions(self, spec: QuestionSpec) -> list[GroupBy]:
        """The dimensions to break the change down by: those the question named, then the
        semantic dimensions reachable from the measure, then low-cardinality text columns."""
        chosen = [g for g in spec.group_by if not g.is_time]
        catalog = self.kit.warehouse.dated_catalog()
        seen = {(g.table, g.column) for g in chosen}
        for dim in self.kit.semantic.dimensions:
            if (
                dim.type == "string"
                and (dim.table, dim.sql) not in seen
                and (catalog.join_path(spec.fact_table, dim.table) is not None)
            ):
                n = _distinct_count(catalog, dim.table, dim.sql)
                if 1 < n <= 12:
                    chosen.append(GroupBy(dim.table, dim.sql, alias=dim.name))
                    seen.add((dim.table, dim.sql))
        for table in catalog.tables.values():
            if catalog.join_path(spec.fact_table, table.name) is None:
                continue
            for col in table.columns:
                if (
                    1 < len(col.distinct_values) <= 12
                    and not is_key(col.name)
                    and (table.name, col.name) not in seen
                ):
                    chosen.append(GroupBy(table.name, col.name, alias=col.name))
                    seen.add((table.name, col.name))
        return chosen

    def _drivers(
        self,
        ctx: StepContext,
        spec: QuestionSpec,
        dims: list[GroupBy],
        latest: str,
        previous: str,
        lead: str,
    ) -> dict[str, Any] | None:
        """One sub-query: the change between the two periods for every value of every
        candidate dimension; the largest change is the finding."""
        parts = []
        catalog = self.kit.warehouse.dated_catalog()
        measure = q(spec.measures[0].alias)
        for group in dims[:MAX_DIMENSIONS]:
            try:
                now, before = (
                    build_sql(
                        replace(
                            spec,
                            group_by=[group],
                            time_grain=None,
                            limit=None,
                            order_desc=None,
                            time_range=TimeRange(*_month_bounds(p), p),
                        ),
                        catalog,
                        self.kit.semantic,
                    )
                    for p in (latest, previous)
                )
            except Unbuildable:
                continue
            key = q(group.alias)
            parts.append(
                f"SELECT {lit(group.alias)} AS dimension, {lit(group.table)} AS source_table, "
                f"{lit(group.column or '')} AS source_column, "
                f"CAST(COALESCE(n.{key}, b.{key}) AS VARCHAR) AS value, b.{measure} AS previous, "
                f"n.{measure} AS latest, "
                f"ROUND(COALESCE(n.{measure}, 0) - COALESCE(b.{measure}, 0), 2) AS change\n"
                f"FROM ({now}) AS n FULL JOIN ({before}) AS b ON n.{key} = b.{key}"
            )
        if not parts:
            return None
        # Rank by the change beyond the value's fair share of the total change, so a value
        # that is simply large (90% of orders are "completed") does not pass for a driver.
        sql = (
            "SELECT dimension, value, previous, latest, change,\n"
            "  ROUND(change - COALESCE(previous, 0)\n"
            "    / NULLIF(SUM(COALESCE(previous, 0)) OVER (PARTITION BY dimension), 0)\n"
            "    * SUM(change) OVER (PARTITION BY dimension), 2) AS beyond_share,\n"
            "  source_table, source_column\n"
            "FROM (\n" + "\nUNION ALL\n".join(parts) + "\n) AS changes\n"
            "ORDER BY abs(beyond_share) DESC NULLS LAST\nLIMIT 20"
        )
        purpose = f"{lead}comparing {latest} with {previous} by " + ", ".join(
            str(g.alias) for g in dims[:4]
        )
        ctx.tool_called("run_sql_preview", {"sql": sql, "purpose": purpose})
        result, _ = self.kit.execute(sql, ctx)
        if not result or not result["rows"]:
            return None
        dim, value, before_v, now_v, change, _, table, column = result["rows"][0]
        sentence = (
            f"{lead}the largest change was {dim} {value}: {fmt(before_v)} in {previous} "
            f"to {fmt(now_v)} in {latest} (change {fmt(change)})."
        )
        sentence = sentence[:1].upper() + sentence[1:]
        return {
            "title": lead.strip(", ") or "Change by dimension",
            "sentence": sentence,
            "sql": sql,
            "result": result,
            "top": {"dim": dim, "value": value, "table": table, "column": column},
        }


def q(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(dialect="duckdb")


def lit(text: str) -> str:
    return exp.Literal.string(text).sql(dialect="duckdb")


def _without_why(question: str) -> str:
    """Strip the "why did ... drop" framing so the parser sees the measure and the period."""
    import re

    text = re.sub(
        r"\b(why|did|does|do|has|have|what|drove|caused|explain|the|change|in)\b",
        " ",
        question,
        flags=re.IGNORECASE,
    )
    text = re.sub(
        r"\b(drop(ped)?|decline[sd]?|fell|fall|rise|rose|increase[sd]?|decrease[sd]?|"
        r"spike[sd]?|jump(ed)?|grow|grew|go|went|up|down|so|much|trend)\b",
        " ",
        text,
        flags=re.IGNORECASE,
    )
    months = re.search(
        r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b( \d{4})?",
        question,
        re.IGNORECASE,
    )
    if months:
        text = text.replace(months.group(0), " ")
        text += f" in {months.group(0)}"
    return " ".join(text.split())


def _periods(series: dict[str, Any], asked: TimeRange | None) -> tuple[str, str]:
    labels = [period_label(row) for row in series["rows"]]
    latest_index = len(labels) - 1
    if asked is not None and asked.month_only is not None:
        wanted = [i for i, label in enumerate(labels) if int(label[5:7]) == asked.month_only]
        latest_index = wanted[-1] if wanted else latest_index
    elif asked is not None and asked.start:
        wanted = [i for i, label in enumerate(labels) if label == asked.start[:7]]
        latest_index = wanted[-1] if wanted else latest_index
    latest_index = max(latest_index, 1)
    return labels[latest_index], labels[latest_index - 1]


def _trend_finding(
    spec: QuestionSpec, series: dict[str, Any], latest: str, previous: str, sql: str
) -> dict[str, Any]:
    values = {period_label(row): row[-1] for row in series["rows"]}
    label = humanize(spec.measures[0].alias)
    now, before = values.get(latest), values.get(previous)
    direction = "fell" if (now or 0) < (before or 0) else "rose"
    sentence = f"{label} {direction} from {fmt(before)} in {previous} to {fmt(now)} in {latest}."
    return {
        "title": f"{label} by month",
        "sentence": sentence,
        "sql": sql,
        "result": series,
        "compared": [previous, latest],  # the periods the sentence talks about
    }


def period_label(row: list[Any]) -> str:
    """ "2025-12" for a row that starts with a month date, or with integer year and month."""
    if len(row) >= 3 and isinstance(row[0], int) and isinstance(row[1], int):
        return f"{row[0]:04d}-{row[1]:02d}"
    return str(row[0])[:7]


def _month_bounds(period: str) -> tuple[str, str]:
    year, month = int(period[:4]), int(period[5:7])
    end_year, end_month = (year + 1, 1) if month == 12 else (year, month + 1)
    return f"{year:04d}-{month:02d}-01", f"{end_year:04d}-{end_month:02d}-01"


def _distinct_count(catalog: Any, table: str, column: str) -> int:
    info = catalog.table(table)
    col = info.column(column) if info is not None else None
    return len(col.distinct_values) if col is not None else 0


__all__ = ["Filter", "Research"]
