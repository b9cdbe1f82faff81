"""Certification on real DuckDB files: verdicts, writing the record, drift afterwards."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import duckdb
import pytest

from zlens_jupyter.dql import (
    BlockLibrary,
    BlockStatus,
    certification_verdict,
    certify,
    check_drift,
    normalized_sql,
    referenced_tables,
    refresh_certification,
    sql_hash,
)
from zlens_jupyter.errors import UserError

NOW = dt.datetime(2024, 5, 1, 9, 30, tzinfo=dt.UTC)
CARRIERS = Path("blocks/operations/carriers.dql")


def _write(project: Path, relative: str, text: str) -> Path:
    path = project / "blocks" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _certify_carriers(project: Path, runner: Any) -> BlockLibrary:
    library = BlockLibrary.load(project)
    certify("flights by carrier", library, runner, by="ana@example.com", now=NOW)
    return library


def test_verdict_for_a_complete_block(project: Path, runner: Any) -> None:
    library = BlockLibrary.load(project)
    verdict = certification_verdict(library.require("Flights by carrier"), library, runner)
    assert verdict.certifiable, verdict.problems
    assert verdict.problems == []
    assert verdict.run is not None and verdict.run.passed


def test_certify_writes_the_record_and_reload_shows_it(project: Path, runner: Any) -> None:
    path = project / CARRIERS
    before = path.read_text(encoding="utf-8")
    library = BlockLibrary.load(project)
    returned = certify("Flights by carrier", library, runner, by="ana@example.com", now=NOW)
    assert returned.is_certified and returned.trust_source == "certification record"

    reloaded = BlockLibrary.load(project).require("Flights by carrier")
    assert reloaded.status is BlockStatus.CERTIFIED
    record = reloaded.certification
    assert record is not None
    assert record["by"] == "ana@example.com"
    assert record["at"] == "2024-05-01T09:30:00+00:00"
    assert record["sql_hash"] == sql_hash(
        'SELECT carrier, COUNT(*) AS flights FROM "flights" GROUP BY carrier ORDER BY flights DESC'
    )
    assert record["schema_fingerprint"] == runner.schema_fingerprint(["flights"])
    assert record["tables"] == ["flights"]

    after = path.read_text(encoding="utf-8")
    # Surgical edit: the status value changed in place (its comment and alignment kept),
    # the record was added before the closing brace; everything else is byte-identical.
    assert 'status = "certified"' in after and 'status = "review"' not in after
    assert 'owner = "ops-analytics@example.com"   // team inbox' in after
    assert after.startswith("// dql-format: 1\n// Carrier volume, reviewed weekly.\n")
    assert 'customField = "kept as written"' in after
    second_block = before[before.index("// A second block") :]
    assert after.endswith(second_block)
    record_text = (
        "\n  certification {\n"
        '    by = "ana@example.com"\n'
        '    at = "2024-05-01T09:30:00+00:00"\n'
        f'    sql_hash = "{record["sql_hash"]}"\n'
        f'    schema_fingerprint = "{record["schema_fingerprint"]}"\n'
        '    tables = ["flights"]\n'
        "  }\n"
    )
    first_close = before.index("}\n\n// A second block")
    expected = before[:first_close] + record_text + before[first_close:]
    assert after == expected.replace('status = "review"', 'status = "certified"')
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_recertifying_replaces_the_record(project: Path, runner: Any) -> None:
    library = _certify_carriers(project, runner)
    later = NOW + dt.timedelta(days=30)
    certify("Flights by carrier", library, runner, by="bo@example.com", now=later)
    text = (project / CARRIERS).read_text(encoding="utf-8")
    assert text.count("certification {") == 1
    block = BlockLibrary.load(project).require("Flights by carrier")
    assert block.certification is not None
    assert block.certification["by"] == "bo@example.com"


def test_certify_refuses_missing_metadata_and_tests(project: Path, runner: Any) -> None:
    library = BlockLibrary.load(project)
    with pytest.raises(UserError) as caught:
        certify("Busiest origin", library, runner, by="ana@example.com")
    message = str(caught.value)
    for problem in ("missing owner", "missing grain", "missing outputs", "no tests"):
        assert problem in message
    assert "missing domain" not in message
    assert "certified" not in (project / CARRIERS).read_text().split("// A second block")[1]


def test_certify_refuses_a_failing_test(project: Path, runner: Any) -> None:
    _write(
        project,
        "delays.dql",
        '''block "Average delay" {
  domain = "operations"
  owner = "ops@example.com"
  description = "Mean departure delay."
  grain = "all flights"
  outputs = ["avg_delay"]
  query = """SELECT AVG(dep_delay) AS avg_delay FROM flights"""
  tests {
    assert avg_delay < 5
  }
}''',
    )
    library = BlockLibrary.load(project)
    with pytest.raises(UserError, match=r"test failed: avg_delay < 5 failed: observed 12\.6"):
        certify("Average delay", library, runner, by="ana@example.com")
    assert BlockLibrary.load(project).require("Average delay").status is BlockStatus.DRAFT


def test_certify_refuses_when_outputs_do_not_match(project: Path, runner: Any) -> None:
    _write(
        project,
        "origins.dql",
        '''block "Origins" {
  domain = "operations"
  owner = "ops@example.com"
  description = "Flights per origin."
  grain = "origin"
  outputs = ["origin", "flights", "share"]
  query = """SELECT origin, COUNT(*) AS flights FROM flights GROUP BY 1"""
  tests { assert row_count == 3 }
}''',
    )
    library = BlockLibrary.load(project)
    verdict = certification_verdict(library.require("Origins"), library, runner)
    assert not verdict.certifiable
    assert verdict.problems == [
        "query does not return declared outputs share (it returns origin, flights)"
    ]
    with pytest.raises(UserError, match="declared outputs share"):
        certify("Origins", library, runner, by="ana@example.com")


def test_verdict_reports_write_queries_and_failures(
    project: Path, runner: Any, connection: duckdb.DuckDBPyConnection
) -> None:
    meta = (
        'domain = "d" owner = "o" description = "x" grain = "g" outputs = ["n"] '
        "tests { assert row_count > 0 }"
    )
    _write(
        project,
        "bad.dql",
        f'''
block "Deleter" {{ {meta} query = """DELETE FROM flights""" }}
block "Broken" {{ {meta} query = """SELECT no_such_column AS n FROM flights""" }}
block "Deprecated" {{ {meta} status = "deprecated" query = """SELECT 1 AS n""" }}
''',
    )
    library = BlockLibrary.load(project)
    deleter = certification_verdict(library.require("Deleter"), library, runner)
    assert any(p.startswith("query is not read-only") for p in deleter.problems)
    broken = certification_verdict(library.require("Broken"), library, runner)
    assert any(p.startswith("query failed") and "no_such_column" in p for p in broken.problems)
    deprecated = certification_verdict(library.require("Deprecated"), library, runner)
    assert deprecated.problems == [
        "block is deprecated: set status to draft or review before certifying"
    ]
    (count,) = connection.execute("SELECT COUNT(*) FROM flights").fetchone() or (0,)
    assert count == 336776


def test_certify_needs_a_person(project: Path, runner: Any) -> None:
    with pytest.raises(UserError, match="who is certifying"):
        certify("Flights by carrier", BlockLibrary.load(project), runner, by="  ")


def test_no_drift_right_after_certification(project: Path, runner: Any) -> None:
    library = _certify_carriers(project, runner)
    block = library.require("Flights by carrier")
    assert check_drift(block, library, runner) is None
    assert refresh_certification(library, runner) == {}


def test_drift_after_schema_change(
    project: Path, runner: Any, connection: duckdb.DuckDBPyConnection
) -> None:
    library = _certify_carriers(project, runner)
    connection.execute("ALTER TABLE flights ADD COLUMN note VARCHAR")
    block = library.require("Flights by carrier")
    reason = check_drift(block, library, runner)
    assert reason is not None and "schema of flights changed" in reason

    drifted = refresh_certification(library, runner)
    assert drifted == {"Flights by carrier": reason}
    assert library.require("Flights by carrier").status is BlockStatus.PENDING_RECERTIFICATION
    assert library.certified() == []
    # In memory only: the file still says certified until persisted.
    on_disk = BlockLibrary.load(project).require("Flights by carrier")
    assert on_disk.status is BlockStatus.CERTIFIED

    library = BlockLibrary.load(project)
    refresh_certification(library, runner, persist=True)
    reloaded = BlockLibrary.load(project).require("Flights by carrier")
    assert reloaded.status is BlockStatus.PENDING_RECERTIFICATION
    assert reloaded.certification is not None  # the old record stays for review


def test_drift_after_sql_edit(project: Path, runner: Any) -> None:
    _certify_carriers(project, runner)
    path = project / CARRIERS
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("GROUP BY carrier", "WHERE origin = 'JFK' GROUP BY carrier"))
    library = BlockLibrary.load(project)
    drifted = refresh_certification(library, runner, persist=True)
    assert "SQL changed since certification" in drifted["Flights by carrier"]
    reloaded = BlockLibrary.load(project)
    assert reloaded.require("Flights by carrier").status is BlockStatus.PENDING_RECERTIFICATION
    assert reloaded.require("Busiest origin").status is BlockStatus.DRAFT


def test_cosmetic_sql_edits_are_not_drift(project: Path, runner: Any) -> None:
    _certify_carriers(project, runner)
    path = project / CARRIERS
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "SELECT carrier, COUNT(*) AS flights",
            "select   CARRIER,\n      count(*) as FLIGHTS -- per carrier",
        )
    )
    library = BlockLibrary.load(project)
    assert refresh_certification(library, runner) == {}


def test_a_file_saying_certified_without_a_record_is_lowered_to_review(
    project: Path, runner: Any
) -> None:
    text = 'block "Declared" {\n  status = "certified"\n  query = """SELECT 1 AS one"""\n}'
    path = _write(project, "declared.dql", text)
    library = BlockLibrary.load(project)
    block = library.require("Declared")
    assert block.trust_source == "declared in file"
    assert check_drift(block, library, runner) is None  # nothing recorded to drift from
    lowered = refresh_certification(library, runner, persist=True)
    assert "no certification record" in lowered["Declared"]
    assert 'zlens certify "Declared" --by' in lowered["Declared"]
    assert library.require("Declared").status is BlockStatus.REVIEW
    assert library.certified() == [] and library.lowered == lowered
    assert path.read_text(encoding="utf-8") == text  # the user's file is theirs to fix


def test_a_partial_record_does_not_certify(project: Path, runner: Any) -> None:
    library = _certify_carriers(project, runner)
    path = project / CARRIERS
    text = path.read_text(encoding="utf-8")
    kept = "\n".join(line for line in text.splitlines() if "sql_hash" not in line)
    path.write_text(kept, encoding="utf-8")
    library = BlockLibrary.load(project)
    lowered = refresh_certification(library, runner)
    assert "certification record has no sql_hash" in lowered["Flights by carrier"]
    assert library.require("Flights by carrier").status is BlockStatus.REVIEW


def test_certify_a_one_line_block_still_writes_a_valid_file(project: Path, runner: Any) -> None:
    path = _write(
        project,
        "compact.dql",
        '// keep me\nblock "Compact" { domain = "d" owner = "o" '
        'description = "x" grain = "g" outputs = ["n"] query = """SELECT 1 AS n""" '
        "tests { assert n == 1 } }  // trailing\n",
    )
    library = BlockLibrary.load(project)
    certify("Compact", library, runner, by="ana@example.com", now=NOW)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('// keep me\nblock "Compact" {\n')
    assert text.rstrip().endswith("}  // trailing")
    block = BlockLibrary.load(project).require("Compact")
    assert block.is_certified and block.certification is not None
    assert block.certification["tables"] == []


def test_normalized_sql_and_tables() -> None:
    assert normalized_sql("select a -- x\nFROM   T") == normalized_sql("SELECT A FROM t")
    assert sql_hash("SELECT 1").startswith("sha256:")
    assert sql_hash("SELECT 1") != sql_hash("SELECT 2")
    assert referenced_tables(
        'WITH "Flights" AS (SELECT * FROM flights) SELECT * FROM "Flights" f '
        "JOIN airlines a USING (carrier), read_csv('x.csv')"
    ) == ["airlines", "flights"]


TOP_CARRIERS = '''block "Top carriers" {
  domain = "operations"
  type = "custom"
  status = "review"
  description = "The three carriers with the most flights."
  owner = "ops-analytics@example.com"
  grain = "carrier"
  outputs = ["carrier", "flights"]
  query = """
    SELECT carrier, flights FROM @block("Flights by carrier") ORDER BY flights DESC LIMIT 3
  """
  tests {
    assert row_count == 3
  }
}
'''


def test_drift_in_a_composed_block_when_only_what_it_composes_changed(
    project: Path, runner: Any
) -> None:
    """A block composing another is compiled afresh on every drift check (its own text is
    unchanged when its dependency is edited), while a self-contained block's SQL is kept
    per text: both checked once before the edit, so a kept SQL would hide the change."""
    _write(project, "operations/top.dql", TOP_CARRIERS)
    library = BlockLibrary.load(project)
    certify("Top carriers", library, runner, by="ana@example.com", now=NOW)
    library = BlockLibrary.load(project)
    assert check_drift(library.require("Top carriers"), library, runner) is None

    path = project / CARRIERS
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("GROUP BY carrier", "WHERE origin = 'JFK' GROUP BY carrier"))
    library = BlockLibrary.load(project)
    reason = check_drift(library.require("Top carriers"), library, runner)
    assert reason is not None and "SQL changed since certification" in reason
