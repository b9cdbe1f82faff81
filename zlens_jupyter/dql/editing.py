"""Change one block inside a DQL file's text, touching nothing else, and write it atomically.

Edits are surgical: a field's value is replaced where it stands, a missing field is added on
its own line, a section is replaced or added before the block's closing brace. Everything
else (other declarations, comments, alignment, blank lines) stays byte-for-byte. The result
is re-parsed and compared with the intended model; if the text was too unusual for a
surgical edit (e.g. a one-line block), only that declaration is rewritten canonically.
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from zlens_jupyter.dql.formatter import format_declaration, format_item, format_value
from zlens_jupyter.dql.model import (
    Comment,
    Declaration,
    Section,
    Value,
    find_field,
    find_section,
)
from zlens_jupyter.dql.parser import parse_dql
from zlens_jupyter.errors import DQLSyntaxError, UserError

# A new field is placed after the first of these that exists (else first in the body).
FIELD_ANCHORS = ("type", "domain")

_Edit = tuple[int, int, str]


def edit_block_text(
    text: str,
    block_name: str,
    *,
    fields: Mapping[str, Value] | None = None,
    sections: list[Section] | None = None,
    file: str | None = None,
) -> str:
    """`text` with block `block_name`'s `fields` set and `sections` replaced or added."""
    parsed = parse_dql(text, file=file)
    target = next((d for d in parsed.blocks if d.name.lower() == block_name.lower()), None)
    if target is None:
        raise UserError(
            f"Block {block_name!r} is no longer in {file or 'the file'}; reload the block library."
        )
    intended = copy.deepcopy(target)
    edits: list[_Edit] = []
    indent = _body_indent(text, target)
    for key, value in (fields or {}).items():
        edits.append(_field_edit(text, target, key, value, indent))
        intended.set(key, value, after=FIELD_ANCHORS)
    for section in sections or []:
        existing = find_section(target.items, section.name)
        section = copy.deepcopy(section)
        section.comment = existing.comment if existing else None
        rendered = "\n".join(format_item(section, indent))
        if existing is not None and existing.span is not None:
            edits.append((existing.span.start, existing.span.end, rendered[len(indent) :]))
        else:
            edits.append(_append_edit(text, target, rendered))
        intended.set_section(section)
    edited = _apply(text, edits)
    if _reads_as(edited, intended, parsed.declarations, file):
        return edited
    return _rewrite_declaration(text, target, intended)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Replace `path` with `text` via a temp file in the same folder and `os.replace`."""
    path = Path(path)
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _field_edit(text: str, block: Declaration, key: str, value: Value, indent: str) -> _Edit:
    rendered = format_value(value, indent, key)
    existing = find_field(block.items, key)
    if existing is not None and existing.value_span is not None:
        return (existing.value_span.start, existing.value_span.end, rendered)
    line = f"{key} = {rendered}"
    for anchor_key in FIELD_ANCHORS:
        anchor = find_field(block.items, anchor_key)
        if anchor is not None and anchor.span is not None:
            line_end = text.find("\n", anchor.span.end)
            position = len(text) if line_end == -1 else line_end
            return (position, position, f"\n{indent}{line}")
    first = next((i for i in block.items if not isinstance(i, Comment)), None)
    if first is not None and first.span is not None:
        line_start = text.rfind("\n", 0, first.span.start) + 1
        return (line_start, line_start, f"{indent}{line}\n")
    return _append_edit(text, block, f"{indent}{line}")


def _append_edit(text: str, block: Declaration, rendered: str) -> _Edit:
    """Insert `rendered` (already indented) on its own lines before the closing brace."""
    assert block.span is not None
    closing = block.span.end - 1
    line_start = text.rfind("\n", 0, closing) + 1
    blank = "\n" if block.items else ""
    return (line_start, line_start, f"{blank}{rendered}\n")


def _body_indent(text: str, block: Declaration) -> str:
    for item in block.items:
        if item.span is not None:
            line_start = text.rfind("\n", 0, item.span.start) + 1
            prefix = text[line_start : item.span.start]
            if prefix.strip() == "" and prefix:
                return prefix
    return "  "


def _apply(text: str, edits: list[_Edit]) -> str:
    for start, end, replacement in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _reads_as(
    text: str, intended: Declaration, before: list[Declaration], file: str | None
) -> bool:
    """Whether `text` parses to the same declarations, with the target now `intended`."""
    try:
        after = parse_dql(text, file=file).declarations
    except DQLSyntaxError:
        return False
    expected = [
        intended if d.name == intended.name and d.kind == intended.kind else d for d in before
    ]
    return after == expected


def _rewrite_declaration(text: str, original: Declaration, intended: Declaration) -> str:
    assert original.span is not None
    canonical = copy.deepcopy(intended)
    canonical.leading_comments, canonical.comment = [], None  # they stay in the text around
    body = format_declaration(canonical).rstrip("\n")
    return text[: original.span.start] + body + text[original.span.end :]
