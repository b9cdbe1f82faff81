"""bm25s's English stopword lists, without importing bm25s.

`bm25s/stopwords.py` is plain data, but `import bm25s.stopwords` runs the package's
`__init__` first, which imports numpy and the search code: ~0.1-0.3 s of start-up that a
certified answer never uses. The data file is loaded on its own instead (bm25s stays the
source of the words; the search itself imports bm25s when it first runs).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from types import ModuleType


@functools.cache
def _module() -> ModuleType:
    loaded = sys.modules.get("bm25s.stopwords")
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("bm25s")  # finds the package without running it
    folders = list(package.submodule_search_locations or []) if package else []
    for folder in folders:
        spec = importlib.util.spec_from_file_location(
            "zlens_jupyter._bm25s_stopwords", f"{folder}/stopwords.py"
        )
        if spec is not None and spec.loader is not None:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    import bm25s.stopwords  # an unusual install: the ordinary import

    return bm25s.stopwords


def stopwords(name: str) -> frozenset[str]:
    """One of bm25s's lists by its name (`STOPWORDS_EN`, `STOPWORDS_EN_PLUS`)."""
    return frozenset(getattr(_module(), name))
