"""Benchmark of the two-stage card recognizer on held-out synthetic table views, and (--real) on real photos.

    .venv/bin/python scripts/bench_detector.py [--decks rook standard] [--images 100] [--seed 1001]
                                               [--style-seed 777] [--frames 50] [--real]

The test scenes are rendered with another seed and card designs (--style-seed) than any training set
(training uses seed 1 and its own designs). Per deck it prints:

- detector (stage 1): mAP50 and mAP50-95 of the oriented boxes (ultralytics' OBB validation on the .pt),
  and recall / precision at IoU 0.5 of the shipped default backend at its default confidence 0.25;
- classifier (stage 2): top-1 on crops warped through the TRUE corners, cards at least half visible;
- end to end: of the cards at least half visible, the share found (IoU >= 0.5) AND named right; and the
  identity accuracy among the found ones;
- speed: ms per frame (detector, classifier, both) for ONNX Runtime and torch, the largest corner
  difference between the two backends, and plain ultralytics ``YOLO.predict`` on the detector's .pt.

``--real``: sim-to-real on ../shared/data/real-cards (standard cards, rank labels nine..ace, whole-card
axis-aligned boxes): the share of labelled cards the detector finds (box IoU >= 0.5) and the share whose
rank the classifier names right, through both stages; and the rank accuracy of the classifier alone on
each labelled box cut out upright.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from referee.cardsets import card_label, clip_quad, make_obb_set, sidecars, warp_card  # noqa: E402
from referee.recognize import CardRecognizer, classifier_path, detector_path  # noqa: E402

HALF = 0.5


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    from referee.cardsets import _ccw

    a, b = _ccw(np.asarray(a, np.float32)), _ccw(np.asarray(b, np.float32))
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def match(pred_quads, pred_conf, gt_quads, thr=0.5):
    """Greedy matching by confidence: gt index -> pred index."""
    taken, out = set(), {}
    for p in np.argsort(-np.asarray(pred_conf)):
        best, bi = thr, None
        for g, q in enumerate(gt_quads):
            if g in taken:
                continue
            iou = quad_iou(pred_quads[p], q)
            if iou >= best:
                best, bi = iou, g
        if bi is not None:
            taken.add(bi)
            out[bi] = p
    return out


def test_items(src):
    for split in ("train", "val"):
        yield from sidecars(src, split)


def bench_deck(game, deck, src, obb_yaml, frames, both_ways, quarter_turn=True):
    from ultralytics import YOLO

    row = {"deck": deck}
    m = YOLO(str(detector_path(game)))
    r = m.val(data=str(obb_yaml), imgsz=m.overrides.get("imgsz"), batch=8, device="cpu", plots=False,
              verbose=False, workers=0)
    row["mAP50"], row["mAP50-95"] = float(r.results_dict["metrics/mAP50(B)"]), float(r.results_dict["metrics/mAP50-95(B)"])

    recs = {b: CardRecognizer(game, deck, backend=b, both_ways=both_ways, quarter_turn=quarter_turn)
            for b in ("onnx", "torch")}
    rec = recs["onnx"]
    tp = fp = n_gt = 0
    half_total = half_found = half_right = 0
    cls_right = cls_total = 0
    images = []
    for image_path, meta in test_items(src):
        image = cv2.imread(str(image_path))
        images.append(image)
        w, h = meta["width"], meta["height"]
        gts = [(o, clip_quad(np.array(o["corners"]), w, h)) for o in meta["objects"]
               if o.get("kind") == "card" and o.get("labelled")]
        gts = [(o, q) for o, q in gts if q is not None]
        cards = rec.recognize(image)
        m_ = match([c.corners for c in cards], [c.confidence for c in cards], [q for _, q in gts])
        n_gt += len(gts)
        tp += len(m_)
        fp += len(cards) - len(m_)
        halves = [(g, o) for g, (o, _) in enumerate(gts) if o["visible_fraction"] >= HALF]
        crops, labels = [], []
        for g, o in halves:
            half_total += 1
            if g in m_:
                half_found += 1
                half_right += cards[m_[g]].label == card_label(o)
            crops.append(warp_card(image, np.array(o["corners"]), rec.classifier.imgsz))
            labels.append(card_label(o))
        if crops:
            p = rec.classifier.probabilities(crops)
            if both_ways:
                p = (p + rec.classifier.probabilities([c[::-1, ::-1] for c in crops])) / 2
            cls_right += sum(rec.classifier.names[i] == lab for i, lab in zip(p.argmax(axis=1), labels))
            cls_total += len(crops)
    row.update(recall=tp / max(n_gt, 1), precision=tp / max(tp + fp, 1), cls_top1=cls_right / max(cls_total, 1),
               e2e=half_right / max(half_total, 1), id_acc=half_right / max(half_found, 1),
               n_images=len(images), n_cards=n_gt, n_half=half_total)

    # speed and agreement, on the same frames for each backend
    frames_ = (images * (frames // max(len(images), 1) + 1))[:frames]
    diff = 0.0
    for image in frames_[:10]:
        a, b = recs["onnx"].recognize(image), recs["torch"].recognize(image)
        if len(a) != len(b) or [c.label for c in a] != [c.label for c in b]:
            diff = float("inf")
        elif a:
            diff = max(diff, float(np.abs(np.stack([c.corners for c in a]) - np.stack([c.corners for c in b])).max()))
    row["backend_max_corner_diff_px"] = diff
    for name, r_ in recs.items():
        r_.recognize(frames_[0])
        t0 = time.perf_counter()
        for image in frames_:
            r_.detector.detect(image)
        t_det = time.perf_counter() - t0
        t0 = time.perf_counter()
        for image in frames_:
            r_.recognize(image)
        t_all = time.perf_counter() - t0
        row[f"{name}_det_ms"] = 1000 * t_det / len(frames_)
        row[f"{name}_cls_ms"] = 1000 * max(t_all - t_det, 0.0) / len(frames_)  # warping + classifying
    m.predict(frames_[0], imgsz=m.overrides.get("imgsz"), device="cpu", verbose=False)
    t0 = time.perf_counter()
    for image in frames_:
        m.predict(image, imgsz=m.overrides.get("imgsz"), device="cpu", verbose=False)
    row["ultralytics_predict_det_ms"] = 1000 * (time.perf_counter() - t0) / len(frames_)
    return row


RANKS = {"nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def bench_real(game, real_dir: Path, scale_to: int, canvas: int = 640):
    """Sim-to-real on labelled real photos of standard cards (rank labels only)."""
    import xml.etree.ElementTree as ET

    rec = CardRecognizer(game, "standard", backend="onnx")
    names = rec.classifier.names
    rank_of = [n[:-1] if n != "back" else "back" for n in names]
    wanted = sorted(set(RANKS.values()))
    restrict = np.array([r in wanted for r in rank_of])
    n = found = right = alone = alone_restricted = 0
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
                found += 1
                right += cards[bi].label[:-1] == rank
            x0, y0, x1, y1 = g
            crop = warp_card(image, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), rec.classifier.imgsz)
            p = rec.classifier.probabilities([crop])[0]
            alone += rank_of[int(p.argmax())] == rank
            alone_restricted += rank_of[int(np.where(restrict, p, -1).argmax())] == rank
    return {"cards": n, "found": found / max(n, 1), "rank_right_e2e": right / max(n, 1),
            "rank_right_among_found": right / max(found, 1), "cls_alone_rank": alone / max(n, 1),
            "cls_alone_rank_6way": alone_restricted / max(n, 1)}


def main(argv=None) -> int:
    from referee.train import ensure_scenes

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="crazy")
    ap.add_argument("--decks", nargs="+", default=["rook", "standard"])
    ap.add_argument("--images", type=int, default=100, help="held-out table views per deck")
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--style-seed", type=int, default=777)
    ap.add_argument("--frames", type=int, default=50, help="frames timed per backend")
    ap.add_argument("--both-ways", action="store_true", help="classify each crop both ways up (slower)")
    ap.add_argument("--no-quarter-turn", action="store_true", help="read each card only the way its box lies")
    ap.add_argument("--real", action="store_true", help="also the sim-to-real check on ../shared/data/real-cards")
    ap.add_argument("--real-dir", default=str(REPO.parent / "shared" / "data" / "real-cards"))
    ap.add_argument("--real-size", type=int, default=320,
                    help="long side the real photos are scaled to, in a 640 x 640 grey frame (default 320: their "
                         "cards then have about the size of cards in a table view)")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: its default)")
    args = ap.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    missing = [p for p in [detector_path(args.game)] + [classifier_path(args.game, d) for d in args.decks]
               if not p.is_file()]
    if missing:
        print(f"missing models: {', '.join(map(str, missing))}; train them with `referee train --game {args.game}`",
              file=sys.stderr)
        return 2
    rows = []
    for deck in args.decks:
        src, _ = ensure_scenes(args.game, deck, args.images, args.seed, style_seed=args.style_seed, val=0.0)
        obb = make_obb_set([src], REPO / "datasets" / f"bench-{src.name}-obb", test=True)
        rows.append(bench_deck(args.game, deck, src, obb, args.frames, args.both_ways, not args.no_quarter_turn))
        print(rows[-1], file=sys.stderr)
    print(f"\nHeld-out synthetic table views (seed {args.seed}, card designs from style seed {args.style_seed}, "
          f"{args.images} images per deck), this machine's CPU:\n")
    print("| deck | images / cards (half visible) | det mAP50 | det mAP50-95 | det recall | det precision "
          "| cls top-1 (true corners) | end-to-end right | identity acc. (found) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['deck']} | {r['n_images']} / {r['n_cards']} ({r['n_half']}) | {r['mAP50']:.3f} | "
              f"{r['mAP50-95']:.3f} | {r['recall']:.3f} | {r['precision']:.3f} | {r['cls_top1']:.3f} | "
              f"{r['e2e']:.3f} | {r['id_acc']:.3f} |")
    print("\n| deck | ONNX det ms | ONNX cls ms | ONNX total ms (fps) | torch det ms | torch cls ms | torch total ms "
          "(fps) | ultralytics YOLO.predict det ms | max corner diff ONNX vs torch (px) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        o = r["onnx_det_ms"] + r["onnx_cls_ms"]
        t = r["torch_det_ms"] + r["torch_cls_ms"]
        print(f"| {r['deck']} | {r['onnx_det_ms']:.1f} | {r['onnx_cls_ms']:.1f} | {o:.1f} ({1000 / o:.0f}) | "
              f"{r['torch_det_ms']:.1f} | {r['torch_cls_ms']:.1f} | {t:.1f} ({1000 / t:.0f}) | "
              f"{r['ultralytics_predict_det_ms']:.1f} | {r['backend_max_corner_diff_px']:.3f} |")
    if args.real:
        real = bench_real(args.game, Path(args.real_dir), args.real_size)
        print(f"\nSim-to-real, {args.real_dir} ({real['cards']} labelled cards, photos scaled to "
              f"{args.real_size} px long side in a 640 px frame), standard-deck models trained on synthetic images only:\n")
        print("| cards found (IoU >= 0.5) | rank right, both stages | rank right among found | "
              "classifier alone on the labelled box: rank right | same, argmax over the 6 labelled ranks |")
        print("| --- | --- | --- | --- | --- |")
        print(f"| {real['found']:.3f} | {real['rank_right_e2e']:.3f} | {real['rank_right_among_found']:.3f} | "
              f"{real['cls_alone_rank']:.3f} | {real['cls_alone_rank_6way']:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
