"""The writable copy of the sample project and `open_sample`."""

from __future__ import annotations

import filecmp
from pathlib import Path

from zlens_jupyter.dql import BlockLibrary, BlockStatus, load_dql
from zlens_jupyter.sample import bundled_project, open_sample, sample_project_dir
from zlens_jupyter.sample.workspace import SAMPLE_CERTIFIED_BLOCKS


def bundled_files() -> set[str]:
    root = Path(str(bundled_project()))
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_first_use_copies_the_bundled_project(fresh_cache: Path) -> None:
    project = sample_project_dir()
    assert project == fresh_cache / "sample-project"
    copied = {str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()}
    assert copied == bundled_files()
    assert "semantic/shop.yml" in copied
    assert len([f for f in copied if f.startswith("blocks/") and f.endswith(".dql")]) >= 5
    root = Path(str(bundled_project()))
    certified = {b.source for b in BlockLibrary.load(project).certified()}
    for name in copied:
        if str(project / name) not in certified:
            assert filecmp.cmp(project / name, root / name, shallow=False), name
    # The certified blocks differ only by the status and the record the certify code wrote.
    assert len(certified) == len(SAMPLE_CERTIFIED_BLOCKS)
    for source in certified:
        (copy,) = load_dql(source).blocks
        (shipped,) = load_dql(root / Path(source).relative_to(project)).blocks
        assert copy.certification and shipped.status is BlockStatus.REVIEW
        copy.items = [i for i in copy.items if getattr(i, "name", None) != "certification"]
        copy.status = BlockStatus.REVIEW
        assert copy == shipped
    assert not [p.name for p in fresh_cache.iterdir() if p.name.endswith(".tmp")]


def test_existing_copy_is_never_overwritten(fresh_cache: Path) -> None:
    project = sample_project_dir()
    block = project / "blocks" / "orders_by_channel.dql"
    block.write_text(block.read_text().replace('status = "draft"', 'status = "review"'))
    (project / ".zlens").mkdir()
    assert sample_project_dir() == project
    assert 'status = "review"' in block.read_text()
    assert (project / ".zlens").is_dir()
    bundled = Path(str(bundled_project())) / "blocks" / "orders_by_channel.dql"
    assert 'status = "draft"' in bundled.read_text()  # the package copy is untouched


def test_open_sample_returns_database_and_project(sample_env: Path) -> None:
    database, project = open_sample()
    assert database.parent == sample_env and database.suffix == ".duckdb"
    assert database.is_file()
    assert project == sample_env / "sample-project"
    assert (project / "blocks").is_dir()
