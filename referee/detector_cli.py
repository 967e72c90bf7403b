"""`referee export` and `referee detect`: the detector's commands (heavy imports inside them)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"


def default_model(game: str, deck: str | None = None) -> Path:
    """models/<game>[-<deck>].pt (the .onnx beside it is used when present)."""
    name = game if not deck else f"{game}-{deck}"
    return MODELS_DIR / f"{name}.pt"


def _export(args) -> int:
    from .detector import DetectorError, export_onnx

    try:
        out = export_onnx(args.weights, imgsz=args.imgsz)
    except DetectorError as e:
        print(f"referee export: {e}", file=sys.stderr)
        return 2
    print(out)
    return 0


def _detect(args) -> int:
    from .detector import DetectorError, load_detector

    model = Path(args.model) if args.model else default_model(args.game, args.deck)
    if not args.model and not model.is_file():
        from .recognize import detect_command  # the game's two-stage recogniser (referee.recognize.stage2_paths)

        return detect_command(args)
    try:
        detector = load_detector(model, backend=args.backend, conf=args.conf)
    except DetectorError as e:
        hint = "" if args.model else f" (train one with `referee train --game {args.game}` or pass --model)"
        print(f"referee detect: {e}{hint}", file=sys.stderr)
        return 2

    def one(image):
        d = detector.detect(image)
        counts = ", ".join(f"{label} {s:.2f}" for label, s in zip(d.labels, d.confidence))
        return {"detections": d.to_json()}, draw(image, d), f"{len(d)} detections{': ' + counts if counts else ''}"

    return detect_images(args, one)


def detect_images(args, one) -> int:
    """The loop of `referee detect`: ``one(image) -> (json, drawn image, summary line)`` per image;
    an unreadable image is skipped and said, JSON and annotated images on request."""
    import cv2

    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    results, failed = [], 0
    for name in args.images:
        image = cv2.imread(name)
        if image is None:
            print(f"referee detect: {name}: not a readable image; skipped", file=sys.stderr)
            failed += 1
            continue
        record, drawn, summary = one(image)
        results.append({"image": name, **record})
        if save:
            cv2.imwrite(str(save / Path(name).name), drawn)
        if not args.json:
            print(f"{name}: {summary}")
    if args.json:
        print(json.dumps(results, indent=2))
    return 1 if failed and not results else 0


def draw(image, d):
    """Boxes and labels on a copy of the image."""
    import cv2

    out = image.copy()
    for (x1, y1, x2, y2), label, s in zip(d.xyxy.astype(int), d.labels, d.confidence):
        cv2.rectangle(out, (x1, y1), (x2, y2), (0, 220, 255), 2)
        cv2.putText(out, f"{label} {s:.2f}", (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 220, 255), 1,
                    cv2.LINE_AA)
    return out


def register(sub) -> None:
    e = sub.add_parser("export", help="export detector weights (.pt) to ONNX beside them")
    e.add_argument("weights", help="ultralytics weights, e.g. models/crazy-rook.pt")
    e.add_argument("--imgsz", type=int, help="input size (default: the size it was trained at)")
    e.set_defaults(func=_export)

    d = sub.add_parser("detect", help="run the detector on images")
    d.add_argument("images", nargs="+")
    d.add_argument("--game", default="crazy", choices=["crazy", "crazy-kick", "fodbold"],
                   help="whose shipped recogniser (models/README.md)")
    d.add_argument("--deck", help="deck, for games with several (crazy: rook or standard)")
    d.add_argument("--model", help="a model file instead of the shipped one")
    d.add_argument("--backend", choices=["auto", "int8", "onnx", "torch"], default="auto")
    d.add_argument("--conf", type=float, default=0.25, help="confidence threshold")
    d.add_argument("--json", action="store_true", help="print detections as JSON")
    d.add_argument("--save", metavar="DIR", help="write annotated images here")
    d.set_defaults(func=_detect)
