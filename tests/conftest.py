import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def write_log(tmp_path):
    """Write a list of action dicts (or raw lines) as a JSON Lines file and return its path."""
    def _write(rows, name="actions.jsonl"):
        p = tmp_path / name
        p.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
        return p
    return _write
