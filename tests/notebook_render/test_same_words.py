"""One set of words for a run's states (issue 10): the live panel's tables in js/panel.js are
the same as zlens_jupyter/labels.py (which the answer chip, the static summary, the history,
`zlens runs` and the CLI read), and the README's label table says each of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zlens_jupyter.labels import CANCELLED, ORB_WORDS, ROUTE_WORDS, TRUST_WORDS

REPO = Path(__file__).resolve().parents[2]
PANEL_JS = (REPO / "js" / "panel.js").read_text(encoding="utf-8")


def js_table(name: str) -> dict[str, str]:
    """The `const NAME = { key: 'words', ... };` object literal of panel.js, as a dict."""
    match = re.search(rf"const {name} = \{{(.*?)\}};", PANEL_JS, re.DOTALL)
    assert match is not None, f"panel.js has no {name} table"
    pairs = re.findall(r"(\w+): '([^']*)'", match.group(1))
    assert pairs, name
    return dict(pairs)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("ORB_LABEL", ORB_WORDS),
        ("TRUST_LABEL", {**TRUST_WORDS, CANCELLED: CANCELLED}),
        ("ROUTE_LABEL", ROUTE_WORDS),
    ],
)
def test_the_live_panel_says_what_labels_py_says(name, words):
    assert js_table(name) == words


def test_the_readme_names_every_label_in_the_same_words():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for words in [*TRUST_WORDS.values(), CANCELLED]:
        assert f"**{words}**" in readme, words
