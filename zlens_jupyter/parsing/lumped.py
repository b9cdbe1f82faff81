"""Values that lump many together: 'other' among taxi companies, 'U.S.' among the states of
a poll table (its national polls). Such a group is no answer to "which company", "which
state", so rankings leave it out and say so."""

from __future__ import annotations

import re

from .words import identifier_words

CATCH_ALLS = frozenset({"other", "others", "unknown", "misc", "miscellaneous", "n/a"})
# Columns of a country's parts, and the values that stand for the whole country among them
_PARTS_OF_A_NATION = frozenset({"state", "province", "region", "county", "district"})
_NATIONAL = frozenset(
    {"us", "usa", "unitedstates", "unitedstatesofamerica", "national", "nationwide", "total"}
    | {"overall", "allstates"}
)


def lumps_many(column: str, value: object) -> bool:
    """Whether `value` of `column` stands for many of its values together.

    >>> lumps_many("company", "Other"), lumps_many("state", "U.S."), lumps_many("state", "Ohio")
    (True, True, False)
    """
    if not isinstance(value, str):
        return False
    if value.strip().lower() in CATCH_ALLS:
        return True
    parts = set(identifier_words(column)) & _PARTS_OF_A_NATION
    return bool(parts) and re.sub(r"[^a-z]", "", value.lower()) in _NATIONAL
