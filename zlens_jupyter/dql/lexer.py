"""Turn DQL text into tokens that carry their exact line, column and offsets.

Strings support only the two escapes the language defines (`\\"` and `\\\\`); any other
backslash is kept as written. Triple-quoted strings are taken verbatim after removing the
blank first/last line and the common indentation (`dedent_triple_quoted`).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from enum import Enum

from zlens_jupyter.errors import DQLSyntaxError


class TokenKind(Enum):
    IDENT = "identifier"
    STRING = "string"
    NUMBER = "number"
    TRUE = "true"
    FALSE = "false"
    LBRACE = "'{'"
    RBRACE = "'}'"
    LBRACKET = "'['"
    RBRACKET = "']'"
    LPAREN = "'('"
    RPAREN = "')'"
    COMMA = "','"
    EQUALS = "'='"
    OPERATOR = "comparison operator"
    COMMENT = "comment"
    EOF = "end of file"


@dataclass(frozen=True)
class Token:
    """One token. `text` is the source as written; `value` the decoded string or number."""

    kind: TokenKind
    text: str
    value: str | int | float | None
    line: int
    column: int
    start: int
    end: int
    end_line: int
    triple: bool = False


IDENT_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_OPERATORS = ("==", "!=", ">=", "<=", ">", "<")
_PUNCTUATION = {
    "{": TokenKind.LBRACE,
    "}": TokenKind.RBRACE,
    "[": TokenKind.LBRACKET,
    "]": TokenKind.RBRACKET,
    "(": TokenKind.LPAREN,
    ")": TokenKind.RPAREN,
    ",": TokenKind.COMMA,
}
_HEADER = re.compile(r"//\s*dql-format:\s*(\d+)\s*$")


def dedent_triple_quoted(raw: str) -> str:
    """The value of a `\"\"\"...\"\"\"` string from the text between its delimiters."""
    lines = raw.split("\n")
    if len(lines) > 1 and not lines[0].strip():
        lines = lines[1:]
    if len(lines) > 1 and not lines[-1].strip():
        lines = lines[:-1]
    elif len(lines) == 1 and not lines[0].strip():
        return ""
    return textwrap.dedent("\n".join(lines))


def read_format_header(text: str) -> int | None:
    """The N of a first line `// dql-format: N`, or None."""
    first_line = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    match = _HEADER.fullmatch(first_line)
    return int(match.group(1)) if match else None


class Lexer:
    """Scan DQL source into tokens; raises DQLSyntaxError with the exact position."""

    def __init__(self, text: str, file: str | None = None) -> None:
        self.text = text
        self.file = file
        self.pos = 0
        self.line = 1
        self.line_start = 0

    def tokens(self) -> list[Token]:
        """All tokens, comments included, ending with EOF."""
        out: list[Token] = []
        while True:
            token = self._next()
            out.append(token)
            if token.kind is TokenKind.EOF:
                return out

    def _column(self, offset: int) -> int:
        return offset - self.line_start + 1

    def _advance_to(self, offset: int) -> None:
        """Move to `offset`, counting the newlines crossed on the way."""
        chunk = self.text[self.pos : offset]
        newlines = chunk.count("\n")
        if newlines:
            self.line += newlines
            self.line_start = self.pos + chunk.rindex("\n") + 1
        self.pos = offset

    def _token(
        self,
        kind: TokenKind,
        end: int,
        value: str | int | float | None = None,
        triple: bool = False,
    ) -> Token:
        start, line, column = self.pos, self.line, self._column(self.pos)
        self._advance_to(end)
        return Token(kind, self.text[start:end], value, line, column, start, end, self.line, triple)

    def _error(self, message: str, offset: int, found: str, expected: str) -> DQLSyntaxError:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return DQLSyntaxError(
            message, file=self.file, line=line, column=column, found=found, expected=expected
        )

    def _next(self) -> Token:
        text = self.text
        while self.pos < len(text) and text[self.pos] in " \t\r\n\ufeff":
            self._advance_to(self.pos + 1)
        if self.pos >= len(text):
            return Token(
                TokenKind.EOF,
                "",
                None,
                self.line,
                self._column(self.pos),
                self.pos,
                self.pos,
                self.line,
            )
        char = text[self.pos]
        if text.startswith("//", self.pos):
            end = text.find("\n", self.pos)
            end = len(text) if end == -1 else end
            body = text[self.pos + 2 : end].strip()
            return self._token(TokenKind.COMMENT, end, body)
        if text.startswith('"""', self.pos):
            return self._triple_string()
        if char == '"':
            return self._string()
        if char in _PUNCTUATION:
            return self._token(_PUNCTUATION[char], self.pos + 1)
        operator = next((op for op in _OPERATORS if text.startswith(op, self.pos)), None)
        if operator:
            return self._token(TokenKind.OPERATOR, self.pos + len(operator), operator)
        if char == "=":
            return self._token(TokenKind.EQUALS, self.pos + 1)
        number = _NUMBER.match(text, self.pos)
        if number:
            literal = number.group(0)
            is_float = any(c in literal for c in ".eE")
            return self._token(
                TokenKind.NUMBER, number.end(), float(literal) if is_float else int(literal)
            )
        ident = IDENT_PATTERN.match(text, self.pos)
        if ident:
            word = ident.group(0)
            kind = {"true": TokenKind.TRUE, "false": TokenKind.FALSE}.get(word, TokenKind.IDENT)
            return self._token(kind, ident.end(), word)
        raise self._error(
            f"unexpected character {char!r}", self.pos, char, "a field, a value, '{' or '}'"
        )

    def _string(self) -> Token:
        text, index = self.text, self.pos + 1
        parts: list[str] = []
        while index < len(text):
            char = text[index]
            if char == "\\" and index + 1 < len(text) and text[index + 1] in '"\\':
                parts.append(text[index + 1])
                index += 2
            elif char == '"':
                return self._token(TokenKind.STRING, index + 1, "".join(parts))
            else:
                parts.append(char)
                index += 1
        raise self._error("unterminated string", self.pos, '"', "a closing '\"'")

    def _triple_string(self) -> Token:
        close = self.text.find('"""', self.pos + 3)
        if close == -1:
            raise self._error(
                "unterminated triple-quoted string", self.pos, '"""', 'a closing \'"""\''
            )
        raw = self.text[self.pos + 3 : close]
        return self._token(TokenKind.STRING, close + 3, dedent_triple_quoted(raw), triple=True)
