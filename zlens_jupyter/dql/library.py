"""The project's block library: every `blocks/**/*.dql` file, parsed and indexed by name.

A file that does not parse is listed in `errors` and the rest still load. Block names are
case-insensitive and unique across the library; a second block with a taken name is an error
naming both files, and only the first (in path order) is kept.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.document import DQLFile
from zlens_jupyter.dql.editing import edit_block_text, write_text_atomic
from zlens_jupyter.dql.model import (
    BusinessView,
    Declaration,
    Domain,
    Section,
    Term,
    Value,
)
from zlens_jupyter.dql.parser import parse_dql
from zlens_jupyter.errors import DQLSyntaxError, UserError
from zlens_jupyter.inputs import MAX_DQL_BYTES, read_text_file

BLOCKS_DIR = "blocks"


class BlockLibrary:
    """Parsed DQL files plus a case-insensitive index of their blocks."""

    def __init__(
        self,
        files: Iterable[DQLFile] = (),
        errors: Iterable[DQLSyntaxError] = (),
        root: str | Path | None = None,
    ) -> None:
        self.root = Path(root) if root is not None else None
        self.files: list[DQLFile] = list(files)
        self._parse_errors: list[DQLSyntaxError] = list(errors)
        # Blocks whose `certified` status nothing backs, with why (set by
        # certification.refresh_certification): still matched, never answered as certified.
        self.lowered: dict[str, str] = {}
        self._reindex()

    @classmethod
    def load(cls, project_dir: str | Path) -> BlockLibrary:
        """Read `project_dir/blocks/**/*.dql` (sorted); bad files go to `errors`."""
        root = Path(project_dir)
        files: list[DQLFile] = []
        errors: list[DQLSyntaxError] = []
        for path in sorted((root / BLOCKS_DIR).rglob("*.dql")):
            try:
                # Regular files only (a FIFO named x.dql would hang), at most 1 MB, UTF-8.
                text = read_text_file(path, max_bytes=MAX_DQL_BYTES, what="a DQL file")
                files.append(parse_dql(text, file=str(path)))
            except DQLSyntaxError as exc:
                errors.append(exc)
            except UserError as exc:
                errors.append(
                    DQLSyntaxError(
                        str(exc), file=str(path), line=1, column=1, expected="a UTF-8 text file"
                    )
                )
            except (OSError, UnicodeDecodeError) as exc:
                errors.append(
                    DQLSyntaxError(
                        f"cannot read file: {exc}",
                        file=str(path),
                        line=1,
                        column=1,
                        expected="a UTF-8 text file",
                    )
                )
        return cls(files, errors, root)

    # ---- lookup --------------------------------------------------------------------------
    @property
    def blocks(self) -> list[Block]:
        return list(self._blocks.values())

    @property
    def errors(self) -> list[DQLSyntaxError]:
        """Files that failed to parse, then duplicate block names."""
        return [*self._parse_errors, *self._duplicate_errors]

    @property
    def domains(self) -> list[Domain]:
        return self._declarations(Domain)

    @property
    def terms(self) -> list[Term]:
        return self._declarations(Term)

    @property
    def business_views(self) -> list[BusinessView]:
        return self._declarations(BusinessView)

    def get(self, name: str) -> Block | None:
        """The block called `name` (case-insensitive), or None."""
        return self._blocks.get(name.strip().lower())

    def require(self, name: str) -> Block:
        """The block called `name`, or a UserError suggesting close names."""
        block = self.get(name)
        if block is not None:
            return block
        close = difflib.get_close_matches(name, [b.name for b in self.blocks], n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UserError(f"No block named {name!r} in {BLOCKS_DIR}/**/*.dql.{hint}")

    def certified(self) -> list[Block]:
        """Blocks whose status is `certified`. Whether a record backs that status is the
        certification module's question (`refresh_certification`), not the index's."""
        return [b for b in self.blocks if b.is_certified]

    def file_of(self, block: Block) -> DQLFile | None:
        """The parsed file a block came from."""
        return next((f for f in self.files if any(d is block for d in f.declarations)), None)

    # ---- changes -------------------------------------------------------------------------
    def update_block(
        self,
        name: str,
        *,
        fields: Mapping[str, Value] | None = None,
        sections: list[Section] | None = None,
    ) -> Block:
        """Set fields/sections on a block and write its file back in place (atomically).

        Only that block's text changes; blocks without a file are updated in memory.
        """
        block = self.require(name)
        file = self.file_of(block)
        if file is None or file.path is None:
            for key, value in (fields or {}).items():
                block.set(key, value, after=("type", "domain"))
            for section in sections or []:
                block.set_section(section)
            return block
        path = Path(file.path)
        text = path.read_text(encoding="utf-8")
        new_text = edit_block_text(
            text, block.name, fields=fields, sections=sections, file=str(path)
        )
        write_text_atomic(path, new_text)
        reloaded = parse_dql(new_text, file=str(path))
        self.files[self.files.index(file)] = reloaded
        self._reindex()
        return self.require(block.name)

    def add_file(self, file: DQLFile) -> None:
        """Add an already-parsed file (e.g. a `%%dql` cell) to the index."""
        self.files.append(file)
        self._reindex()

    def to_dict(self) -> dict[str, Any]:
        return {
            "blocks": [b.to_dict() for b in self.blocks],
            "errors": [str(e) for e in self.errors],
        }

    def _declarations(self, kind: type[Declaration]) -> list[Any]:
        return [d for f in self.files for d in f.declarations if isinstance(d, kind)]

    def _reindex(self) -> None:
        self._blocks: dict[str, Block] = {}
        self._duplicate_errors: list[DQLSyntaxError] = []
        for file in self.files:
            for block in file.blocks:
                key = block.name.strip().lower()
                first = self._blocks.get(key)
                if first is None:
                    self._blocks[key] = block
                    continue
                line = block.span.line if block.span else 0
                column = block.span.column if block.span else 0
                where = f"{first.source}:{first.span.line if first.span else 0}"
                self._duplicate_errors.append(
                    DQLSyntaxError(
                        f"duplicate block name {block.name!r}: also defined in {where}",
                        file=block.source,
                        line=line,
                        column=column,
                        found=block.name,
                        expected="a block name not used by another file",
                    )
                )
