"""Stage 2 alone, in the domain the referee reads: card classifiers on cards of simulated game videos
(1280x720 by default, the camera 1.5-1.7 m above the table, a card about 36 x 50 px), each card warped
upright straight from the video frame through its TRUE corners, as the review warps it. Held-out table
views (``scripts/bench_detector.py``) are rendered closer up (0.8-2.8 px per mm against 0.55 here).

    .venv/bin/python scripts/bench_cls_video.py --deck rook --seeds 6001 6002 [--models A.onnx B.onnx] [--every 5]
    .venv/bin/python scripts/bench_cls_video.py --game crazy-kick --seeds 6005 6006

Crazy Kick cards are read as the referee reads them: both ways up, averaged, and twin goal cards (the same
face but for the small printed id) as one name (``recognize.face_names``).

Videos are made with ``referee simulate`` into ``--keep`` (default /tmp/cls-videos), reused when there.
Prints one row per model: cards read (every ``--every``-th frame), accuracy on faces by visible share and
on backs, and how sure the wrong reads were (a face read wrong at >= 0.75 can become a play in Crazy).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.cardsets import video_cards, warp_card  # noqa: E402
from referee.recognize import (BOTH_WAYS_GAMES, SURE_ONE_WAY, CardClassifier, classifier_path,  # noqa: E402
                               face_names)
from referee.recognize import both_ways as read_both_ways  # noqa: E402

BINS = ((0.9, 1.01), (0.5, 0.9))


def video_crops(folder: Path, every: int, size: int, min_visible: float = 0.5):
    """(crops, labels, visible) of every card at least ``min_visible`` in view, every ``every``-th frame."""
    crops, labels, vis = [], [], []
    for _, frame, _, c in video_cards(folder, every):
        if c["visible_fraction"] >= min_visible:
            crops.append(warp_card(frame, c["corners"], size))
            labels.append(c["class"])
            vis.append(c["visible_fraction"])
    return crops, labels, np.array(vis)


def ensure_video(keep: Path, game: str, deck: str, seed: int, seconds: float, width: int, height: int) -> Path:
    from referee.render.video import simulate

    name = f"crazy-{deck}" if game == "crazy" else game
    out = keep / f"{name}-{seed}-{seconds:g}s-{width}x{height}"
    if not (out / "frames.jsonl").is_file():
        simulate(game, seed, out, seconds=seconds, deck=deck if game == "crazy" else "rook", width=width,
                 height=height, progress=False)
    return out


def read(clf: CardClassifier, crops: list, both_ways: bool, sure: float = SURE_ONE_WAY) -> np.ndarray:
    """Probabilities as the recogniser reads cards: in batches, averaged with each crop turned 180 degrees
    for a game whose cards lie either way up (where one way reads it less surely than ``sure``)."""
    out = []
    for i in range(0, len(crops), 256):
        batch = crops[i:i + 256]
        out.append(read_both_ways(clf.probabilities, batch, sure) if both_ways else clf.probabilities(batch))
    return np.concatenate(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="crazy", choices=["crazy", "crazy-kick"])
    p.add_argument("--deck", default="rook", choices=["rook", "standard"], help="crazy's deck (default rook)")
    p.add_argument("--seeds", type=int, nargs="+", default=[6001, 6002])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--every", type=int, default=5, help="read every n-th frame (default 5)")
    p.add_argument("--models", nargs="*", help="classifier files (default: the shipped one)")
    p.add_argument("--keep", default="/tmp/cls-videos")
    p.add_argument("--both-ways", choices=["auto", "on", "off"], default="auto",
                   help="also read each card turned 180 degrees and average (auto: as the recogniser does, "
                        "recognize.BOTH_WAYS_GAMES)")
    p.add_argument("--one-way-sure", type=float, default=SURE_ONE_WAY,
                   help="a card read at least this surely one way up is not read the other way "
                        f"(default {SURE_ONE_WAY}, as the recogniser; above 1: every card both ways)")
    args = p.parse_args(argv)
    two = args.game in BOTH_WAYS_GAMES if args.both_ways == "auto" else args.both_ways == "on"
    width, height = (int(v) for v in args.size.split("x"))
    deck = args.deck if args.game == "crazy" else args.game
    models = args.models or [str(classifier_path(args.game, deck))]
    folders = [ensure_video(Path(args.keep), args.game, deck, s, args.seconds, width, height) for s in args.seeds]
    faces = face_names(args.game)
    data = {}
    for m in models:
        clf = CardClassifier(m, faces=faces)
        if clf.imgsz not in data:
            per = [video_crops(f, args.every, clf.imgsz) for f in folders]
            data[clf.imgsz] = ([c for x in per for c in x[0]], [c for x in per for c in x[1]],
                               np.concatenate([x[2] for x in per]))
        crops, labels, vis = data[clf.imgsz]
        p_all = read(clf, crops, two, args.one_way_sure)
        names = np.array(clf.names)[p_all.argmax(1)]
        conf = p_all.max(1)
        labels_a = np.array([faces.get(n, n) for n in labels])
        right = names == labels_a
        face = labels_a != "back"
        cells = []
        for lo, hi in BINS:
            sel = face & (vis >= lo) & (vis < hi)
            cells.append(f"{right[sel].mean():.4f} ({int(sel.sum())})" if sel.any() else "-")
        cells.append(f"{right[~face].mean():.4f} ({int((~face).sum())})" if (~face).any() else "-")
        sure_wrong = int((~right & (conf >= 0.75) & face).sum())
        print(f"| {m} | {len(labels)} | {' | '.join(cells)} | {int((~right & face).sum())} | {sure_wrong} | "
              f"{int((~right & ~face & (conf >= 0.75)).sum())} | {np.median(conf[right]):.3f} |")
    print("\n| model | cards read | faces visible >= 0.9: accuracy (n) | faces visible 0.5-0.9 | backs (face down) | "
          "faces read wrong | of them at >= 0.75 | backs read as a face at >= 0.75 | median confidence when right |"
          "  (rows above)")
    print(f"{args.game} seeds {args.seeds}, {args.size}, every {args.every}th frame, {deck} deck"
          f"{', read both ways up' if two else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
