"""Lossless dataclass <-> JSON-safe dict conversion, driven by type hints.

One schema for the CLI, the store and the widget comes for free when every record goes
through the same two functions.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union

T = TypeVar("T")


_SCALARS = (str, int, float, bool, type(None))


def to_jsonable(value: Any) -> Any:
    """Turn records, enums and containers into plain JSON values.

    Every run is serialized several times (checkpoint, store, panel, card), so this is hot:
    scalars are kept inline, without a call each, and plain dicts and lists are recognised
    by their exact type before anything slower is asked."""
    kind: Any = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {
            (k if type(k) is str else str(k)): (v if type(v) in _SCALARS else to_jsonable(v))
            for k, v in value.items()
        }
    if kind is list:
        return [v if type(v) in _SCALARS else to_jsonable(v) for v in value]
    names = _field_names(kind)
    if names:
        record = {}
        for name in names:
            field = getattr(value, name)
            record[name] = field if type(field) in _SCALARS else to_jsonable(field)
        return record
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    return value


def from_jsonable(cls: type[T], data: Any) -> T:
    """Rebuild a record of type ``cls`` from what :func:`to_jsonable` produced."""
    return typing.cast(T, _decode(cls, data))


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    """Field names of a dataclass type (cached: this is the hot path of every event)."""
    if not dataclasses.is_dataclass(cls):
        return ()
    return tuple(f.name for f in _fields(cls))


# The serialized field names of a record type, in order; () for any other type.
record_fields: Callable[[Any], tuple[str, ...]] = _field_names


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _shape(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    """`typing.get_origin(tp)` and `get_args(tp)`, asked once per type hint: every record
    decoded asks them for each of its fields."""
    return typing.get_origin(tp), typing.get_args(tp)


def _decode(tp: Any, data: Any) -> Any:
    if data is None or tp is Any:
        return data
    try:
        origin, args = _shape(tp)
    except TypeError:  # an unhashable hint: asked afresh
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _decode(options[0], data) if len(options) == 1 else data
    if origin in (list, tuple):
        item = args[0] if args else Any
        return [_decode(item, v) for v in data]
    if origin is dict:
        value_tp = args[1] if len(args) == 2 else Any
        return {k: _decode(value_tp, v) for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {
            f.name: _decode(hints[f.name], data[f.name]) for f in _fields(tp) if f.name in data
        }
        return tp(**kwargs)
    return data
