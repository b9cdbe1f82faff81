"""`%zlens`, `%%zlens`, `%%dql` and `%%zlens_sql`: ZLens in a notebook.

    %load_ext zlens_jupyter
    %zlens connect sample
    %zlens What is revenue by segment?
    %zlens --mode research Why did revenue drop in December 2025?

Runs are synchronous by default so "Run All", nbconvert and papermill see each answer before
the next cell; `--background` runs in a thread and the panel's Stop button cancels it. Errors
are one line, never a traceback wall.
"""

from __future__ import annotations

import re
import shlex
import sys
import threading
from html import escape
from pathlib import Path
from typing import Any

from IPython.core.magic import Magics, cell_magic, line_cell_magic, magics_class
from IPython.display import HTML, display

from ..engine import AgentRun, CancelToken
from ..errors import UserError, ZLensError
from ..inputs import check_budget, terminal_safe
from .answer import AnswerRun, answer_run
from .chart_image import SVG
from .config import ZLens
from .options import AskOptions, parse_ask
from .render import start_chart
from .views import (
    View,
    blocks_view,
    dql_result_view,
    runs_view,
    sql_result_view,
    trace_view,
)

SUBCOMMANDS = (
    "connect",
    "ask",
    "runs",
    "show",
    "blocks",
    "certify",
    "dashboard",
    "eval",
    "init",
    "config",
    "help",
)

HELP = """%zlens QUESTION                 ask (same as %zlens ask QUESTION)
%%zlens [options]               the cell body is the question
options: --mode auto|ask|research|sql|block|app  --deep (force research)  --max-steps N
         --budget-usd X  --deadline S  --background  --no-panel  --insert  -o VAR
%zlens connect sample|PATH|VAR [--project DIR]   VAR: a DuckDB connection, pandas DataFrame
                                 or SparkSession (`%zlens connect spark`)
%zlens runs | show RUN_ID | blocks | certify "Block name" [--by WHO] | config | help
%zlens dashboard NAME            reopen a saved dashboard (dashboards/*.dql) as a live widget
%zlens dashboard list | export NAME [--html PATH] | certify NAME [--by WHO]
%zlens eval CASES.yml            measure answers and labels on a cases file (zlens eval)
%zlens init [--force-new-name]  draft semantic/draft.yml from the catalog (never overwrites)
%%dql [--save] [--force]         run a DQL block and its tests (--save writes blocks/NAME.dql)
%%zlens_sql                      run read-only SQL on the connected database"""


