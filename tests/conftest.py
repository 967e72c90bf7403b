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


@pytest.fixture
def kill_review():
    """Run `referee review ARGS` in a child process and SIGKILL it as soon as ``marker`` shows in its
    out/actions.jsonl (skip when it finishes first). For the kill-and-resume tests."""
    import signal
    import subprocess
    import sys
    import time

    def _run(args, out, marker, timeout=120):
        proc = subprocess.Popen([sys.executable, "-m", "referee", "review", *map(str, args), "--out", str(out)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log, deadline = Path(out) / "actions.jsonl", time.time() + timeout
        while time.time() < deadline and proc.poll() is None:
            if log.exists() and any(marker in line for line in log.read_text().splitlines()):
                break
            time.sleep(0.005)
        if proc.poll() is not None:
            pytest.skip("the review finished before it could be killed (machine too fast for this check)")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    return _run
