"""Deterministic question matching: whole words, plurals, synonyms, longest phrase wins."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zlens_jupyter.semantic import SemanticModel, load_semantic
from zlens_jupyter.semantic.matching import singular, tokenize

from .conftest import SHOP_YML

VOCABULARY = [
    "order",
    "orders",
    "value",
    "average",
    "revenue",
    "by",
    "customer",
    "segment",
    "date",
    "product",
    "line",
    "sales",
    "number",
    "of",
    "buyers",
    "aov",
    "Order_Date",
    "the",
]


@pytest.fixture
def model(shop_project: Path) -> SemanticModel:
    return load_semantic(shop_project)


def names(matches: list) -> list[tuple[str, float]]:
    return [(item.name, score) for item, score in matches]


def test_name_label_and_synonym_scores(model: SemanticModel) -> None:
    assert names(model.match_metrics("What is total revenue by customer segment?")) == [
        ("revenue", 1.0)
    ]
    assert names(model.match_metrics("Show turnover")) == [("revenue", 0.9)]
    # The name inside the synonym "customer segment" still counts: same item, best score.
    assert names(model.match_dimensions("What is total revenue by customer segment?")) == [
        ("segment", 1.0)
    ]
    assert names(model.match_dimensions("revenue by product line")) == [("category", 0.9)]


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("revenues by month", "revenue"),
        ("Sales last year", "revenue"),
        ("how many buyers did we have", "customers"),
        ("number of orders per segment", "orders"),
        ("ORDERS", "orders"),
        ("what's the AOV?", "average_order_value"),
    ],
)
def test_plural_and_case_tolerant(model: SemanticModel, question: str, metric: str) -> None:
    matches = model.match_metrics(question)
    assert matches and matches[0][0].name == metric


def test_plural_dimension_and_synonym(model: SemanticModel) -> None:
    assert names(model.match_dimensions("revenue by product lines")) == [("category", 0.9)]
    assert names(model.match_dimensions("categories with the most sales")) == [("category", 1.0)]
    assert names(model.match_dimensions("top segments")) == [("segment", 1.0)]


def test_whole_words_only(model: SemanticModel) -> None:
    assert model.match_metrics("the ordering of salesforce accounts") == []
    assert model.match_metrics("presales") == []
    assert model.match_dimensions("segmentation") == []


def test_longer_phrase_hides_the_words_inside_it(model: SemanticModel) -> None:
    # "order value" is a synonym of AOV: it must not also count as a mention of "orders".
    assert names(model.match_metrics("order value by region")) == [("average_order_value", 0.9)]
    # "order date" names a dimension; the "order" inside it is not the orders metric.
    assert model.match_metrics("revenue by order date")[0][0].name == "revenue"
    assert "orders" not in [m.name for m, _ in model.match_metrics("revenue by order date")]
    assert names(model.match_dimensions("revenue by order date")) == [("order_date", 1.0)]


def test_several_mentions_ordered_by_score_then_position(model: SemanticModel) -> None:
    assert [m.name for m, _ in model.match_metrics("buyers and revenue and orders")] == [
        "revenue",
        "orders",
        "customers",  # 1.0, 1.0 (earlier first), then the 0.9 synonym
    ]


def test_partial_match_scores_below_half(model: SemanticModel) -> None:
    matches = names(model.match_metrics("average value per region"))
    assert matches == [("average_order_value", 0.3)]
    assert model.match_metrics("how many") == []


def test_singular_rules() -> None:
    assert [
        singular(w)
        for w in ["categories", "boxes", "classes", "orders", "status", "analysis", "news", "gmv"]
    ] == [
        "category",
        "box",
        "class",
        "order",
        "status",
        "analysis",
        "news",
        "gmv",
    ]
    assert tokenize("Customer's order_dates, 2025!") == ["customer", "order", "date", "2025"]


@functools.cache
def _shop_model() -> SemanticModel:
    # Hypothesis forbids function-scoped fixtures in @given tests, so build the model once.
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "semantic").mkdir()
        (Path(folder) / "semantic" / "shop.yml").write_text(SHOP_YML, encoding="utf-8")
        return load_semantic(folder)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80) | st.lists(st.sampled_from(VOCABULARY), max_size=8).map(" ".join))
def test_scores_stay_in_range_and_are_deterministic(question: str) -> None:
    model = _shop_model()
    first = model.match_metrics(question) + model.match_dimensions(question)
    again = model.match_metrics(question) + model.match_dimensions(question)
    assert first == again
    assert all(0.0 < score <= 1.0 for _, score in first)
    assert len({id(item) for item, _ in first}) == len(first)
