"""`zlens_jupyter.panel()`: ask from a widget instead of a magic.

    import zlens_jupyter
    zlens_jupyter.panel()

A question box, a mode selector, a "dig deeper" toggle (forces research), an Ask button, this
session's run history (newest first) and an output area. Each run shows the live run panel,
then the answer, exactly as `%zlens` does. Selecting a past run re-opens its trace (the
finished run panel) and its answer.

When the extension is loaded (`%load_ext zlens_jupyter`), the panel shares the magics'
session and history, so `%zlens connect ...` and `%zlens` runs are seen here and the other
way round; otherwise it opens its own session over the sample data on first use.

A run triggered by the Ask button runs synchronously inside the click callback: the kernel
is otherwise idle then, so the run panel's updates reach the browser as they happen. Outputs
are written to the Output widget's `outputs` (not captured with `with output:`), which works
the same from a comm callback, a kernel subshell thread or a plain in-process shell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..engine import AgentRun, Budget, CancelToken
from ..errors import UserError, ZLensError
from ..labels import outcome_label
from .config import ZLens
from .render import answer_display
from .summary import summary_bundle
from .widget import RunPanel

MODES = ("auto", "ask", "research", "sql", "block")
_LABEL_WIDTH = 70

Output = dict[str, Any]


def panel(
    *,
    session: Any = None,
    question: str = "",
    mode: str = "auto",
    deep: bool = False,
) -> AskPanel:
    """An interactive ask panel over the magics' session (or `session`, or the sample data).

    >>> zlens_jupyter.panel(question="What is revenue by segment?")  # doctest: +SKIP
    """
    magics = registered_magics()
    settings: ZLens | None = magics.settings if magics is not None else None
    history: list[AgentRun] = magics.history if magics is not None else []
    if session is not None:
        open_session: Callable[[], Any] = lambda: session  # noqa: E731
    elif magics is not None:
        open_session = magics._session  # the same lazy connect the magics use
    else:
        open_session = _sample_session_opener()
    return AskPanel(
        open_session,
        history,
        settings=settings,
        question=question,
        mode=mode,
        deep=deep,
    )


def registered_magics() -> Any:
    """The `ZLensMagics` instance `%load_ext zlens_jupyter` registered, or None."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with ipykernel
        return None
    shell = get_ipython()
    if shell is None:
        return None
    return shell.magics_manager.registry.get("ZLensMagics")


