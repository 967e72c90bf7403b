"""Reading action logs (JSON Lines): the truth of a game, written by the camera or by a person.

Every malformed line is reported with the file name, its line number and what was expected, and
nothing is returned until the whole file has been read, so a bad file never half-scores a game.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, TypeVar

from pydantic import TypeAdapter, ValidationError

T = TypeVar("T")


class ActionLogError(ValueError):
    """A malformed action log: bad JSON, a missing or wrong field, an unknown action type."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def _describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors(include_url=False):
        loc = ".".join(str(p) for p in e["loc"])
        if e["type"] == "union_tag_invalid":
            parts.append(f"unknown action type {e['input'].get('type')!r}; expected one of {e['ctx']['expected_tags']}")
        elif e["type"] == "union_tag_not_found":
            parts.append("each line needs a 'type' field naming the action")
        elif e["type"] == "missing":
            parts.append(f"missing field '{loc.split('.', 1)[-1]}' in a '{loc.split('.', 1)[0]}' action")
        elif e["type"] == "extra_forbidden":
            parts.append(f"unexpected field '{loc.split('.', 1)[-1]}' in a '{loc.split('.', 1)[0]}' action")
        else:
            parts.append(f"{loc}: {e['msg']} (got {e['input']!r})")
    return "; ".join(parts)


def read_jsonl(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """Return (line number, object) for every non-blank line; raise ActionLogError on bad JSON."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ActionLogError(str(path), None, "no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ActionLogError(str(path), None, f"cannot read it: {e}") from None
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ActionLogError(str(path), number, f"not valid JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(obj, dict):
            raise ActionLogError(str(path), number, f"expected a JSON object, got {type(obj).__name__}")
        rows.append((number, obj))
    return rows


def parse_actions(path: str | Path, adapter: TypeAdapter[T], check: Callable[[int, T, int], None] | None = None) -> list[T]:
    """Read ``path`` and validate every line with ``adapter`` (a discriminated union of the game's
    actions). ``check(index, action, line)`` may raise ActionLogError for order rules (setup first)."""
    actions = []
    for index, (number, obj) in enumerate(read_jsonl(path)):
        try:
            action = adapter.validate_python(obj)
        except ValidationError as e:
            raise ActionLogError(str(path), number, _describe(e)) from None
        if check is not None:
            try:
                check(index, action, number)
            except ValueError as e:
                raise ActionLogError(str(path), number, str(e)) from None
        actions.append(action)
    if not actions:
        raise ActionLogError(str(path), None, "the log is empty; it must start with a 'setup' action")
    return actions


def setup_first(index: int, action, line: int) -> None:
    """The order rule every game's log shares: exactly one setup, on the first line."""
    if index == 0 and action.type != "setup":
        raise ValueError(f"the first action must be 'setup', got '{action.type}'")
    if index > 0 and action.type == "setup":
        raise ValueError("a second 'setup' action; a log holds one game")
