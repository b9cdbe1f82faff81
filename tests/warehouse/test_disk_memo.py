"""Pure results kept between processes (`disk_memo`): what one `zlens ask` found, the next
reads back; a torn line or another version's file is never taken for an answer; a statement
the guard refused is never remembered."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from zlens_jupyter import disk_memo
from zlens_jupyter.warehouse.guard import SQLGuardViolation, guard_read_only


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(disk_memo, "_memos", {})  # a fresh process
    return tmp_path / "memo"


def test_an_entry_is_read_back_by_the_next_process(cache, monkeypatch):
    code = disk_memo.code_key("v1", files=(__file__,))
    disk_memo.remember("kind", code, "k1", "one")
    disk_memo.remember("kind", code, "k2", "two")
    with (cache / f"kind-{code}.jsonl").open("a") as torn:
        torn.write('["k3", "thr')  # a writer killed mid-line
    monkeypatch.setattr(disk_memo, "_memos", {})
    assert disk_memo.recall("kind", code, "k1") == "one"
    assert disk_memo.recall("kind", code, "k2") == "two"
    assert disk_memo.recall("kind", code, "k3") is None
    # Other code (an upgrade, an edit) reads its own file.
    assert disk_memo.recall("kind", disk_memo.code_key("v2", files=(__file__,)), "k1") is None


def _run_twice(script: str, cache) -> list[str]:
    """The script's output in two fresh processes sharing one cache: the first builds and
    keeps, the second reads back."""
    env = {**os.environ, "ZLENS_CACHE_DIR": str(cache.parent)}
    return [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    ]


def test_the_next_process_takes_the_guards_verdict_without_sqlglot(cache):
    script = (
        "import sys; from zlens_jupyter.warehouse.guard import guard_read_only; "
        "print(guard_read_only('SELECT 41 + 1 AS answer; -- kept')); "
        "print('sqlglot' in sys.modules)"
    )
    runs = [out.split() for out in _run_twice(script, cache)]
    assert runs[0][-1] == "True"  # judged: DuckDB's parser and sqlglot's second opinion
    assert runs[1][-1] == "False"  # the same text, judged before: read back
    assert " ".join(runs[1][:-1]) == "SELECT 41 + 1 AS answer"


def test_a_refused_statement_is_never_remembered(cache):
    for _ in range(2):
        with pytest.raises(SQLGuardViolation):
            guard_read_only("DROP TABLE t")
    assert not list(cache.glob("guard-*.jsonl"))


def test_the_next_process_reads_country_codes_without_pycountry(cache):
    """Value probing's country names -> ISO codes are built once (pycountry's tables) and
    read back by later processes, the same mapping, without importing pycountry."""
    script = (
        "import json, sys; from zlens_jupyter.warehouse import probing; "
        "codes = probing._country_codes(); print('pycountry' in sys.modules); "
        "from zlens_jupyter.vocabulary import country_codes; "
        "print(codes == country_codes() and list(codes) == list(country_codes())); "
        "print(codes['portugal'][:2], codes['united kingdom'])"
    )
    runs = [out.splitlines() for out in _run_twice(script, cache)]
    # the codes, then every name the country goes by ('Viet Nam' for "Vietnam")
    uk = "('gb', 'gbr', 'united kingdom', 'united kingdom of great britain and northern ireland')"
    assert runs[0] == ["True", "True", f"('pt', 'prt') {uk}"]
    assert runs[1] == ["False", "True", f"('pt', 'prt') {uk}"]
