"""`to_jsonable`: records, enums and containers become plain JSON values, whatever mixes them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from zlens_jupyter.engine.serde import to_jsonable


class Colour(StrEnum):
    RED = "red"


@dataclass
class Inner:
    colour: Colour
    tags: tuple[str, ...] = ()


@dataclass
class Outer:
    name: str
    inner: Inner
    extra: dict[Any, Any] = field(default_factory=dict)
    items: list[Any] = field(default_factory=list)


class Mapping(dict):  # a dict subclass keeps the generic path's meaning
    pass


def test_every_kind_of_value_becomes_plain_json():
    value = Outer(
        name="n",
        inner=Inner(Colour.RED, ("a", "b")),
        extra={1: Colour.RED, "k": Inner(Colour.RED), Colour.RED: [(1, 2.5), None, True]},
        items=[Inner(Colour.RED), {"deep": [{"x": (Colour.RED,)}]}, Mapping({2: "two"})],
    )
    assert to_jsonable(value) == {
        "name": "n",
        "inner": {"colour": "red", "tags": ["a", "b"]},
        "extra": {
            "1": "red",
            "k": {"colour": "red", "tags": []},
            str(Colour.RED): [[1, 2.5], None, True],
        },
        "items": [
            {"colour": "red", "tags": []},
            {"deep": [{"x": ["red"]}]},
            {"2": "two"},
        ],
    }
    json.dumps(to_jsonable(value))  # plain JSON all the way down


def test_the_result_shares_nothing_mutable_with_the_record():
    record = Outer(name="n", inner=Inner(Colour.RED), extra={"rows": [[1, 2]]})
    data = to_jsonable(record)
    data["extra"]["rows"][0].append(3)
    assert record.extra == {"rows": [[1, 2]]}
