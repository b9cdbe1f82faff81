"""The hostile corpus through every SQL entry point a user or a model can reach.

The guard and Warehouse.preview take the whole corpus (test_guard.py,
test_guard_on_real_database.py); here a representative subset (~60 statements, always
including the issue's own examples) goes through `Session.ask`, `%%zlens_sql` and `%%dql`
in a real in-process IPython, and `zlens dql run` through the real CLI entry function.

Proof that nothing ran: the user's database logs every query DuckDB executes (its own
QueryLog, enabled by the "user" before handing the connection over, as a real user could),
and agent SQL only ever runs wrapped as `... AS zlens_preview`; canary rows, a sequence
feeding an id column, settings and files are compared before and after; and a credential
set on the user's connection (`http_proxy_password`) never appears in any output.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

HERE = Path(__file__).parent
HOSTILE: list[dict[str, str]] = yaml.safe_load((HERE / "hostile_sql.yml").read_text())
SECRET = "s3cret-proxy-pw"

# The issue's own examples, always in the subset.
KEY = [
    "SELECT name, setting FROM pg_catalog.pg_settings",
    "SELECT value FROM pg_settings WHERE name = 'http_proxy_password'",
    "SELECT json_serialize_plan('SELECT current_setting(''http_proxy_password'')')",
    "SELECT * FROM pragma_database_list",
    "SELECT * FROM duckdb_databases()",
    "SELECT * FROM duckdb_logs",
    "SELECT setval('seq', 5000000)",
    "SELECT '127.0.0.1'::INET",
    "SELECT * FROM file_view",
    "SELECT * FROM nested_view",
    "UPDATE EXTENSIONS",
    "SELECT " + "(" * 5000 + "1" + ")" * 5000,
    "SELECT " + "(SELECT " * 2000 + "1" + ")" * 2000,
]
SUBSET = KEY + [e["sql"] for e in HOSTILE[::21]]


def test_the_subset_is_representative() -> None:
    assert len(SUBSET) >= 60
    rules = {e["rule"] for e in HOSTILE if e["sql"] in SUBSET}
    assert {"select-only", "forbidden-function", "system-catalog", "file-access"} <= rules


@pytest.fixture
def user_db(hostile_path: Path, scratch: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The user's own read-write connection: a credential in its settings, its query log
    on (the oracle for "executed"), handed to ZLens as is."""
    con = duckdb.connect(str(hostile_path))
    con.execute(f"SET http_proxy_password = '{SECRET}'")
    con.execute("CALL enable_logging('QueryLog')")
    yield con
    con.close()


def _sql(entry: str, scratch: Path) -> str:
    return entry.replace("{tmp}", str(scratch))


def _state(con: duckdb.DuckDBPyConnection, scratch: Path) -> dict[str, Any]:
    return {
        "accounts": con.execute("SELECT * FROM accounts ORDER BY id").fetchall(),
        "items": con.execute("SELECT * FROM items ORDER BY id").fetchall(),
        "sequences": con.execute(
            "SELECT sequence_name, last_value FROM duckdb_sequences() ORDER BY ALL"
        ).fetchall(),
        "objects": con.execute(
            "SELECT table_name FROM duckdb_tables() UNION ALL "
            "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY ALL"
        ).fetchall(),
        "databases": con.execute(
            "SELECT database_name FROM duckdb_databases() ORDER BY 1"
        ).fetchall(),
        "settings": con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('threads', "
            "'enable_external_access', 'lock_configuration', 'autoload_known_extensions', "
            "'autoinstall_known_extensions', 'http_proxy_password') ORDER BY ALL"
        ).fetchall(),
        "extensions": con.execute(
            "SELECT extension_name FROM duckdb_extensions() WHERE loaded ORDER BY 1"
        ).fetchall(),
        "files": sorted(p.name for p in scratch.rglob("*")),
    }


def _executed(con: duckdb.DuckDBPyConnection, statements: list[str]) -> int:
    """How many of `statements` DuckDB ran as agent SQL, from its own query log."""
    ran = [
        str(m)
        for (m,) in con.execute(
            "SELECT message FROM duckdb_logs WHERE type = 'QueryLog' AND contains(message, "
            "') AS zlens_preview LIMIT') AND NOT contains(message, 'duckdb_logs')"
        ).fetchall()
    ]
    inner = [m.split("(\n", 1)[-1].rsplit("\n) AS zlens_preview", 1)[0].strip() for m in ran]
    return sum(1 for s in statements if any(i and i in s for i in inner))


