"""`zlens_jupyter.panel()`: the interactive panel, driven through its real widgets."""

from __future__ import annotations

from typing import Any

import pytest

import zlens_jupyter
from zlens_jupyter.engine import AgentRun
from zlens_jupyter.errors import ZLensError
from zlens_jupyter.notebook.interactive import MODES, AskPanel, panel
from zlens_jupyter.notebook.widget import RunPanel
from zlens_jupyter.session import Session

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def recorded(monkeypatch):
    """Keep every RunPanel the panel creates, to look at what the output area shows."""
    created = []
    original = RunPanel.__init__

    def record(self, *args, **kwargs):
        original(self, *args, **kwargs)
        created.append(self)

    monkeypatch.setattr(RunPanel, "__init__", record)
    return created


def answers(ask_panel: AskPanel) -> list[dict]:
    return [o for o in ask_panel.output.outputs if "zlens" in o.get("metadata", {})]


def test_the_panel_shares_the_magics_session_and_history(nb, recorded):
    first, _ = nb.run("%zlens --no-panel What is revenue by segment?")
    ask = zlens_jupyter.panel()
    assert isinstance(ask, AskPanel)
    assert ask.runs is nb.magics.history
    assert [value for _, value in ask.history.options] == [first.id]

    ask.question.value = "What is revenue by category?"
    ask.ask_button.click()
    second = nb.magics.history[-1]
    assert second.question == "What is revenue by category?"
    assert second.trust_state.value == "grounded"
    # Newest first, and the new run is the one selected.
    assert [value for _, value in ask.history.options] == [second.id, first.id]
    assert ask.history.value == second.id
    assert ask.history.options[0][0].endswith(" · grounded · What is revenue by category?")
    # The output area, as a %zlens cell ends: the run panel folded to its one-line summary
    # (a static output: no widget is left to Stop), then the answer with its chart.
    outputs = ask.output.outputs
    [run_panel] = recorded
    assert run_panel.final_run["id"] == second.id and run_panel.orb == "done"
    assert [e["type"] for e in run_panel.events][-1] == "run.completed"
    assert run_panel.comm is None  # closed
    assert not any(WIDGET in o["data"] for o in outputs)
    summary, answer = outputs
    assert summary["metadata"]["zlens_panel"] == {"run_id": second.id, "orb": "done"}
    assert summary["data"]["text/plain"].startswith(f"ZLens {second.id} · done · grounded · ")
    assert '<details class="zl-trace">' in summary["data"]["text/html"]
    assert answer["metadata"]["zlens"]["run_id"] == second.id
    assert "Trust: grounded" in answer["data"]["text/plain"]
    assert 'data-trust="grounded"' in answer["data"]["text/html"]
    assert "application/vnd.vegalite.v5+json" in answer["data"]
    assert nb.magics.session.store.load(second.id).question == second.question
    assert not ask.ask_button.disabled and ask.ask_button.description == "Ask"


def test_runs_from_magics_appear_after_a_refresh(nb):
    ask = panel()
    assert ask.history.options == ()
    run, _ = nb.run("%zlens --no-panel What is revenue by segment?")
    ask.refresh_button.click()
    assert [value for _, value in ask.history.options] == [run.id]
    assert ask.output.outputs == ()  # refreshing shows nothing by itself


def test_selecting_a_past_run_reopens_its_trace_and_answer(nb, recorded):
    ask = panel(question="What is revenue by segment?")
    ask.ask_button.click()
    ask.question.value = "How many Enterprise customers?"
    ask.ask_button.click()
    first, second = ask.runs
    assert ask.history.value == second.id

    ask.history.value = first.id  # what clicking the row in the list does
    assert len(recorded) == 2  # one live panel per run; re-opening makes none
    # The finished panel's one line, which opens to the trace: its step and checks.
    summary, answer = ask.output.outputs
    assert summary["metadata"]["zlens_panel"] == {"run_id": first.id, "orb": "done"}
    line = summary["data"]["text/plain"]
    assert line.startswith(f"ZLens {first.id} · done · certified · 1 step · ")
    assert line.endswith(f" checks passed — {first.question}")
    html = summary["data"]["text/html"]
    assert "certified block" in html and 'class="zl-eval"' in html
    assert answer["metadata"]["zlens"]["run_id"] == first.id
    assert "Trust: certified" in answer["data"]["text/plain"]
    assert len(ask.runs) == 2  # re-opening runs nothing


