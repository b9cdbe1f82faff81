"""YAML parsed once and read back by later processes (`yaml_text`): the same data, without
importing PyYAML; an edited text is parsed afresh; a parse JSON cannot hold, and an error,
are never kept."""

from __future__ import annotations

import datetime
import doctest
import json
import os
import subprocess
import sys

import pytest

from zlens_jupyter import disk_memo, yaml_text
from zlens_jupyter.yaml_text import load_yaml, yaml_error

# `yes:` is the key True to YAML 1.1, which JSON would turn into the string "true".
TEXT = "value_synonyms:\n  yes: ['true', y]\n  women: [female, f]\nlimit: 3\nratio: 0.5\n"
DATA = {"value_synonyms": {True: ["true", "y"], "women": ["female", "f"]}, "limit": 3, "ratio": 0.5}


@pytest.fixture
def memo(tmp_path, monkeypatch):
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(disk_memo, "_memos", {})  # a fresh process
    return tmp_path / "memo"


def test_the_next_process_reads_the_same_data_without_pyyaml(memo):
    script = (
        "import sys, json; from zlens_jupyter.yaml_text import load_yaml; "
        f"data = load_yaml({TEXT!r}); "
        "print(repr(data)); print('yaml' in sys.modules)"
    )
    env = {**os.environ, "ZLENS_CACHE_DIR": str(memo.parent)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        for _ in range(2)
    ]
    assert runs[0] == [repr(DATA), "True"]  # parsed by PyYAML
    assert runs[1] == [repr(DATA), "False"]  # read back: the same keys, True included


def test_an_edited_text_is_parsed_afresh(memo, monkeypatch):
    assert load_yaml(TEXT) == DATA
    monkeypatch.setattr(disk_memo, "_memos", {})
    assert load_yaml(TEXT.replace("limit: 3", "limit: 4"))["limit"] == 4
    assert load_yaml(TEXT) == DATA


def test_what_json_cannot_hold_and_errors_are_never_kept(memo):
    for _ in range(2):
        assert load_yaml("since: 2024-01-31\n") == {"since": datetime.date(2024, 1, 31)}
        with pytest.raises(yaml_error()):
            load_yaml("metrics: [unclosed\n")
    assert not list(memo.glob("yaml-*.jsonl"))


def test_a_key_that_looks_like_the_pairs_marker_reads_back_as_itself(memo, monkeypatch):
    text = json.dumps({"\x00pairs": [["a", 1]]})  # JSON is YAML
    first = load_yaml(text)
    monkeypatch.setattr(disk_memo, "_memos", {})
    assert load_yaml(text) == first == {"\x00pairs": [["a", 1]]}


def test_docstring_examples(memo):
    result = doctest.testmod(yaml_text)
    assert result.attempted > 0 and result.failed == 0
