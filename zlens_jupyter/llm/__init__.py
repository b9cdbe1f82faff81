"""The model layer: an OpenAI-compatible provider, structured output and the tool loop.

Offline is the default: `ModelConfig.from_env()` is None without OPENAI_API_KEY or
OPENAI_BASE_URL, and nothing here opens a connection without a config. The `openai` package
is imported only when a `ChatProvider` is built.
"""

from __future__ import annotations

from .config import DEFAULT_MODEL, DEFAULT_PRICES, ModelConfig, price_for
from .prompts import (
    DEFAULT_SYSTEM_PROMPT,
    ColumnSlice,
    GroundingContext,
    Prompt,
    TableSlice,
    build_messages,
    ground_from_host,
    render_messages,
)
from .provider import ChatProvider
from .react import ToolLoopResult, ToolStep, detect_repetition, run_tool_loop
from .redact import redact_secrets, redact_text, register_secret
from .results import ChatResult, FailureRecord, ToolCall, Usage, estimate_tokens
from .retry import failures_of, parse_retry_after
from .structured import (
    StructuredResult,
    complete_json,
    extract_json,
    json_schema_format,
    parse_json_reply,
    validate_json,
)
from .tools import (
    ALL_TOOL_SPECS,
    FINAL_ANSWER_SCHEMA,
    QUERY_PLAN_SCHEMA,
    TOOL_PARAMETERS,
    TOOL_SPECS,
    ToolHost,
    check_tool_call,
)

__all__ = [
    "ALL_TOOL_SPECS",
    "DEFAULT_MODEL",
    "DEFAULT_PRICES",
    "DEFAULT_SYSTEM_PROMPT",
    "FINAL_ANSWER_SCHEMA",
    "QUERY_PLAN_SCHEMA",
    "TOOL_PARAMETERS",
    "TOOL_SPECS",
    "ChatProvider",
    "ChatResult",
    "ColumnSlice",
    "FailureRecord",
    "GroundingContext",
    "ModelConfig",
    "Prompt",
    "StructuredResult",
    "TableSlice",
    "ToolCall",
    "ToolHost",
    "ToolLoopResult",
    "ToolStep",
    "Usage",
    "build_messages",
    "check_tool_call",
    "complete_json",
    "detect_repetition",
    "estimate_tokens",
    "extract_json",
    "failures_of",
    "ground_from_host",
    "json_schema_format",
    "parse_json_reply",
    "parse_retry_after",
    "price_for",
    "redact_secrets",
    "redact_text",
    "register_secret",
    "render_messages",
    "run_tool_loop",
    "validate_json",
]
