"""Malformed DQL is reported with file, exact line and column, the offending text and what
was expected."""

from __future__ import annotations

import pytest

from zlens_jupyter.dql import parse_dql
from zlens_jupyter.errors import DQLSyntaxError, UserError

CASES = [
    pytest.param(
        'block "A" {\n  domain "finance"\n}', 2, 10, '"finance"', "'='", id="missing-equals"
    ),
    pytest.param(
        'block "A" {\n  description = "never closed\n}\n', 2, 17, '"', "closing", id="open-string"
    ),
    pytest.param(
        'block "A" {\n  query = """\n    SELECT 1\n}\n',
        2,
        11,
        '"""',
        "closing",
        id="open-triple-quote",
    ),
    pytest.param('block "A" {\n  domain = "x"\n', 3, 1, "end of file", "'}'", id="missing-brace"),
    pytest.param('block "A" {\n  domain = "x";\n}', 2, 15, ";", "a field", id="stray-character"),
    pytest.param('block "A" {\n  tags = ["a" "b"]\n}', 2, 15, '"b"', "',' or ']'", id="list-comma"),
    pytest.param("block {\n}", 1, 7, "{", "quoted name", id="block-without-name"),
    pytest.param(
        'block "A" {\n  tests {\n    assert row_count => 0\n  }\n}',
        3,
        22,
        "=",
        "comparison operator",
        id="bad-operator",
    ),
    pytest.param(
        'block "A" {\n  status = "aproved"\n}', 2, 12, '"aproved"', "certified", id="unknown-status"
    ),
    pytest.param('block "A" {\n  owner =\n}', 3, 1, "}", "a value", id="missing-value"),
    pytest.param('\n\n  "stray"', 3, 3, '"stray"', "a declaration", id="no-declaration-keyword"),
    pytest.param('block "A" {\n  tags = "one"\n}', 2, 10, '"one"', "a list", id="tags-not-a-list"),
    pytest.param(
        'block "A" {\n  tests {\n    assert min(x) > col\n  }\n}',
        3,
        21,
        "col",
        "a number",
        id="assert-against-identifier",
    ),
    pytest.param(
        'block "A" {\n  domain = "a"\n  domain = "b"\n}',
        3,
        12,
        '"b"',
        "each field once",
        id="duplicate-field",
    ),
    pytest.param(
        'block "A" {\n  visualization = "bar"\n}',
        2,
        3,
        "=",
        "visualization {",
        id="section-written-as-field",
    ),
]


@pytest.mark.parametrize(("text", "line", "column", "found", "expected"), CASES)
def test_error_position_and_details(
    text: str, line: int, column: int, found: str, expected: str
) -> None:
    with pytest.raises(DQLSyntaxError) as caught:
        parse_dql(text, file="blocks/bad.dql")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert error.file == "blocks/bad.dql"
    assert error.found == found
    assert expected in error.expected
    assert str(error).startswith(f"blocks/bad.dql:{line}:{column}: ")


def test_syntax_errors_are_user_errors() -> None:
    with pytest.raises(UserError):
        parse_dql("block")


def test_reference_outside_includes_is_rejected() -> None:
    with pytest.raises(DQLSyntaxError, match="expected '=' after block"):
        parse_dql('block "A" { tests { block "B" } }')


def test_columns_count_characters_not_bytes() -> None:
    with pytest.raises(DQLSyntaxError) as caught:
        parse_dql('block "Café ☕" { x = ; }')
    assert (caught.value.line, caught.value.column) == (1, 22)
