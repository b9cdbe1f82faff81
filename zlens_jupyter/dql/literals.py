"""How single DQL values are spelled: bare identifiers, quoted strings, numbers, booleans.

Its own module so that the syntax tree (`model`) can spell an assertion canonically without
importing the formatter, which imports the tree: the two stay one-way.
"""

from __future__ import annotations

from zlens_jupyter.dql.lexer import IDENT_PATTERN

# Bare words the lexer reads as booleans, so an identifier spelled so must be quoted.
KEYWORDS = ("true", "false")


class Ident(str):
    """A bare identifier value (`x = segment`); a `str` that remembers it was written bare."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Ident({str.__repr__(self)})"


def quote(text: str) -> str:
    """A double-quoted DQL string; only `\\` and `\"` are escaped (the language's escapes)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def is_bare_identifier(text: str) -> bool:
    """Whether `text` can be written without quotes."""
    return IDENT_PATTERN.fullmatch(text) is not None and text not in KEYWORDS


def format_scalar(value: str | int | float | bool) -> str:
    """One scalar as DQL source on one line: `true`, `12.5`, `segment`, `"Enterprise"`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Ident) and is_bare_identifier(value):
        return str(value)
    if isinstance(value, str):
        return quote(value)
    return repr(value)
