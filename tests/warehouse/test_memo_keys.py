"""What `zlens ask` keeps between processes about one database (`disk_memo`): the value index
and the database's macros. A process reads them back instead of computing them again, and a
changed database is never answered from what its old self was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter import disk_memo
from zlens_jupyter.warehouse import Warehouse, probing
from zlens_jupyter.warehouse.catalog import ColumnValues
from zlens_jupyter.warehouse.guard import SQLGuardViolation
from zlens_jupyter.warehouse.models import Catalog
from zlens_jupyter.warehouse.probing import ValueIndex


@pytest.fixture
def fresh_process(tmp_path, monkeypatch):
    """Call it to forget everything this process read or wrote, as a new process would."""
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))

    def forget() -> None:
        monkeypatch.setattr(disk_memo, "_memos", {})

    forget()
    return forget


def _probe(columns: list[ColumnValues], question: str) -> list[tuple[str, str, str, str]]:
    found = ValueIndex(columns).probe(question, Catalog({}, (), ""))
    return [(m.word, m.table, m.column, m.value) for m in found]


def test_the_value_index_is_read_back_and_built_again_for_other_values(fresh_process, monkeypatch):
    shop = [
        ColumnValues("customers", "segment", ("Small Business", "Consumer")),
        ColumnValues("staff", "title", ("AsstProf", "Prof")),
    ]
    question = "revenue of small businesses and assistant professors"
    first = _probe(shop, question)
    assert ("small businesses", "customers", "segment", "Small Business") in first
    assert ("assistant professors", "staff", "title", "AsstProf") in first

    built: list[int] = []
    build = probing._build
    monkeypatch.setattr(probing, "_build", lambda cols: built.append(1) or build(cols))
    fresh_process()
    assert _probe(shop, question) == first and not built  # read back, not built

    # Other values (a changed database) are indexed afresh, never answered from the old.
    changed = [ColumnValues("customers", "segment", ("Enterprise", "Consumer")), shop[1]]
    fresh_process()
    assert ("small businesses", "customers", "segment", "Small Business") not in _probe(
        changed, question
    )
    assert built == [1]


def test_the_value_index_key_names_the_files_that_index_values():
    # The code key covers the word list the index expands codes with; a key naming a file
    # that is not there would not notice it change.
    vocabulary = Path(probing.vocabulary.__file__).with_name("vocabulary.yml")
    assert vocabulary.is_file()
    assert probing._index_code() == disk_memo.code_key(
        sys.version,
        probing.lemma_code(),
        files=(probing.__file__, probing.vocabulary.__file__, str(vocabulary)),
    )


CALLS_MACRO = "SELECT shout(region) FROM sales"


def _guard_after_reconnect(path: Path, fresh_process) -> None:
    fresh_process()
    warehouse = Warehouse.connect(path)
    try:
        assert warehouse.schema_is_fixed  # the case whose macros are remembered
        warehouse.guard(CALLS_MACRO)
    finally:
        warehouse.close()


def test_a_macro_added_since_is_seen_though_the_clean_file_was_remembered(tmp_path, fresh_process):
    path = tmp_path / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
    warehouse = Warehouse.connect(path)
    warehouse.guard("SELECT upper(region) FROM sales")  # lists (no) macros, remembered
    warehouse.close()
    assert list((tmp_path / "cache" / "memo").glob("macros-*.jsonl"))

    before = path.stat()
    with duckdb.connect(str(path)) as con:  # checkpointed on close
        con.execute("CREATE MACRO shout(x) AS upper(x)")
    # Even with its old modification time put back, the file is not the one remembered.
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(SQLGuardViolation, match=r"shout\(\)"):
        _guard_after_reconnect(path, fresh_process)


WRITER_KILLED = """
import os, sys, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("SET checkpoint_threshold = '1GB'")
con.execute("CREATE MACRO shout(x) AS upper(x)")
os._exit(0)  # no checkpoint: the macro is only in the write-ahead log
"""


def test_a_macro_left_in_the_write_ahead_log_is_seen(tmp_path, fresh_process):
    path = tmp_path / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
    warehouse = Warehouse.connect(path)
    warehouse.guard("SELECT upper(region) FROM sales")
    warehouse.close()
    before = path.stat()

    subprocess.run([sys.executable, "-c", WRITER_KILLED, str(path)], check=True)
    assert Path(f"{path}.wal").is_file() and path.stat().st_mtime_ns == before.st_mtime_ns
    with pytest.raises(SQLGuardViolation, match=r"shout\(\)"):
        _guard_after_reconnect(path, fresh_process)


def test_remembered_macros_still_refuse_their_calls(tmp_path, fresh_process):
    path = tmp_path / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
        con.execute("CREATE MACRO shout(x) AS upper(x)")
    for _ in range(2):  # listed, then read back
        with pytest.raises(SQLGuardViolation, match=r"shout\(\)"):
            _guard_after_reconnect(path, fresh_process)
