"""Write DQL in the canonical style: 2-space indentation, triple-quoted multi-line text.

`parse_dql(format_dql(f)) == f` for every file the parser produces. Blank lines are
canonical (one around sections and multi-line values), not preserved; comments are kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from zlens_jupyter.dql.document import DQLFile
from zlens_jupyter.dql.lexer import dedent_triple_quoted
from zlens_jupyter.dql.literals import Ident, format_scalar, is_bare_identifier, quote
from zlens_jupyter.dql.model import (
    Assertion,
    Comment,
    Declaration,
    Field,
    Item,
    Reference,
    Value,
)

INDENT = "  "


def format_dql(file_or_decls: DQLFile | Declaration | Iterable[Declaration]) -> str:
    """Canonical DQL text for a file, one declaration, or a list of declarations.

    >>> from zlens_jupyter.dql.parser import parse_dql
    >>> print(format_dql(parse_dql('block "A" {domain="x" tests{assert row_count>0}}')), end="")
    block "A" {
      domain = "x"
    <BLANKLINE>
      tests {
        assert row_count > 0
      }
    }
    """
    if isinstance(file_or_decls, DQLFile):
        file = file_or_decls
    elif isinstance(file_or_decls, Declaration):
        file = DQLFile(None, [file_or_decls])
    else:
        file = DQLFile(None, list(file_or_decls))
    chunks: list[str] = []
    if file.format_version is not None:
        chunks.append(f"// dql-format: {file.format_version}\n")
    for declaration in file.declarations:
        chunks.append(format_declaration(declaration))
    if file.trailing_comments:
        chunks.append("".join(f"// {c}\n" for c in file.trailing_comments))
    return "\n".join(chunks)


def format_declaration(declaration: Declaration, indent: str = "") -> str:
    """One top-level declaration (with its leading comments), ending in a newline."""
    lines = [f"{indent}// {c}" for c in declaration.leading_comments]
    head = f"{indent}{declaration.kind} {quote(declaration.name)}"
    lines.extend(_braced(head, declaration.items, declaration.comment, indent))
    return "\n".join(lines) + "\n"


def format_item(item: Item, indent: str) -> list[str]:
    """The lines of one body item at the given indentation."""
    if isinstance(item, Comment):
        return [f"{indent}// {item.text}"]
    if isinstance(item, Field):
        text = f"{indent}{item.key} = {format_value(item.value, indent, item.key)}"
        return [_with_comment(text, item.comment)]
    if isinstance(item, Reference):
        return [_with_comment(f"{indent}{item.kind} {quote(item.target)}", item.comment)]
    if isinstance(item, Assertion):
        return [_with_comment(f"{indent}assert {format_assertion_expression(item)}", item.comment)]
    head = f"{indent}{item.name}" + (f" {quote(item.label)}" if item.label is not None else "")
    return _braced(head, item.items, item.comment, indent)


def format_value(value: Value, indent: str = "", key: str = "") -> str:
    """A value as DQL source; multi-line strings (and `query`) become triple-quoted."""
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v, indent) for v in value) + "]"
    bare = isinstance(value, Ident) and is_bare_identifier(value)
    if isinstance(value, str) and not bare and (key == "query" or "\n" in value):
        triple = _triple_quoted(value, indent)
        if triple is not None:
            return triple
    return format_scalar(value)


def format_assertion_expression(assertion: Assertion) -> str:
    """`row_count > 0`, `min(col) >= 1`, `revenue == 12.5` ..."""
    return assertion.expression


def _braced(head: str, items: list[Item], comment: str | None, indent: str) -> list[str]:
    if not items:
        return [_with_comment(f"{head} {{}}", comment)]
    lines = [f"{head} {{"]
    lines.extend(_body_lines(items, indent + INDENT))
    lines.append(_with_comment(f"{indent}}}", comment))
    return lines


def _body_lines(items: list[Item], indent: str) -> list[str]:
    """Items grouped with their leading comments; multi-line groups get blank lines around."""
    groups: list[list[str]] = []
    multi_line: list[bool] = []
    pending: list[str] = []
    for item in items:
        lines = format_item(item, indent)
        if isinstance(item, Comment):
            pending.extend(lines)
            continue
        groups.append(pending + lines)
        multi_line.append(len(lines) > 1 or "\n" in lines[0])
        pending = []
    if pending:
        groups.append(pending)
        multi_line.append(False)
    out: list[str] = []
    for index, group in enumerate(groups):
        if index and (multi_line[index] or multi_line[index - 1]):
            out.append("")
        out.extend(group)
    return out


def _with_comment(line: str, comment: str | None) -> str:
    return line if comment is None else f"{line}  // {comment}"


def _triple_quoted(value: str, indent: str) -> str | None:
    """`\"\"\"` form of `value`, or None when that form would not read back identically."""
    if '"""' in value:
        return None
    inner = indent + INDENT
    body = "\n".join(inner + line if line else "" for line in value.split("\n"))
    raw = f"\n{body}\n{indent}"
    if dedent_triple_quoted(raw) != value:
        return None
    return f'"""{raw}"""'
