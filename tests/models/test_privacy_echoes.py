"""Issue 12, problem 12: a server echoing the API key transformed (spaced out, upper-cased,
reversed, base64) gets none of it into the store, events, the run or printed output."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import TEST_KEY, FakeOpenAIServer, final_answer, tool_call
from model_scripts import CHANNEL_PLAN, CHANNEL_SQL, QUESTION, narration, one_step

from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]

ECHOES = {
    "upper-cased": TEST_KEY.upper(),
    "spaced out": " ".join(TEST_KEY),
    "reversed": TEST_KEY[::-1],
    "base64": base64.b64encode(TEST_KEY.encode()).decode(),
}


@pytest.mark.parametrize("how", ECHOES)
def test_problem_12_a_transformed_echo_of_the_key_is_redacted_everywhere(
    make_session: MakeSession,
    server: FakeOpenAIServer,
    project: Path,
    events,
    capsys: pytest.CaptureFixture[str],
    how: str,
) -> None:
    echo = ECHOES[how]
    server.script(
        one_step(goal=f"use {echo}"),
        tool_call("search_catalog", query=f"orders {echo}"),
        final_answer(CHANNEL_SQL, f"my key is {echo}", CHANNEL_PLAN),
        narration(f"Web leads with 32,457 orders ({echo})."),
    )
    session = make_session()
    run = session.ask(QUESTION, on_event=events)
    print(run.answer)
    assert server.requests, "the model was never called"
    stored = list((project / ".zlens" / "runs").glob("*.json"))
    assert len(stored) == 1
    kept = [p.read_text() for p in stored]
    kept += [json.dumps(e.to_dict(), default=str) for e in events.events]
    kept += [json.dumps(run.to_dict(), default=str), repr(run)]
    out = capsys.readouterr()
    kept += [out.out, out.err]
    for text in kept:
        assert echo not in text
        assert echo.lower() not in text.lower()