def test_dig_deeper_forces_research_and_greys_out_the_mode(nb):
    ask = panel(question="What is revenue by region?")
    ask.deep.value = True
    assert ask.mode.disabled and ask.effective_mode == "research"
    run = ask.ask()
    assert run is not None and run.mode.value == "research" and run.route.value == "research"
    ask.deep.value = False
    assert not ask.mode.disabled and ask.effective_mode == "auto"


def test_the_mode_selector_picks_the_route(nb):
    ask = panel(question="units sold by category")
    assert list(ask.mode.options) == list(MODES)
    ask.mode.value = "block"
    ask.ask_button.click()
    [run] = ask.runs
    assert run.mode.value == "block" and run.route.value == "dql_block_draft"
    assert run.trust_state.value == "review_required"
    html = answers(ask)[0]["data"]["text/html"]
    assert "Insert as DQL cell" in html


def test_the_panel_uses_the_zlens_settings(nb):
    nb.run("%config ZLens.max_steps = 2")
    ask = panel(question="What is revenue by category?")
    ask.ask_button.click()
    assert ask.runs[-1].budget.max_steps == 2


def test_an_empty_question_is_one_line_in_the_output(nb):
    ask = panel()
    ask.ask_button.click()
    assert ask.output.outputs == (
        {
            "output_type": "stream",
            "name": "stderr",
            "text": "zlens: The question is empty: try What is revenue by segment?\n",
        },
    )
    assert ask.runs == [] and ask.history.options == ()


def test_a_user_error_is_one_line_and_the_button_comes_back(nb, tmp_path):
    missing = tmp_path / "no-such-shop.duckdb"
    ask = AskPanel(lambda: Session(missing), [], question="What is revenue by category?")
    ask.ask_button.click()
    assert ask.output.outputs == (
        {
            "output_type": "stream",
            "name": "stderr",
            "text": f"zlens: No database at {missing}. Pass an existing .duckdb file, "
            "':memory:' or 'sample'.\n",
        },
    )
    assert not ask.ask_button.disabled and ask.ask_button.description == "Ask"
    assert ask.runs == []


def test_without_the_extension_the_panel_opens_its_own_sample_session(nb, monkeypatch):
    monkeypatch.delitem(nb.shell.magics_manager.registry, "ZLensMagics")
    ask = panel(question="What is revenue by segment?")
    assert ask.settings is None
    ask.ask_button.click()
    [run] = ask.runs
    assert run.trust_state.value == "certified"
    assert run.context["project"].endswith("sample-project")


def test_an_explicit_session_is_used(nb):
    session = Session("sample")
    try:
        ask = panel(session=session, question="How many Enterprise customers?")
        run = ask.ask()
        assert run is not None and run.result["rows"] == [[753]]
        assert session.store.load(run.id).id == run.id
    finally:
        session.close()


def test_an_unknown_mode_is_refused():
    with pytest.raises(ZLensError, match="Unknown mode 'poetry'"):
        AskPanel(lambda: None, [], mode="poetry")


def test_the_panel_reads_as_one_line_without_widgets(nb):
    ask = panel()
    assert repr(ask) == "<ZLens ask panel: 0 run(s) this session>"


class SessionWithABug(Session):
    """A real session with one fault injected: whatever `ask` raises is not a ZLensError."""

    def ask(self, question: str, **options: Any) -> AgentRun:
        raise ZeroDivisionError("division by zero")


def test_a_bug_is_shown_in_the_output_and_still_raised(nb):
    ask = panel(session=SessionWithABug("sample"), question="What is revenue by category?")
    with pytest.raises(ZeroDivisionError):
        ask.ask()
    [output] = ask.output.outputs
    assert output["text"].startswith("zlens: internal error, please report it: ZeroDivision")
    assert not ask.ask_button.disabled


def test_a_closed_session_is_one_clear_error_in_the_panel(nb):
    session = Session("sample")
    session.close()
    ask = panel(session=session, question="What is revenue by category?")
    ask.ask()
    [output] = ask.output.outputs
    assert output["text"].startswith("zlens: this database connection is closed; connect again")
    assert not ask.ask_button.disabled
