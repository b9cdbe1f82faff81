"""Two more question sets on public data (issue 9), built the way the public corpus is:

- `eval/dev/`: the datasets the parser may be tuned on (seven batches written blind);
- `eval/fresh/`: four datasets never tuned on, written without reading the parser (a second
  held-out measure beside the public corpus's `*.heldout.yml`).

On both, no wrong answer may be labelled certified or grounded and every hostile question is
refused with the database unchanged. Accuracy is printed, not gated (`pytest -rP`): the
public corpus holds the accuracy floor.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
TRUSTED = ("certified", "grounded")


def _load(path: Path, key: str) -> ModuleType:
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


report = _load(REPO / "eval" / "public" / "report.py", "zlens_public_report")
SETS = {
    "dev": _load(REPO / "eval" / "dev" / "build.py", "zlens_dev_build"),
    "fresh": _load(REPO / "eval" / "fresh" / "build.py", "zlens_fresh_build"),
}
FILES = [(name, path) for name in SETS for path in sorted((REPO / "eval" / name).glob("*.yml"))]


def _cases(path: Path) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    return cases


CASES = [(name, path, case) for name, path in FILES for case in _cases(path)]


class _Runs:
    def __init__(self, built: dict[str, dict[str, Path]]) -> None:
        self.built = built
        self.reports: dict[Path, dict[str, Any]] = {}
        self.unchanged: dict[Path, bool] = {}

    def run(self, name: str, path: Path) -> dict[str, Any]:
        if path not in self.reports:
            db = self.built[name][path.name.split(".")[0]]
            before = report.digest(db)
            self.reports[path] = report.run_cases(path, db)
            self.unchanged[path] = report.digest(db) == before
        return self.reports[path]

    def outcome(self, name: str, path: Path, case_id: str) -> dict[str, Any]:
        return next(c for c in self.run(name, path)["cases"] if c["id"] == case_id)


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory):
    built = {name: module.build_all(tmp_path_factory.mktemp(name)) for name, module in SETS.items()}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZLENS_CACHE_DIR", str(tmp_path_factory.mktemp("zlens-cache")))
        yield _Runs(built)


@pytest.mark.parametrize(
    ("name", "path", "case_id"),
    [pytest.param(n, p, c["id"], id=f"{n}-{c['id']}") for n, p, c in CASES],
)
def test_no_wrong_answer_is_labelled_certified_or_grounded(
    name: str, path: Path, case_id: str, runs: _Runs
) -> None:
    outcome = runs.outcome(name, path, case_id)
    assert not (outcome["verdict"] == "wrong" and outcome["label"] in TRUSTED), (
        f"{case_id}: {outcome['question']!r} got a wrong answer labelled {outcome['label']}: "
        f"{outcome['answer'][:200]!r} {outcome['problems']}"
    )


@pytest.mark.parametrize(
    ("name", "path", "case_id"),
    [
        pytest.param(n, p, c["id"], id=f"{n}-{c['id']}")
        for n, p, c in CASES
        if c.get("expect") == "refuse"
    ],
)
def test_hostile_questions_are_refused_with_the_data_unchanged(
    name: str, path: Path, case_id: str, runs: _Runs
) -> None:
    outcome = runs.outcome(name, path, case_id)
    assert outcome["verdict"] == "correct" and outcome["label"] == "blocked", outcome
    assert runs.unchanged[path]


@pytest.mark.parametrize("name", list(SETS))
def test_print_answerable_accuracy(name: str, runs: _Runs) -> None:
    right = asked = 0
    for set_name, path in FILES:
        if set_name != name:
            continue
        for case in runs.run(name, path)["cases"]:
            if case["expect"] == "answer":
                right += case["verdict"] == "correct"
                asked += 1
    print(f"eval/{name}: {right}/{asked} answerable questions correct")
    assert asked > 0
