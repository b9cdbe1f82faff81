"""`zlens ask` as a process that asks once: the cycle collector is off for the one run (its
passes free nothing in a process that ends after it) and given back as it was found to an
in-process caller; the trust line prints what it quotes as typed."""

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


def test_the_trust_line_prints_emoji_codes_as_typed():
    # A reason quotes block names and questions: ':rocket:' there is text, not an emoji.
    import io

    from rich.console import Console

    from zlens_jupyter.engine import AgentRun, RunStatus, TrustState

    run = AgentRun(
        id="run_1",
        question="q",
        status=RunStatus.COMPLETED,
        trust_state=TrustState.CERTIFIED,
        trust_reason='certified block "Launch :rocket:" ran unchanged',
    )
    out = Console(file=io.StringIO(), width=160)
    cli.render_run(run, out)
    assert 'certified block "Launch :rocket:" ran unchanged' in out.file.getvalue()


def test_a_certified_ask_never_loads_the_question_parser(sample_cache, tmp_path):
    # The parser is the largest module to compile; a certified answer reads only the frame.
    import os
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from zlens_jupyter import cli\n"
        "code = cli.main(['ask', 'What is revenue by segment?', '--db', 'sample', '--quiet'])\n"
        "print('parser loaded:', 'zlens_jupyter.parsing.question' in sys.modules, code)\n"
    )
    env = {**os.environ, "ZLENS_CACHE_DIR": str(sample_cache)}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert "parser loaded: False 0" in done.stdout, done.stderr[-2000:]
