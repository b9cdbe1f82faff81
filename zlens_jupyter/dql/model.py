"""The DQL syntax tree: generic items that round-trip, and typed views over known fields.

Every body is an ordered list of items (fields, nested sections, references, assertions and
comments). Typed accessors on `Block` read from that list, and setters edit it in place, so
fields nobody here understands are carried through untouched and in their original order.
Source positions (`Span`) are excluded from equality: two trees are equal when they say the
same thing, wherever it was written.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from zlens_jupyter.dql.literals import format_scalar, is_bare_identifier, quote

Scalar: TypeAlias = str | int | float | bool
Value: TypeAlias = str | int | float | bool | list["Value"]


class BlockStatus(enum.StrEnum):
    """The lifecycle of a block. Only a person moves a block to `certified`."""

    DRAFT = "draft"
    REVIEW = "review"
    CERTIFIED = "certified"
    DEPRECATED = "deprecated"
    PENDING_RECERTIFICATION = "pending_recertification"


@dataclass(frozen=True)
class Span:
    """Where an item sits in its source text: character offsets plus 1-based line/column."""

    start: int
    end: int
    line: int
    column: int


@dataclass
class Comment:
    """A `// ...` comment on its own line; `text` excludes the slashes and outer spaces."""

    text: str
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass
class Field:
    """`key = value`, with an optional trailing comment on the same line."""

    key: str
    value: Value
    comment: str | None = None
    span: Span | None = field(default=None, compare=False, repr=False)
    value_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass
class Section:
    """`name { ... }` or `name "label" { ... }`."""

    name: str
    items: list[Item] = field(default_factory=list)
    label: str | None = None
    comment: str | None = None
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass
class Reference:
    """`block "Name"` inside an `includes { ... }` section."""

    kind: str
    target: str
    comment: str | None = None
    span: Span | None = field(default=None, compare=False, repr=False)


ASSERTION_FUNCTIONS = ("min", "max", "count_null", "unique")
COMPARISON_OPERATORS = ("==", "!=", ">=", "<=", ">", "<")


@dataclass
class Assertion:
    """`assert <subject> <op> <literal>` from a `tests { ... }` section.

    `subject` is `row_count`, one of `min max count_null unique` (with `column`), or
    `column` for a bare column of a single-row result.
    """

    subject: str
    op: str
    expected: Scalar
    column: str | None = None
    comment: str | None = None
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def expression(self) -> str:
        """The assertion written canonically, e.g. `min(dep_delay) >= -60`."""
        if self.subject == "row_count":
            subject = "row_count"
        elif self.subject == "column":
            subject = str(self.column)
        else:
            column = str(self.column)
            subject = f"{self.subject}({column if is_bare_identifier(column) else quote(column)})"
        return f"{subject} {self.op} {format_scalar(self.expected)}"


Item: TypeAlias = Comment | Field | Section | Reference | Assertion


def find_field(items: list[Item], key: str) -> Field | None:
    """The first field called `key` in `items`, if any."""
    return next((i for i in items if isinstance(i, Field) and i.key == key), None)


def find_section(items: list[Item], name: str) -> Section | None:
    """The first section called `name` in `items`, if any."""
    return next((i for i in items if isinstance(i, Section) and i.name == name), None)


def section_to_dict(section: Section) -> dict[str, Any]:
    """A section's fields (and nested sections, recursively) as a plain dict."""
    out: dict[str, Any] = {}
    for item in section.items:
        if isinstance(item, Field):
            out[item.key] = item.value
        elif isinstance(item, Section):
            out[item.name] = section_to_dict(item)
    return out


@dataclass
class Declaration:
    """A top-level `kind "Name" { ... }` declaration; the base of Block, Domain, Term, View."""

    kind: str
    name: str
    items: list[Item] = field(default_factory=list)
    leading_comments: list[str] = field(default_factory=list)
    comment: str | None = None
    span: Span | None = field(default=None, compare=False, repr=False)
    source: str | None = field(default=None, compare=False, repr=False)

    def get(self, key: str, default: Value | None = None) -> Value | None:
        """The raw value of field `key` (DQL spelling, e.g. `llmContext`)."""
        found = find_field(self.items, key)
        return default if found is None else found.value

    def set(self, key: str, value: Value, *, after: tuple[str, ...] = ()) -> None:
        """Set field `key`, keeping its position; new fields go after the first of `after`."""
        found = find_field(self.items, key)
        if found is not None:
            found.value = value
            return
        self.items.insert(self._insert_position(after), Field(key, value))

    def section(self, name: str) -> Section | None:
        """The nested section `name`, if present."""
        return find_section(self.items, name)

    def set_section(self, section: Section) -> None:
        """Replace the section with the same name in place, or append it at the end."""
        for index, item in enumerate(self.items):
            if isinstance(item, Section) and item.name == section.name:
                self.items[index] = section
                return
        self.items.append(section)

    def _text(self, key: str) -> str | None:
        value = self.get(key)
        return value if isinstance(value, str) and value != "" else None

    def _strings(self, key: str) -> list[str]:
        value = self.get(key)
        if isinstance(value, list):
            return [str(v) for v in value]
        return [] if value is None else [str(value)]

    def _insert_position(self, after: tuple[str, ...]) -> int:
        for key in after:
            for index, item in enumerate(self.items):
                if isinstance(item, Field) and item.key == key:
                    return index + 1
        first_field = next(
            (i for i, item in enumerate(self.items) if not isinstance(item, Comment)), None
        )
        return 0 if first_field is None else first_field

    @property
    def domain(self) -> str | None:
        return self._text("domain")

    @property
    def description(self) -> str | None:
        return self._text("description")

    @property
    def owner(self) -> str | None:
        return self._text("owner")

    @property
    def tags(self) -> list[str]:
        return self._strings("tags")

    @property
    def terms(self) -> list[str]:
        return self._strings("terms")


@dataclass(eq=True)
class Domain(Declaration):
    """`domain "Name" { ... }`."""


@dataclass(eq=True)
class Term(Declaration):
    """`term "Name" { ... }`: business vocabulary."""

    @property
    def synonyms(self) -> list[str]:
        return self._strings("synonyms")

    @property
    def identifiers(self) -> list[str]:
        return self._strings("identifiers")

    @property
    def business_rules(self) -> list[str]:
        return self._strings("businessRules")

    @property
    def caveats(self) -> list[str]:
        return self._strings("caveats")


@dataclass(eq=True)
class BusinessView(Declaration):
    """`business_view "Name" { includes { block "A" ... } }`."""

    @property
    def includes(self) -> list[Reference]:
        section = self.section("includes")
        if section is None:
            return []
        return [i for i in section.items if isinstance(i, Reference)]
