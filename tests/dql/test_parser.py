"""The parser on every construct in shared/dql-language.md."""

from __future__ import annotations

import pytest

from zlens_jupyter.dql import (
    Assertion,
    Block,
    BlockStatus,
    BusinessView,
    Comment,
    Declaration,
    Domain,
    Field,
    Ident,
    Reference,
    Section,
    Term,
    parse_block,
    parse_dql,
)
from zlens_jupyter.errors import DQLSyntaxError

SPEC_BLOCK = '''block "Revenue by segment" {
  domain = "finance"
  type = "custom"                 // "custom" (SQL) or "semantic" (metric refs)
  status = "draft"                // draft | review | certified | deprecated | pending_recert
  description = "Gross revenue grouped by customer segment."
  owner = "analytics@company.com"
  tags = ["revenue"]
  llmContext = "Use when people ask for revenue by customer segment."
  grain = "segment"
  outputs = ["segment", "revenue"]
  dimensions = ["segment"]
  allowedFilters = ["order_date", "segment"]

  query = """
    SELECT c.segment, SUM(o.amount) AS revenue
    FROM orders o JOIN customers c ON c.customer_id = o.customer_id
    GROUP BY 1
  """

  visualization {
    chart = "bar"                 // bar | line | area | scatter | single_value | table | pie
    x = segment
    y = revenue
  }

  tests {
    assert row_count > 0
  }
}
'''


def test_spec_example_block_has_every_typed_field() -> None:
    block = parse_block(SPEC_BLOCK)
    assert block.name == "Revenue by segment"
    assert block.domain == "finance"
    assert block.type == "custom"
    assert block.status is BlockStatus.DRAFT
    assert block.description == "Gross revenue grouped by customer segment."
    assert block.owner == "analytics@company.com"
    assert block.tags == ["revenue"]
    assert block.llm_context == "Use when people ask for revenue by customer segment."
    assert block.grain == "segment"
    assert block.outputs == ["segment", "revenue"]
    assert block.dimensions == ["segment"]
    assert block.allowed_filters == ["order_date", "segment"]
    assert block.query == (
        "SELECT c.segment, SUM(o.amount) AS revenue\n"
        "FROM orders o JOIN customers c ON c.customer_id = o.customer_id\n"
        "GROUP BY 1"
    )
    assert block.visualization == {"chart": "bar", "x": "segment", "y": "revenue"}
    assert isinstance(block.visualization["x"], Ident)
    assert block.tests == [Assertion("row_count", ">", 0)]
    assert block.certification is None
    assert block.trust_source is None


def test_trailing_comments_attach_to_their_field() -> None:
    block = parse_block(SPEC_BLOCK)
    type_field = next(i for i in block.items if isinstance(i, Field) and i.key == "type")
    assert type_field.comment == '"custom" (SQL) or "semantic" (metric refs)'


def test_format_header_is_metadata_not_a_comment() -> None:
    parsed = parse_dql('// dql-format: 1\n// about\nblock "A" {}\n')
    assert parsed.format_version == 1
    assert parsed.declarations[0].leading_comments == ["about"]
    assert parse_dql('block "A" {}').format_version is None


def test_header_only_counts_on_the_first_line() -> None:
    parsed = parse_dql('\n// dql-format: 1\nblock "A" {}')
    assert parsed.format_version is None
    assert parsed.declarations[0].leading_comments == ["dql-format: 1"]


def test_other_block_fields_and_sections() -> None:
    block = parse_block("""
block "Top carriers" {
  type = "semantic"
  pattern = "ranking"
  businessOutcome = "Know who flies most"
  businessOwner = "COO"
  decisionUse = "Slot planning"
  reviewCadence = "monthly"
  entities = ["carrier"]
  terms = ["Carrier"]
  sourceSystems = ["faa"]
  replacementFor = "Old carriers block"
  metric = "flight_count"
  metrics = ["flight_count", "avg_delay"]
  parameterPolicy { carrier = "dynamic" }
  filterBindings { carrier = "flights.carrier" }
}""")
    assert block.type == "semantic"
    assert block.pattern == "ranking"
    assert block.entities == ["carrier"]
    assert block.terms == ["Carrier"]
    assert block.metric == "flight_count"
    assert block.metrics == ["flight_count", "avg_delay"]
    assert block.parameter_policy == {"carrier": "dynamic"}
    assert block.filter_bindings == {"carrier": "flights.carrier"}
    assert block.get("businessOutcome") == "Know who flies most"
    assert block.get("replacementFor") == "Old carriers block"


