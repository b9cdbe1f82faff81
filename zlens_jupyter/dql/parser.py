"""Recursive-descent parser for DQL files (see shared/dql-language.md).

Grammar (newlines are insignificant; comments attach to the item on their line):

    file        := header? declaration*
    declaration := IDENT (STRING | IDENT) "{" item* "}"
    item        := IDENT "=" value                    field
                 | IDENT STRING? "{" item* "}"        section
                 | IDENT STRING                       reference (only inside `includes`)
                 | "assert" subject OP literal        assertion (only inside `tests`)
    value       := STRING | NUMBER | true | false | IDENT | "[" (value ("," value)* ","?)? "]"
    subject     := "row_count" | ("min"|"max"|"count_null"|"unique") "(" column ")" | column
"""

from __future__ import annotations

from pathlib import Path

from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.dashboard import Dashboard
from zlens_jupyter.dql.document import DQLFile
from zlens_jupyter.dql.lexer import Lexer, Token, TokenKind, read_format_header
from zlens_jupyter.dql.literals import Ident
from zlens_jupyter.dql.model import (
    ASSERTION_FUNCTIONS,
    Assertion,
    BlockStatus,
    BusinessView,
    Comment,
    Declaration,
    Domain,
    Field,
    Item,
    Reference,
    Scalar,
    Section,
    Span,
    Term,
    Value,
)
from zlens_jupyter.errors import DQLSyntaxError

DECLARATION_TYPES: dict[str, type[Declaration]] = {
    "block": Block,
    "domain": Domain,
    "term": Term,
    "business_view": BusinessView,
    "dashboard": Dashboard,
}
_STRING_FIELDS = (
    "domain",
    "type",
    "status",
    "description",
    "owner",
    "llmContext",
    "query",
    "metric",
    "pattern",
)
_LIST_FIELDS = (
    "tags",
    "outputs",
    "dimensions",
    "allowedFilters",
    "terms",
    "entities",
    "metrics",
    "sourceSystems",
    "synonyms",
    "identifiers",
    "businessRules",
    "caveats",
)
_SECTION_FIELDS = (
    "visualization",
    "tests",
    "parameterPolicy",
    "filterBindings",
    "certification",
    "includes",
    "params",
)


def parse_dql(text: str, *, file: str | None = None) -> DQLFile:
    """Parse DQL source text into a `DQLFile`.

    >>> f = parse_dql('block "A" { domain = "x" }')
    >>> f.blocks[0].domain
    'x'
    """
    return _Parser(text, file).parse_file()


def load_dql(path: str | Path) -> DQLFile:
    """Read and parse one `.dql` file; errors carry the file path."""
    path = Path(path)
    return parse_dql(path.read_text(encoding="utf-8"), file=str(path))


def parse_block(text: str, *, file: str | None = None) -> Block:
    """Parse text holding exactly one block (e.g. a `%%dql` cell) and return it."""
    parsed = parse_dql(text, file=file)
    if len(parsed.blocks) != 1:
        raise DQLSyntaxError(
            f"expected exactly one block, found {len(parsed.blocks)}",
            file=file,
            line=1,
            column=1,
            expected='one block "Name" { ... } declaration',
        )
    return parsed.blocks[0]


