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


def _runtime_imports(path, module: str, modules: set[str]) -> set[str]:
    """The package's modules `module` imports when it runs: at the top or inside a function
    (a late import hides a circle, it does not break it), never under `if TYPE_CHECKING:`."""
    import ast

    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                name = f"{base}.{alias.name}"
                if name in modules:
                    found.add(name)
                elif base in modules:
                    found.add(base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    found.discard(module)
    return found


def test_no_import_circles_among_the_package_modules():
    # A circle makes two modules one: neither can be read, tested or moved alone, and the
    # import order decides which half sees the other half-built. Imports inside functions
    # count: they defer the circle to run time, they do not remove it.
    import graphlib
    from pathlib import Path

    import zlens_jupyter

    root = Path(zlens_jupyter.__file__).parent
    paths = {}
    for path in root.rglob("*.py"):
        dotted = ".".join(("zlens_jupyter", *path.relative_to(root).with_suffix("").parts))
        paths[dotted.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        # A module importing its own package (to reach a sibling through the package's
        # re-exports) is not a circle by itself; the sibling edge it stands for is.
        imports = _runtime_imports(path, module, set(paths))
        graph[module] = {t for t in imports if not module.startswith(t + ".")}
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as circle:
        raise AssertionError(f"import circle: {' -> '.join(circle.args[1])}") from None
