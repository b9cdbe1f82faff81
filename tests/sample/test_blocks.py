"""The bundled DQL blocks: they parse, carry their governance fields, run on the sample
database in real DuckDB, return their declared outputs and pass their own tests."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.dql import (
    Block,
    BlockLibrary,
    BlockStatus,
    check_drift,
    evaluate_assertions,
    refresh_certification,
)
from zlens_jupyter.sample import bundled_project
from zlens_jupyter.sample.workspace import SAMPLE_CERTIFIED_BLOCKS, SAMPLE_CERTIFIER
from zlens_jupyter.warehouse import Warehouse

CERTIFIED = {
    "Revenue by segment",
    "Revenue by region",
    "Monthly revenue",
    "Top products by revenue",
}


def library() -> BlockLibrary:
    return BlockLibrary.load(Path(str(bundled_project())))


def test_every_file_parses_and_no_shipped_file_claims_certified() -> None:
    # A file's word never certifies: the package ships blocks for review, and the user's
    # copy is certified by the certify code when it is made (next test).
    lib = library()
    assert lib.errors == []
    statuses = {b.name: b.status for b in lib.blocks}
    assert len(statuses) >= 5
    assert set(statuses.values()) <= {BlockStatus.DRAFT, BlockStatus.REVIEW}
    assert BlockStatus.REVIEW in statuses.values() and BlockStatus.DRAFT in statuses.values()
    assert set(SAMPLE_CERTIFIED_BLOCKS) == CERTIFIED
    assert [d.name for d in lib.domains] == ["sales"]


def test_the_users_copy_carries_real_certification_records(
    sample_project: Path, sample_db_path: Path
) -> None:
    lib = BlockLibrary.load(sample_project)
    assert {b.name for b in lib.certified()} == CERTIFIED
    warehouse = Warehouse.connect(sample_db_path)
    try:
        for block in lib.certified():
            record = block.certification or {}
            assert record["by"] == SAMPLE_CERTIFIER
            assert str(record["sql_hash"]).startswith("sha256:")
            assert record["schema_fingerprint"] and record["tables"]
            assert check_drift(block, lib, warehouse) is None
        assert refresh_certification(lib, warehouse) == {}
    finally:
        warehouse.close()


@pytest.mark.parametrize("name", sorted(CERTIFIED))
def test_certified_blocks_have_every_governance_field(name: str) -> None:
    block = library().get(name)
    assert block is not None
    for field in ("domain", "owner", "description", "llm_context", "grain", "query"):
        assert getattr(block, field), f"{name} lacks {field}"
    assert block.tags and block.outputs and block.dimensions and block.tests
    assert {"chart", "x", "y"} <= set(block.visualization)
    assert set(block.dimensions) <= set(block.outputs)


def all_blocks() -> list[Block]:
    return sorted(library().blocks, key=lambda b: b.name)


@pytest.mark.parametrize("block", all_blocks(), ids=lambda b: b.name)
def test_block_runs_returns_its_outputs_and_passes_its_tests(
    block: Block, shop: duckdb.DuckDBPyConnection
) -> None:
    assert block.query is not None
    cursor = shop.execute(block.query)
    columns = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    assert columns == block.outputs
    results = evaluate_assertions(block, columns, rows)
    assert results and all(r.passed for r in results), [r.message for r in results]


def test_certified_revenue_agrees_with_order_totals(shop: duckdb.DuckDBPyConnection) -> None:
    segment_block = library().get("Revenue by segment")
    monthly_block = library().get("Monthly revenue")
    assert segment_block and segment_block.query and monthly_block and monthly_block.query
    (by_segment,) = shop.execute(f"SELECT sum(revenue) FROM ({segment_block.query})").fetchone()  # type: ignore[misc]
    (by_month,) = shop.execute(f"SELECT sum(revenue) FROM ({monthly_block.query})").fetchone()  # type: ignore[misc]
    (order_totals,) = shop.execute("SELECT sum(amount) FROM orders").fetchone()  # type: ignore[misc]
    assert abs(by_segment - by_month) < 1
    assert abs(by_segment - order_totals) < 100  # per-order rounding only


def test_every_block_is_certifiable_through_the_real_warehouse(sample_db_path: Path) -> None:
    # The full path a user's `%zlens certify` takes: read-only guard, bounded preview, tests.
    from zlens_jupyter.dql import certification_verdict
    from zlens_jupyter.warehouse import Warehouse

    lib = library()
    with Warehouse.connect(str(sample_db_path)) as warehouse:
        verdicts = {b.name: certification_verdict(b, lib, warehouse) for b in lib.blocks}
    assert {n: v.problems for n, v in verdicts.items()} == {n: [] for n in verdicts}
    assert all(v.certifiable for v in verdicts.values())
