"""Mistakes get one line on stderr that says how to fix them, never a traceback."""

from __future__ import annotations

import pytest

CASES = {
    "empty question": ("%zlens", "The question is empty"),
    "empty cell question": ("%%zlens --deep\n\n", "The question is empty"),
    "unknown option": ("%zlens --bogus What is revenue?", "Unknown option --bogus"),
    "option without value": ("%zlens --max-steps", "--max-steps needs a value"),
    "option not a number": ("%zlens --max-steps many What?", "--max-steps takes a number"),
    "bad output name": ("%zlens -o 1x What is revenue?", "-o needs a variable name"),
    "unknown mode": ("%zlens --mode poetry What is revenue?", "Unknown mode 'poetry'"),
    "missing database": ("%zlens connect /no/such/shop.duckdb", "No database at /no/such"),
    "show without id": ("%zlens show", "Give a run id"),
    "show unknown id": ("%zlens show run_doesnotexist", "run_doesnotexist"),
    "certify without name": ("%zlens certify", "Name the block"),
    "certify unknown block": ('%zlens certify "No such block"', "No block named"),
    "dql without block": ('%%dql\nterm "Revenue" { description = "x" }\n', "No block in this cell"),
    "hostile sql drop": ("%%zlens_sql\nDROP TABLE customers\n", "DROP statements are not allowed"),
    "hostile sql attach": ("%%zlens_sql\nATTACH '/tmp/x.duckdb' AS x\n", "read-only guard"),
    "hostile sql copy": (
        "%%zlens_sql\nCOPY customers TO '/tmp/leak.csv'\n",
        "read-only guard",
    ),
}


@pytest.mark.parametrize("source, expected", CASES.values(), ids=CASES.keys())
def test_one_line_on_stderr_and_no_traceback(nb, source, expected):
    result, out = nb.run(source)
    assert result is None
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("zlens: ") and expected in lines[0]
    assert "Traceback" not in out.stdout + out.stderr
    assert out.outputs == []


def test_malformed_dql_names_line_and_column(nb):
    _, out = nb.run('%%dql\nblock "Broken" {\n  query = """select 1\n}\n')
    [line] = out.stderr.splitlines()
    # Line 2 of the cell body (the %%dql line is not part of it), column 11: the opening quotes.
    assert line.startswith("zlens: <%%dql cell>:2:11: unterminated triple-quoted string")
    assert out.outputs == []


def test_hostile_sql_leaves_the_database_untouched(nb):
    nb.run("%%zlens_sql\nDELETE FROM customers\n")
    _, out = nb.run("%%zlens_sql\nSELECT COUNT(*) AS n FROM customers\n")
    assert "n" in out.outputs[0].data["text/plain"]
    assert nb.magics.session.warehouse.preview("SELECT COUNT(*) FROM customers").rows[0][0] > 0


def test_a_failed_certification_lists_every_problem_without_a_traceback(nb):
    nb.run(
        '%%dql --save\nblock "Ownerless" {\n  domain = "sales"\n  query = """\n'
        '    SELECT segment, COUNT(*) AS n FROM customers GROUP BY 1\n  """\n}\n'
    )
    _, out = nb.run('%zlens certify "Ownerless"')
    assert out.stderr.startswith("zlens: Cannot certify 'Ownerless':")
    assert 'missing owner: add owner = "analytics@company.com"' in out.stderr
    assert "no tests" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_a_notebook_dataframe_is_never_read_by_agent_sql(nb):
    # `payroll` lives in the user's namespace, not in the connected database: DuckDB's
    # replacement scans must not hand it to agent SQL, whichever way the question arrives.
    nb.run("import pandas as pd\npayroll = pd.DataFrame({'name': ['Ada'], 'salary': [250000]})")
    for source in ("%zlens SELECT * FROM payroll", "%%zlens_sql\nSELECT * FROM payroll\n"):
        run, out = nb.run(source)
        shown = out.stdout + out.stderr + "".join(str(o.data) for o in out.outputs)
        assert "250000" not in shown and "250,000" not in shown, source
        if run is not None:
            assert run.result is None or not run.result.get("rows"), source
