"""YAML text parsed once, not once per process: `zlens ask` reads the same vocabulary and
semantic files every time, and importing PyYAML alone is ~15 ms of the process.

A parse is a pure function of the text and of PyYAML. One that JSON holds exactly
(mappings, lists, strings, numbers, booleans, null; a mapping with a key other than a
string as its pairs, since YAML reads `yes:` as the key True) is kept in `disk_memo` keyed
by the text's sha256 and PyYAML's installed files; a later process reads it back as JSON
without importing PyYAML. Anything else (a date, bytes) is parsed every time, and so is
text that does not parse: errors are never kept.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from typing import Any

from zlens_jupyter import disk_memo


def load_yaml(text: str) -> Any:
    """`text` read by PyYAML's safe loader (libyaml's when built in: same data, 10-20x
    faster). Raises what PyYAML raises (see `yaml_error`).

    >>> load_yaml("metrics:\\n  - name: revenue\\n    type: sum\\n")
    {'metrics': [{'name': 'revenue', 'type': 'sum'}]}
    """
    key = disk_memo.input_key(text)
    # One file per text: no process reads the parse of a file it does not have.
    kind, code = f"yaml-{key[:20]}", _yaml_code()
    known = disk_memo.recall(kind, code, key)
    if known is not None:
        return json.loads(known, object_hook=_from_pairs)
    import yaml

    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    try:
        kept = json.dumps(_as_json(data), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return data  # not JSON (a date, bytes, NaN; too deep): parsed again next time
    if json.loads(kept, object_hook=_from_pairs) == data:
        disk_memo.remember(kind, code, key, kept)
    return data


_PAIRS = "\x00pairs"  # a mapping kept as its [key, value] pairs


def _as_json(data: Any) -> Any:
    """`data` with every mapping JSON would change (a key that is not a string) as pairs."""
    if isinstance(data, dict):
        if all(type(k) is str for k in data) and _PAIRS not in data:
            return {k: _as_json(v) for k, v in data.items()}
        return {_PAIRS: [[k, _as_json(v)] for k, v in data.items()]}
    if isinstance(data, list):
        return [_as_json(v) for v in data]
    return data


def _from_pairs(mapping: dict[str, Any]) -> Any:
    if _PAIRS in mapping:
        return {k: v for k, v in mapping[_PAIRS]}
    return mapping


def yaml_error() -> type[Exception]:
    """PyYAML's error class, imported only when one is being handled:
    `except yaml_error() as exc:` is evaluated only once an exception reaches it."""
    import yaml

    return yaml.YAMLError


@cache
def _yaml_code() -> str:
    # PyYAML's own files, found without importing it: an upgrade rewrites them.
    spec = importlib.util.find_spec("yaml")
    return disk_memo.code_key(files=(__file__, spec.origin if spec else None))