@magics_class
class ZLensMagics(Magics):
    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.settings = ZLens(parent=shell)
        # `%config ZLens.max_steps = 3` only updates the shell's registered configurables.
        if shell is not None:
            shell.configurables[:] = [c for c in shell.configurables if not isinstance(c, ZLens)]
            shell.configurables.append(self.settings)
        self.session: Any = None
        self.history: list[AgentRun] = []
        # Answers returned by this cell's magics: a cell whose last line is not the magic
        # (`run = %zlens …`, a line after it) still shows them, once, when it ends.
        self._unshown: list[AgentRun] = []
        # Whether the running cell is one `%zlens` (or `%%zlens`) and nothing else: then no
        # code of the user's runs between the answer and its display (`note_cell`).
        self._lone = False

    # -- entry points --------------------------------------------------------------------

    @line_cell_magic
    def zlens(self, line: str, cell: str | None = None) -> Any:
        return self._guarded(self._zlens, line, cell)

    @cell_magic
    def dql(self, line: str, cell: str) -> Any:
        return self._guarded(self._dql, line, cell)

    @cell_magic
    def zlens_sql(self, line: str, cell: str) -> Any:
        return self._guarded(self._sql, line, cell)

    @property
    def _shell(self) -> Any:
        assert self.shell is not None, "ZLens magics need a running IPython shell"
        return self.shell

    def _guarded(self, fn: Any, line: str, cell: str | None) -> Any:
        try:
            return fn(line, cell)
        except ZLensError as exc:
            print(f"zlens: {exc}", file=sys.stderr)
        except KeyboardInterrupt:
            print("zlens: cancelled", file=sys.stderr)
        except Exception as exc:
            # The database's own failures (a closed connection, a lock) are the user's to
            # fix, so they get one line too; anything else is our bug and keeps its traceback.
            if not type(exc).__module__.startswith(("duckdb", "_duckdb")):
                raise
            print(f"zlens: database error: {exc}", file=sys.stderr)
        return None

    # -- %zlens --------------------------------------------------------------------------

    def _zlens(self, line: str, cell: str | None) -> Any:
        words = line.strip().split(maxsplit=1)
        command = words[0] if words and cell is None else ""
        rest = words[1] if len(words) > 1 else ""
        if command in SUBCOMMANDS and command != "ask":
            return getattr(self, f"_cmd_{command}")(rest)
        if command == "ask":
            line = rest
        options = parse_ask(line, cell)
        return self.ask(options)

    def ask(self, options: AskOptions) -> AgentRun | None:
        lone, self._lone = self._lone and not options.background, False
        session = self._session()
        from ..engine.enums import Mode
        from ..session import parse_mode

        mode = Mode.RESEARCH.value if options.deep else (options.mode or self.settings.mode)
        parse_mode(mode)  # a wrong --mode fails here, before an empty panel is shown
        budget = self.settings.budget().merged(
            max_steps=options.max_steps,
            max_cost_usd=options.budget_usd,
            deadline_s=options.deadline,
        )
        check_budget(  # `%config ZLens.deadline = float("nan")` is refused like the flag
            max_steps=budget.max_steps,
            deadline_s=budget.deadline_s,
            max_cost_usd=budget.max_cost_usd,
            max_tokens=budget.max_tokens,
            flags={
                "max_steps": "ZLens.max_steps",
                "deadline_s": "ZLens.deadline",
                "max_cost_usd": "ZLens.budget_usd",
                "max_tokens": "ZLens.max_tokens",
            },
        )
        session.budget = budget
        session.engine.budget = budget
        cancel = CancelToken()
        live = self._live_panel(options, budget, cancel, offline=session.model_config is None)

        def run() -> AgentRun:
            try:
                result: AgentRun = session.ask(
                    options.question,
                    mode=mode,
                    audience=self.settings.audience,
                    on_event=live.on_event if live is not None else None,
                    cancel=cancel,
                )
            except BaseException as exc:  # failed before it started: the panel says so
                if live is not None:
                    self._settle_panel(live, None, exc)
                raise
            # Once, for the chart, the panel and its summary: the record the store just wrote.
            data = session.take_record(result)
            card = start_chart(data)  # its picture is drawn while the panel settles
            # Displays as its answer card. In a cell that is this magic alone, nothing can
            # change the run before its card is shown, so the card is drawn from this record
            # and chart instead of serializing the run and choosing its chart once more.
            result = answer_run(result, card if lone else None)
            if live is not None:
                # Folded first: a panel shown is closed, so it sends nothing more, and the
                # finished record (kept for Python, as `panel.final_run`) never crosses the
                # wire only to be replaced by the summary at once; a panel never shown (a run
                # faster than its delay) is only the summary.
                panel = self._settle_panel(live, data)
                if panel is not None:
                    panel.finish(result, data)
            self.history.append(result)
            if result.provenance.get("not_stored"):  # never silent: a visible line
                print(f"zlens: {result.provenance['not_stored']}", file=sys.stderr)
            return result

        if live is not None:
            live.start(background=options.background)
        if options.background:
            handle = display(HTML("<i>ZLens is working…</i>"), display_id=True)

            def work() -> None:
                try:
                    finished = run()
                except ZLensError as exc:
                    handle.update(HTML(f"<b>zlens:</b> {escape(str(exc))}"))
                    return
                self._show_dashboards(finished)
                data, metadata = answer_display_safe(finished)
                handle.update(data, metadata=metadata, raw=True)
                self._store(options, finished)

            threading.Thread(target=work, name="zlens-run", daemon=True).start()
            return None
        finished = run()
        self._show_dashboards(finished)
        self._store(options, finished)
        if options.insert:
            self._insert(finished)
        # The returned run IS the answer: `Out[n]` shows its card (AnswerRun's rich display).
        self._unshown.append(finished)
        return finished

    def _live_panel(
        self, options: AskOptions, budget: Any, cancel: CancelToken, *, offline: bool
    ) -> Any:
        """The run's live panel, shown only if the run outlasts a short delay (a fast answer
        goes straight to its summary and card), or None with `--no-panel`."""
        if options.no_panel or not self.settings.panel:
            return None
        from .live_panel import DelayedPanel

        return DelayedPanel(options.question, budget=budget, offline=offline, on_stop=cancel.cancel)

    @staticmethod
    def _settle_panel(
        live: Any, run: AgentRun | dict[str, Any] | None, error: BaseException | None = None
    ) -> Any:
        """The run ended: its panel becomes the static one-line summary (which needs no
        widget state to reopen), and a widget shown is closed: nothing is left to Stop.
        Returns that widget, or None when the run ended before it was shown."""
        from .summary import failed_bundle, summary_bundle

        if run is None:
            reason = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
            data, metadata = failed_bundle(live.question, reason)
        else:
            data, metadata = summary_bundle(run)
        return live.end(_safe(data), metadata, failed=run is None)

    def note_cell(self, info: Any = None) -> None:
        """`pre_run_cell`: note whether the cell is one `%zlens` (or `%%zlens`) alone."""
        self._lone = is_lone_magic(str(getattr(info, "raw_cell", None) or ""))

    def show_unshown(self, result: Any = None) -> None:
        """`post_run_cell`: show the answers this cell returned but did not display."""
        pending, self._unshown = self._unshown, []
        self._lone = False
        shown = getattr(result, "result", None)
        for run in pending:
            if run is not shown:
                data, metadata = answer_display_safe(run)
                display(data, metadata=metadata, raw=True)
            if isinstance(run, AnswerRun):
                run.take_card()  # made for this cell's display only

    def _show_dashboards(self, run: AgentRun) -> None:
        for artifact in run.artifacts:  # app_build: the dashboard itself, live, above its card
            if artifact.kind == "app_draft" and isinstance(artifact.content.get("dashboard"), dict):
                self._show_dashboard(artifact.content["dashboard"])

    def _show_answer(self, run: AgentRun) -> None:
        self._show_dashboards(run)
        data, metadata = answer_display_safe(run)
        display(data, metadata=metadata, raw=True)

    def _store(self, options: AskOptions, run: AgentRun) -> None:
        if options.output:
            self._shell.user_ns[options.output] = run

    def _insert(self, run: AgentRun) -> None:
        """`--insert`: the block draft (or SQL) appears as the next cell when this one ends."""
        from .insert import dql_draft_source, sql_cell_source

        source = dql_draft_source(run) or sql_cell_source(run)
        if source:
            self._shell.set_next_input(source, replace=False)

    # -- subcommands ---------------------------------------------------------------------

    def _cmd_connect(self, rest: str) -> None:
        args = _split(rest)
        project = None
        if "--project" in args:
            at = args.index("--project")
            project = args[at + 1] if at + 1 < len(args) else None
            args = args[:at] + args[at + 2 :]
        target = args[0] if args else self.settings.database
        self.session = self._open(target, project)
        tables = ", ".join(list(self.session.warehouse.catalog().tables)[:8])
        certified = len(self.session.library.certified())
        print(
            f"connected to {target}: tables {tables}; {certified} certified block(s); "
            f"project {self.session.project_dir}"
        )

    def _cmd_runs(self, rest: str) -> None:
        display(runs_view(self._session()))

    def _cmd_show(self, rest: str) -> Any:
        run_id = rest.strip()
        if not run_id:
            raise UserError("Give a run id: %zlens show RUN_ID (see %zlens runs).")
        run = self._session().store.load(run_id)
        display(trace_view(run))
        self._show_answer(run)
        return None

    def _cmd_blocks(self, rest: str) -> None:
        display(blocks_view(self._session()))

    def _cmd_certify(self, rest: str) -> None:
        args = _split(rest)
        by = None
        if "--by" in args:
            at = args.index("--by")
            by = args[at + 1] if at + 1 < len(args) else None
            args = args[:at] + args[at + 2 :]
        if not args:
            raise UserError('Name the block: %zlens certify "Block name" [--by you@example.com]')
        block = self._session().certify(" ".join(args), by=by)
        record = block.certification or {}
        print(f'certified "{block.name}" by {record.get("by")} at {record.get("at")}')

    def _cmd_dashboard(self, rest: str) -> Any:
        """`%zlens dashboard NAME | list | export NAME [--html PATH] | certify NAME [--by WHO]`."""
        from ..dashboards import certify_dashboard, list_dashboards, open_dashboard, write_html

        args = _split(rest)
        session = self._session()
        verb = args[0] if args and args[0] in ("list", "export", "certify", "open") else "open"
        args = args[1:] if args and args[0] == verb else args
        options: dict[str, str] = {}
        words: list[str] = []
        while args:
            word = args.pop(0)
            if word in ("--html", "--by") and args:
                options[word] = args.pop(0)
            else:
                words.append(word)
        name = " ".join(words)
        if verb == "list":
            rows = [[d.name, str(d.status), len(d.tiles)] for d in list_dashboards(session)]
            display(View("Dashboards", ["name", "status", "tiles"], rows))
            return None
        if not name:
            raise UserError("Name the dashboard: %zlens dashboard NAME (%zlens dashboard list).")
        if verb == "certify":
            dashboard = certify_dashboard(session, name, by=options.get("--by"))
            record = dashboard.certification or {}
            by, at = record.get("by"), record.get("at")
            print(f'certified dashboard "{dashboard.name}" by {by} at {at}')
            return None
        view = open_dashboard(session, name)
        if verb == "export":
            default = Path(view["path"]).with_suffix(".html")
            path = write_html(view, options.get("--html") or default)
            print(f"wrote {path}")
            return None
        return self._show_dashboard(view)

    def _show_dashboard(self, view: dict[str, Any]) -> Any:
        from .dashboard import DashboardWidget

        widget = DashboardWidget(view)
        display(widget)
        return None

    def _cmd_eval(self, rest: str) -> Any:
        """Run a cases file (the CLI's `zlens eval`); the report is the cell's value."""
        from ..evals import load_cases, run_eval

        args = _split(rest)
        if len(args) != 1:
            raise UserError("Name one cases file: %zlens eval eval/traps.yml")
        report = run_eval(load_cases(args[0]))
        totals = report.totals()
        rows = [[c.id, c.verdict, c.label, c.route, round(1000 * c.seconds)] for c in report.cases]
        notes = [", ".join(f"{k} {v}" for k, v in totals.items())]
        display(View("zlens eval", ["case", "verdict", "label", "route", "ms"], rows, notes))
        return report

    def _cmd_init(self, rest: str) -> None:
        """Draft `semantic/draft.yml` for the connected database (the CLI's `zlens init`)."""
        from ..semantic.draft import init_project

        args = _split(rest)
        if [a for a in args if a != "--force-new-name"]:
            raise UserError("Usage: %zlens init [--force-new-name] (connect first to pick the db)")
        session = self._session()
        result = init_project(
            session.warehouse.catalog(),
            session.project_dir,
            str(session.target) if isinstance(session.target, str | Path) else "the connection",
            new_name="--force-new-name" in args,
        )
        if result.path is not None:
            session.reload()  # the draft is part of the project from now on
        print(f"zlens init: {result.summary()}")

    def _cmd_config(self, rest: str) -> None:
        for name in sorted(self.settings.trait_names(config=True)):
            print(f"ZLens.{name} = {getattr(self.settings, name)!r}")

    def _cmd_help(self, rest: str) -> None:
        print(HELP)

    # -- %%dql and %%zlens_sql -----------------------------------------------------------

    def _dql(self, line: str, cell: str | None) -> Any:
        from ..dql import Block, parse_dql

        args = _split(line)
        session = self._session()
        source = cell or ""
        # A malformed cell fails here with its line and column.
        parsed = parse_dql(source, file="<%%dql cell>")
        block = next((d for d in parsed.declarations if isinstance(d, Block)), None)
        if block is None and any(d.kind == "dashboard" for d in parsed.declarations):
            return self._dql_dashboard(parsed, args)
        if block is None:
            raise UserError('No block in this cell: write block "Name" { query = """...""" }')
        result = session.run_dql(source)
        display(dql_result_view(result, block))
        if "--save" in args:
            path = save_block(session, source, force="--force" in args)
            print(f"saved {path}")
            session.reload()
        return None

    def _dql_dashboard(self, parsed: Any, args: list[str]) -> Any:
        """A `%%dql` cell holding a dashboard: run it (and `--save` it under dashboards/)."""
        from ..dql.dashboard import Dashboard
        from ..dql.dashboard_files import save_dashboard
        from ..routes.dashboard_run import run_dashboard

        session = self._session()
        dashboard = next(d for d in parsed.declarations if isinstance(d, Dashboard))
        if "--save" in args:
            print(f"saved {save_dashboard(session.project_dir, dashboard)}")
        session.refresh_certification()
        return self._show_dashboard(run_dashboard(dashboard, session.kit))

    def _sql(self, line: str, cell: str | None) -> Any:
        session = self._session()
        warehouse = session.warehouse
        reading = getattr(warehouse, "reading", None)
        if warehouse.dialect != "duckdb" and callable(reading):
            # SQL for the connected engine is in its own dialect (Spark SQL, as an answer's
            # Insert SQL cell gives it), not the house dialect routes build in.
            warehouse = reading(warehouse.dialect)
        preview = warehouse.preview(cell or "", limit=session.preview_limit)
        display(sql_result_view(preview))
        return None

    # -- connection ----------------------------------------------------------------------

    def _session(self) -> Any:
        if self.session is None:
            self.session = self._open(self.settings.database, self.settings.project or None)
        return self.session

    def _open(self, target: str, project: str | None) -> Any:
        from ..session import Session

        value = self._shell.user_ns.get(target) if target.isidentifier() else None
        connection = as_connection(target, value) if value is not None else target
        return Session(
            connection,
            project,
            budget=self.settings.budget(),
            preview_limit=self.settings.preview_limit,
            model=self.settings.model_config(),
        )


