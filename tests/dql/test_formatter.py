"""The formatter: golden files, and parse(format(x)) == x over generated files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zlens_jupyter.dql import (
    Assertion,
    Block,
    BlockStatus,
    BusinessView,
    Comment,
    Declaration,
    Domain,
    DQLFile,
    Field,
    Ident,
    Reference,
    Section,
    Term,
    format_dql,
    parse_dql,
)

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = sorted(p.name.removesuffix(".input.dql") for p in FIXTURES.glob("*.input.dql"))


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_file(name: str) -> None:
    source = (FIXTURES / f"{name}.input.dql").read_text(encoding="utf-8")
    expected = (FIXTURES / f"{name}.expected.dql").read_text(encoding="utf-8")
    formatted = format_dql(parse_dql(source))
    assert formatted == expected
    assert parse_dql(formatted) == parse_dql(source)
    assert format_dql(parse_dql(expected)) == expected  # canonical output is a fixed point


def test_golden_fixtures_exist() -> None:
    assert len(GOLDEN) >= 3


def test_format_accepts_declarations_and_lists() -> None:
    block = Block("block", "A", [Field("query", "SELECT 1")])
    assert format_dql(block) == 'block "A" {\n  query = """\n    SELECT 1\n  """\n}\n'
    assert format_dql([block, Domain("domain", "D")]).endswith('domain "D" {}\n')


def test_query_that_cannot_be_triple_quoted_falls_back_to_a_plain_string() -> None:
    block = Block("block", "A", [Field("query", 'SELECT """odd""" AS x\n  FROM t')])
    text = format_dql(block)
    assert '"""' not in text.replace('\\"\\"\\"', "")
    assert parse_dql(text).declarations[0] == block


# ---- generated files ------------------------------------------------------------------

_RESERVED = {"true", "false", "assert", "row_count"}
identifiers = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.]{0,10}", fullmatch=True).filter(
    lambda s: s not in _RESERVED
)
keys = st.from_regex(r"x_[a-z0-9_]{0,8}", fullmatch=True)
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
sql_text = st.lists(
    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\n"), max_size=20),
    min_size=1,
    max_size=4,
).map("\n".join)
comment_text = st.text(
    st.characters(exclude_categories=("Cs",), exclude_characters="\n\r"), max_size=20
).map(str.strip)
comments = st.none() | comment_text
floats = st.floats(allow_nan=False, allow_infinity=False)
scalars = text | st.integers() | floats | st.booleans() | identifiers.map(Ident)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=8)


def _unique_keys(items: list[Field]) -> list[Field]:
    seen: set[str] = set()
    return [f for f in items if not (f.key in seen or seen.add(f.key))]  # type: ignore[func-returns-value]


fields = st.builds(Field, keys, values, comments)
comment_items = st.builds(Comment, comment_text)
assertions = st.one_of(
    st.builds(
        Assertion,
        st.just("row_count"),
        st.sampled_from(["==", "!=", ">", ">=", "<", "<="]),
        st.integers(),
        comment=comments,
    ),
    st.builds(
        Assertion,
        st.sampled_from(["min", "max", "count_null", "unique"]),
        st.sampled_from(["==", "!=", ">", ">=", "<", "<="]),
        st.integers() | floats | st.booleans() | text,
        text,
        comment=comments,
    ),
    st.builds(
        Assertion,
        st.just("column"),
        st.sampled_from(["==", "<"]),
        st.integers() | text,
        st.from_regex(r"c_[a-z0-9_]{0,6}", fullmatch=True),
        comment=comments,
    ),
)
sections = st.recursive(
    st.builds(
        Section,
        st.from_regex(r"s_[a-z]{0,6}", fullmatch=True),
        st.lists(fields, max_size=3),
        st.none() | text,
        comments,
    ),
    lambda inner: st.builds(
        Section,
        st.from_regex(r"s_[a-z]{0,6}", fullmatch=True),
        st.lists(fields | comment_items | inner, max_size=3),
        st.none() | text,
        comments,
    ),
    max_leaves=4,
)
tests_sections = st.builds(
    Section, st.just("tests"), st.lists(assertions | comment_items, max_size=4)
)
includes = st.builds(
    Section,
    st.just("includes"),
    st.lists(
        st.builds(Reference, st.sampled_from(["block", "business_view"]), text, comments),
        max_size=3,
    ),
)


@st.composite
def blocks(draw: st.DrawFn) -> Declaration:
    known = [
        Field("domain", draw(text)),
        Field("status", draw(st.sampled_from([s.value for s in BlockStatus]))),
        Field("outputs", draw(st.lists(text, max_size=3))),
        Field("query", draw(sql_text), draw(comments)),
    ]
    body = known + _unique_keys(draw(st.lists(fields, max_size=4)))
    body += draw(st.lists(sections | comment_items, max_size=3))
    body.append(draw(tests_sections))
    order = draw(st.permutations(range(len(body))))
    return Block(
        "block",
        draw(text),
        [body[i] for i in order],
        draw(st.lists(comment_text, max_size=2)),
        draw(comments),
    )


@st.composite
def other_declarations(draw: st.DrawFn) -> Declaration:
    cls, kind = draw(
        st.sampled_from([(Domain, "domain"), (Term, "term"), (BusinessView, "business_view")])
    )
    items: list = _unique_keys(draw(st.lists(fields, max_size=3)))
    if kind == "business_view":
        items.append(draw(includes))
    return cls(kind, draw(text), items, draw(st.lists(comment_text, max_size=2)), draw(comments))


files = st.builds(
    DQLFile,
    st.none(),
    st.lists(blocks() | other_declarations(), max_size=3),
    st.none() | st.just(1),
    st.lists(comment_text.filter(lambda c: not c.startswith("dql-format")), max_size=2),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files)
def test_parse_of_format_is_identity(file: DQLFile) -> None:
    for declaration in file.declarations:
        declaration.leading_comments = [
            c for c in declaration.leading_comments if not c.startswith("dql-format")
        ]
    formatted = format_dql(file)
    assert parse_dql(formatted) == file
    assert format_dql(parse_dql(formatted)) == formatted


@settings(max_examples=100, deadline=None)
@given(values)
def test_values_keep_their_types(value: object) -> None:
    block = Block("block", "V", [Field("x_value", value)])  # type: ignore[arg-type]
    parsed = parse_dql(format_dql(block)).declarations[0].get("x_value")

    def shape(v: object) -> object:
        if isinstance(v, list):
            return [shape(i) for i in v]
        return (type(v).__name__, v)

    assert shape(parsed) == shape(value)
