"""The word forms schema linking meets questions with (issue 9): each rule on its own, so a
change to lemminflect or to a rule shows here before it shows as a worse corpus score."""

from __future__ import annotations

import pytest

from zlens_jupyter.parsing import is_key
from zlens_jupyter.parsing.words import question_tokens, stems
from zlens_jupyter.vocabulary import quantities
from zlens_jupyter.wordforms import doer_of, verb_root


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


@pytest.mark.parametrize(
    ("word", "verb"),
    [
        ("processors", "process"),  # the doer, never the column `process` cut short
        ("smokers", "smoke"),
        ("winner", "win"),
        ("wins", None),  # a verb form, not a doer
        ("employees", None),  # -ee: the one the verb is done to
        ("customer", None),  # an -er noun made from no verb
    ],
)
def test_a_doer_noun_names_its_verb(word: str, verb: str | None) -> None:
    assert doer_of(word) == verb


@pytest.mark.parametrize(
    ("column", "key"),
    [
        ("EmployeeNumber", True),  # a thing's number names it
        ("case_number", True),
        ("number", False),  # a bare count
        ("total_number", False),  # a count of something
        ("avg_number", False),
        ("order_id", True),
    ],
)
def test_a_things_number_is_a_key_a_count_is_not(column: str, key: bool) -> None:
    assert is_key(column) is key


def test_units_say_what_they_measure() -> None:
    found = quantities()
    assert (found["ct"], found["kg"], found["USD"], found["km/h"]) == (
        "weight",
        "weight",
        "price",
        "speed",
    )


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("licence", "license"),
        ("licences", "license"),
        ("colours", "color"),
        ("centre", "center"),
        ("metres", "meter"),
        ("neighbourhood", "neighborhood"),
        ("analyse", "analyze"),
    ],
)
def test_british_and_american_spellings_meet(british: str, american: str) -> None:
    assert stems([british]) == stems([american]) == (american,)


@pytest.mark.parametrize("word", ["tour", "hours", "science", "fence", "acre"])
def test_a_word_that_only_ends_like_a_british_spelling_stays(word: str) -> None:
    assert stems([word])[0] in (word, word.rstrip("s"))


def test_contractions_are_read_as_their_words() -> None:
    assert question_tokens("What's the top name? Who’s the oldest? Trump's share")[:2] == [
        "what",
        "is",
    ]
    tokens = question_tokens("Who’s the oldest? Trump's share")
    assert tokens == ["who", "is", "the", "oldest", "trump", "share"]
