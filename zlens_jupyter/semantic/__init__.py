"""The optional semantic layer: metrics, dimensions, joins and time from `semantic/*.yml`.

Pure Python over PyYAML; it produces SQL fragments but never runs them. The file format is
documented in `FORMAT.md` next to this module.
"""

from __future__ import annotations

from zlens_jupyter.semantic.loader import load_semantic
from zlens_jupyter.semantic.model import (
    DIMENSION_TYPES,
    METRIC_TYPES,
    TIME_GRAINS,
    Dimension,
    Metric,
    Relationship,
    SemanticModel,
    TimeHierarchy,
)

__all__ = [
    "DIMENSION_TYPES",
    "METRIC_TYPES",
    "TIME_GRAINS",
    "Dimension",
    "Metric",
    "Relationship",
    "SemanticModel",
    "TimeHierarchy",
    "load_semantic",
]
