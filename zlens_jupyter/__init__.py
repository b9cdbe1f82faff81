"""ZLens for Jupyter: a governed analytics agent over DuckDB.

Importing the package is cheap and imports no DuckDB, Jupyter or openai code; the heavy
pieces load when first used.
"""

from __future__ import annotations

__version__ = "0.1.0"
