"""The `>>>` examples in the dql docstrings are executed, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "zlens_jupyter.dql.parser",
    "zlens_jupyter.dql.formatter",
    "zlens_jupyter.dql.references",
    "zlens_jupyter.dql.assertions",
    "zlens_jupyter.dql.certification",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
