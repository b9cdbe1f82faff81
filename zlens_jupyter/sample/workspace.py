"""A writable copy of the bundled sample project (blocks and semantic layer).

The copy inside the installed package must never be written to: users certify blocks and
the run store writes `.zlens/` into the project. So the first use copies `project/` to
`<cache>/sample-project/`, certifies the blocks the sample's team vouches for (the bundled
files say `review`: a file's word never certifies), and every later use returns that copy
untouched, edits included.
"""

from __future__ import annotations

import shutil
import uuid
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from zlens_jupyter.sample.build import cache_dir, sample_database_path

SAMPLE_PROJECT_DIRNAME = "sample-project"
# The blocks the sample's analytics team certified, and who did: certified in the user's copy
# when it is made, so each carries a real record (SQL hash, schema fingerprint) that drift
# and hand edits are checked against, like any block a person certifies.
SAMPLE_CERTIFIER = "analytics@sample-shop.example"
SAMPLE_CERTIFIED_BLOCKS = (
    "Revenue by segment",
    "Revenue by region",
    "Monthly revenue",
    "Top products by revenue",
)


def bundled_project() -> Traversable:
    """The read-only sample project shipped inside the package."""
    return resources.files("zlens_jupyter.sample") / "project"


def sample_project_dir() -> Path:
    """The user's writable sample project, copied from the package on first use.

    An existing copy is never overwritten. Concurrent first uses are safe: each copies into
    a private folder and renames it into place; the loser of the race discards its copy.
    """
    target = cache_dir() / SAMPLE_PROJECT_DIRNAME
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f"{target.name}.{uuid.uuid4().hex}.tmp")
    try:
        _copy_tree(bundled_project(), staging)
        certify_sample_blocks(staging, sample_database_path())
        try:
            staging.rename(target)
        except OSError:
            if not target.is_dir():  # a real failure, not a lost race
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def open_sample() -> tuple[Path, Path]:
    """`(database path, project dir)` of the sample shop, creating both on first use."""
    return sample_database_path(), sample_project_dir()


def certify_sample_blocks(project: Path, database: Path) -> None:
    """Certify the sample's certified blocks in `project` against `database`, with the same
    code `zlens certify` runs, so the records are real and drift is detectable."""
    from zlens_jupyter.dql import BlockLibrary, certify
    from zlens_jupyter.semantic import load_semantic
    from zlens_jupyter.warehouse import Warehouse

    library = BlockLibrary.load(project)
    semantic = load_semantic(project)
    warehouse = Warehouse.connect(database)
    try:
        for name in SAMPLE_CERTIFIED_BLOCKS:
            certify(
                name,
                library,
                warehouse,
                by=SAMPLE_CERTIFIER,
                metric_resolver=semantic.metric_expression,
            )
    finally:
        warehouse.close()


def _copy_tree(source: Traversable, destination: Path) -> None:
    # Traversable (not Path) so this also works when the package is not a plain folder.
    destination.mkdir(parents=True)
    for entry in source.iterdir():
        if entry.name == "__pycache__":
            continue
        if entry.is_dir():
            _copy_tree(entry, destination / entry.name)
        else:
            (destination / entry.name).write_bytes(entry.read_bytes())
