"""ZLens for Jupyter: a governed analytics agent over DuckDB.

Importing the package is cheap and imports no DuckDB, Jupyter or openai code; the heavy
pieces load when first used.
"""

from __future__ import annotations

__version__ = "0.1.0"


def connect(target: object = "sample", project: object = None, **options: object) -> object:
    """Open a session over `"sample"`, a .duckdb path, `":memory:"` or a DuckDB connection."""
    from .session import connect as _connect

    return _connect(target, project, **options)  # type: ignore[arg-type]


def panel(**options: object) -> object:
    """An interactive ask panel: question box, mode, "dig deeper", history, live run panel."""
    from .notebook.interactive import panel as _panel

    return _panel(**options)  # type: ignore[arg-type]


def load_ipython_extension(ipython: object) -> None:
    """`%load_ext zlens_jupyter`: registers %zlens, %%zlens, %%dql and %%zlens_sql (silently)."""
    from .notebook.magics import load_ipython_extension as _load

    _load(ipython)
