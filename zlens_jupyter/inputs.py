"""One clear error for every bad input (issue 12): budget values, files a user points us at,
and text that reaches a terminal.

- Budgets: `nan`, infinities and values <= 0 are refused (a NaN deadline would switch the
  deadline off: every comparison with NaN is false).
- Files: only regular files are opened (a FIFO named `x.yml` would block `open()` forever, a
  directory or a device is not a file), never larger than a cap, and they must be UTF-8 text.
- Terminal text: control characters (ESC, CR, BEL, other C0 and C1) are shown escaped, so
  data values and questions can neither move the cursor nor recolour or retitle a terminal.
"""

from __future__ import annotations

import math
import os
import re
import stat
from pathlib import Path

from .errors import UserError

MAX_SEMANTIC_BYTES = 5 * 1024 * 1024  # one semantic YAML file
MAX_DQL_BYTES = 1024 * 1024  # one .dql file


def check_budget(
    *,
    max_steps: object = None,
    deadline_s: object = None,
    max_cost_usd: object = None,
    max_tokens: object = None,
    flags: dict[str, str] | None = None,
) -> None:
    """Raise UserError (one line) for a budget value that is not a finite number > 0.

    `flags` names the option as the user typed it (`--deadline`), for the message."""
    names = {
        "max_steps": "max_steps",
        "deadline_s": "deadline_s",
        "max_cost_usd": "max_cost_usd",
        "max_tokens": "max_tokens",
        **(flags or {}),
    }
    for key, value, whole in (
        ("max_steps", max_steps, True),
        ("deadline_s", deadline_s, False),
        ("max_cost_usd", max_cost_usd, False),
        ("max_tokens", max_tokens, True),
    ):
        if value is None:
            continue
        name = names[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UserError(f"{name} takes a number, not {value!r}.")
        if whole and not float(value).is_integer():
            raise UserError(f"{name} takes a whole number, not {value!r}.")
        if not math.isfinite(value):
            raise UserError(f"{name} must be a finite number, not {value!r}.")
        if value <= 0:
            raise UserError(f"{name} must be greater than 0, not {value!r}.")


def read_text_file(
    path: str | os.PathLike[str], *, max_bytes: int, what: str, label: str | None = None
) -> str:
    """The UTF-8 text of a regular file, or UserError in one line starting with `label`
    (default: the path). Never opens a FIFO, a device or a directory (checked with stat
    before open, and again on the open file)."""
    path = Path(path)
    name = label or str(path)
    try:
        info = path.stat()
    except OSError as exc:
        raise UserError(f"{name}: cannot read {what}: {exc.strerror or exc}") from None
    _refuse_special(name, info.st_mode, what)
    if info.st_size > max_bytes:
        raise UserError(
            f"{name}: {_size(info.st_size)}, over the {_size(max_bytes)} limit for {what}; "
            "split it into smaller files"
        )
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO after the check, open cannot hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UserError(f"{name}: cannot read {what}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        _refuse_special(name, os.fstat(fh.fileno()).st_mode, what)
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UserError(f"{name}: over the {_size(max_bytes)} limit for {what}")
    if b"\x00" in data:
        raise UserError(f"{name}: a binary file, not {what}; save it as UTF-8 text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{name}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is a regular file (lstat-free: a symlink to a file counts)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _refuse_special(name: str, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = (
        "a directory"
        if stat.S_ISDIR(mode)
        else "a FIFO (named pipe)"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    raise UserError(f"{name}: {kind}, not {what} (a regular file); not read")


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"


# C0 controls except tab and newline, DEL, and C1 controls (U+0080-U+009F, e.g. CSI).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ALL = re.compile("[\x00-\x1f\x7f-\x9f]")


def terminal_safe(text: str, *, keep_newlines: bool = True) -> str:
    """`text` with control characters shown as escapes (`\\x1b`, `\\r`, `\\x07`).

    >>> terminal_safe("red\\x1b[31m!\\r\\x07")
    'red\\\\x1b[31m!\\\\r\\\\x07'
    """
    # Most text has no control character at all, and `str.isprintable` (false for every one
    # of them, and for a few more characters) tells so in a C loop faster than the regex's
    # scan: every answer card's HTML and text pass here. Only text it doubts is scanned.
    if text.isprintable():  # most text, every table cell: one C call
        return text
    if keep_newlines and all(line.isprintable() for line in text.replace("\t", " ").split("\n")):
        return text
    pattern = _CONTROL if keep_newlines else _CONTROL_ALL
    return pattern.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return {"\r": "\\r", "\n": "\\n", "\t": "\\t"}.get(char, f"\\x{ord(char):02x}")
