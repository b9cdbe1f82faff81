"""The engine is pure: importing it pulls in no Jupyter, DuckDB or openai code."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = [
    "IPython",
    "ipywidgets",
    "ipykernel",
    "anywidget",
    "duckdb",
    "openai",
    "pandas",
    "sqlglot",
    "traitlets",
]


def test_engine_imports_no_jupyter_duckdb_or_openai():
    code = (
        "import sys, zlens_jupyter.engine, zlens_jupyter.store\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_engine_source_never_imports_upper_layers():
    from pathlib import Path

    import zlens_jupyter.engine as engine

    for path in Path(engine.__file__).parent.glob("*.py"):
        text = path.read_text()
        for layer in ("routes", "notebook", "warehouse", "llm", "session", "cli", "gates"):
            assert f"from ..{layer}" not in text and f"zlens_jupyter.{layer}" not in text, path
