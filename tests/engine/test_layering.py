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


def test_no_module_binds_a_top_level_name_twice():
    # A second `_WORDS = …` further down a long module silently replaces the first for every
    # function that reads it, the earlier ones included: a parser rule then reads a set it
    # was never written for, and nothing fails.
    import ast
    from collections import Counter
    from pathlib import Path

    import zlens_jupyter

    repeated = {}
    for path in Path(zlens_jupyter.__file__).parent.rglob("*.py"):
        bound: Counter[str] = Counter()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound[node.name] += 1
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound.update(t.id for t in targets if isinstance(t, ast.Name))
        twice = sorted(name for name, n in bound.items() if n > 1 and name != "__all__")
        if twice:
            repeated[path.name] = twice
    assert repeated == {}
