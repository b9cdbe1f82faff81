"""`zlens ask` runs its one question with the cycle collector off (its passes free nothing in
a process that ends after one run) and gives it back as it found it to an in-process caller."""

from __future__ import annotations

import gc

import pytest

from zlens_jupyter import cli


@pytest.mark.parametrize("enabled", [True, False])
def test_ask_leaves_the_collector_as_it_found_it(sample_cache, monkeypatch, capsys, enabled):
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(sample_cache))
    during: list[bool] = []
    ask_once = cli._ask_once

    def spy(*args):
        during.append(gc.isenabled())
        return ask_once(*args)

    monkeypatch.setattr(cli, "_ask_once", spy)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert cli.main(["ask", "What is revenue by segment?", "--db", "sample", "--quiet"]) == 0
        assert during == [False]
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert "Consumer" in capsys.readouterr().out