def _assert_untouched(
    con: duckdb.DuckDBPyConnection, before: dict[str, Any], scratch: Path, outputs: str
) -> None:
    assert _state(con, scratch) == before
    assert SECRET not in outputs
    con.execute("INSERT INTO items (label) VALUES ('next')")
    assert con.execute("SELECT max(id) FROM items").fetchone() == (2,)  # seq never moved


def test_the_query_log_oracle_sees_a_preview(user_db: duckdb.DuckDBPyConnection) -> None:
    """Control: the oracle counts a statement that did run."""
    from zlens_jupyter.warehouse import Warehouse

    Warehouse.connect(user_db).preview("SELECT 41 + 1 AS answer")
    assert _executed(user_db, ["SELECT 41 + 1 AS answer"]) == 1


# --- Session.ask: the SQL as the question ----------------------------------------------


def test_session_ask_runs_no_hostile_statement(
    user_db: duckdb.DuckDBPyConnection, scratch: Path, tmp_path: Path
) -> None:
    from zlens_jupyter.session import Session

    before = _state(user_db, scratch)
    session = Session(user_db, tmp_path / "project", persist=False)
    statements = [_sql(s, scratch) for s in SUBSET]
    outputs = []
    for sql in statements:
        run = session.ask(sql, deadline_s=30)
        outputs.append(json.dumps(run.to_dict(), default=str))
        assert run.trust_state is None or run.trust_state.value != "grounded", sql
    assert _executed(user_db, statements) == 0
    _assert_untouched(user_db, before, scratch, "\n".join(outputs))


# --- %%zlens_sql and %%dql in a real IPython ----------------------------------------------


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    ip = InteractiveShell.instance(config=config)
    ip.run_line_magic("load_ext", "zlens_jupyter")
    yield ip
    magics = ip.magics_manager.registry.get("ZLensMagics")
    if magics is not None and magics.session is not None:
        magics.session.close()
    InteractiveShell.clear_instance()


def _cell(ip: Any, source: str) -> tuple[str, bool]:
    """Run one cell; (everything it showed, whether it raised)."""
    with capture_output() as captured:
        result = ip.run_cell(source, store_history=False)
    shown = [captured.stdout, captured.stderr]
    shown += [json.dumps(o.data, default=str) for o in captured.outputs]
    return "\n".join(shown), result.error_in_exec is not None


@pytest.mark.parametrize("magic", ["zlens_sql", "dql"])
def test_cell_magics_run_no_hostile_statement(
    magic: str, shell: Any, user_db: duckdb.DuckDBPyConnection, scratch: Path
) -> None:
    before = _state(user_db, scratch)
    shell.user_ns["con"] = user_db
    shown, failed = _cell(shell, "%zlens connect con")
    assert not failed, shown
    statements = [_sql(s, scratch) for s in SUBSET if '"""' not in s]
    outputs = []
    for sql in statements:
        body = sql if magic == "zlens_sql" else f'block "Hostile" {{\n  query = """{sql}"""\n}}'
        shown, _ = _cell(shell, f"%%{magic}\n{body}")
        assert "Traceback" not in shown, shown[-2000:]
        outputs.append(shown)
    assert _executed(user_db, statements) == 0
    _assert_untouched(user_db, before, scratch, "\n".join(outputs))


# --- zlens dql run, through the real CLI entry function ---------------------------------


def test_cli_dql_run_runs_no_hostile_statement(
    hostile_path: Path, scratch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zlens_jupyter.cli import main

    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    con = duckdb.connect(str(hostile_path))
    before = _state(con, scratch)
    con.close()
    executed = 0
    outputs = []
    for i, entry in enumerate(s for s in SUBSET if '"""' not in s):
        sql = _sql(entry, scratch)
        dql = tmp_path / f"hostile_{i}.dql"
        dql.write_text(f'block "Hostile {i}" {{\n  query = """{sql}"""\n}}\n', encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["dql", "run", str(dql), "--db", str(hostile_path), "--project", "."])
        outputs.append(out.getvalue() + err.getvalue())
        assert "Traceback" not in outputs[-1]
        executed += code == 0
    assert executed == 0, [o for o in outputs if "blocked" not in o.lower()][:3]
    gc.collect()  # the CLI leaves closing its sessions to process exit; free the file
    con = duckdb.connect(str(hostile_path))
    try:
        _assert_untouched(con, before, scratch, "\n".join(outputs))
    finally:
        con.close()
