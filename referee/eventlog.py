"""Append-only JSON Lines logs (events.jsonl, actions.jsonl), flushed as each line is written, so a
crash loses at most the line being written and a game can be resumed from what is on disk."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable


class JsonlWriter:
    """Appends one JSON object per line and flushes it to the OS at once (``fsync`` also to disk)."""

    def __init__(self, path: str | Path, fsync: bool = False, fresh: bool = False):
        """``fresh``: start the file anew (a new game); otherwise append (a resumed one)."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        if fresh:
            self.path.write_text("")
        # A crash may have left a partial last line: start on a fresh line so it stays one bad line.
        needs_newline = self.path.exists() and self.path.stat().st_size > 0 and not self.path.read_bytes().endswith(b"\n")
        self._f = open(self.path, "a", encoding="utf-8")
        if needs_newline:
            self._f.write("\n")

    def write(self, record: dict[str, Any]) -> None:
        self._f.write(json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n")
        self._f.flush()
        if self.fsync:
            os.fsync(self._f.fileno())

    def write_all(self, records: Iterable[dict[str, Any]]) -> None:
        for r in records:
            self.write(r)

    def close(self) -> None:
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_jsonl_tolerant(path: str | Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Read a log a crash may have cut short: returns the good records and the line numbers of
    lines that are not complete JSON objects (normally at most the last one)."""
    records, bad = [], []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            bad.append(number)
            continue
        if isinstance(obj, dict):
            records.append(obj)
        else:
            bad.append(number)
    return records, bad