def _safe(raw: dict[str, Any]) -> dict[str, Any]:
    """Text from data and questions is shown, never obeyed: Jupyter renders ANSI escapes in
    text output, so control characters read as escapes here too."""
    return {
        mime: terminal_safe(value) if isinstance(value, str) and mime != SVG else value
        for mime, value in raw.items()
    }


def answer_display_safe(run: AgentRun) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answer's one output (see `render.answer_display`), control characters escaped."""
    from .render import answer_display

    card = run.take_card() if isinstance(run, AnswerRun) else None
    data, metadata = answer_display(run, card=card)
    return _safe(data), metadata


_LONE_MAGIC = re.compile(r"%zlens[ \t][^\n]*|%%zlens(?:[ \t\n][\s\S]*)?")


def is_lone_magic(cell: str) -> bool:
    """Whether the cell is one `%zlens …` line or a `%%zlens` cell, and nothing else.

    >>> is_lone_magic("%zlens How many?"), is_lone_magic("run = %zlens How many?")
    (True, False)
    >>> is_lone_magic("%%zlens\\nHow many?"), is_lone_magic("%zlens a\\nprint(1)")
    (True, False)
    """
    return _LONE_MAGIC.fullmatch(cell.strip()) is not None


def as_connection(name: str, value: Any) -> Any:
    """A DuckDB connection or a SparkSession as-is; a pandas DataFrame as a table named after
    its variable."""
    import duckdb

    from ..warehouse.spark import is_spark_session

    if isinstance(value, duckdb.DuckDBPyConnection) or is_spark_session(value):
        return value
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        pd = None
    if pd is not None and isinstance(value, pd.DataFrame):
        con = duckdb.connect(":memory:")
        con.register("zlens_frame", value)
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM zlens_frame')
        con.unregister("zlens_frame")
        return con
    raise UserError(
        f"{name} is a {type(value).__name__}: connect to a DuckDB connection, a "
        "SparkSession, a pandas DataFrame, a .duckdb path or 'sample'."
    )


