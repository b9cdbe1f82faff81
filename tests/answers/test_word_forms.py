"""The word forms schema linking meets questions with (issue 9): each rule on its own, so a
change to lemminflect or to a rule shows here before it shows as a worse corpus score."""

from __future__ import annotations

import pytest

from zlens_jupyter.vocabulary import quantities
from zlens_jupyter.wordforms import verb_root


@pytest.mark.parametrize(
    ("word", "root"),
    [
        ("won", "win"),  # an irregular past tense
        ("wins", "win"),
        ("winners", "win"),  # an agent noun with its consonant doubled
        ("viewing", "view"),
        ("viewers", "view"),
        ("drivers", "drive"),  # ... with its final e dropped
        ("sold", "sell"),
        ("visitor", "visit"),  # -or as well as -er
        ("survival", "survive"),  # a noun in -al
        ("arrival", "arrive"),
        ("arrestees", "arrest"),  # a noun in -ee, the one the verb is done to
        ("employee", "employ"),
    ],
)
def test_a_verb_form_or_an_agent_noun_reaches_its_verb(word: str, root: str) -> None:
    assert verb_root(word) == root


@pytest.mark.parametrize(
    "word",
    # a noun that is a verb itself keeps its meaning; nouns with no verb in them have none
    [
        *("number", "order", "water", "customer", "passenger", "sales", "flights"),
        *("departure", "several", "original", "animal", "capital", "interval"),
    ],
)
def test_a_word_that_is_no_verb_form_has_no_root(word: str) -> None:
    assert verb_root(word) in (None, word)


def test_units_say_what_they_measure() -> None:
    found = quantities()
    assert (found["ct"], found["kg"], found["USD"], found["km/h"]) == (
        "weight",
        "weight",
        "price",
        "speed",
    )
