"""Schema linking: which tables and columns is a question about?

One BM25 document per column (table name, column name split into words, common
abbreviations spelled out, synonyms, comment, a few sampled values) and one per table
(name, comment, synonyms), ranked with the `bm25s` library. A table's score is its own
document's score plus its best column's, plus a little for every other matching column, so
a table wins by its name or by holding the columns the question names.

Words pass through one deterministic analyzer: split on `_`, digits and camelCase,
lower-case, English stop words dropped, and a light plural stemmer ("flights" -> "flight").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from zlens_jupyter.vocabulary import abbreviations
from zlens_jupyter.warehouse.models import Catalog, LinkedColumn, LinkResult
from zlens_jupyter.warehouse.stopwords import stopwords

if TYPE_CHECKING:
    import numpy as np

# bm25s (and numpy under it) load on the first search, not on import: a certified answer
# routes without keyword search, and `zlens ask` paid ~0.1-0.3 s for them at start-up.

SAMPLED_VALUES_IN_DOC = 20

# Words of a question that never name data ("how many flights" is about flights).
_OWN_STOPWORDS = {
    "how",
    "many",
    "much",
    "what",
    "which",
    "who",
    "whose",
    "show",
    "list",
    "give",
    "me",
    "per",
    "each",
    "from",
    "do",
    "does",
    "did",
    "have",
    "has",
    "i",
    "we",
    "our",
    "my",
    "please",
    "tell",
    "find",
    "get",
    "all",
    "across",
    "over",
    "between",
}


@functools.cache
def _stopwords() -> frozenset[str]:
    return stopwords("STOPWORDS_EN") | _OWN_STOPWORDS


_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def stem(word: str) -> str:
    """A light, deterministic plural stemmer: flights -> flight, categories -> category."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes", "uses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def analyze(text: str) -> list[str]:
    """Text or an identifier -> search tokens (the same analyzer for documents and queries).

    >>> analyze("sched_depTime of Flights")
    ['sched', 'scheduled', 'dep', 'departure', 'time', 'flight']
    """
    return list(_analyze_cached(text))


@functools.lru_cache(maxsize=100_000)
def _analyze_cached(text: str) -> tuple[str, ...]:
    # Catalogs repeat names, comments and values across thousands of columns; analyzing
    # each distinct string once halves the index build time.
    tokens: list[str] = []
    for word in _WORDS.findall(text):
        lowered = word.lower()
        if lowered in _stopwords():
            continue
        tokens.append(stem(lowered))
        tokens.extend(stem(e) for e in abbreviations().get(lowered, ()))
    return tuple(tokens)


class SchemaIndex:
    """A BM25 index over one catalog (and one set of synonyms). Build once, query often."""

    def __init__(self, catalog: Catalog, synonyms: Mapping[str, Iterable[str]] | None = None):
        extra = _SynonymLookup(synonyms or {})
        words = _analyze_cached  # tuples, shared between the many repeats of a name
        # Column documents first (in table order), then one document per table.
        self._column_names: list[tuple[str, str]] = []
        corpus: list[tuple[str, ...]] = []
        table_of_column: list[int] = []
        for t_index, table in enumerate(catalog.tables.values()):
            table_words = words(table.name)
            for column in table.columns:
                column_words = words(column.name)
                doc = table_words + column_words + column_words  # the name counts double
                if column.comment:
                    doc += words(column.comment)
                for value in column.distinct_values[:SAMPLED_VALUES_IN_DOC]:
                    doc += words(value)
                if extra:
                    doc += extra.for_column(table.name, column.name)
                self._column_names.append((table.name, column.name))
                corpus.append(doc)
                table_of_column.append(t_index)
        for table in catalog.tables.values():
            table_words = words(table.name)
            corpus.append(
                table_words + table_words + words(table.comment or "") + extra.for_table(table.name)
            )
        self._n_columns = len(self._column_names)
        self._table_names = list(catalog.tables)
        import bm25s
        import numpy as np

        self._table_of_column = np.asarray(table_of_column, dtype=np.int64)
        self._bm25 = bm25s.BM25()
        if corpus:
            self._bm25.index([list(doc) for doc in corpus], show_progress=False)
        self._vocab: dict[str, int] = dict(getattr(self._bm25, "vocab_dict", {}) or {})

    def search(self, question: str, *, k_tables: int = 5, k_columns: int = 10) -> LinkResult:
        """The top tables and columns for `question`, best first; only positive scores."""
        ids = sorted({self._vocab[t] for t in analyze(question) if t in self._vocab})
        if not ids:
            return LinkResult(tables=[], columns=[])
        import numpy as np

        scores = np.asarray(self._bm25.get_scores(ids), dtype=np.float64)
        column_scores = scores[: self._n_columns]
        table_scores = scores[self._n_columns :].copy()
        n_tables = len(self._table_names)
        best = np.zeros(n_tables)
        np.maximum.at(best, self._table_of_column, column_scores)
        total = np.bincount(self._table_of_column, weights=column_scores, minlength=n_tables)
        # The best column counts fully; other matching columns add a little.
        table_scores += best + 0.1 * (total - best)
        columns = [
            LinkedColumn(*self._column_names[i], float(column_scores[i]))
            for i in _top(column_scores, k_columns)
        ]
        tables = [
            (self._table_names[i], float(table_scores[i])) for i in _top(table_scores, k_tables)
        ]
        return LinkResult(tables=tables, columns=columns)


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Indexes of the k best positive scores, ties broken by position (deterministic)."""
    import numpy as np

    positive = np.flatnonzero(scores > 0)
    if k <= 0 or positive.size == 0:
        return []
    if positive.size > k:
        # Partition first so a 40,000-document catalog costs O(n), not a full sort.
        cut = np.argpartition(-scores[positive], k - 1)[:k]
        threshold = scores[positive[cut]].min()
        positive = positive[scores[positive] >= threshold]
    order = sorted(positive.tolist(), key=lambda i: (-scores[i], i))
    return order[:k]


class _SynonymLookup:
    """Synonyms keyed by "table.column", "column" or "table" (case-insensitive)."""

    def __init__(self, synonyms: Mapping[str, Iterable[str]]) -> None:
        self._words = {
            key.lower(): tuple(w for phrase in phrases for w in analyze(phrase))
            for key, phrases in synonyms.items()
        }

    def __bool__(self) -> bool:
        return bool(self._words)

    def for_column(self, table: str, column: str) -> tuple[str, ...]:
        return self._words.get(f"{table}.{column}".lower(), ()) + self._words.get(
            column.lower(), ()
        )

    def for_table(self, table: str) -> tuple[str, ...]:
        return self._words.get(table.lower(), ())


class IndexCache:
    """The last SchemaIndex built, rebuilt only when its key changes (the catalog's names,
    comments and sampled values, and the synonyms). One per warehouse; thread-safe."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._key: tuple[Any, ...] | None = None
        self._index: SchemaIndex | None = None

    def search(
        self,
        catalog: Catalog,
        key: tuple[Any, ...],
        question: str,
        *,
        k_tables: int,
        k_columns: int,
        synonyms: Mapping[str, list[str]] | None,
    ) -> LinkResult:
        full = (*key, tuple(sorted((k, tuple(v)) for k, v in (synonyms or {}).items())))
        with self._lock:
            if self._index is None or self._key != full:
                self._index = SchemaIndex(catalog, synonyms)
                self._key = full
            index = self._index
        return index.search(question, k_tables=k_tables, k_columns=k_columns)
