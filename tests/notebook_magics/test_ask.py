"""`%zlens QUESTION` and `%%zlens` in a real IPython shell: runs, displays and options."""

from __future__ import annotations

import threading
import time

import pytest

from zlens_jupyter.engine import AgentRun
from zlens_jupyter.notebook.magics import keep_question_marks
from zlens_jupyter.notebook.summary import summary_bundle
from zlens_jupyter.notebook.widget import RunPanel
from zlens_jupyter.session import Session

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def panels(monkeypatch):
    """Every RunPanel created during the test."""
    created = []
    original = RunPanel.__init__

    def record(self, *args, **kwargs):
        original(self, *args, **kwargs)
        created.append(self)

    monkeypatch.setattr(RunPanel, "__init__", record)
    return created


def test_the_cell_value_is_the_answer_and_the_panel_ends_as_one_line(nb, panels, quick_runs):
    run, out = nb.run("%zlens What is revenue by segment?")  # the trailing "?" is kept
    assert isinstance(run, AgentRun)
    assert run.question == "What is revenue by segment?"
    assert run.trust_state.value == "certified" and run.route.value == "certified_answer"
    assert out.stderr == "" and "Traceback" not in out.stdout
    assert nb.shell.user_ns["Out"][nb.shell.execution_count - 1] is run  # Out[n] is the run
    # A run that ends before its live panel is due never creates one: two outputs, the
    # finished panel's static one-line summary, then the cell's value: the answer, once.
    assert panels == [] and nb.widget_ids(out) == []
    summary, answer = out.outputs
    assert not summary.update and "display_id" not in (summary.transient or {})
    assert (summary.data, summary.metadata) == summary_bundle(run)
    assert summary.data["text/html"].startswith('<div class="zl-panel zl-panel-static"')
    assert "6/6 checks passed" in summary.data["text/plain"]
    assert nb.answer(out).data == answer.data
    assert 'data-trust="certified"' in answer.data["text/html"]
    assert answer.metadata["zlens"]["run_id"] == run.id
    # The chart is in the card as a static image, and in the bundle as Vega-Lite and SVG.
    assert '<img class="zlens-chart" src="data:image/svg+xml;base64,' in answer.data["text/html"]
    assert answer.data["image/svg+xml"].lstrip().startswith("<svg")
    assert "application/vnd.vegalite.v5+json" in answer.data
    assert nb.magics.history == [run]


