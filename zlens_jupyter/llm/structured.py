"""Structured output: ask for JSON matching a schema, parse it robustly, validate, repair.

Where the endpoint supports it, `response_format={"type": "json_schema", ...}` constrains the
model. Many OpenAI-compatible servers do not, so every reply also goes through a tolerant
parser (code fences, leading prose, trailing commas) and a jsonschema validation whose
message is precise enough to send back to the model as the fix instruction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import MalformedOutput, ModelError
from .results import Usage
from .retry import failures_of

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

    from .provider import ChatProvider

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_MAX_ERRORS_REPORTED = 5


def extract_json(text: str | None) -> Any:
    """The first JSON object in `text`, tolerating fences, prose around it and trailing commas.

    >>> extract_json('Sure! ```json\\n{"a": [1, 2,],}\\n``` hope that helps')
    {'a': [1, 2]}
    >>> extract_json('The answer is {"n": 3}.')
    {'n': 3}
    """
    if not text or not text.strip():
        raise MalformedOutput("the reply was empty; reply with one JSON object")
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        for variant in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            start = variant.find("{")
            while start != -1:
                try:
                    value, _end = decoder.raw_decode(variant, start)
                    return value
                except json.JSONDecodeError:
                    start = variant.find("{", start + 1)
    snippet = text.strip()[:80]
    raise MalformedOutput(
        f"no JSON object could be parsed from the reply (it starts {snippet!r}); "
        "reply with exactly one JSON object and nothing else"
    )


def _where(error: ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return "$" + path


def validation_errors(instance: Any, schema: dict[str, Any]) -> list[str]:
    """Every schema violation as "at $.path: message", most relevant first (empty if valid)."""
    # jsonschema costs ~2 s to import: only runs that talk to a model pay for it.
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: (len(e.absolute_path), e.path))
    return [f"at {_where(e)}: {e.message}" for e in errors]


def validate_json(instance: Any, schema: dict[str, Any], *, what: str = "the JSON") -> Any:
    """Return `instance` if it matches `schema`; else raise MalformedOutput saying exactly why."""
    problems = validation_errors(instance, schema)
    if problems:
        shown = "; ".join(problems[:_MAX_ERRORS_REPORTED])
        more = len(problems) - _MAX_ERRORS_REPORTED
        suffix = f" (and {more} more)" if more > 0 else ""
        raise MalformedOutput(f"{what} does not match the required schema: {shown}{suffix}")
    return instance


def parse_json_reply(text: str | None, schema: dict[str, Any]) -> Any:
    """extract_json + validate_json: the whole fallback parser in one call."""
    return validate_json(extract_json(text), schema)


def json_schema_format(schema: dict[str, Any], name: str = "answer") -> dict[str, Any]:
    """The `response_format` value that asks the server to enforce `schema`."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}


@dataclass
class StructuredResult:
    """A validated JSON value plus the audit trail of how it was obtained."""

    value: Any
    raw_outputs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # validation errors sent back, in order
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    used_json_schema: bool = False

    @property
    def fix_rounds(self) -> int:
        return len(self.errors)


def _rejected_response_format(exc: ModelError) -> bool:
    failures = failures_of(exc)
    if not failures or failures[-1].kind != "bad_request":
        return False
    message = failures[-1].message.lower()
    return "response_format" in message or "json_schema" in message


def complete_json(
    provider: ChatProvider,
    messages: Sequence[dict[str, Any]],
    schema: dict[str, Any],
    *,
    max_fix_rounds: int = 2,
    name: str = "answer",
) -> StructuredResult:
    """Ask for JSON matching `schema`; on invalid output send the error back, at most
    `max_fix_rounds` times, then raise MalformedOutput (with `.raw_outputs`).

    If the server rejects `response_format=json_schema`, the provider remembers that and the
    schema is stated in the prompt instead (this does not use up a fix round).
    """
    conversation = list(messages)
    out = StructuredResult(value=None)
    instruction = {
        "role": "system",
        "content": "Reply with one JSON object, and nothing else, matching this JSON schema:\n"
        + json.dumps(schema, separators=(",", ":")),
    }
    while True:
        use_schema = provider.supports_json_schema is not False
        try:
            result = provider.complete(
                conversation if use_schema else [*conversation, instruction],
                response_format=json_schema_format(schema, name) if use_schema else None,
            )
        except ModelError as exc:
            if use_schema and _rejected_response_format(exc):
                provider.supports_json_schema = False
                continue
            raise
        out.used_json_schema = use_schema
        out.usage.add(result.usage)
        out.cost_usd = round(out.cost_usd + result.cost_usd, 8)
        out.raw_outputs.append(result.raw)
        try:
            out.value = parse_json_reply(result.content, schema)
            return out
        except MalformedOutput as exc:
            if out.fix_rounds >= max_fix_rounds:
                exc.raw_outputs = list(out.raw_outputs)  # type: ignore[attr-defined]
                exc.errors = [*out.errors, str(exc)]  # type: ignore[attr-defined]
                raise
            out.errors.append(str(exc))
            conversation += [
                {"role": "assistant", "content": result.content or ""},
                {
                    "role": "user",
                    "content": f"Your reply was invalid: {exc}. "
                    "Reply again with only the corrected JSON object.",
                },
            ]
