"""`zlens`: the terminal front end. Progress streams to stderr (rich); answers go to stdout.

Exit status: 0 when a run ends (completed, needs review or needs clarification), 1 when it
ends blocked or cancelled, 2 for bad input (nothing is written then).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .dashboard_cli import add_dashboard_parser
from .engine import AgentRun, Event, EventType
from .errors import ZLensError
from .formatting import answer_sentence, cell_text
from .inputs import check_budget, terminal_safe
from .labels import local_time, outcome_label

TRUST_STYLE = {
    "certified": "bold green",
    "grounded": "green",
    "review_required": "yellow",
    "blocked": "bold red",
    "not_applicable": "cyan",
    "cancelled": "dim",
}
PHASE = {
    EventType.RUN_STARTED: "plan",
    EventType.PLAN_CREATED: "plan",
    EventType.STEP_STARTED: "plan",
    EventType.ARTIFACT_CREATED: "verify",
    EventType.STEP_COMPLETED: "verify",
    EventType.ROUTE_DECIDED: "plan",
    EventType.EXECUTOR_STARTED: "work",
    EventType.TOOL_CALLED: "work",
    EventType.TOOL_RESULT: "work",
    EventType.EVALUATION_RECORDED: "verify",
    EventType.REPLAN_DECIDED: "verify",
    EventType.REPAIR_ATTEMPTED: "repair",
    EventType.ESCALATED: "escalate",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # Pipes and CI logs get a wide console: rich's 80-column default would cut names.
    width = None if sys.stdout.isatty() else 160
    err = Console(stderr=True, highlight=False, soft_wrap=True, width=width)
    out = Console(highlight=False, soft_wrap=True, width=width)
    try:
        return int(args.func(args, out, err))
    except ZLensError as exc:
        message = escape(terminal_safe(str(exc)))
        err.print(f"[red]zlens: error:[/] {message}", markup=True, highlight=False)
        return 2
    except KeyboardInterrupt:
        err.print("zlens: interrupted")
        return 1
    finally:
        while _OPENED:
            _OPENED.pop().close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="zlens", description="Governed analytics over DuckDB.")
    sub = parser.add_subparsers(dest="command", required=True)

    def with_db(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--db",
            default=os.environ.get("ZLENS_DB", "sample"),
            help="a .duckdb file, ':memory:' or 'sample' (default: sample)",
        )
        p.add_argument(
            "--project",
            default=None,
            help="project folder with blocks/ and semantic/ (default: the sample's, "
            "or the current folder)",
        )
        p.add_argument(
            "--spark",
            metavar="MASTER",
            default=os.environ.get("ZLENS_SPARK"),
            help="ask Spark SQL instead of DuckDB: a master URL (local[2], spark://host:7077)",
        )
        p.add_argument(
            "--spark-tables",
            metavar="DIR",
            default=None,
            help="with --spark: each NAME.parquet (or NAME/ of Parquet files) is table NAME",
        )
        p.add_argument(
            "--spark-warehouse",
            metavar="DIR",
            default=None,
            help="with --spark: the tables of this spark.sql.warehouse.dir",
        )
        p.add_argument(
            "--spark-database", metavar="NAME", default=None, help="with --spark: database"
        )

    ask = sub.add_parser("ask", help="ask a question")
    ask.add_argument("question")
    with_db(ask)
    ask.add_argument("--mode", default="auto", help="auto | ask | research | sql | block | app")
    ask.add_argument("--json", action="store_true", help="print the run record as one JSON object")
    ask.add_argument("--max-steps", type=int, default=None)
    ask.add_argument("--deadline", type=float, default=None, help="seconds")
    ask.add_argument("--budget-usd", type=float, default=None, help="model cost limit, USD")
    ask.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ask.set_defaults(func=_ask)

    runs = sub.add_parser("runs", help="list stored runs, newest first")
    with_db(runs)
    runs.add_argument("--limit", type=int, default=20)
    runs.set_defaults(func=_runs)

    show = sub.add_parser("show", help="show one stored run (id or prefix)")
    show.add_argument("run_id")
    with_db(show)
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=_show)

    blocks = sub.add_parser("blocks", help="list the project's DQL blocks")
    with_db(blocks)
    blocks.set_defaults(func=_blocks)

    cert = sub.add_parser("certify", help="certify a reviewed block (a human act)")
    cert.add_argument("name")
    cert.add_argument("--by", default=None, help="who certifies (default: $USER)")
    with_db(cert)
    cert.set_defaults(func=_certify)

    ev = sub.add_parser("eval", help="measure answers and labels on a YAML file of cases")
    ev.add_argument("cases", help="a cases file (see the README's 'Evaluating answers')")
    ev.add_argument("--db", default=None, help="override the file's db")
    ev.add_argument("--project", default=None, help="override the file's project")
    ev.add_argument("--json", action="store_true", help="print the report as one JSON object")
    ev.add_argument(
        "--min-accuracy",
        type=_fraction,
        default=None,
        help="exit 1 when fewer answerable cases are correct (0..1)",
    )
    ev.add_argument(
        "--max-wrong-trusted",
        type=int,
        default=0,
        help="exit 1 when more wrong answers are labelled certified or grounded (default 0)",
    )
    ev.set_defaults(func=_eval)

    init = sub.add_parser(
        "init", help="draft semantic/draft.yml from the database's catalog (never overwrites)"
    )
    with_db(init)
    init.add_argument(
        "--force-new-name",
        action="store_true",
        help="when semantic/draft.yml exists, write draft-2.yml (draft-3.yml, ...) beside it",
    )
    init.set_defaults(func=_init)

    dql = sub.add_parser("dql", help="DQL tools")
    dql_sub = dql.add_subparsers(dest="dql_command", required=True)
    run = dql_sub.add_parser("run", help="run a .dql file's first block and its tests")
    run.add_argument("file")
    with_db(run)
    run.set_defaults(func=_dql_run)
    add_dashboard_parser(sub, with_db, _session)
    return parser


def _session(args: argparse.Namespace) -> Any:
    from .session import Session

    target = args.db
    if getattr(args, "spark", None):
        from .warehouse.spark.launch import start_spark

        target = start_spark(
            args.spark,
            tables=args.spark_tables,
            warehouse=args.spark_warehouse,
            database=args.spark_database,
        )
        _OPENED.append(_Stopping(target))  # closed last: after the session
    session = Session(target, args.project)
    _OPENED.append(session)
    return session


class _Stopping:
    """Stops a SparkSession the command line started (a notebook's own is never stopped)."""

    def __init__(self, spark: Any) -> None:
        self.spark = spark

    def close(self) -> None:
        self.spark.stop()


# Sessions a command opened, closed when it returns: `main` may run in a process that goes
# on (tests, a notebook's `!`-less call), and an open session keeps the file attached.
_OPENED: list[Any] = []


def _ask(args: argparse.Namespace, out: Console, err: Console) -> int:
    # One question, then the process ends: the cycle collector's passes over what importing
    # and connecting create (modules, classes, DuckDB's objects; nearly all of it lives to
    # the end) free nothing, and cost 2-4% of a certified `zlens ask`, 3-7% of a generated one.
    # Off for the one run, and back on when this returns (a caller in-process keeps it).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _ask_once(args, out, err)
    finally:
        if enabled:
            gc.enable()


def _ask_once(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .session import parse_mode

    if not args.question.strip():
        raise _usage("The question is empty: ask something, e.g. 'What is revenue by segment?'")
    check_budget(  # before anything opens or writes: exit 2, one line
        max_steps=args.max_steps,
        deadline_s=args.deadline,
        max_cost_usd=args.budget_usd,
        flags={
            "max_steps": "--max-steps",
            "deadline_s": "--deadline",
            "max_cost_usd": "--budget-usd",
        },
    )
    parse_mode(args.mode)
    session = _session(args)
    for problem in session.library.errors:
        err.print(f"[yellow]zlens: warning:[/] skipped a bad block file: {escape(str(problem))}")
    progress = None if args.quiet else _progress(err)
    run = session.ask(
        args.question,
        mode=args.mode,
        on_event=progress,
        max_steps=args.max_steps,
        deadline_s=args.deadline,
        max_cost_usd=args.budget_usd,
    )
    if run.provenance.get("not_stored"):  # never silent: one line on stderr
        err.print(Text(f"zlens: warning: {terminal_safe(str(run.provenance['not_stored']))}"))
    if args.json:
        out.print_json(json.dumps(run.to_dict(), default=str))
    else:
        render_run(run, out)
    return 1 if run.status.value in ("blocked", "cancelled") else 0


def _progress(err: Console) -> Any:
    def show(event: Event) -> None:
        if event.type is EventType.ANSWER_DELTA:
            return
        phase = PHASE.get(event.type, "done" if event.type.value.startswith("run.") else "")
        status = f" [{event.status}]" if event.status else ""
        # Assembled, not formatted into markup: messages carry the user's question and the
        # model's words, and "[/bold]" in them must print as typed, not break the line.
        line = Text.assemble(
            (f"{event.seq:>3} ", "dim"),
            (f"{phase:<8} ", "cyan"),
            f"{event.type.value:<20} {terminal_safe(event.message[:100], keep_newlines=False)}"
            f"{status}",
        )
        err.print(line, highlight=False)

    return show


def render_run(run: AgentRun, out: Console) -> None:
    out.print(Text(terminal_safe(answer_sentence(run.to_dict()))))
    result = run.result
    if result and result.get("columns"):
        table = Table(show_lines=False)
        rows = result["rows"][:20]
        for i, column in enumerate(result["columns"]):
            numeric = any(_is_number(r[i]) for r in rows)
            table.add_column(
                Text(terminal_safe(str(column))), justify="right" if numeric else "left"
            )
        for row in rows:
            # Text, not str: a value like "[red]x" is data, never rich markup.
            table.add_row(*(Text(cell_text(v)) for v in row))
        out.print(table)
        more = result["row_count"] - min(20, len(result["rows"]))
        if more > 0 or result.get("truncated"):
            cut = ", preview truncated" if result.get("truncated") else ""
            out.print(f"({result['row_count']} rows{cut})")
    if run.sql:
        sql = terminal_safe(run.sql)
        if out.color_system is None:
            # No colours (a pipe, a script, NO_COLOR): the same text, without loading the
            # SQL lexer (~70 ms of a `zlens ask` process).
            out.print(Text(sql.expandtabs(4)))
        else:
            from rich.syntax import Syntax

            out.print(Syntax(sql, "sql", theme="ansi_dark", word_wrap=True))
    key, words = outcome_label(run.status, run.trust_state)
    # emoji=False: a reason quotes block names and the question, where ':rocket:' is text
    # (and rich's emoji table is ~3 ms to load).
    out.print(
        f"trust: [{TRUST_STYLE.get(key, '')}]{words}[/] — "
        f"{escape(terminal_safe(run.trust_reason or ''))}",
        highlight=False,
        emoji=False,
    )
    out.print(
        f"[dim]run {run.id} · {escape(terminal_safe(run.summary or ''))}[/]",
        highlight=False,
        emoji=False,
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _runs(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .store import RunStore

    table = Table("id", "started", "status", "trust", "route", "question")
    table.columns[0].no_wrap = True
    for s in RunStore(_project(args)).list(limit=args.limit):
        label = outcome_label(s.status, s.trust_state)[1]
        cells = (s.id, local_time(s.started_at), s.status, label, s.route or "-")
        table.add_row(*(Text(terminal_safe(c)) for c in (*cells, s.question[:60])))
    out.print(table)
    return 0


def _show(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .store import RunStore

    run = RunStore(_project(args)).load(args.run_id)
    if args.json:
        out.print_json(json.dumps(run.to_dict(), default=str))
        return 0
    out.print(f"[bold]{escape(terminal_safe(run.question))}[/]")
    for step in run.steps:
        out.print(
            f"step {step.index + 1}: {step.route.value} → {step.status.value} "
            f"({len(step.attempts)} attempt(s), {step.repairs} repair(s))"
        )
        for ev in step.evaluations:
            mark = "[green]✓[/]" if ev.passed else "[red]✗[/]"
            line = terminal_safe(f"{ev.label}: {ev.message}")
            out.print(f"   {mark} {escape(line)}", highlight=False)
    render_run(run, out)
    return 0


def _blocks(args: argparse.Namespace, out: Console, err: Console) -> int:
    session = _session(args)
    table = Table("name", "status", "domain", "grain", "file")
    blocks = session.blocks()
    for block in blocks:
        cells = (
            block.name,
            str(block.status),
            block.domain or "",
            block.grain or "",
            str(session.library.file_of(block) or ""),
        )
        table.add_row(*(Text(c) for c in cells))
    out.print(table)
    for name, why in session.library.lowered.items():
        out.print(Text(f"{name}: not certified: {why}"))
    for problem in session.library.errors:
        err.print(f"[yellow]bad block file:[/] {escape(str(problem))}")
    return 0


def _file_name(file: Any) -> str:
    path = getattr(file, "path", None)
    return str(path) if path else ""


def _certify(args: argparse.Namespace, out: Console, err: Console) -> int:
    session = _session(args)
    block = session.certify(args.name, by=args.by)
    record = block.certification or {}
    out.print(Text(f'certified "{block.name}" by {record.get("by")} at {record.get("at")}'))
    return 0


def _dql_run(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pathlib import Path

    from .inputs import MAX_DQL_BYTES, read_text_file

    path = Path(args.file)
    if not path.exists():
        raise _usage(f"No DQL file at {path}.")
    # A FIFO, a directory, a binary or a huge file: one line, and a FIFO is never opened.
    text = read_text_file(path, max_bytes=MAX_DQL_BYTES, what="a DQL file")
    session = _session(args)
    from .dql import parse_dql

    parse_dql(text, file=str(path))  # a malformed file fails here with file:line:column
    result = session.run_dql(text)
    preview = result.preview
    table = Table()
    for column in preview.columns:
        table.add_column(Text(str(column)))
    for row in preview.rows[:20]:
        table.add_row(*(Text(cell_text(v)) for v in row))
    out.print(table)
    for a in result.assertions:
        out.print(Text(f"{'✓' if a.passed else '✗'} {a.expression} (observed {a.observed})"))
    return 0 if result.passed else 1


def _project(args: argparse.Namespace) -> str:
    """The same project folder `ask` used: --project, else the sample's, else the cwd."""
    if args.project:
        return str(args.project)
    if args.db == "sample":
        from .sample import sample_project_dir

        return str(sample_project_dir())
    return os.getcwd()


def _usage(message: str) -> ZLensError:
    from .errors import UserError

    return UserError(message)


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction from 0 to 1, e.g. 0.9")
    return value


def _init(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .semantic.draft import init_project
    from .session import Session

    session = Session(args.db, args.project, persist=False)
    try:
        result = init_project(
            session.warehouse.catalog(),
            session.project_dir,
            str(args.db),
            new_name=args.force_new_name,
        )
    finally:
        session.close()
    out.print(Text(f"zlens init: {terminal_safe(result.summary())}"))
    return 0


def _eval(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .evals import load_cases, run_eval

    file = load_cases(args.cases)
    report = run_eval(file, db=args.db, project=args.project)
    totals = report.totals()
    if args.json:
        out.print_json(json.dumps(report.to_dict(), default=str))
    else:
        table = Table("case", "verdict", "label", "route", "ms", "problem")
        for case in report.cases:
            table.add_row(
                Text(case.id),
                Text(case.verdict),
                Text(case.label, style=TRUST_STYLE.get(case.label, "")),
                Text(case.route),
                f"{1000 * case.seconds:.0f}",
                Text("; ".join(p for p in case.problems)),
            )
        out.print(table)
        out.print(Text(" ".join(f"{k}={v}" for k, v in totals.items())))
    failures = []
    trusted_wrong = totals["wrong_certified"] + totals["wrong_grounded"]
    if trusted_wrong > args.max_wrong_trusted:
        failures.append(f"{trusted_wrong} wrong answers labelled certified or grounded")
    if totals["label_violations"]:
        failures.append(f"{totals['label_violations']} answers got a forbidden label")
    accuracy = totals["accuracy"]
    if args.min_accuracy is not None and (accuracy or 0.0) < args.min_accuracy:
        failures.append(f"accuracy {accuracy} is below {args.min_accuracy}")
    for failure in failures:
        err.print(Text(f"zlens eval: {failure}"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
