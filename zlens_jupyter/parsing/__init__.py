"""The offline question parser: a question's words -> its structure (`read_frame`, no
catalog) -> a `QuestionSpec` resolved against the catalog and semantic model
(`parse_question`), or one clarifying question. Deterministic: the same question over the
same data always reads the same way, and a word it cannot place is asked about, not guessed.

Layers: words (tokens, stems, numbers) < lexicon (names in the data) and phrasing (words
around them) < frame and question. `question` runs the order of work; each reading it calls
lives in a module of its own, over the parse in progress (`reading.ParseState`): time
(`calendar_reading`), yes/no columns (`yes_no`), counts and rates (`counts_and_rates`), the
things rows are (`entities`), scope words (`scope`), the words around a name (`spans`),
values as filters (`value_filters`) and the figures asked for (`measures`). Routes build SQL
from the spec (`routes.sqlbuild`).
`parse_question` is imported from `parsing.question` where it is needed: a certified answer
reads only the frame, and never pays for compiling the parser.
"""

from .frame import EXCLUSIONS, read_frame
from .lexicon import (
    Lexicon,
    Span,
    Target,
    build_lexicon,
    find_spans,
    is_key,
    is_numeric,
    is_temporal,
)
from .phrasing import (
    AGG_WORDS,
    GRAIN_WORDS,
    GROUP_MARKERS,
    SUPERLATIVES,
    find_time_range,
)
from .spec import (
    LIST_SEPARATORS,
    AverageOf,
    ColumnRef,
    Filter,
    GroupBy,
    Measure,
    ParseResult,
    QuestionFrame,
    QuestionSpec,
    TimeRange,
)
from .words import GLUE_WORDS, STOPWORDS, question_tokens, stem

__all__ = [
    "AGG_WORDS",
    "EXCLUSIONS",
    "GLUE_WORDS",
    "GRAIN_WORDS",
    "GROUP_MARKERS",
    "LIST_SEPARATORS",
    "STOPWORDS",
    "SUPERLATIVES",
    "AverageOf",
    "ColumnRef",
    "Filter",
    "GroupBy",
    "Lexicon",
    "Measure",
    "ParseResult",
    "QuestionFrame",
    "QuestionSpec",
    "Span",
    "Target",
    "TimeRange",
    "build_lexicon",
    "find_spans",
    "find_time_range",
    "is_key",
    "is_numeric",
    "is_temporal",
    "question_tokens",
    "read_frame",
    "stem",
]