def test_a_panel_shown_or_not_ends_as_the_same_outputs(nb, panels, monkeypatch):
    """What the notebook keeps is the same whether the live panel was shown (its display
    replaced by the summary) or the run ended first (the summary shown directly)."""
    from zlens_jupyter.notebook import live_panel

    nb.run("%zlens --no-panel What is revenue by segment?")  # connected, routes loaded
    session = nb.magics.session
    real_ask = session.ask

    def ask_once_shown(question, **kw):  # the run goes on until its panel is on screen
        deadline = time.monotonic() + 10
        while not panels and time.monotonic() < deadline:
            time.sleep(0.005)
        return real_ask(question, **kw)

    monkeypatch.setattr(live_panel, "SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(session, "ask", ask_once_shown)
    shown_run, shown = nb.run("%zlens What is revenue by segment?")
    monkeypatch.setattr(live_panel, "SHOW_AFTER_S", 60.0)
    monkeypatch.setattr(session, "ask", real_ask)
    quick_run, quick = nb.run("%zlens What is revenue by segment?")
    [panel] = panels
    assert len(nb.widget_ids(shown)) == 1 and nb.widget_ids(quick) == []
    assert panel.comm is None  # closed: nothing is left to Stop
    assert panel.final_run["id"] == shown_run.id and panel.orb == "done"
    for run, out in ((shown_run, shown), (quick_run, quick)):
        summary, answer = folded(out)
        assert summary == summary_bundle(run)
        assert answer[1]["zlens"]["run_id"] == run.id


def test_an_assigned_answer_is_still_shown_once(nb):
    _, out = nb.run("r = %zlens --no-panel What is revenue by category?\nx = 1")
    run = nb.shell.user_ns["r"]
    answer = nb.answer(out)  # exactly one, though the cell's value is not the run
    assert answer.metadata["zlens"]["run_id"] == run.id
    _, out = nb.run("%zlens --no-panel What is revenue by category?\nprint('next')")
    assert nb.answer(out)  # not the last line: still shown, once, when the cell ends


def test_ask_subcommand_and_output_variable(nb):
    result, _out = nb.run("%zlens ask -o by_category What is revenue by category?")
    run = nb.shell.user_ns["by_category"]
    assert run is result and run.trust_state.value == "grounded"
    assert list(run.df.columns) == ["category", "revenue"] and len(run.df) == 5


def test_assignment_form_keeps_the_question_mark(nb):
    _, _out = nb.run("r = %zlens --no-panel How many Enterprise customers?")
    run = nb.shell.user_ns["r"]
    assert run.question == "How many Enterprise customers?"
    assert run.result["rows"] == [[753]]


def test_cell_magic_takes_options_on_its_line_and_the_question_as_body(nb):
    run, _ = nb.run("%%zlens --mode research --no-panel\nWhy did revenue drop\nin December 2025?\n")
    assert run.question == "Why did revenue drop\nin December 2025?"
    assert run.mode.value == "research" and run.route.value == "research"
    assert "2025-12" in run.answer


def test_deep_forces_research(nb):
    run, _ = nb.run("%zlens --deep --no-panel What is revenue by region?")
    assert run.mode.value == "research" and run.route.value == "research"


def test_budget_options_apply_to_the_run(nb):
    run, _ = nb.run(
        "%zlens --max-steps 2 --deadline 30 --budget-usd 0.5 --no-panel "
        "What is revenue by category?"
    )
    assert (run.budget.max_steps, run.budget.deadline_s, run.budget.max_cost_usd) == (2, 30, 0.5)
    # Options are per question: the next run is back to the defaults.
    run, _ = nb.run("%zlens --no-panel What is revenue by category?")
    assert (run.budget.max_steps, run.budget.deadline_s, run.budget.max_cost_usd) == (4, 120, 2)


def test_config_magic_sets_the_defaults(nb):
    nb.run("%config ZLens.max_steps = 3")
    nb.run("%config ZLens.deadline = 45.0")
    assert nb.magics.settings.max_steps == 3
    run, _ = nb.run("%zlens --no-panel What is revenue by category?")
    assert run.budget.max_steps == 3 and run.budget.deadline_s == 45
    _, out = nb.run("%zlens config")
    assert "ZLens.max_steps = 3" in out.stdout and "ZLens.deadline = 45.0" in out.stdout


def test_config_panel_false_hides_the_panel(nb):
    nb.run("%config ZLens.panel = False")
    _, out = nb.run("%zlens What is revenue by category?")
    assert nb.widget_ids(out) == []
    assert nb.answer(out)


def test_no_panel_shows_only_the_answer(nb):
    run, out = nb.run("%zlens --no-panel What is revenue by segment?")
    assert nb.widget_ids(out) == []
    assert nb.answer(out).metadata["zlens"]["trust_state"] == "certified"
    assert run.trust_state.value == "certified"


def test_insert_puts_the_dql_draft_in_the_next_cell(nb, monkeypatch):
    calls = []
    monkeypatch.setattr(
        nb.shell, "set_next_input", lambda text, replace=False: calls.append((text, replace))
    )
    run, _ = nb.run("%zlens --insert --no-panel draft a dql block for units sold by category")
    assert run.route.value == "dql_block_draft"
    [(text, replace)] = calls
    assert replace is False
    assert text.startswith("%%dql\n")
    assert 'block "Units sold by category" {' in text and 'status = "draft"' in text
    # The inserted cell runs as it is: the block and its tests, without any model.
    _, out = nb.run(text)
    assert "✓ row_count > 0" in out.outputs[0].data["text/plain"]


def test_insert_after_a_grounded_answer_offers_a_draft_block(nb, monkeypatch):
    calls = []
    monkeypatch.setattr(nb.shell, "set_next_input", lambda text, replace=False: calls.append(text))
    nb.run("%zlens --insert --no-panel What is revenue by category?")
    [text] = calls
    assert text.startswith("%%dql\n")  # a grounded answer is offered as a draft block first
    assert "SUM(order_items.quantity * order_items.unit_price" in text


def test_background_run_finishes_in_a_thread(nb):
    result, out = nb.run("%zlens --background --no-panel What is revenue by segment?")
    assert result is None
    for thread in threading.enumerate():
        if thread.name == "zlens-run":
            thread.join(timeout=60)
    [run] = nb.magics.history
    assert run.trust_state.value == "certified"
    # One placeholder, replaced in place by the answer when it ends.
    assert len(out.outputs) == 1 and out.outputs[0].metadata == {}


def test_terminal_ipython_reads_plain_text(nb, quick_runs):
    nb.shell.display_formatter.active_types = ["text/plain"]  # what terminal IPython sets
    _, out = nb.run("%zlens What is revenue by segment?")
    text = nb.answer(out).data["text/plain"]
    lines = text.splitlines()
    assert lines[0].startswith("Revenue by segment (4 groups): Consumer (17,855,834.59)")
    assert "segment               revenue" in lines
    assert "Consumer        17,855,834.59" in lines
    assert 'Trust: certified — certified block "Revenue by segment" ran unchanged' in lines
    assert "<" not in text  # no markup in the terminal's text
    # The finished run panel reads as one status line where widgets cannot render.
    panel_text = out.outputs[0].data["text/plain"]
    assert panel_text.startswith("ZLens run_") and "\n" not in panel_text
    assert " · done · certified · 1 step · " in panel_text


def test_question_marks_survive_the_help_syntax_only_for_zlens():
    assert keep_question_marks(["%zlens What is revenue?\n"]) == [
        "get_ipython().run_line_magic('zlens', 'What is revenue?')\n"
    ]
    # Other lines, help on the magic itself, and cell-magic bodies are left alone.
    for lines in (["len?\n"], ["%zlens?\n"], ["%zlens runs\n"], ["%%zlens\n", "%zlens x?\n"]):
        assert keep_question_marks(lines) == lines


def test_a_session_is_opened_on_first_use_with_the_configured_database(nb):
    assert nb.magics.session is None
    nb.run("%zlens --no-panel What is revenue by segment?")
    assert isinstance(nb.magics.session, Session)
    assert nb.magics.session.project_dir.name == "sample-project"


def test_the_model_is_configured_by_the_zlens_traitlets(nb):
    # A real loopback OpenAI server; its one reply refuses the key, so the step degrades to
    # the offline path after exactly one request — which proves the traitlets pointed there.
    from fake_openai import FakeOpenAIServer, unauthorized

    with FakeOpenAIServer() as server:
        server.script(unauthorized())
        nb.run(f"%config ZLens.base_url = {server.base_url!r}")
        nb.run("%config ZLens.model = 'shop-model'")
        nb.run("%config ZLens.model_timeout = 5.0")
        nb.run("%zlens connect sample")
        config = nb.magics.session.model_config
        assert (config.base_url, config.model, config.timeout_s) == (
            server.base_url,
            "shop-model",
            5.0,
        )
        assert config.plan_steps is False  # opt-in
        run, _ = nb.run("%zlens --no-panel number of orders by channel")
        assert len(server.requests) == 1
        assert server.requests[0].body["model"] == "shop-model"
        assert run.status.value == "completed" and "rejected the credentials" in str(
            run.provenance.get("degraded")
        )
        nb.run("%config ZLens.model_planner = True")
        nb.run("%zlens connect sample")
        assert nb.magics.session.model_config.plan_steps is True


def test_a_run_that_fails_before_starting_leaves_a_finished_panel(nb, panels, quick_runs):
    nb.run("%zlens connect sample")
    nb.magics.session.close()  # the next run cannot start
    _, out = nb.run("%zlens What is revenue by category?")
    assert "this database connection is closed" in out.stderr
    assert panels == []  # it failed before its live panel was due
    [settled] = out.outputs
    assert not settled.update
    assert 'data-orb="failed"' in settled.data["text/html"]
    assert settled.data["text/plain"].startswith("ZLens run did not start: ")


def test_the_notebook_reuses_the_record_the_store_wrote(nb):
    """Issue 11: `%zlens` serializes an answer once (the store's final save); what it shows
    is still the run's own record."""
    nb.run("%zlens --no-panel What is revenue by category?")
    session = nb.magics.session
    run = session.ask("What is revenue by segment?")
    assert session.take_record(run) == run.to_dict()
    assert session.take_record(run) == run.to_dict()  # taken: serialized afresh


def folded(captured):
    """The outputs as the notebook keeps them: a display updated later holds its last data
    (what a front end does with `update_display_data`)."""
    kept, at = [], {}
    for output in captured.outputs:
        display_id = (output.transient or {}).get("display_id")
        if output.update:
            kept[at[display_id]] = (output.data, output.metadata)
            continue
        if display_id:
            at[display_id] = len(kept)
        kept.append((output.data, output.metadata))
    return kept


def test_a_lone_magic_cell_draws_its_card_from_the_stored_record(nb, monkeypatch):
    """Issue 11: in a cell that is one `%zlens` alone, nothing can change the run between
    its end and its display, so the card is drawn from the record the store wrote (not the
    run serialized again): the same card. In any other cell, code may change the run before
    it is shown, and the card is drawn from the run as it is then."""
    from zlens_jupyter.notebook.answer import AnswerRun
    from zlens_jupyter.notebook.render import answer_display

    shown = []
    original = AnswerRun._repr_mimebundle_

    def spy(self, include=None, exclude=None):
        from_record = "_zlens_card" in self.__dict__
        bundle = original(self, include, exclude)
        shown.append((self, from_record, bundle))
        return bundle

    monkeypatch.setattr(AnswerRun, "_repr_mimebundle_", spy)
    for cell in ("%zlens --no-panel What is revenue by category?", "%%zlens\nrevenue by segment"):
        shown.clear()
        nb.run(cell)
        run, from_record, bundle = shown[0]  # the displayhook's (the harness shows it again)
        assert from_record and bundle == answer_display(run)
        assert "_zlens_card" not in run.__dict__  # taken once
    shown.clear()
    nb.run("run = %zlens --no-panel What is revenue by category?\nrun.answer = 'changed'\nrun")
    run, from_record, bundle = shown[0]
    assert not from_record and "changed" in bundle[0]["text/html"]


def test_a_trailing_semicolon_hides_the_answer_and_is_no_part_of_the_question(nb, quick_runs):
    """IPython's `;` at the end of a cell hides its value; the question asked is the same."""
    nb.run("%zlens What is revenue by segment?;")
    asked = nb.magics.history[-1]
    assert asked.question == "What is revenue by segment?"
    assert asked.trust_state.value == "certified"
