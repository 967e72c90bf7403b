"""`referee eval --game G --data DIR`: how well a game's recogniser finds and names what is on the table.

DIR is a labelled set of rectified table views, as ``referee dataset build --view table`` writes it (the
JSON sidecars hold every object's corners, name and visible fraction). Both stages run as the referee
runs them (the default ONNX backend), and the figures are:

- **mAP50, mAP50-95 (identity)**: COCO-style average precision over the *named* objects (a card counts
  only when it is found and named right: the class is the card's code, ``back``, a piece's team and
  number, ``ball``), averaged over the classes present, at IoU 0.5 and at IoU 0.50:0.05:0.95. The score
  of a reading is the detector's confidence times the classifier's.
- **mAP50, mAP50-95 (detector)**: the same for stage 1 alone (what it finds, by kind: card, piece, ball).
- **identity accuracy**: of the objects at least ``min_visible`` visible, the share named right among
  those found (IoU >= 0.5), overall and per class; **found** is the share found at all.

Crazy Kick's twin goal cards (the same face but for a small printed id) are scored as one class
(``referee.recognize.face_names``): a camera cannot tell them apart and the rules need not.

Objects under ``min_visible`` are neither required nor counted against: a reading that lands on one is
left out (as COCO's "ignore" regions), since a card under three others cannot be named.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from .cardsets import _quad_iou
from .recognize import face_names

IOU_THRESHOLDS = np.round(np.arange(0.5, 0.96, 0.05), 2)
RECALL_POINTS = np.linspace(0, 1, 101)


class EvalError(ValueError):
    pass


def iou_matrix(preds: list, gts: list) -> np.ndarray:
    """(P, G) IoUs of predicted and true quads; pairs whose axis-aligned extents do not touch are 0."""
    m = np.zeros((len(preds), len(gts)))
    if not preds or not gts:
        return m
    pb = np.array([[q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()] for q in map(np.asarray, preds)])
    gb = np.array([[q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()] for q in map(np.asarray, gts)])
    touch = ((pb[:, None, 0] < gb[None, :, 2]) & (gb[None, :, 0] < pb[:, None, 2])
             & (pb[:, None, 1] < gb[None, :, 3]) & (gb[None, :, 1] < pb[:, None, 3]))
    for i, j in zip(*np.nonzero(touch)):
        m[i, j] = _quad_iou(preds[i], gts[j])
    return m


def match(iou: np.ndarray, scores, threshold: float = 0.5) -> dict[int, int]:
    """Greedy matching, surest reading first: true index -> predicted index."""
    taken: dict[int, int] = {}
    for p in np.argsort(-np.asarray(scores, np.float64), kind="stable"):
        free = [g for g in range(iou.shape[1]) if g not in taken and iou[p, g] >= threshold]
        if free:
            taken[max(free, key=lambda g: iou[p, g])] = int(p)
    return taken


def average_precision(images: list[tuple[list, list]], thresholds=IOU_THRESHOLDS) -> dict:
    """COCO-style AP. ``images``: per image (predictions [(class, score, quad)], truths [(class, quad,
    ignore)]). Returns {"map50", "map", "per_class": {class: (ap50, ap)}}."""
    # every IoU once per image; each class and threshold then works on a slice
    ious = [iou_matrix([q for _, _, q in preds], [q for _, q, _ in truths]) for preds, truths in images]
    classes = sorted({c for _, truths in images for c, _, ign in truths if not ign})
    per_class = {}
    for cls in classes:
        aps = []
        for t in thresholds:
            scored, n_true = [], 0
            for (preds, truths), iou in zip(images, ious):
                pi = [i for i, (c, _, _) in enumerate(preds) if c == cls]
                keep = [j for j, (c, _, ign) in enumerate(truths) if c == cls and not ign]
                ignored = [j for j, (_, _, ign) in enumerate(truths) if ign]
                n_true += len(keep)
                if not pi:
                    continue
                matched = set(match(iou[np.ix_(pi, keep)], [preds[i][1] for i in pi], t).values())
                for k, i in enumerate(pi):
                    if k in matched:
                        scored.append((preds[i][1], 1))
                    elif ignored and iou[i, ignored].max() >= t:
                        continue  # a reading of an object mostly hidden: neither right nor wrong
                    else:
                        scored.append((preds[i][1], 0))
            if not n_true:
                continue
            scored.sort(key=lambda x: -x[0])
            hits = np.array([h for _, h in scored], np.float64)
            if not len(hits):
                aps.append(0.0)
                continue
            tp, fp = np.cumsum(hits), np.cumsum(1 - hits)
            recall, precision = tp / n_true, tp / (tp + fp)
            precision = np.maximum.accumulate(precision[::-1])[::-1]  # the envelope, as COCO
            idx = np.searchsorted(recall, RECALL_POINTS, side="left")
            aps.append(float(np.where(idx < len(recall), precision[np.minimum(idx, len(recall) - 1)], 0.0).mean()))
        per_class[cls] = (aps[0], float(np.mean(aps)))
    if not per_class:
        return {"map50": 0.0, "map": 0.0, "per_class": {}}
    return {"map50": float(np.mean([a for a, _ in per_class.values()])),
            "map": float(np.mean([b for _, b in per_class.values()])), "per_class": per_class}


def truth(meta: dict, kinds: tuple[str, ...]) -> list[tuple[str, str, np.ndarray, float]]:
    """(kind, name, quad clipped to the image, visible fraction) of every labelled object of ``kinds``."""
    from .cardsets import card_label, clip_quad, object_quad

    out = []
    for o in meta["objects"]:
        if o.get("kind") not in kinds or not o.get("labelled"):
            continue
        q = clip_quad(object_quad(o), meta["width"], meta["height"])
        if q is not None:
            out.append((o["kind"], card_label(o) if o["kind"] == "card" else o["class"], q,
                        float(o.get("visible_fraction", 1.0))))
    return out


def evaluate(recognizer, data: str | Path, min_visible: float = 0.5, limit: int | None = None,
             progress: bool = True, faces: dict[str, str] | None = None) -> dict:
    """Run ``recognizer`` (a ``referee.recognize.CardRecognizer``) on every image of a built table-view set.
    ``faces``: class name -> the name it is scored as (``face_names``; default: every name its own)."""
    import cv2
    from tqdm import tqdm

    from .cardsets import sidecars

    data = Path(data)
    faces = faces or {}
    if not (data / "meta").is_dir():
        raise EvalError(f"{data}: no meta/ folder of JSON sidecars; make a labelled set with "
                        "`referee dataset build --view table --out DIR`")
    items = [it for split in ("train", "val") for it in sidecars(data, split)][:limit]
    if not items:
        raise EvalError(f"{data}: no labelled images in meta/train or meta/val")
    kinds = tuple(recognizer.detector.names)
    named, detected = [], []
    per_class = defaultdict(lambda: [0, 0, 0])  # class -> [objects, found, named right]
    for image_path, meta in tqdm(items, desc="eval", unit="img", disable=not progress):
        view = meta.get("view")
        if (view.get("kind") if isinstance(view, dict) else view) != "table":
            raise EvalError(f"{image_path}: a camera picture; the recogniser reads rectified table views "
                            "(`referee dataset build --view table`)")
        image = cv2.imread(str(image_path))
        if image is None:
            raise EvalError(f"{image_path}: not a readable image")
        gts = [(kind, faces.get(name, name), q, vis) for kind, name, q, vis in truth(meta, kinds)]
        cards = recognizer.recognize(image)
        labels = [faces.get(c.label, c.label) for c in cards]
        quads = [c.corners for c in cards]
        named.append(([(label, c.confidence, c.corners) for label, c in zip(labels, cards)],
                      [(name, q, vis < min_visible) for _, name, q, vis in gts]))
        detected.append(([(c.kind, c.detector_confidence, c.corners) for c in cards],
                         [(kind, q, vis < min_visible) for kind, _, q, vis in gts]))
        iou = iou_matrix(quads, [q for _, _, q, _ in gts])
        m = match(iou, [c.confidence for c in cards])
        for g, (_, name, _, vis) in enumerate(gts):
            if vis < min_visible:
                continue
            row = per_class[name]
            row[0] += 1
            if g in m:
                row[1] += 1
                row[2] += labels[m[g]] == name
    ident = average_precision(named)
    det = average_precision(detected)
    n, found, right = (sum(r[i] for r in per_class.values()) for i in range(3))
    return {"data": str(data), "images": len(items), "objects": n, "min_visible": min_visible,
            "map50": ident["map50"], "map50_95": ident["map"],
            "det_map50": det["map50"], "det_map50_95": det["map"],
            "found": found / n if n else 0.0, "identity_accuracy": right / found if found else 0.0,
            "end_to_end": right / n if n else 0.0,
            "per_class": {c: {"objects": r[0], "found": r[1], "right": r[2],
                              "identity_accuracy": r[2] / r[1] if r[1] else None,
                              "ap50": ident["per_class"].get(c, (None, None))[0],
                              "ap": ident["per_class"].get(c, (None, None))[1]}
                          for c, r in sorted(per_class.items())}}


def format_report(game: str, result: dict) -> str:
    r = result
    lines = [f"{game} on {r['data']}: {r['images']} images, {r['objects']} objects at least "
             f"{r['min_visible']:.0%} visible", "",
             "| mAP50 (identity) | mAP50-95 (identity) | mAP50 (detector) | mAP50-95 (detector) | found | "
             "identity accuracy (found) | found and named right |",
             "| --- | --- | --- | --- | --- | --- | --- |",
             f"| {r['map50']:.3f} | {r['map50_95']:.3f} | {r['det_map50']:.3f} | {r['det_map50_95']:.3f} | "
             f"{r['found']:.3f} | {r['identity_accuracy']:.3f} | {r['end_to_end']:.3f} |", "",
             "| class | objects | found | named right | identity accuracy | AP50 | AP50-95 |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    for c, row in r["per_class"].items():
        lines.append(f"| {c} | {row['objects']} | {row['found']} | {row['right']} | "
                     f"{fmt(row['identity_accuracy'])} | {fmt(row['ap50'])} | {fmt(row['ap'])} |")
    return "\n".join(lines)


def _cmd(args) -> int:
    from .detector import DetectorError
    from .recognize import MODELS_DIR, CardRecognizer

    try:
        rec = CardRecognizer(args.game, args.deck or "rook", backend=args.backend, conf=args.conf,
                             models=Path(args.models) if args.models else MODELS_DIR)
    except DetectorError as e:
        print(f"referee eval: {e} (train the models with `referee train --game {args.game}`)", file=sys.stderr)
        return 2
    try:
        result = evaluate(rec, args.data, min_visible=args.min_visible, limit=args.limit, progress=not args.quiet,
                          faces=face_names(args.game))
    except EvalError as e:
        print(f"referee eval: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"game": args.game, "deck": args.deck, **result}, indent=2))
    else:
        print(format_report(args.game, result))
    return 0


def register(sub) -> None:
    e = sub.add_parser("eval", help="mAP and identity accuracy of a game's recogniser on a labelled set",
                       description="Runs both stages (detector, classifier) on every image of a labelled set of "
                                   "rectified table views (`referee dataset build --view table`) and prints "
                                   "mAP50 and mAP50-95 (of the named objects, and of the detector alone) and the "
                                   "identity accuracy per class.")
    e.add_argument("--game", required=True, choices=["crazy", "crazy-kick", "fodbold"])
    e.add_argument("--data", required=True, help="the labelled set (a folder `referee dataset build` wrote)")
    e.add_argument("--deck", choices=["rook", "standard"], help="crazy: the deck (default rook)")
    e.add_argument("--backend", choices=["auto", "int8", "onnx", "torch"], default="auto")
    e.add_argument("--conf", type=float, default=0.05,
                   help="detector confidence floor (default 0.05: AP needs the low-confidence readings too)")
    e.add_argument("--min-visible", type=float, default=0.5,
                   help="objects at least this visible are counted (default 0.5)")
    e.add_argument("--models",
                   help="the folder the game's model files are read from (default: the shipped models/)")
    e.add_argument("--limit", type=int, help="only the first N images")
    e.add_argument("--json", action="store_true", help="the figures as JSON")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    e.set_defaults(func=_cmd)