def test_single_metric_is_also_the_metrics_list() -> None:
    assert parse_block('block "A" { metric = "m" }').metrics == ["m"]


def test_unknown_fields_are_kept_in_order() -> None:
    block = parse_block("""block "A" {
  zeta = 1
  domain = "x"
  alpha { nested = [1, 2.5, -3, true, false, bare, "s"] }
  omega = other_ident
}""")
    keys = [getattr(i, "key", getattr(i, "name", None)) for i in block.items]
    assert keys == ["zeta", "domain", "alpha", "omega"]
    alpha = block.section("alpha")
    assert alpha is not None
    assert alpha.items == [Field("nested", [1, 2.5, -3, True, False, Ident("bare"), "s"])]
    assert block.get("omega") == Ident("other_ident")


def test_escapes_in_strings() -> None:
    block = parse_block(r'block "Say \"hi\"" { description = "a \\ b \"c\" \n d" }')
    assert block.name == 'Say "hi"'
    # Only \" and \\ are escapes; any other backslash is kept as written.
    assert block.description == 'a \\ b "c" \\n d'


def test_regular_string_may_span_lines() -> None:
    block = parse_block('block "A" { description = "line one\nline two" }')
    assert block.description == "line one\nline two"


def test_triple_quoted_removes_common_indentation_only() -> None:
    block = parse_block(
        'block "A" {\n  query = """\n      SELECT a,\n        b\n\n      FROM t\n  """\n}'
    )
    assert block.query == "SELECT a,\n  b\n\nFROM t"


def test_triple_quoted_keeps_quotes_and_backslashes_verbatim() -> None:
    block = parse_block('block "A" { query = """SELECT \'a"b\\\\\' AS x""" }')
    assert block.query == "SELECT 'a\"b\\\\' AS x"


def test_triple_quoted_on_one_line_and_empty() -> None:
    assert parse_block('block "A" { query = """SELECT 1""" }').query == "SELECT 1"
    assert parse_block('block "A" { x = """""" }').get("x") == ""


def test_numbers_and_booleans() -> None:
    block = parse_block('block "A" { a = 42 b = -7 c = 3.25 d = 1e3 e = true f = false }')
    assert [block.get(k) for k in "abcdef"] == [42, -7, 3.25, 1000.0, True, False]
    assert isinstance(block.get("a"), int) and isinstance(block.get("d"), float)


def test_lists_allow_newlines_trailing_comma_and_nesting() -> None:
    block = parse_block(
        'block "A" {\n  tags = [\n    "a",\n    "b",\n  ]\n  grid = [[1, 2], []]\n}'
    )
    assert block.tags == ["a", "b"]
    assert block.get("grid") == [[1, 2], []]


def test_bare_identifier_block_name() -> None:
    assert parse_block("block revenue_by_segment { }").name == "revenue_by_segment"


def test_labelled_nested_section() -> None:
    block = parse_block('block "A" { series "left" { color = "red" } }')
    assert block.items == [Section("series", [Field("color", "red")], label="left")]


def test_domain_term_and_business_view() -> None:
    parsed = parse_dql("""
domain "Operations" {
  owner = "ops@example.com"
  description = "Flight operations."
}

term "Carrier" {
  domain = "Operations"
  synonyms = ["Airline", "Operator"]
  identifiers = ["carrier"]
  businessRules = ["Two-letter IATA code"]
  caveats = ["Regional partners fly under the mainline code."]
}

business_view "Carrier 360" {
  domain = "Operations"
  includes {
    block "Flights by carrier"   // volume
    block "Delay by carrier"
    business_view "Airport overview"
  }
}
""")
    domain, term, view = parsed.declarations
    assert isinstance(domain, Domain) and domain.owner == "ops@example.com"
    assert isinstance(term, Term)
    assert term.synonyms == ["Airline", "Operator"]
    assert term.identifiers == ["carrier"]
    assert term.business_rules == ["Two-letter IATA code"]
    assert term.caveats == ["Regional partners fly under the mainline code."]
    assert isinstance(view, BusinessView)
    assert view.includes == [
        Reference("block", "Flights by carrier", comment="volume"),
        Reference("block", "Delay by carrier"),
        Reference("business_view", "Airport overview"),
    ]
    assert parsed.blocks == []