class _Parser:
    def __init__(self, text: str, file: str | None) -> None:
        self.text = text
        self.file = file
        self.tokens = Lexer(text, file).tokens()
        self.index = 0
        self.format_version = read_format_header(text)
        if self.format_version is not None and self.tokens[0].kind is TokenKind.COMMENT:
            self.index = 1  # the header is metadata, not a comment item

    # ---- token helpers -------------------------------------------------------------------
    def _peek(self, ahead: int = 0) -> Token:
        index = self.index
        while True:
            token = self.tokens[index]
            if token.kind is not TokenKind.COMMENT:
                if ahead == 0:
                    return token
                ahead -= 1
            index += 1

    def _take(self) -> Token:
        """The next non-comment token; comments skipped here are dropped (inside values)."""
        while self.tokens[self.index].kind is TokenKind.COMMENT:
            self.index += 1
        token = self.tokens[self.index]
        self.index += 1
        return token

    def _expect(self, kind: TokenKind, expected: str, message: str) -> Token:
        token = self._peek()
        if token.kind is not kind:
            raise self._error(message, token, expected)
        return self._take()

    def _error(self, message: str, token: Token, expected: str) -> DQLSyntaxError:
        found = token.text if token.kind is not TokenKind.EOF else "end of file"
        return DQLSyntaxError(
            message,
            file=self.file,
            line=token.line,
            column=token.column,
            found=found,
            expected=expected,
        )

    def _own_line_comments(self) -> list[Token]:
        out = []
        while self.tokens[self.index].kind is TokenKind.COMMENT:
            out.append(self.tokens[self.index])
            self.index += 1
        return out

    def _trailing_comment(self, last: Token) -> str | None:
        token = self.tokens[self.index]
        if token.kind is TokenKind.COMMENT and token.line == last.end_line:
            self.index += 1
            return str(token.value)
        return None

    def _span(self, first: Token, last: Token) -> Span:
        return Span(first.start, last.end, first.line, first.column)

    # ---- grammar -------------------------------------------------------------------------
    def parse_file(self) -> DQLFile:
        declarations: list[Declaration] = []
        while True:
            comments = [str(c.value) for c in self._own_line_comments()]
            if self._peek().kind is TokenKind.EOF:
                return DQLFile(
                    self.file, declarations, self.format_version, comments, text=self.text
                )
            declaration = self._declaration()
            declaration.leading_comments = comments
            declarations.append(declaration)

    def _declaration(self) -> Declaration:
        keyword = self._expect(
            TokenKind.IDENT,
            "a declaration (block, domain, term, business_view or dashboard)",
            "expected a declaration",
        )
        name_token = self._peek()
        if name_token.kind not in (TokenKind.STRING, TokenKind.IDENT):
            raise self._error(
                f"{keyword.text} needs a name",
                name_token,
                f'a quoted name, e.g. {keyword.text} "Revenue by segment"',
            )
        self._take()
        self._expect(
            TokenKind.LBRACE, "'{'", f"expected the body of {keyword.text} {name_token.text}"
        )
        items, close = self._body(keyword.text, keyword)
        cls = DECLARATION_TYPES.get(keyword.text, Declaration)
        declaration = cls(
            keyword.text,
            str(name_token.value),
            items,
            source=self.file,
            span=self._span(keyword, close),
        )
        declaration.comment = self._trailing_comment(close)
        _validate_known_fields(declaration, self)
        return declaration

    def _body(self, context: str, opener: Token) -> tuple[list[Item], Token]:
        """Items up to the closing brace; returns them and the `}` token."""
        items: list[Item] = []
        while True:
            for comment in self._own_line_comments():
                items.append(Comment(str(comment.value), self._span(comment, comment)))
            token = self._peek()
            if token.kind is TokenKind.RBRACE:
                return items, self._take()
            if token.kind is TokenKind.EOF:
                raise self._error(
                    f"'{{' opened at line {opener.line} is never closed", token, "'}'"
                )
            items.append(self._item(context))

    def _item(self, context: str) -> Item:
        key = self._expect(TokenKind.IDENT, "a field name or '}'", "expected a field")
        if context == "tests" and key.text == "assert":
            return self._assertion(key)
        after = self._peek()
        if after.kind is TokenKind.EQUALS:
            self._take()
            value_first = self._peek()
            value, value_last = self._value()
            comment = self._trailing_comment(value_last)
            return Field(
                key.text,
                value,
                comment,
                self._span(key, value_last),
                self._span(value_first, value_last),
            )
        label: str | None = None
        if after.kind is TokenKind.STRING and self._peek(1).kind is not TokenKind.LBRACE:
            if context != "includes":
                raise self._error(f"expected '=' after {key.text}", after, "'='")
            target = self._take()
            comment = self._trailing_comment(target)
            return Reference(key.text, str(target.value), comment, self._span(key, target))
        if after.kind is TokenKind.STRING:
            label = str(self._take().value)
        opener = self._expect(
            TokenKind.LBRACE, "'=' or '{'", f"expected '=' or '{{' after {key.text}"
        )
        items, close = self._body(key.text, opener)
        comment = self._trailing_comment(close)
        return Section(key.text, items, label, comment, self._span(key, close))

    def _value(self) -> tuple[Value, Token]:
        token = self._peek()
        if token.kind is TokenKind.LBRACKET:
            return self._list()
        scalar = self._scalar("a value (string, number, true/false, identifier or list)")
        return scalar, self.tokens[self.index - 1]

    def _scalar(self, expected: str) -> Scalar:
        token = self._peek()
        if token.kind in (TokenKind.STRING, TokenKind.NUMBER):
            self._take()
            assert token.value is not None
            return token.value
        if token.kind in (TokenKind.TRUE, TokenKind.FALSE):
            self._take()
            return token.kind is TokenKind.TRUE
        if token.kind is TokenKind.IDENT:
            self._take()
            return Ident(token.text)
        raise self._error("expected a value", token, expected)

    def _list(self) -> tuple[list[Value], Token]:
        self._take()
        values: list[Value] = []
        while True:
            token = self._peek()
            if token.kind is TokenKind.RBRACKET:
                return values, self._take()
            values.append(self._value()[0])
            token = self._peek()
            if token.kind is TokenKind.COMMA:
                self._take()
            elif token.kind is not TokenKind.RBRACKET:
                raise self._error("expected ',' or ']' in list", token, "',' or ']'")

    def _assertion(self, keyword: Token) -> Assertion:
        subject_token = self._expect(
            TokenKind.IDENT,
            "row_count, min(col), max(col), count_null(col), unique(col) or a column",
            "expected what to assert",
        )
        subject, column = subject_token.text, None
        if (
            subject_token.text.lower() in ASSERTION_FUNCTIONS
            and self._peek().kind is TokenKind.LPAREN
        ):
            self._take()
            column_token = self._peek()
            if column_token.kind not in (TokenKind.IDENT, TokenKind.STRING):
                raise self._error("expected a column name", column_token, "a column name")
            self._take()
            self._expect(TokenKind.RPAREN, "')'", "expected ')' after the column")
            subject, column = subject_token.text.lower(), str(column_token.value)
        elif subject_token.text != "row_count":
            subject, column = "column", subject_token.text
        operator = self._expect(
            TokenKind.OPERATOR,
            "a comparison operator (== != > >= < <=)",
            "expected a comparison operator",
        )
        literal_token = self._peek()
        if literal_token.kind is TokenKind.IDENT:
            raise self._error(
                "expected a literal to compare with",
                literal_token,
                "a number, string, true or false",
            )
        expected = self._scalar("a number, string, true or false")
        last = self.tokens[self.index - 1]
        comment = self._trailing_comment(last)
        return Assertion(
            subject, str(operator.value), expected, column, comment, self._span(keyword, last)
        )