def save_block(session: Any, source: str, *, force: bool) -> Any:
    from ..dql import Block, parse_dql, write_text_atomic

    blocks = [d for d in parse_dql(source).declarations if isinstance(d, Block)]
    if not blocks:
        raise UserError("Nothing to save: the cell has no block.")
    slug = "".join(c if c.isalnum() else "_" for c in blocks[0].name.lower()).strip("_")
    path = session.project_dir / "blocks" / f"{slug}.dql"
    if path.exists() and not force:
        raise UserError(f"{path} exists; use %%dql --save --force to overwrite it.")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, source if source.endswith("\n") else source + "\n")
    return path


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


# `name = %zlens ...` or `%zlens ...`, one line (the question is the rest).
_ZLENS_LINE = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?P<target>[A-Za-z_][\w.]*)[ \t]*=[ \t]*)?%zlens[ \t]+(?P<rest>.*?)\s*$"
)


def keep_question_marks(lines: list[str]) -> list[str]:
    """Input cleanup: IPython reads a line ending in `?` as a help request (`segment?` ->
    `%pinfo segment`), which swallows `%zlens What is revenue by segment?`. Rewriting such a
    line into its `run_line_magic` call before the help transform runs keeps the question."""
    if lines and lines[0].lstrip().startswith("%%"):
        return lines  # a cell magic's body is not Python
    out = []
    for line in lines:
        match = _ZLENS_LINE.match(line)
        if match is None or not match["rest"].endswith("?"):
            out.append(line)
            continue
        target = f"{match['target']} = " if match["target"] else ""
        call = f"get_ipython().run_line_magic('zlens', {match['rest']!r})"
        out.append(f"{match['indent']}{target}{call}\n")
    return out


def load_ipython_extension(ipython: Any) -> None:
    magics = ZLensMagics(ipython)
    ipython.register_magics(magics)
    for event, name in (("pre_run_cell", "note_cell"), ("post_run_cell", "show_unshown")):
        for callback in list(ipython.events.callbacks.get(event, [])):
            if getattr(callback, "__name__", "") == name:  # a reloaded extension
                ipython.events.unregister(event, callback)
        ipython.events.register(event, getattr(magics, name))
    cleanup = getattr(ipython, "input_transformers_cleanup", None)
    if cleanup is not None and keep_question_marks not in cleanup:
        cleanup.append(keep_question_marks)