def test_unknown_top_level_declaration_is_kept() -> None:
    parsed = parse_dql('metric_group "Core" { members = ["a"] }')
    declaration = parsed.declarations[0]
    assert type(declaration) is Declaration
    assert declaration.kind == "metric_group" and declaration.get("members") == ["a"]


def test_one_line_block_and_includes() -> None:
    parsed = parse_dql('business_view "V" { includes { block "Customer" } }')
    assert parsed.declarations[0].items == [Section("includes", [Reference("block", "Customer")])]


def test_all_assertion_forms() -> None:
    block = parse_block("""block "A" {
  tests {
    // volume guard
    assert row_count >= 10
    assert min(dep_delay) > -100
    assert MAX(dep_delay) < 1500.5
    assert count_null(carrier) == 0
    assert unique(carrier) == true
    assert unique("odd name") != false
    assert total <= 5   // bare column of a single-row result
    assert name == "JFK"
  }
}""")
    assert block.tests == [
        Assertion("row_count", ">=", 10),
        Assertion("min", ">", -100, "dep_delay"),
        Assertion("max", "<", 1500.5, "dep_delay"),
        Assertion("count_null", "==", 0, "carrier"),
        Assertion("unique", "==", True, "carrier"),
        Assertion("unique", "!=", False, "odd name"),
        Assertion("column", "<=", 5, "total", comment="bare column of a single-row result"),
        Assertion("column", "==", "JFK", "name"),
    ]
    tests = block.section("tests")
    assert tests is not None and tests.items[0] == Comment("volume guard")
    assert [t.expression for t in block.tests][:3] == [
        "row_count >= 10",
        "min(dep_delay) > -100",
        "max(dep_delay) < 1500.5",
    ]


def test_assert_outside_tests_is_an_ordinary_field() -> None:
    assert parse_block('block "A" { assert = 1 }').get("assert") == 1


def test_status_values() -> None:
    for status in BlockStatus:
        assert parse_block(f'block "A" {{ status = "{status}" }}').status is status
    assert parse_block('block "A" { }').status is BlockStatus.DRAFT


def test_certification_section_and_trust_source() -> None:
    recorded = parse_block("""block "A" {
  status = "certified"
  certification {
    by = "ana@example.com"
    at = "2024-05-01T10:00:00+00:00"
    sql_hash = "sha256:abc"
    schema_fingerprint = "sha256:def"
    tables = ["flights"]
  }
}""")
    assert recorded.certification == {
        "by": "ana@example.com",
        "at": "2024-05-01T10:00:00+00:00",
        "sql_hash": "sha256:abc",
        "schema_fingerprint": "sha256:def",
        "tables": ["flights"],
    }
    assert recorded.trust_source == "certification record"
    declared = parse_block('block "A" { status = "certified" }')
    assert declared.is_certified and declared.trust_source == "declared in file"


def test_parse_block_requires_exactly_one_block() -> None:
    with pytest.raises(DQLSyntaxError, match="exactly one block"):
        parse_block('block "A" {}\nblock "B" {}')


def test_status_setter_inserts_after_type_and_keeps_order() -> None:
    block = parse_block('block "A" { domain = "d" type = "custom" owner = "o" }')
    block.status = BlockStatus.REVIEW
    assert [i.key for i in block.items if isinstance(i, Field)] == [
        "domain",
        "type",
        "status",
        "owner",
    ]
    block.status = "certified"
    assert block.get("status") == "certified"


def test_block_to_dict_is_json_ready() -> None:
    import json

    data = parse_block(SPEC_BLOCK).to_dict()
    assert json.loads(json.dumps(data))["tests"] == ["row_count > 0"]
    assert data["status"] == "draft"


def test_block_is_a_block() -> None:
    assert isinstance(parse_dql(SPEC_BLOCK).declarations[0], Block)


def test_byte_order_mark_before_the_header_is_tolerated() -> None:
    parsed = parse_dql('\ufeff// dql-format: 1\nblock "A" { domain = "x" }')
    assert parsed.format_version == 1
    assert parsed.blocks[0].leading_comments == []
