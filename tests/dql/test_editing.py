"""Surgical edits of one block inside a file, and the atomic write."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from zlens_jupyter.dql import (
    BlockLibrary,
    BlockStatus,
    Field,
    Section,
    edit_block_text,
    parse_dql,
    write_text_atomic,
)

SOURCE = """// dql-format: 1
block "A" {
  // who owns it
  domain  = "ops"     // aligned by hand
  owner   = "o"

  query = \"\"\"
    SELECT 1 AS n  -- a SQL comment
  \"\"\"
}

// between blocks
block "B" {
  type = "custom"
}
"""


def test_new_status_goes_after_domain_and_nothing_else_moves() -> None:
    edited = edit_block_text(SOURCE, "a", fields={"status": "review"})
    assert edited == SOURCE.replace(
        '  domain  = "ops"     // aligned by hand\n',
        '  domain  = "ops"     // aligned by hand\n  status = "review"\n',
    )


def test_status_goes_after_type_when_present() -> None:
    edited = edit_block_text(SOURCE, "B", fields={"status": "draft"})
    assert edited.endswith('block "B" {\n  type = "custom"\n  status = "draft"\n}\n')


def test_new_field_in_a_block_without_anchor_goes_first() -> None:
    edited = edit_block_text('block "C" {\n    owner = "o"\n}\n', "C", fields={"status": "review"})
    assert edited == 'block "C" {\n    status = "review"\n    owner = "o"\n}\n'


def test_sections_are_added_then_replaced_in_place() -> None:
    once = edit_block_text(SOURCE, "A", sections=[Section("certification", [Field("by", "x")])])
    assert '  """\n\n  certification {\n    by = "x"\n  }\n}\n\n// between blocks' in once
    twice = edit_block_text(once, "A", sections=[Section("certification", [Field("by", "y")])])
    assert twice == once.replace('by = "x"', 'by = "y"')
    assert parse_dql(twice).blocks[0].certification == {"by": "y"}


def test_update_block_without_a_file_changes_memory_only() -> None:
    library = BlockLibrary([parse_dql('block "Mem" {}')])
    block = library.update_block("mem", fields={"status": "review"})
    assert block.status is BlockStatus.REVIEW


def test_atomic_write_keeps_mode_and_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "a.dql"
    path.write_text("old")
    os.chmod(path, 0o640)
    write_text_atomic(path, "new ✓")
    assert path.read_text(encoding="utf-8") == "new ✓"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.dql"]