def _validate_known_fields(declaration: Declaration, parser: _Parser) -> None:
    """Reject wrong shapes for fields whose meaning we rely on, at the field's position."""
    seen: dict[str, Field] = {}
    for item in declaration.items:
        if not isinstance(item, Field):
            continue
        where = item.value_span or item.span
        written = parser.text[where.start : where.end] if where else repr(item.value)
        if item.key in seen:
            first = seen[item.key].span
            raise _field_error(
                parser,
                where,
                f"duplicate field {item.key} (first set at line {first.line if first else '?'})",
                written,
                "each field once",
            )
        seen[item.key] = item
        if item.key in _STRING_FIELDS and not isinstance(item.value, str):
            raise _field_error(
                parser, where, f"{item.key} must be a string", written, "a quoted string"
            )
        if item.key in _LIST_FIELDS and not isinstance(item.value, list):
            raise _field_error(
                parser,
                where,
                f"{item.key} must be a list",
                written,
                f'a list, e.g. {item.key} = ["a", "b"]',
            )
        if item.key in _SECTION_FIELDS:
            raise _field_error(
                parser,
                item.span,
                f"{item.key} is a section, not a field",
                "=",
                f"{item.key} {{ ... }}",
            )
        if (
            item.key == "status"
            and isinstance(item.value, str)
            and item.value not in {s.value for s in BlockStatus}
        ):
            allowed = " | ".join(s.value for s in BlockStatus)
            raise _field_error(parser, where, f"unknown status {item.value!r}", written, allowed)


def _field_error(
    parser: _Parser, span: Span | None, message: str, found: str, expected: str
) -> DQLSyntaxError:
    line, column = (span.line, span.column) if span else (0, 0)
    return DQLSyntaxError(
        message, file=parser.file, line=line, column=column, found=found, expected=expected
    )
