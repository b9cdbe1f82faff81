"""The read-only tools the model may call, as JSON schemas, and the host that runs them.

Every call is validated against its schema before anything runs (loop invariant 1). An
unknown tool or a bad argument becomes a structured error observation for the model; it is
never executed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from .structured import validation_errors


class ToolHost(Protocol):
    """What the tools run against (the warehouse, in production). Each returns a JSON dict.

    Expected shapes (extra keys are fine; `{"error": "..."}` reports a problem the model
    can fix, and a raised ZLensError is turned into the same kind of observation):
      search_catalog  -> {"results": [{"kind": "table"|"column"|"metric", "name", "table"?,
                          "score"?, "description"?}]}
      inspect_schema  -> {"table", "columns": [{"name", "type", "description"?}],
                          "row_count"?}
      sample_values   -> {"table", "column", "values": [...at most k...]}
      lookup_metric   -> {"name", "expression" | "sql", "description"?, ...}
      run_sql_preview -> {"columns", "rows", "row_count", "truncated"}  (read-only, bounded)
    """

    def search_catalog(self, query: str, k: int = 5) -> dict[str, Any]: ...

    def inspect_schema(self, table: str) -> dict[str, Any]: ...

    def sample_values(self, table: str, column: str, k: int = 5) -> dict[str, Any]: ...

    def lookup_metric(self, name: str) -> dict[str, Any]: ...

    def run_sql_preview(self, sql: str, limit: int = 50) -> dict[str, Any]: ...


def _object(properties: dict[str, Any], required: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        **extra,
    }


_NAME = {"type": "string", "minLength": 1, "maxLength": 200}

TOOL_PARAMETERS: dict[str, dict[str, Any]] = {
    "search_catalog": _object(
        {"query": _NAME, "k": {"type": "integer", "minimum": 1, "maximum": 20}}, ["query"]
    ),
    "inspect_schema": _object({"table": _NAME}, ["table"]),
    "sample_values": _object(
        {"table": _NAME, "column": _NAME, "k": {"type": "integer", "minimum": 1, "maximum": 20}},
        ["table", "column"],
    ),
    "lookup_metric": _object({"name": _NAME}, ["name"]),
    "run_sql_preview": _object(
        {
            "sql": {"type": "string", "minLength": 1, "maxLength": 20_000},
            "limit": {"type": "integer", "minimum": 1, "maximum": 200},
        },
        ["sql"],
    ),
}

QUERY_PLAN_SCHEMA: dict[str, Any] = _object(
    {
        "grain": {"type": "string", "minLength": 1},
        "measures": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "dimensions": {"type": "array", "items": {"type": "string"}},
        "join_path": {"type": "array", "items": {"type": "string"}},
        "filters": {"type": "array", "items": {"type": "string"}},
    },
    ["grain", "measures", "dimensions", "join_path"],
)

# The model must state its plan before it may hand over SQL: `sql` requires `query_plan`.
FINAL_ANSWER_SCHEMA: dict[str, Any] = _object(
    {
        "query_plan": QUERY_PLAN_SCHEMA,
        "sql": {"type": "string", "minLength": 1},
        "answer": {"type": "string", "minLength": 1},
    },
    ["answer"],
    dependentRequired={"sql": ["query_plan"]},
)

FINAL_ANSWER = "final_answer"

_DESCRIPTIONS = {
    "search_catalog": "Search tables, columns and metrics by keywords. Returns ranked matches.",
    "inspect_schema": "Columns and types of one table.",
    "sample_values": "Up to k distinct values of one column (k <= 20). Use to find filter "
    "values; never to read whole tables.",
    "lookup_metric": "The governed definition of a named metric.",
    "run_sql_preview": "Run ONE read-only SELECT and see at most `limit` rows (<= 200). "
    "Use it to check your SQL before the final answer.",
    FINAL_ANSWER: "Finish. Give the query plan (grain, measures, dimensions, join path), the "
    "final SELECT and a one-sentence answer. If the data cannot answer, omit sql and say why.",
}


def _spec(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": _DESCRIPTIONS[name], "parameters": parameters},
    }


READ_TOOLS = tuple(TOOL_PARAMETERS)
TOOL_SPECS: list[dict[str, Any]] = [_spec(name, TOOL_PARAMETERS[name]) for name in READ_TOOLS]
FINAL_ANSWER_SPEC = _spec(FINAL_ANSWER, FINAL_ANSWER_SCHEMA)
ALL_TOOL_SPECS: list[dict[str, Any]] = [*TOOL_SPECS, FINAL_ANSWER_SPEC]


@dataclass
class CheckedCall:
    """A tool call after validation. `error` set means it must not run."""

    name: str
    arguments: dict[str, Any] | str  # the raw string when it was not valid JSON
    error: str | None = None

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def action_key(self) -> str:
        """Identity of the action, for repetition detection: tool + canonical arguments."""
        args = (
            json.dumps(self.arguments, sort_keys=True, separators=(",", ":"))
            if isinstance(self.arguments, dict)
            else self.arguments
        )
        return f"{self.name}:{args}"


def check_tool_call(name: str, arguments_json: str) -> CheckedCall:
    """Parse and validate one call against its schema; never runs anything."""
    try:
        arguments = json.loads(arguments_json) if arguments_json.strip() else {}
    except json.JSONDecodeError as exc:
        return CheckedCall(name, arguments_json, f"arguments are not valid JSON: {exc.msg}")
    if name != FINAL_ANSWER and name not in TOOL_PARAMETERS:
        return CheckedCall(
            name,
            arguments if isinstance(arguments, dict) else arguments_json,
            f"unknown tool {name!r}; available tools: {', '.join([*READ_TOOLS, FINAL_ANSWER])}",
        )
    if not isinstance(arguments, dict):
        return CheckedCall(name, arguments_json, "arguments must be a JSON object")
    # Small models send `"k": null` for an optional argument they mean to omit.
    arguments = {key: value for key, value in arguments.items() if value is not None}
    schema = FINAL_ANSWER_SCHEMA if name == FINAL_ANSWER else TOOL_PARAMETERS[name]
    problems = validation_errors(arguments, schema)
    if problems:
        return CheckedCall(name, arguments, f"invalid arguments for {name}: {'; '.join(problems)}")
    return CheckedCall(name, arguments)


def error_observation(call: CheckedCall) -> dict[str, Any]:
    """What the model sees instead of a result when its call was rejected."""
    observation: dict[str, Any] = {"error": call.error, "executed": False}
    if call.name in TOOL_PARAMETERS:
        observation["expected_arguments"] = TOOL_PARAMETERS[call.name]["properties"]
    else:
        observation["available_tools"] = [*READ_TOOLS, FINAL_ANSWER]
    return observation


def run_tool(host: ToolHost, call: CheckedCall) -> dict[str, Any]:
    """Run a validated read tool on the host. Dispatch is by a fixed table, never getattr."""
    if not call.valid or not isinstance(call.arguments, dict):
        raise ValueError(f"refusing to run an unvalidated call: {call.error}")
    args = call.arguments
    if call.name == "search_catalog":
        return host.search_catalog(args["query"], int(args.get("k", 5)))
    if call.name == "inspect_schema":
        return host.inspect_schema(args["table"])
    if call.name == "sample_values":
        return host.sample_values(args["table"], args["column"], int(args.get("k", 5)))
    if call.name == "lookup_metric":
        return host.lookup_metric(args["name"])
    if call.name == "run_sql_preview":
        return host.run_sql_preview(args["sql"], int(args.get("limit", 50)))
    raise ValueError(f"{call.name!r} is not a read tool")


def summarize_observation(observation: dict[str, Any]) -> str:
    """A one-line summary for event streams ("12 rows", "error: ...")."""
    if observation.get("error"):
        return f"error: {str(observation['error'])[:160]}"
    for key, noun in (
        ("rows", "rows"),
        ("results", "matches"),
        ("columns", "columns"),
        ("values", "values"),
    ):
        if isinstance(observation.get(key), list):
            return f"{len(observation[key])} {noun}"
    return "ok"


def observation_text(observation: dict[str, Any], max_chars: int = 6000) -> str:
    """The observation as the JSON the model reads, cut to `max_chars` (rows first)."""
    text = json.dumps(observation, ensure_ascii=False, default=str)
    rows = observation.get("rows")
    if len(text) <= max_chars or not isinstance(rows, list):
        return text if len(text) <= max_chars else text[:max_chars] + "...(truncated)"
    keep = len(rows)
    while keep > 1 and len(text) > max_chars:
        keep //= 2
        text = json.dumps(
            {**observation, "rows": rows[:keep], "rows_shown": keep},
            ensure_ascii=False,
            default=str,
        )
    return text if len(text) <= max_chars else text[:max_chars] + "...(truncated)"
