"""The block library: loading a project, bad files, duplicates, lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from zlens_jupyter.dql import BlockLibrary, BlockStatus, parse_dql
from zlens_jupyter.errors import DQLSyntaxError, UserError


def _write(root: Path, relative: str, text: str) -> Path:
    path = root / "blocks" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_one_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    _write(tmp_path, "good.dql", 'block "Good" { domain = "ops" }')
    bad = _write(tmp_path, "nested/bad.dql", 'block "Bad" {\n  domain = "ops"\n  owner "x"\n}')
    library = BlockLibrary.load(tmp_path)
    assert [b.name for b in library.blocks] == ["Good"]
    assert len(library.errors) == 1
    error = library.errors[0]
    assert isinstance(error, DQLSyntaxError)
    assert error.file == str(bad)
    assert (error.line, error.column) == (3, 9)


def test_non_dql_files_and_other_folders_are_ignored(tmp_path: Path) -> None:
    _write(tmp_path, "a.dql", 'block "A" {}')
    _write(tmp_path, "notes.txt", "not dql {")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x.dql").write_text('block "Elsewhere" {}')
    library = BlockLibrary.load(tmp_path)
    assert [b.name for b in library.blocks] == ["A"]
    assert library.errors == []


def test_missing_blocks_folder_is_an_empty_library(tmp_path: Path) -> None:
    library = BlockLibrary.load(tmp_path)
    assert library.blocks == [] and library.errors == []


def test_unreadable_file_is_listed(tmp_path: Path) -> None:
    path = tmp_path / "blocks" / "latin1.dql"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'block "Caf\xe9" {}')
    library = BlockLibrary.load(tmp_path)
    assert library.blocks == []
    assert library.errors[0].file == str(path)


def test_duplicate_block_names_name_both_files(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.dql", 'block "Revenue" { owner = "a" }')
    second = _write(tmp_path, "b.dql", '\nblock "revenue" { owner = "b" }')
    library = BlockLibrary.load(tmp_path)
    assert [b.owner for b in library.blocks] == ["a"]
    (error,) = library.errors
    assert error.file == str(second) and error.line == 2
    assert str(first) in str(error) and str(second) in str(error)


def test_get_is_case_insensitive_and_require_suggests(tmp_path: Path) -> None:
    _write(tmp_path, "a.dql", 'block "Flights by carrier" {}\nblock "Delay by carrier" {}')
    library = BlockLibrary.load(tmp_path)
    block = library.get("FLIGHTS BY CARRIER")
    assert block is not None and block.name == "Flights by carrier"
    assert library.get("nope") is None
    with pytest.raises(UserError, match="Did you mean 'Flights by carrier'"):
        library.require("Flights by carier")


def test_certified_lists_only_certified_blocks(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "a.dql",
        'block "A" { status = "certified" }\nblock "B" { status = "review" }\n'
        'block "C" { status = "pending_recertification" }',
    )
    library = BlockLibrary.load(tmp_path)
    assert [b.name for b in library.certified()] == ["A"]
    assert library.get("C").status is BlockStatus.PENDING_RECERTIFICATION  # type: ignore[union-attr]


def test_domains_terms_and_views_are_collected(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "vocab.dql",
        'domain "Ops" {}\nterm "Carrier" { synonyms = ["Airline"] }\n'
        'business_view "V" { includes { block "A" } }\nblock "A" {}',
    )
    library = BlockLibrary.load(tmp_path)
    assert [d.name for d in library.domains] == ["Ops"]
    assert library.terms[0].synonyms == ["Airline"]
    assert [r.target for r in library.business_views[0].includes] == ["A"]


def test_file_of_and_add_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.dql", 'block "A" {}')
    library = BlockLibrary.load(tmp_path)
    block = library.require("A")
    assert library.file_of(block) is not None
    assert library.file_of(block).path == str(path)  # type: ignore[union-attr]
    library.add_file(parse_dql('block "Cell block" {}'))
    assert library.get("cell block") is not None


def test_to_dict_lists_blocks_and_errors(tmp_path: Path) -> None:
    _write(tmp_path, "a.dql", 'block "A" {}')
    _write(tmp_path, "b.dql", "block")
    data = BlockLibrary.load(tmp_path).to_dict()
    assert [b["name"] for b in data["blocks"]] == ["A"]
    assert len(data["errors"]) == 1 and "b.dql" in data["errors"][0]
