"""Benchmark of each game's recogniser on held-out synthetic table views, its speed on the frames of a
simulated game, and (--real) the Crazy standard-deck models on real photos.

    .venv/bin/python scripts/bench_detector.py [--games crazy crazy-kick fodbold] [--images 100]
                                               [--seed 1001] [--style-seed 777] [--speed-frames 200] [--real]

Accuracy (``referee.evaluate``, what `referee eval` prints): the test scenes are rendered with another seed
and card designs (--style-seed) than any training set (training uses seed 1 and its own designs). Per
game and deck: mAP50 and mAP50-95 of the named objects (found AND named right; score = detector x
classifier confidence) and of the detector alone, the share of objects at least half visible that are
found, the identity accuracy among those found, and stage 2 alone on crops through the TRUE corners.
Crazy Kick's twin goal cards (the same face but for a small printed id) count as one name.

Speed, side by side on the same frames: a short game is simulated at 1280x720 (seed 9500, or the next whose
camera sees all four markers; never used in training), the table is calibrated from its markers, and each of ``--speed-frames`` frames is
rectified to the view the referee looks at (``referee.review.ModelPerception``). On those views:
plain ultralytics ``YOLO.predict`` on the detector's .pt, the project's default backend (ONNX Runtime)
for the detector alone, and the whole perception step the referee runs per frame (rectify, detect,
classify) on every frame in order as the live loop does, reading each view whole and re-reading only what
changed (``referee.incremental``, the default), in frames per second.

``--real``: sim-to-real on ../shared/data/real-cards (standard cards, rank labels nine..ace, whole-card
axis-aligned boxes): the share of labelled cards the detector finds (box IoU >= 0.5) and the share whose
rank the classifier names right, through both stages; and the rank accuracy of the classifier alone on
each labelled box cut out upright.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from referee.cardsets import card_label, object_crop, object_quad, sidecars, warp_card  # noqa: E402
from referee.evaluate import evaluate  # noqa: E402
from referee.recognize import CardRecognizer, ObbDetector, detector_path, face_names, stage2_paths  # noqa: E402

HALF = 0.5
SPEED_SEEDS = (9500, 9501, 9502, 9503)
DECKS = {"crazy": ["rook", "standard"], "crazy-kick": ["crazy-kick"], "fodbold": ["fodbold"]}


def stage2_alone(rec: CardRecognizer, src: Path, faces: dict[str, str]) -> dict[str, float]:
    """Top-1 of each classifier on the objects at least half visible, cut out through their TRUE corners
    (``faces``: twin faces count as one name, as in ``evaluate``)."""
    right, total = {}, {}
    for image_path, meta in [it for split in ("train", "val") for it in sidecars(src, split)]:
        image = None
        by_kind: dict[str, tuple[list, list]] = {}
        for o in meta["objects"]:
            kind = o.get("kind")
            if kind not in rec.stage2 or not o.get("labelled") or o.get("visible_fraction", 1.0) < HALF:
                continue
            if image is None:
                image = cv2.imread(str(image_path))
            crops, labels = by_kind.setdefault(kind, ([], []))
            crops.append(object_crop(kind, image, object_quad(o), rec.stage2[kind].imgsz))
            labels.append(card_label(o) if kind == "card" else o["class"])
        for kind, (crops, labels) in by_kind.items():
            names = rec.stage2[kind].names
            p = rec.probabilities(crops, kind)  # as the recogniser reads them (a piece at several turns)
            right[kind] = right.get(kind, 0) + sum(faces.get(names[i], names[i]) == faces.get(lab, lab)
                                                   for i, lab in zip(p.argmax(axis=1), labels))
            total[kind] = total.get(kind, 0) + len(crops)
    return {k: right[k] / total[k] for k in total}


def speed_views(game: str, deck: str, frames: int, work: Path):
    """``frames`` camera frames of a simulated game (1280x720) and the perception that rectifies them."""
    from referee.calibration.layouts import load_layout
    from referee.render.video import simulate
    from referee.review import ModelPerception, ReviewError, find_table
    from referee.sources import VideoSource

    layout = (load_layout(game, players=4) if game == "crazy" else
              load_layout(game, teams=(2, 2)) if game == "crazy-kick" else load_layout(game))
    for seed in SPEED_SEEDS:  # a simulated camera may cut a corner marker off: then the next seed
        out = work / f"{game}-speed-{seed}"
        simulate(game, seed=seed, out=out, seconds=frames / 30 + 4, deck=deck, width=1280, height=720,
                 progress=False)
        try:
            mapper = find_table(VideoSource(out / "video.mp4"), None, layout)
            break
        except ReviewError as e:
            print(f"seed {seed}: {e}", file=sys.stderr)
    else:
        raise SystemExit(f"no simulated {game} video with all four markers in view (seeds {SPEED_SEEDS})")
    perception = ModelPerception(game, deck)
    perception.attach(mapper)
    images = [f for f in VideoSource(out / "video.mp4")][-frames:]
    return images, perception


def bench_speed(game: str, deck: str, frames: int, work: Path) -> dict:
    from ultralytics import YOLO

    from referee.review import ModelPerception

    images, perception = speed_views(game, deck, frames, work)
    rec = perception.recognizer
    views = [perception.mapper.rectify(f.image, mm_per_px=perception.mm_per_px, bounds=perception.bounds)
             for f in images]
    imgsz = rec.detector.imgsz
    model = YOLO(str(detector_path(game)))
    model.predict(views[0], imgsz=imgsz, device="cpu", verbose=False)
    t0 = time.perf_counter()
    for v in views:
        model.predict(v, imgsz=imgsz, device="cpu", verbose=False)
    t_yolo = (time.perf_counter() - t0) / len(views)

    def time_detector(detector) -> float:
        detector.detect(views[0])
        t0 = time.perf_counter()
        for v in views:
            detector.detect(v)
        return (time.perf_counter() - t0) / len(views)

    t_det = time_detector(rec.detector)
    # the float ONNX export beside the default (INT8 when `referee quantize` made one)
    t_float = time_detector(ObbDetector(detector_path(game), backend="onnx", imgsz=imgsz))
    def time_step(perception) -> tuple[float, int]:
        t0, seen = time.perf_counter(), 0
        for f in images:
            seen += len(perception.perceive(f))
        return (time.perf_counter() - t0) / len(images), seen

    # every frame in order, as the live loop sees them: reading only what changed (the default), and whole
    t_all, seen = time_step(perception)
    whole = ModelPerception(game, deck, incremental=False)
    whole.attach(perception.mapper)
    t_whole, _ = time_step(whole)
    h, w = views[0].shape[:2]
    return {"frames": len(views), "view": f"{w}x{h}", "imgsz": imgsz, "yolo_ms": 1000 * t_yolo,
            "det_ms": 1000 * t_det, "float_ms": 1000 * t_float, "all_ms": 1000 * t_all,
            "whole_ms": 1000 * t_whole,
            "objects_per_frame": seen / len(images),
            "backend": rec.detector.backend}


RANKS = {"nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def bench_real(game, real_dir: Path, scale_to: int, canvas: int = 640, classifier: str | None = None,
               detector: str | None = None):
    """Sim-to-real on labelled real photos of standard cards (rank labels only). ``classifier``,
    ``detector``: another stage-2 or stage-1 file in place of the shipped one (to compare a candidate
    before it ships)."""
    import collections
    import xml.etree.ElementTree as ET

    if not any(real_dir.glob("*.xml")):  # a table of zeros would read as a measurement
        raise SystemExit(f"--real: no labelled photos (*.xml beside the images) in {real_dir}; "
                         "point --real-dir at ../shared/data/real-cards")
    rec = CardRecognizer(game, "standard", backend="onnx", classifier=classifier, detector=detector)
    names = rec.classifier.names
    rank_of = [n[:-1] if n != "back" else "back" for n in names]
    wanted = sorted(set(RANKS.values()))
    restrict = np.array([r in wanted for r in rank_of])
    n = found = right = alone = alone_restricted = 0
    confusion = collections.Counter()  # (true rank, what both stages named it: a rank, back or missed)
    for xml in sorted(real_dir.glob("*.xml")):
        root = ET.parse(xml).getroot()
        image = cv2.imread(str(xml.with_name(root.findtext("filename"))))
        if image is None:
            continue
        # the photo is scaled so its long side is scale_to px and set in a canvas x canvas grey frame: its
        # cards then get about the pixels they have in a 640 px table view (54-100 px wide)
        s = scale_to / max(image.shape[:2])
        image = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        h, w = image.shape[:2]
        top, left = (canvas - h) // 2, (canvas - w) // 2
        image = cv2.copyMakeBorder(image, top, canvas - h - top, left, canvas - w - left, cv2.BORDER_CONSTANT,
                                   value=(114, 114, 114))
        cards = rec.recognize(image)
        boxes = [np.concatenate([c.corners.min(axis=0), c.corners.max(axis=0)]) for c in cards]
        for obj in root.iter("object"):
            rank = RANKS.get(obj.findtext("name"))
            if rank is None:
                continue
            bb = obj.find("bndbox")
            g = np.array([float(bb.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax")]) * s + [left, top, left, top]
            n += 1
            best, bi = 0.5, None
            for k, b in enumerate(boxes):
                ix = max(0.0, min(g[2], b[2]) - max(g[0], b[0])) * max(0.0, min(g[3], b[3]) - max(g[1], b[1]))
                iou = ix / ((g[2] - g[0]) * (g[3] - g[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix)
                if iou >= best:
                    best, bi = iou, k
            if bi is not None:
                named = "back" if cards[bi].label == "back" else cards[bi].label[:-1]
                found += 1
                right += named == rank
                confusion[rank, named] += 1
            else:
                confusion[rank, "missed"] += 1
            x0, y0, x1, y1 = g
            crop = warp_card(image, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), rec.classifier.imgsz)
            p = rec.classifier.probabilities([crop])[0]
            alone += rank_of[int(p.argmax())] == rank
            alone_restricted += rank_of[int(np.where(restrict, p, -1).argmax())] == rank
    return {"cards": n, "found": found / max(n, 1), "rank_right_e2e": right / max(n, 1),
            "rank_right_among_found": right / max(found, 1), "cls_alone_rank": alone / max(n, 1),
            "cls_alone_rank_6way": alone_restricted / max(n, 1), "confusion": confusion}


def main(argv=None) -> int:
    from referee.train import ensure_scenes

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=list(DECKS), choices=list(DECKS))
    ap.add_argument("--decks", nargs="+", default=None, help="Crazy's decks (default rook standard)")
    ap.add_argument("--images", type=int, default=100, help="held-out table views per deck (0: speed only)")
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--style-seed", type=int, default=777)
    ap.add_argument("--speed-frames", type=int, default=200, help="frames of a simulated game timed (0: skip)")
    ap.add_argument("--real", action="store_true", help="also the sim-to-real check on ../shared/data/real-cards")
    ap.add_argument("--real-dir", default=str(REPO.parent / "shared" / "data" / "real-cards"))
    ap.add_argument("--real-classifier", metavar="CLS",
                    help="--real with this stage-2 file (.onnx or .pt) instead of the shipped one")
    ap.add_argument("--real-detector", metavar="DET",
                    help="--real with this stage-1 file (.onnx) instead of the shipped one")
    ap.add_argument("--real-size", type=int, default=320,
                    help="long side the real photos are scaled to, in a 640 x 640 grey frame (default 320: their "
                         "cards then have about the size of cards in a table view)")
    args = ap.parse_args(argv)
    for flag, path in (("--real-classifier", args.real_classifier), ("--real-detector", args.real_detector)):
        if path and not Path(path).is_file():
            ap.error(f"{flag} {path}: no such file")
    rows, speed = [], []
    work = Path(tempfile.mkdtemp(prefix="bench-detector-"))
    for game in args.games:
        decks = args.decks if (game == "crazy" and args.decks) else DECKS[game]
        missing = [p for p in [detector_path(game)] + [q for d in decks for q in stage2_paths(game, d).values()]
                   if not p.is_file()]
        if missing:
            print(f"{game}: missing models {', '.join(p.name for p in missing)}; train them with "
                  f"`referee train --game {game}`", file=sys.stderr)
            continue
        for deck in decks:
            if args.images:  # --images 0: speed only
                src, _ = ensure_scenes(game, deck, args.images, args.seed, style_seed=args.style_seed, val=0.0)
                rec = CardRecognizer(game, deck, conf=0.05)
                faces = face_names(game)
                r = evaluate(rec, src, min_visible=HALF, progress=False, faces=faces)
                rows.append({"game": game, "deck": deck, **r, "stage2": stage2_alone(rec, src, faces)})
                print(f"{game}/{deck}: mAP50-95 {r['map50_95']:.3f}", file=sys.stderr)
            if args.speed_frames:
                speed.append({"game": game, "deck": deck, **bench_speed(game, deck, args.speed_frames, work)})
    if rows:
        print(f"\nHeld-out synthetic table views (seed {args.seed}, card designs from style seed {args.style_seed}, "
              f"{args.images} images per deck; objects at least half visible), this machine's CPU:\n")
        print("| game / deck | objects | mAP50 | mAP50-95 | detector mAP50 | detector mAP50-95 | found | "
              "identity acc. (found) | found and named right | stage 2 alone, true corners |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for r in rows:
            alone = ", ".join(f"{k} {v:.3f}" for k, v in r["stage2"].items())
            print(f"| {r['game']} / {r['deck']} | {r['objects']} | {r['map50']:.3f} | {r['map50_95']:.3f} | "
                  f"{r['det_map50']:.3f} | {r['det_map50_95']:.3f} | {r['found']:.3f} | {r['identity_accuracy']:.3f} | "
                  f"{r['end_to_end']:.3f} | {alone} |")
    if speed:
        print("\nSpeed on the same frames of a simulated game (1280x720 camera, seed 9500 or the next with all markers in view), each rectified to "
              "the view the referee reads:\n")
        print("| game / deck | frames | view (px) | detector input | ultralytics YOLO.predict (.pt), fps | "
              "float ONNX, detector, fps | default backend, detector, fps | ratio to ultralytics | whole perception "
              "step (rectify, detect, classify) reading every view whole, fps | the same re-reading only what "
              "changed (the default), fps | objects per frame |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for s in speed:
            print(f"| {s['game']} / {s['deck']} | {s['frames']} | {s['view']} | {s['imgsz']} | "
                  f"{1000 / s['yolo_ms']:.1f} | {1000 / s['float_ms']:.1f} | "
                  f"{1000 / s['det_ms']:.1f} ({s['backend']}) | "
                  f"{s['yolo_ms'] / s['det_ms']:.1f}x | {1000 / s['whole_ms']:.1f} | {1000 / s['all_ms']:.1f} | "
                  f"{s['objects_per_frame']:.1f} |")
    if args.real and "crazy" in args.games:
        real = bench_real("crazy", Path(args.real_dir), args.real_size, classifier=args.real_classifier,
                          detector=args.real_detector)
        print(f"\nSim-to-real, {args.real_dir} ({real['cards']} labelled cards, photos scaled to "
              f"{args.real_size} px long side in a 640 px frame), standard-deck models trained on synthetic images only:\n")
        print("| cards found (IoU >= 0.5) | rank right, both stages | rank right among found | "
              "classifier alone on the labelled box: rank right | same, argmax over the 6 labelled ranks |")
        print("| --- | --- | --- | --- | --- |")
        print(f"| {real['found']:.3f} | {real['rank_right_e2e']:.3f} | {real['rank_right_among_found']:.3f} | "
              f"{real['cls_alone_rank']:.3f} | {real['cls_alone_rank_6way']:.3f} |")
        conf = real["confusion"]
        ranks = list(RANKS.values())
        others = [r for r in dict.fromkeys(k[1] for k in conf) if r not in (*ranks, "back", "missed")]
        cols = ranks + ["back"] + sorted(others) + ["missed"]
        print("\nBy rank (rows: the true rank; columns: what both stages named it):\n")
        print("| rank | " + " | ".join(cols) + " | right of found |")
        print("| --- " * (len(cols) + 2) + "|")
        for r in ranks:
            got = sum(conf[r, c] for c in cols if c != "missed")
            print(f"| {r} | " + " | ".join(str(conf[r, c]) for c in cols) + f" | {conf[r, r]}/{got} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
