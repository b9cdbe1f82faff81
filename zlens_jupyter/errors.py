"""One exception hierarchy, split by who is at fault.

User errors carry a message that says how to fix the problem; the CLI and the magics print
that message as one line and never a traceback.
"""

from __future__ import annotations


class ZLensError(Exception):
    """Base of every error ZLens raises on purpose."""


class UserError(ZLensError):
    """The caller asked for something we cannot do; the message says what to do instead."""


class ConfigError(UserError):
    """A setting, path or connection is wrong or missing."""


class DQLSyntaxError(UserError):
    """A DQL file does not parse. Carries file, line, column, the offending text and expectation."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int = 0,
        column: int = 0,
        found: str = "",
        expected: str = "",
    ) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.found = found
        self.expected = expected
        where = f"{file or '<dql>'}:{line}:{column}"
        detail = message
        if expected:
            detail += f" (expected {expected}"
            detail += f", found {found!r})" if found else ")"
        super().__init__(f"{where}: {detail}")


class GuardrailViolation(ZLensError):
    """SQL or a request broke a safety rule (read-only, file access). Never retried."""


class QueryError(ZLensError):
    """The database rejected a statement; the message is the database's own."""


class QueryTimeout(QueryError):
    """A statement ran past its deadline and was interrupted."""


class ModelError(ZLensError):
    """The model endpoint failed or misbehaved."""


class TransientError(ZLensError):
    """A failure that may pass if tried again (a busy server, a dropped connection)."""


class MalformedOutput(ModelError):
    """The model's output did not parse or validate; the message goes back to the model."""


class ContextOverflow(ModelError):
    """The prompt did not fit the model's context; retry with a smaller grounding context."""


class RunCancelled(ZLensError):
    """The user stopped the run (Stop button, cancel token)."""
