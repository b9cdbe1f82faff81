"""The run store: one JSON file per run under `<project>/.zlens/runs/`.

Each file is the run record's own JSON (`AgentRun.to_dict()`), written atomically (temp file
in the same folder + `os.replace`), so a reader never sees half a file and two processes
saving at once lose nothing. While a run is live the engine writes checkpoints; a checkpoint
also names its writer process, so a later listing can tell a run that is still going from one
whose process died (`interrupted`).

The folder is queryable with DuckDB:

    SELECT id, question, status, trust_state
    FROM read_json('.zlens/runs/*.json', union_by_name = true)
"""

from __future__ import annotations

import builtins
import json
import os
import socket
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engine.enums import RunStatus
from .engine.records import AgentRun, utc_now
from .errors import UserError

RUNS_DIR = Path(".zlens") / "runs"


@dataclass(frozen=True)
class RunSummary:
    id: str
    question: str
    status: str
    trust_state: str | None
    route: str | None
    started_at: str
    ended_at: str | None
    path: Path


class RunStore:
    """Persists runs for one project folder. Implements the engine's RunSink protocol."""

    def __init__(self, project_dir: str | os.PathLike[str]) -> None:
        self.project_dir = Path(project_dir)
        self.dir = self.project_dir / RUNS_DIR

    # -- writing -------------------------------------------------------------------------

    def checkpoint(self, run: AgentRun) -> None:
        data = run.to_dict()
        data["checkpoint"] = {"pid": os.getpid(), "host": socket.gethostname(), "at": utc_now()}
        self._write(run.id, data)

    def save(self, run: AgentRun) -> None:
        self._write(run.id, run.to_dict())

    def _write(self, run_id: str, data: dict[str, Any]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        # The temp name starts with a dot and does not end in .json, so globs skip it.
        tmp = self.dir / f".{run_id}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False, default=str)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.dir / f"{run_id}.json")
        finally:
            tmp.unlink(missing_ok=True)

    # -- reading -------------------------------------------------------------------------

    def list(self, limit: int | None = None) -> builtins.list[RunSummary]:
        """Runs newest first. A live checkpoint whose writer is gone reads `interrupted`."""
        summaries = []
        for path in self._files():
            data = _read(path)
            if data is None:
                continue
            summaries.append(
                RunSummary(
                    id=data["id"],
                    question=data.get("question", ""),
                    status=_effective_status(data),
                    trust_state=data.get("trust_state"),
                    route=data.get("route"),
                    started_at=data.get("started_at", ""),
                    ended_at=data.get("ended_at"),
                    path=path,
                )
            )
        summaries.sort(key=lambda s: s.started_at, reverse=True)
        return summaries[:limit] if limit else summaries

    def load(self, run_id: str) -> AgentRun:
        """Load by id or unique id prefix (`run_3fa` is enough when only one run starts so)."""
        run_id = run_id.strip()
        if not run_id:
            raise UserError("Give a run id (see `zlens runs` for the list).")
        exact = self.dir / f"{run_id}.json"
        matches = (
            [exact] if exact.exists() else [p for p in self._files() if p.stem.startswith(run_id)]
        )
        if not matches:
            raise UserError(f"No run '{run_id}' in {self.dir}; `zlens runs` lists what is there.")
        if len(matches) > 1:
            names = ", ".join(sorted(p.stem for p in matches)[:5])
            raise UserError(f"Run id '{run_id}' is ambiguous ({names}); give more characters.")
        data = _read(matches[0])
        if data is None:
            raise UserError(f"{matches[0]} is not a readable run record.")
        run = AgentRun.from_dict(data)
        run.status = RunStatus(_effective_status(data))
        return run

    def _files(self) -> builtins.list[Path]:
        if not self.dir.is_dir():
            return []
        return [p for p in self.dir.glob("*.json") if not p.name.startswith(".")]


def _read(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) and "id" in data else None


def _effective_status(data: dict[str, Any]) -> str:
    status = str(data.get("status", RunStatus.RUNNING.value))
    writer = data.get("checkpoint")
    if status == RunStatus.RUNNING.value and writer and not _writer_alive(writer):
        return RunStatus.INTERRUPTED.value
    return status


def _writer_alive(writer: dict[str, Any]) -> bool:
    if writer.get("host") != socket.gethostname():
        return True  # another machine's run: we cannot tell, so do not call it dead
    try:
        os.kill(int(writer["pid"]), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, KeyError, ValueError, TypeError):
        return True
    return True
