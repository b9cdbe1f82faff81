"""The >>> examples in the warehouse docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["models", "guard", "linking", "warehouse"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"zlens_jupyter.warehouse.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
