"""Look into what the referee made of a simulated video that ``scripts/bench_referee.py --keep DIR`` kept:
where its action log differs from the truth, and, frame by frame, what it saw and did.

    # truth against review for every kept video in DIR (or the seeds given), with the violations called and
    # the actions logged or said later than 0.45 s (the benchmark's two latencies)
    .venv/bin/python scripts/trace_review.py diff DIR [--seed 9204 ...] [--slow 0.45]
    # the looks from frame 440 to 500 of one kept video: detections (optionally only labels matching a
    # glob), the tracker's observations, the adapter's new log entries and the events
    .venv/bin/python scripts/trace_review.py trace --game crazy-kick DIR/crazy-kick-9190-20s-... 440 500 [--labels 'W*']

``diff`` lines: ``T-`` a true action the review lacks, ``R+`` a reviewed action that is not true (aligned with
difflib on type, player, card, piece, square and team, as the benchmark matches them). ``trace`` reviews the
video again in a temporary folder (the kept review is not touched).
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import (announced, in_view_frames, latencies, match, operator_calls, seen_actions,  # noqa: E402
                           stayed)
from referee.recognize import face_names  # noqa: E402
from referee.review import read_calls, read_setup, review  # noqa: E402
from referee.session import GameSession  # noqa: E402

def kept(folder: Path, seeds: list[str]) -> list[tuple[str, Path, Path]]:
    """(seed, simulated video folder, its review folder) for each video kept in ``folder``."""
    out = []
    for sim in sorted(folder.glob("*-*s-*")):
        if "review" in sim.name or not (sim / "actions.jsonl").is_file():
            continue
        seed = next(p for p in sim.name.split("-") if p.isdigit() and len(p) >= 4)
        rev = next((r for r in folder.glob(f"*-{seed}-*review*") if r.is_dir()), None)
        if rev is not None and (not seeds or seed in seeds):
            out.append((seed, sim, rev))
    return out


def diff(folder: Path, seeds: list[str], slow: float) -> int:
    for seed, sim, rev in kept(folder, seeds):
        game = json.loads((sim / "actions.jsonl").read_text().splitlines()[0]).get("game", "")
        faces = face_names(game)
        truth, got = seen_actions(sim / "actions.jsonl"), seen_actions(rev / "actions.jsonl")
        sm, pairs = match(truth, got, faces)
        print(f"== {seed}: {len(truth)} true actions, {len(got)} reviewed")
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag != "equal":
                for a in truth[i1:i2]:
                    print("  T-", a.get("frame"), json.dumps(a))
                for a in got[j1:j2]:
                    print("  R+", a.get("frame"), json.dumps(a))
        for line in (rev / "events.jsonl").read_text().splitlines():
            e = json.loads(line)
            if e.get("type") == "violation":
                print(f"  called at {e.get('t')} s: {e.get('player')} {e.get('violation')}: {e.get('detail')}")
        fps = json.loads((sim / "truth.json").read_text())["fps"]
        seen, said = in_view_frames(sim / "frames.jsonl"), announced(rev / "events.jsonl", faces)
        for t, g in pairs:
            if "frame" not in t or "frame" not in g or stayed(t):
                continue
            logged, spoken = latencies(t, g, fps, seen, said, faces)
            if max(logged, spoken) > slow:
                print(f"  slow: {json.dumps(t)} logged at frame {g['frame']} ({logged:.2f} s), "
                      f"said {spoken:.2f} s after in view")
    return 0


def trace(game: str, sim: Path, first: int, last: int, labels: str) -> int:
    step = GameSession.step

    def traced(self, frame, t, detections):
        if not first <= frame <= last:
            return step(self, frame, t, detections)
        shown = [f"{d.label}:{d.confidence:.2f}@({d.x:.0f},{d.y:.0f})" for d in detections
                 if fnmatch.fnmatch(d.label, labels)]
        print(f"F{frame} t={t:.2f} detections: {' '.join(shown)}")
        update = self.tracker.update

        def observed(f, dets):
            out = update(f, dets)
            for o in out:
                print(f"   OBS {o}")
            return out

        self.tracker.update = observed
        logged = len(self.adapter.log)
        try:
            events = step(self, frame, t, detections)
        finally:
            del self.tracker.update  # the instance attribute hid the method
        for a in self.adapter.log[logged:]:
            print(f"   LOG {a}")
        for e in events:
            print(f"   EV {e}")
        return events

    GameSession.step = traced
    actions = sim / "actions.jsonl"
    with tempfile.TemporaryDirectory() as out:
        review(game, sim / "video.mp4", out, read_setup(actions), annotate=False, progress=False,
               options=operator_calls(actions), calls=read_calls(actions, game))
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    d = sub.add_parser("diff", help="truth against review for kept videos")
    d.add_argument("folder", type=Path)
    d.add_argument("--seed", action="append", default=[])
    d.add_argument("--slow", type=float, default=0.45, help="list actions logged or said later than this (s)")
    t = sub.add_parser("trace", help="what the referee saw and did, look by look")
    t.add_argument("--game", required=True, choices=["crazy", "crazy-kick", "fodbold"])
    t.add_argument("video_folder", type=Path, help="a simulated video's folder (video.mp4, actions.jsonl)")
    t.add_argument("first", type=int)
    t.add_argument("last", type=int)
    t.add_argument("--labels", default="*", help="show only detections whose label matches this glob")
    a = p.parse_args(argv)
    if a.what == "diff":
        if not a.folder.is_dir():
            p.error(f"{a.folder}: no such folder")
        return diff(a.folder, a.seed, a.slow)
    if not (a.video_folder / "video.mp4").is_file():
        p.error(f"{a.video_folder}: no video.mp4 there")
    return trace(a.game, a.video_folder, a.first, a.last, a.labels)


if __name__ == "__main__":
    sys.exit(main())
