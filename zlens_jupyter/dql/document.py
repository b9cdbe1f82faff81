"""`DQLFile`: one parsed `.dql` file, its declarations in source order."""

from __future__ import annotations

from dataclasses import dataclass, field

from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.model import Declaration


@dataclass
class DQLFile:
    """One parsed `.dql` file. `format_version` is the `// dql-format: N` header, if any."""

    path: str | None = field(compare=False)
    declarations: list[Declaration] = field(default_factory=list)
    format_version: int | None = None
    trailing_comments: list[str] = field(default_factory=list)
    text: str | None = field(default=None, compare=False, repr=False)

    @property
    def blocks(self) -> list[Block]:
        return [d for d in self.declarations if isinstance(d, Block)]
