"""JupyterLab runs its own Node scripts (CommonJS `.js`) from the environment; when that
environment lives inside this repository, Node reads the repository's package.json for them.
A `"type": "module"` there made every such check print a stack trace."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_repository_package_json_leaves_js_files_commonjs():
    package = json.loads((REPO / "package.json").read_text())
    assert package.get("type", "commonjs") == "commonjs"
    # Scripts Node runs directly are ES modules by their extension, not by package.json.
    for script in package["scripts"].values():
        for word in script.split():
            if word.startswith("js/") and not word.endswith((".mjs", ".cjs")):
                assert "esbuild" in script, script  # esbuild reads its input itself


def test_jupyter_labextension_list_prints_no_node_errors():
    done = subprocess.run(
        [sys.executable, "-m", "jupyter", "labextension", "list"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    output = done.stdout + done.stderr
    assert "Dynamic require" not in output and "    at " not in output, output[-2000:]
    assert "zlens-jupyter" in output