class AskPanel(widgets.VBox):
    """The panel's widgets (question, mode, deep, ask_button, history, output) in one box."""

    def __init__(
        self,
        open_session: Callable[[], Any],
        history: list[AgentRun],
        *,
        settings: ZLens | None = None,
        question: str = "",
        mode: str = "auto",
        deep: bool = False,
    ) -> None:
        if mode not in MODES:
            raise UserError(f"Unknown mode '{mode}': use one of {', '.join(MODES)}.")
        self._open_session = open_session
        self.runs = history  # shared with the magics when the extension is loaded
        self.settings = settings
        self._showing_selection = False

        self.question = widgets.Textarea(
            value=question,
            placeholder="Ask a question about your data, e.g. What is revenue by segment?",
            rows=2,
            layout=widgets.Layout(width="100%"),
        )
        self.mode = widgets.Dropdown(
            options=list(MODES), value=mode, description="Mode", layout={"width": "190px"}
        )
        self.deep = widgets.ToggleButton(
            value=deep,
            description="dig deeper",
            icon="search-plus",
            tooltip="Force a research run: several steps, drill-downs and checks",
        )
        self.ask_button = widgets.Button(description="Ask", button_style="primary", icon="play")
        self.history = widgets.Select(
            options=[], rows=5, description="History", layout={"width": "100%"}
        )
        self.refresh_button = widgets.Button(
            description="", icon="refresh", tooltip="Show runs made since", layout={"width": "36px"}
        )
        self.output = widgets.Output(layout={"width": "100%"})

        self.ask_button.on_click(lambda _button: self.ask())
        self.refresh_button.on_click(lambda _button: self.refresh_history())
        self.deep.observe(self._on_deep, names="value")
        self.history.observe(self._on_select, names="value")
        self._on_deep({"new": deep})
        self.refresh_history()
        super().__init__(
            [
                self.question,
                widgets.HBox([self.mode, self.deep, self.ask_button]),
                widgets.HBox([self.history, self.refresh_button], layout={"width": "100%"}),
                self.output,
            ],
            layout={"width": "100%"},
        )
        self.add_class("zlens-ask-panel")

    def __repr__(self) -> str:
        """One line for front ends without widgets (a terminal, nbconvert to text)."""
        return f"<ZLens ask panel: {len(self.runs)} run(s) this session>"

    # -- asking ---------------------------------------------------------------------------------

    @property
    def effective_mode(self) -> str:
        """The mode the next run uses: research when "dig deeper" is on."""
        return "research" if self.deep.value else str(self.mode.value)

    def ask(self, question: str | None = None) -> AgentRun | None:
        """Run the question in the box (or `question`), showing the live panel, then the answer.

        Errors are one line in the output area, as with the magics; returns None then.
        """
        text = (self.question.value if question is None else question).strip()
        if not text:
            self._show_error("The question is empty: try What is revenue by segment?")
            return None
        self.ask_button.disabled, self.ask_button.description = True, "Working…"
        try:
            run = self._run(text)
        except ZLensError as exc:
            self._show_error(str(exc))
            return None
        except KeyboardInterrupt:
            self._show_error("cancelled")
            return None
        except Exception as exc:
            # A bug, not a user error: say so where the user looks (a callback's traceback
            # only reaches JupyterLab's log console), then let it propagate to that log.
            self._show_error(f"internal error, please report it: {type(exc).__name__}: {exc}")
            raise
        finally:
            self.ask_button.disabled, self.ask_button.description = False, "Ask"
        self.runs.append(run)
        self.refresh_history(selected=run.id)
        return run

    def _run(self, text: str) -> AgentRun:
        session = self._open_session()
        budget = self.settings.budget() if self.settings is not None else session.budget
        audience = self.settings.audience if self.settings is not None else "analyst"
        run_panel = RunPanel(text, budget=budget, interrupt_scope="kernel")
        run_panel.offline = getattr(session, "model_config", None) is None
        cancel = CancelToken()
        run_panel.on_stop(cancel.cancel)
        self.output.outputs = (widget_output(run_panel),)
        try:
            run: AgentRun = session.ask(
                text,
                mode=self.effective_mode,
                audience=audience,
                on_event=run_panel.on_event,
                cancel=cancel,
                **_budget_overrides(budget),
            )
        except BaseException:  # failed before it started: nothing is left to Stop
            run_panel.fail()
            run_panel.close()
            raise
        run_panel.finish(run)
        # As with %zlens: the live panel folds to its one-line summary, and nothing is left
        # to Stop (the closed widget cannot interrupt a later run).
        self.output.outputs = (summary_output(run), *run_outputs(run))
        run_panel.close()
        return run

    # -- history --------------------------------------------------------------------------------

    def refresh_history(self, selected: str | None = None) -> None:
        """Rebuild the history list (newest first) from the session's runs."""
        options = [(history_label(run), run.id) for run in reversed(self.runs)]
        ids = {run_id for _, run_id in options}
        keep = selected if selected in ids else self.history.value
        self._showing_selection = True  # a rebuilt list is not the user choosing a run
        try:
            self.history.options = options
            self.history.value = keep if keep in ids else None
        finally:
            self._showing_selection = False

    def show_run(self, run_id: str) -> AgentRun:
        """Re-open a past run of this session: its one-line summary (opens to the trace) and
        its answer."""
        run = next((r for r in reversed(self.runs) if r.id == run_id), None)
        if run is None:
            raise ZLensError(f"No run {run_id} in this session's history.")
        self.output.outputs = (summary_output(run), *run_outputs(run))
        return run

    def _on_select(self, change: dict[str, Any]) -> None:
        if self._showing_selection or not change.get("new"):
            return
        try:
            self.show_run(str(change["new"]))
        except ZLensError as exc:
            self._show_error(str(exc))

    def _on_deep(self, change: dict[str, Any]) -> None:
        # "dig deeper" overrides the mode; grey the selector out so that is visible.
        self.mode.disabled = bool(change.get("new"))

    def _show_error(self, message: str) -> None:
        self.output.outputs = (
            {"output_type": "stream", "name": "stderr", "text": f"zlens: {message}\n"},
        )


# -- outputs -----------------------------------------------------------------------------------


def widget_output(widget: widgets.Widget) -> Output:
    """A display_data output that shows `widget` (its model id; the view renders live)."""
    bundle = widget._repr_mimebundle_() or {"text/plain": repr(widget)}
    # ipywidgets returns the data; anywidget returns (data, metadata).
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
    return {"output_type": "display_data", "data": data, "metadata": metadata or {}}


def summary_output(run: AgentRun) -> Output:
    """The finished run panel as its static one-line summary (the `%zlens` panel's end)."""
    data, metadata = summary_bundle(run)
    return {"output_type": "display_data", "data": data, "metadata": metadata}


def run_outputs(run: AgentRun) -> list[Output]:
    """The answer as one display_data output: the same card `%zlens` returns."""
    data, metadata = answer_display(run)
    return [{"output_type": "display_data", "data": data, "metadata": metadata}]


def history_label(run: AgentRun) -> str:
    """`20:41:07 · certified · What is revenue by segment?`"""
    when = run.started_at[11:19] if len(run.started_at) >= 19 else run.started_at
    words = outcome_label(run.status, run.trust_state or run.status)[1]
    question = " ".join(run.question.split())
    if len(question) > _LABEL_WIDTH:
        question = question[: _LABEL_WIDTH - 1] + "…"
    return f"{when} · {words} · {question}"


def _budget_overrides(budget: Budget) -> dict[str, Any]:
    return {
        "max_steps": budget.max_steps,
        "deadline_s": budget.deadline_s,
        "max_cost_usd": budget.max_cost_usd,
        "max_tokens": budget.max_tokens,
    }


def _sample_session_opener() -> Callable[[], Any]:
    """Open `Session("sample")` on first use (building the sample can take seconds)."""
    opened: list[Any] = []

    def open_session() -> Any:
        if not opened:
            from ..session import Session

            opened.append(Session("sample"))
        return opened[0]

    return open_session


__all__ = ["MODES", "AskPanel", "history_label", "panel", "registered_magics"]
