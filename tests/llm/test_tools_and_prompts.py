"""Tool schemas, validation before execution, and bounded grounding context over real data."""

from __future__ import annotations

import json
from typing import Any

import pytest

from zlens_jupyter.errors import GuardrailViolation
from zlens_jupyter.llm import (
    ALL_TOOL_SPECS,
    TOOL_SPECS,
    GroundingContext,
    build_messages,
    check_tool_call,
    ground_from_host,
)


def test_tool_specs_are_openai_function_tools() -> None:
    names = [spec["function"]["name"] for spec in ALL_TOOL_SPECS]
    assert names == [
        "search_catalog",
        "inspect_schema",
        "sample_values",
        "lookup_metric",
        "run_sql_preview",
        "final_answer",
    ]
    for spec in TOOL_SPECS:
        assert spec["type"] == "function"
        assert spec["function"]["parameters"]["additionalProperties"] is False
    json.dumps(ALL_TOOL_SPECS)  # must serialise as sent


@pytest.mark.parametrize(
    ("name", "arguments", "error"),
    [
        ("sample_values", '{"table": "flights", "column": "carrier", "k": 50}', "maximum of 20"),
        ("run_sql_preview", '{"sql": "select 1", "limit": 500}', "maximum of 200"),
        ("inspect_schema", "{}", "'table' is a required property"),
        ("inspect_schema", '{"table": "flights", "drop": true}', "Additional properties"),
        ("search_catalog", '{"query": "delays"', "not valid JSON"),
        ("list_tables", "{}", "unknown tool 'list_tables'"),
        ("final_answer", '{"sql": "select 1", "answer": "one"}', "'query_plan' is a dependency"),
    ],
)
def test_bad_calls_are_rejected_with_a_reason(name: str, arguments: str, error: str) -> None:
    checked = check_tool_call(name, arguments)
    assert not checked.valid
    assert error in (checked.error or "")


def test_good_call_validates_and_has_a_canonical_action_key() -> None:
    a = check_tool_call("sample_values", '{"table": "airlines", "column": "name", "k": 3}')
    b = check_tool_call("sample_values", '{"k": 3, "column": "name", "table": "airlines"}')
    assert a.valid and b.valid
    assert a.action_key == b.action_key


def test_test_host_guards_run_sql_preview(host: Any) -> None:
    with pytest.raises(GuardrailViolation):
        host.run_sql_preview("select 1; drop table flights")
    with pytest.raises(GuardrailViolation):
        host.run_sql_preview("delete from flights")
    preview = host.run_sql_preview("select carrier from flights", limit=5)
    assert preview["row_count"] == 5 and preview["truncated"] is True


def test_grounding_context_is_a_bounded_slice_of_real_data(host: Any) -> None:
    context = ground_from_host(
        host, "flights per airline name and carrier", max_tables=2, max_columns=6, max_samples=3
    )
    assert 1 <= len(context.tables) <= 2
    for table in context.tables:
        assert len(table.columns) <= 6
        for column in table.columns:
            assert len(column.samples) <= 3
    airlines = next(t for t in context.tables if t.name == "airlines")
    names = next(c for c in airlines.columns if c.name == "name")
    assert names.samples == [
        "AirTran Airways Corporation",
        "Alaska Airlines Inc.",
        "American Airlines Inc.",
    ]
    # No sample_values call ever asked for more than max_samples values.
    assert all(args[2] <= 3 for tool, args in host.calls if tool == "sample_values")


def test_shrinking_the_context_drops_samples_and_tables(host: Any) -> None:
    full = ground_from_host(host, "flights per airline name and carrier", max_tables=4)
    small = ground_from_host(host, "flights per airline name and carrier", max_tables=4, shrink=2)
    assert len(small.render()) < len(full.render())
    assert len(small.tables) <= 1
    assert all(not c.samples for t in small.tables for c in t.columns)


def test_build_messages_returns_exactly_what_is_sent() -> None:
    context = GroundingContext(notes=["flights has 19 columns"])
    few_shot = [{"role": "user", "content": "example q"}, {"role": "assistant", "content": "a"}]
    prompt = build_messages(
        "How many flights?", context=context, few_shot=few_shot, system_prompt="be brief"
    )
    roles = [m["role"] for m in prompt.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert prompt.messages[0]["content"] == "be brief"
    assert "note: flights has 19 columns" in prompt.messages[-1]["content"]
    assert "--- system ---\nbe brief" in prompt.show_prompt
    assert "Question: How many flights?" in prompt.show_prompt
