"""DQL: the block language ZLens reads, runs, drafts and certifies.

Pure Python except `runner.run_block`, which executes through a duck-typed `QueryRunner`.
See shared/dql-language.md for the syntax.
"""

from zlens_jupyter.dql.assertions import AssertionResult, evaluate_assertion, evaluate_assertions
from zlens_jupyter.dql.block import TRUST_CERTIFICATION_RECORD, TRUST_DECLARED_IN_FILE, Block
from zlens_jupyter.dql.certification import (
    Verdict,
    certification_verdict,
    certify,
    certify_command,
    check_drift,
    missing_record,
    normalized_sql,
    referenced_tables,
    refresh_certification,
    sql_hash,
)
from zlens_jupyter.dql.document import DQLFile
from zlens_jupyter.dql.editing import edit_block_text, write_text_atomic
from zlens_jupyter.dql.formatter import format_declaration, format_dql, format_value
from zlens_jupyter.dql.library import BlockLibrary
from zlens_jupyter.dql.literals import Ident
from zlens_jupyter.dql.model import (
    Assertion,
    BlockStatus,
    BusinessView,
    Comment,
    Declaration,
    Domain,
    Field,
    Reference,
    Section,
    Span,
    Term,
    Value,
)
from zlens_jupyter.dql.parser import load_dql, parse_block, parse_dql
from zlens_jupyter.dql.references import (
    CompiledQuery,
    MetricResolver,
    QueryReference,
    compile_block,
    find_references,
)
from zlens_jupyter.dql.runner import BlockRun, PreviewResult, QueryRunner, run_block

__all__ = [
    "TRUST_CERTIFICATION_RECORD",
    "TRUST_DECLARED_IN_FILE",
    "Assertion",
    "AssertionResult",
    "Block",
    "BlockLibrary",
    "BlockRun",
    "BlockStatus",
    "BusinessView",
    "Comment",
    "CompiledQuery",
    "DQLFile",
    "Declaration",
    "Domain",
    "Field",
    "Ident",
    "MetricResolver",
    "PreviewResult",
    "QueryReference",
    "QueryRunner",
    "Reference",
    "Section",
    "Span",
    "Term",
    "Value",
    "Verdict",
    "certification_verdict",
    "certify",
    "certify_command",
    "check_drift",
    "compile_block",
    "edit_block_text",
    "evaluate_assertion",
    "evaluate_assertions",
    "find_references",
    "format_declaration",
    "format_dql",
    "format_value",
    "load_dql",
    "missing_record",
    "normalized_sql",
    "parse_block",
    "parse_dql",
    "referenced_tables",
    "refresh_certification",
    "run_block",
    "sql_hash",
    "write_text_atomic",
]
