"""`%zlens init` in a real IPython shell: drafts semantic/draft.yml for the connected
database, says where, loads it into the session, and never replaces the file."""

from __future__ import annotations

from pathlib import Path

from zlens_jupyter.semantic import load_semantic

from .conftest import Cells


def test_init_drafts_for_the_connected_database(nb: Cells, tmp_path: Path) -> None:
    project = tmp_path / "shop-project"
    project.mkdir()
    nb.run(f"%zlens connect sample --project {project}")
    _, captured = nb.run("%zlens init")
    draft = project / "semantic" / "draft.yml"
    assert f"wrote {draft}" in captured.stdout
    assert draft.read_text().startswith("# DRAFT semantic model")
    assert load_semantic(project).metrics  # it loads with the project's loader
    assert nb.magics.session.semantic.metric("total_quantity") is not None  # reloaded

    before = draft.read_bytes()
    _, captured = nb.run("%zlens init")
    assert "already exists" in captured.stderr
    assert draft.read_bytes() == before

    _, captured = nb.run("%zlens init --force-new-name")
    assert "nothing new to draft" in captured.stdout
    assert sorted(p.name for p in draft.parent.iterdir()) == ["draft.yml"]

    _, captured = nb.run("%zlens init --bogus")
    assert "Usage: %zlens init" in captured.stderr
