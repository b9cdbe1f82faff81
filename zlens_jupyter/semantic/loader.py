"""Load and validate `semantic/*.yml` files into one `SemanticModel`.

Every problem is a `UserError` that names the file, the item and what to write instead, e.g.
`semantic/shop.yml: metric 'revenue': type 'total' is not one of sum, avg, count, ...`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from zlens_jupyter.errors import UserError
from zlens_jupyter.inputs import MAX_SEMANTIC_BYTES, read_text_file
from zlens_jupyter.semantic.matching import normalize_phrase
from zlens_jupyter.semantic.model import (
    DIMENSION_TYPES,
    METRIC_TYPES,
    TIME_GRAINS,
    Dimension,
    Metric,
    Relationship,
    SemanticModel,
    TimeHierarchy,
)
from zlens_jupyter.yaml_text import load_yaml, yaml_error

SEMANTIC_FOLDER = "semantic"
_TOP_LEVEL_KEYS = ("metrics", "dimensions", "relationships", "time")
_METRIC_KEYS = (
    "name",
    "label",
    "description",
    "type",
    "sql",
    "table",
    "synonyms",
    "time_column",
)
_DIMENSION_KEYS = ("name", "label", "description", "type", "sql", "table", "synonyms")
_RELATIONSHIP_KEYS = ("from", "to")
_TIME_KEYS = ("column", "grains")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_QUALIFIED_COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$")


def load_semantic(project_dir: str | Path) -> SemanticModel:
    """Read every `semantic/*.yml` (and `*.yaml`) under a project, in name order, into one
    model. A missing folder gives an empty model; a malformed file raises `UserError`."""
    folder = Path(project_dir) / SEMANTIC_FOLDER
    if not folder.is_dir():
        return SemanticModel()
    files = sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")])
    merged = _Merger()
    for path in files:
        label = f"{SEMANTIC_FOLDER}/{path.name}"
        merged.add(label, _parse_file(path, label))
    model = merged.model()
    _check_time_columns_reachable(model)
    return model


def _parse_file(path: Path, label: str) -> SemanticModel:
    # Regular files only (a FIFO named x.yml would hang, a directory is not a file), at most
    # MAX_SEMANTIC_BYTES, UTF-8: each refused in one line, never read.
    text = read_text_file(path, max_bytes=MAX_SEMANTIC_BYTES, what="semantic YAML", label=label)
    try:
        data = load_yaml(text)  # a safe loader; parsed once, then read back (see yaml_text)
    except RecursionError:
        raise UserError(
            f"{label}: nested too deeply to be a semantic model (lists or mappings inside "
            "each other thousands of levels down)"
        ) from None
    except yaml_error() as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise UserError(f"{label}: not valid YAML{where}: {problem}") from exc
    except UnicodeDecodeError as exc:
        raise UserError(f"{label}: not UTF-8 text; save the file as UTF-8") from exc
    if data is None:
        return SemanticModel()
    if not isinstance(data, dict):
        raise UserError(
            f"{label}: expected a mapping with keys {_or_list(_TOP_LEVEL_KEYS)} at the top "
            f"level, found {_kind(data)}"
        )
    _reject_unknown_keys(label, data, _TOP_LEVEL_KEYS)
    return SemanticModel(
        metrics=[_metric(label, i, raw) for i, raw in enumerate(_list(label, data, "metrics"))],
        dimensions=[
            _dimension(label, i, raw) for i, raw in enumerate(_list(label, data, "dimensions"))
        ],
        relationships=[
            _relationship(label, i, raw)
            for i, raw in enumerate(_list(label, data, "relationships"))
        ],
        time=_time(label, data["time"]) if data.get("time") is not None else None,
    )


# -- one item of each kind -----------------------------------------------------------------


def _metric(file: str, index: int, raw: Any) -> Metric:
    where = _item_where(file, "metric", index, raw)
    fields = _mapping(where, raw, _METRIC_KEYS)
    name = _name(where, fields)
    metric_type = _required_str(where, fields, "type")
    if metric_type not in METRIC_TYPES:
        raise UserError(f"{where}: type {metric_type!r} is not one of {', '.join(METRIC_TYPES)}")
    sql = _optional_str(where, fields, "sql") or ""
    if not sql and metric_type != "count":
        # Only a plain row count may omit the expression (it becomes COUNT(*)).
        raise UserError(f"{where}: missing required field 'sql' (only a count may omit it)")
    time_column = _optional_str(where, fields, "time_column")
    if time_column is not None and not (
        _IDENTIFIER.match(time_column) or _QUALIFIED_COLUMN.match(time_column)
    ):
        raise UserError(f"{where}: time_column {time_column!r} must be `column` or `table.column`")
    return Metric(
        name=name,
        type=metric_type,
        sql=sql,
        table=_table(where, fields),
        label=_optional_str(where, fields, "label") or "",
        description=_optional_str(where, fields, "description") or "",
        synonyms=_synonyms(where, fields),
        time_column=time_column,
        source=file,
    )


def _dimension(file: str, index: int, raw: Any) -> Dimension:
    where = _item_where(file, "dimension", index, raw)
    fields = _mapping(where, raw, _DIMENSION_KEYS)
    name = _name(where, fields)
    dim_type = _optional_str(where, fields, "type") or "string"
    if dim_type not in DIMENSION_TYPES:
        raise UserError(f"{where}: type {dim_type!r} is not one of {', '.join(DIMENSION_TYPES)}")
    return Dimension(
        name=name,
        # `sql` defaults to the column of the same name: `- {name: segment, table: customers}`.
        sql=_optional_str(where, fields, "sql") or name,
        table=_table(where, fields),
        type=dim_type,
        label=_optional_str(where, fields, "label") or "",
        description=_optional_str(where, fields, "description") or "",
        synonyms=_synonyms(where, fields),
        source=file,
    )


def _relationship(file: str, index: int, raw: Any) -> Relationship:
    where = f"{file}: relationship #{index + 1}"
    fields = _mapping(where, raw, _RELATIONSHIP_KEYS)
    from_table, from_column = _qualified(where, fields, "from")
    to_table, to_column = _qualified(where, fields, "to")
    return Relationship(from_table, from_column, to_table, to_column)


def _time(file: str, raw: Any) -> TimeHierarchy:
    where = f"{file}: time"
    fields = _mapping(where, raw, _TIME_KEYS)
    table, column = _qualified(where, fields, "column")
    grains_raw = fields.get("grains", list(TIME_GRAINS))
    if not isinstance(grains_raw, list) or not grains_raw:
        raise UserError(f"{where}: grains must be a non-empty list such as [day, month, year]")
    grains: list[str] = []
    for grain in grains_raw:
        if grain not in TIME_GRAINS:
            raise UserError(f"{where}: grain {grain!r} is not one of {', '.join(TIME_GRAINS)}")
        if grain not in grains:
            grains.append(grain)
    # Keep the hierarchy ordered fine → coarse whatever order the file lists it in.
    grains.sort(key=TIME_GRAINS.index)
    return TimeHierarchy(column=f"{table}.{column}", grains=tuple(grains))


# -- merging files --------------------------------------------------------------------------


class _Merger:
    """Accumulates files, rejecting names or synonyms defined twice for the same kind."""

    def __init__(self) -> None:
        self.metrics: list[Metric] = []
        self.dimensions: list[Dimension] = []
        self.relationships: list[Relationship] = []
        self.time: TimeHierarchy | None = None
        self.time_source = ""
        self._phrases: dict[tuple[str, tuple[str, ...]], tuple[str, str]] = {}

    def add(self, file: str, part: SemanticModel) -> None:
        for metric in part.metrics:
            self._claim_phrases(file, "metric", metric)
            self.metrics.append(metric)
        for dimension in part.dimensions:
            self._claim_phrases(file, "dimension", dimension)
            self.dimensions.append(dimension)
        for rel in part.relationships:
            if rel not in self.relationships:
                self.relationships.append(rel)
        if part.time is not None:
            if self.time is not None and part.time != self.time:
                raise UserError(
                    f"{file}: time is already defined in {self.time_source}; "
                    "keep one time hierarchy per project"
                )
            self.time, self.time_source = part.time, file

    def _claim_phrases(self, file: str, kind: str, item: Metric | Dimension) -> None:
        phrases = {normalize_phrase(p): p for p in (item.name, item.label, *item.synonyms) if p}
        for key, phrase in phrases.items():
            owner = self._phrases.get((kind, key))
            if owner is None:
                self._phrases[(kind, key)] = (item.name, file)
                continue
            owner_name, owner_file = owner
            if owner_name == item.name:
                raise UserError(
                    f"{file}: {kind} {item.name!r} is already defined in {owner_file}; "
                    "rename one of them"
                )
            raise UserError(
                f"{file}: {kind} {item.name!r}: {phrase!r} already names {kind} "
                f"{owner_name!r} ({owner_file}); a phrase may name only one {kind}"
            )

    def model(self) -> SemanticModel:
        return SemanticModel(self.metrics, self.dimensions, self.relationships, self.time)


def _check_time_columns_reachable(model: SemanticModel) -> None:
    for metric in model.metrics:
        column = metric.time_column
        if not column or "." not in column:
            continue
        table = column.split(".", 1)[0]
        if model.join_path(metric.table, table) is None:
            raise UserError(
                f"{metric.source}: metric {metric.name!r}: time_column {column!r} is on table "
                f"{table!r}, but no relationship joins {metric.table!r} to {table!r}; add one "
                "under relationships"
            )


# -- small field readers -------------------------------------------------------------------


def _item_where(file: str, kind: str, index: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    if isinstance(name, str) and name:
        return f"{file}: {kind} {name!r}"
    return f"{file}: {kind} #{index + 1}"


def _list(file: str, data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise UserError(
            f"{file}: {key} must be a list of items (each starting with '- '), found {_kind(value)}"
        )
    return value


def _mapping(where: str, raw: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise UserError(f"{where}: expected a mapping of {_or_list(allowed)}, found {_kind(raw)}")
    _reject_unknown_keys(where, raw, allowed)
    return raw


def _reject_unknown_keys(where: str, raw: dict[Any, Any], allowed: tuple[str, ...]) -> None:
    for key in raw:
        if key not in allowed:
            raise UserError(f"{where}: unknown field {key!r}; expected one of {', '.join(allowed)}")


def _required_str(where: str, fields: dict[str, Any], key: str) -> str:
    value = _optional_str(where, fields, key)
    if not value:
        raise UserError(f"{where}: missing required field {key!r}")
    return value


def _optional_str(where: str, fields: dict[str, Any], key: str) -> str | None:
    value = fields.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise UserError(f"{where}: {key} must be text, found {_kind(value)}")
    return str(value).strip()


def _name(where: str, fields: dict[str, Any]) -> str:
    name = _required_str(where, fields, "name")
    if not _IDENTIFIER.match(name):
        raise UserError(
            f"{where}: name {name!r} must be an identifier (letters, digits, underscores), "
            "e.g. average_order_value; put the display text in label"
        )
    return name


def _table(where: str, fields: dict[str, Any]) -> str:
    table = _required_str(where, fields, "table")
    if not _IDENTIFIER.match(table):
        raise UserError(f"{where}: table {table!r} must be a plain table name such as orders")
    return table


def _synonyms(where: str, fields: dict[str, Any]) -> tuple[str, ...]:
    value = fields.get("synonyms")
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise UserError(f"{where}: synonyms must be a list of words or phrases, e.g. [sales]")
    return tuple(v.strip() for v in value)


def _qualified(where: str, fields: dict[str, Any], key: str) -> tuple[str, str]:
    value = _required_str(where, fields, key)
    if not _QUALIFIED_COLUMN.match(value):
        raise UserError(f"{where}: {key} {value!r} must be table.column, e.g. orders.order_id")
    table, column = value.split(".")
    return table, column


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


def _or_list(keys: tuple[str, ...]) -> str:
    return ", ".join(keys[:-1]) + f" or {keys[-1]}"
