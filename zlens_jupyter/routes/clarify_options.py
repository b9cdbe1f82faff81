"""The choices a clarifying question offers, each one a question to ask again.

When the parser cannot place a word ("segmnt", "weight"), the user should not have to retype
the question: each option names a real column (a near spelling of the word first, then the
columns schema linking found), says what it is (words with units, its type, a few sample
values) and carries the question re-asked with that column in place of the word. Options go
into the clarification artifact (`content.options`), so the notebook shows them as buttons
and `zlens ask --json` carries them for scripts, in the one run-record schema.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..errors import QueryError, QueryTimeout
from ..warehouse.catalog import quote_identifier
from ..warehouse.validate import nearest_names
from .narrate import humanize

MAX_OPTIONS = 5
MAX_SAMPLES = 3


def clarification_options(
    kit: Any, question: str, unresolved: list[str], candidates: list[str]
) -> list[dict[str, Any]]:
    """Up to five options: near spellings of an unplaced word first, then `candidates`
    (`table.column`), each with `question`, the question re-asked with that column."""
    catalog = kit.warehouse.catalog()
    columns = [(t.name, c) for t in catalog.tables.values() for c in t.columns]
    chosen: list[tuple[str, str, Any, str | None]] = []  # (kind, table, column, word)
    for word in unresolved[:3]:
        for name in _respellings(word, {c.name for _, c in columns}):
            chosen += [("near_spelling", t, c, word) for t, c in columns if c.name == name]
    only = unresolved[0] if len(unresolved) == 1 else None
    for qualified in candidates:
        table, _, name = qualified.rpartition(".")
        info = catalog.table(table) if table else None
        column = info.column(name) if info is not None else None
        if info is not None and column is not None:
            chosen.append(("column", info.name, column, only))
    options = _metric_options(kit, question, unresolved)
    options += _column_options(kit, question, chosen)
    return ([_all_spellings(question, options)] if _spelled(options) > 1 else []) + options[
        :MAX_OPTIONS
    ]


def _column_options(
    kit: Any, question: str, chosen: list[tuple[str, str, Any, str | None]]
) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for kind, table, column, word in chosen:
        key = (table.lower(), column.name.lower())
        if key in seen:
            continue
        seen.add(key)
        options.append(
            {
                "kind": kind,
                "table": table,
                "column": column.name,
                "label": humanize(column.name),
                "type": column.type,
                "samples": _samples(kit, table, column),
                "replaces": word,
                "question": _reask(question, word, column.name),
            }
        )
        if len(options) == MAX_OPTIONS:
            break
    return options


def _spelled(options: list[dict[str, Any]]) -> int:
    """How many different words the options respell."""
    return len({o["replaces"] for o in options if o["kind"] != "column" and o["replaces"]})


def _all_spellings(question: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """One option that respells every word that has a near spelling (the closest one)."""
    fixed = question
    names: list[str] = []
    done: set[str] = set()
    for option in options:
        word = option["replaces"]
        if option["kind"] == "column" or not word or word in done:
            continue
        done.add(word)
        name = option.get("metric") or option["column"]
        fixed = _reask(fixed, word, name) or fixed
        names.append(name.replace("_", " "))
    return {"kind": "spellings", "label": ", ".join(names), "replaces": None, "question": fixed}


def _metric_options(kit: Any, question: str, unresolved: list[str]) -> list[dict[str, Any]]:
    """The project's metrics an unplaced word is a near spelling of ("revnue": revenue)."""
    semantic = getattr(kit, "semantic", None)
    metrics = {m.name: m for m in getattr(semantic, "metrics", ())}
    options: list[dict[str, Any]] = []
    for word in unresolved[:3]:
        for name in _respellings(word, metrics):
            metric = metrics[name]
            options.append(
                {
                    "kind": "metric",
                    "metric": metric.name,
                    "label": metric.label or humanize(metric.name),
                    "description": metric.description,
                    "replaces": word,
                    "question": _reask(question, word, metric.name),
                }
            )
    return options[:MAX_OPTIONS]


def _respellings(word: str, names: Iterable[str]) -> list[str]:
    """Near spellings of `word`, never the word itself: asking the same question again
    would only ask the same clarifying question."""
    return [n for n in nearest_names(word, names) if n.lower() != word.lower()]


def _reask(question: str, word: str | None, column: str) -> str | None:
    """The question with `word` (as written, whole word) replaced by the column's words."""
    if not word:
        return None
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    if not pattern.search(question):
        return None
    return pattern.sub(column.replace("_", " ").lower(), question, count=1)


def _samples(kit: Any, table: str, column: Any) -> list[str]:
    """A few values of the column: the catalog's sampled ones, else a tiny bounded query."""
    if column.distinct_values:
        return [str(v) for v in column.distinct_values[:MAX_SAMPLES]]
    name = quote_identifier(column.name)
    sql = (
        f"SELECT DISTINCT {name} FROM {quote_identifier(table)} "
        f"WHERE {name} IS NOT NULL ORDER BY 1 LIMIT {MAX_SAMPLES}"
    )
    try:
        preview = kit.warehouse.preview(sql, limit=MAX_SAMPLES, timeout_s=2.0)
    except (QueryError, QueryTimeout):
        return []
    return [str(row[0]) for row in preview.rows]


__all__ = ["clarification_options"]
