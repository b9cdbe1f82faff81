"""`Block`: typed accessors over a `block "Name" { ... }` declaration.

Accessors use Python names (`llm_context`, `allowed_filters`) for the DQL spellings
(`llmContext`, `allowedFilters`). The raw ordered items stay the source of truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zlens_jupyter.dql.model import (
    Assertion,
    BlockStatus,
    Declaration,
    Field,
    Section,
    section_to_dict,
)

# Trust sources for a block whose status is `certified`.
TRUST_CERTIFICATION_RECORD = "certification record"
TRUST_DECLARED_IN_FILE = "declared in file"


@dataclass(eq=True)
class Block(Declaration):
    """`block "Name" { ... }`: a governed analytics unit."""

    @property
    def type(self) -> str:
        """`custom` (SQL) or `semantic` (metric refs); `custom` when unset."""
        return self._text("type") or "custom"

    @property
    def status(self) -> BlockStatus:
        """The lifecycle status; `draft` when unset (the parser rejects unknown values)."""
        raw = self._text("status")
        return BlockStatus(raw) if raw else BlockStatus.DRAFT

    @status.setter
    def status(self, value: BlockStatus | str) -> None:
        self.set("status", str(BlockStatus(value)), after=("type", "domain"))

    @property
    def llm_context(self) -> str | None:
        return self._text("llmContext")

    @property
    def grain(self) -> str | None:
        """The grain as written; a list grain is joined with ', '."""
        value = self.get("grain")
        if isinstance(value, list):
            return ", ".join(str(v) for v in value) or None
        return value if isinstance(value, str) and value else None

    @property
    def outputs(self) -> list[str]:
        return self._strings("outputs")

    @property
    def dimensions(self) -> list[str]:
        return self._strings("dimensions")

    @property
    def allowed_filters(self) -> list[str]:
        return self._strings("allowedFilters")

    @property
    def entities(self) -> list[str]:
        return self._strings("entities")

    @property
    def pattern(self) -> str | None:
        return self._text("pattern")

    @property
    def query(self) -> str | None:
        return self._text("query")

    @property
    def metric(self) -> str | None:
        return self._text("metric")

    @property
    def metrics(self) -> list[str]:
        """`metrics = [...]`, or the single `metric = "..."` as a one-item list."""
        many = self._strings("metrics")
        single = self.metric
        return many if many else ([single] if single else [])

    @property
    def visualization(self) -> dict[str, Any]:
        return self._section_dict("visualization")

    @property
    def parameter_policy(self) -> dict[str, Any]:
        return self._section_dict("parameterPolicy")

    @property
    def filter_bindings(self) -> dict[str, Any]:
        return self._section_dict("filterBindings")

    @property
    def param_defaults(self) -> dict[str, Any]:
        """Default values from an optional `params { name = value }` section."""
        return self._section_dict("params")

    @property
    def tests(self) -> list[Assertion]:
        section = self.section("tests")
        if section is None:
            return []
        return [i for i in section.items if isinstance(i, Assertion)]

    @property
    def certification(self) -> dict[str, Any] | None:
        """The recorded `certification { by, at, sql_hash, schema_fingerprint, tables }`."""
        section = self.section("certification")
        return None if section is None else section_to_dict(section)

    def set_certification(self, record: dict[str, Any]) -> None:
        """Record (or replace) the certification section, keeping its place in the block."""
        items: list[Any] = [Field(key, value) for key, value in record.items()]
        self.set_section(Section("certification", items))

    @property
    def is_certified(self) -> bool:
        return self.status is BlockStatus.CERTIFIED

    @property
    def trust_source(self) -> str | None:
        """Why this block counts as certified: a certification record, or the file's word."""
        if not self.is_certified:
            return None
        return TRUST_CERTIFICATION_RECORD if self.certification else TRUST_DECLARED_IN_FILE

    def _section_dict(self, name: str) -> dict[str, Any]:
        section = self.section(name)
        return {} if section is None else section_to_dict(section)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary of the known fields (what events and the panel show)."""
        return {
            "name": self.name,
            "domain": self.domain,
            "type": self.type,
            "status": str(self.status),
            "description": self.description,
            "owner": self.owner,
            "tags": self.tags,
            "llm_context": self.llm_context,
            "grain": self.grain,
            "outputs": self.outputs,
            "dimensions": self.dimensions,
            "allowed_filters": self.allowed_filters,
            "query": self.query,
            "visualization": self.visualization,
            "tests": [t.expression for t in self.tests],
            "certification": self.certification,
            "trust_source": self.trust_source,
            "source": self.source,
        }
