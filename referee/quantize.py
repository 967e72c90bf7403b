"""INT8 detectors for the CPU: ONNX Runtime's static quantisation of a shipped detector export.

    referee quantize --game G [--deck D] [--images 40] [--seed 4242]

writes ``models/NAME.int8.onnx`` beside ``NAME.onnx`` with a model card ``NAME.int8.md``. The recogniser's
``auto`` backend takes the INT8 file when it is there (``recognize._engine``); ``--backend onnx`` keeps the
float export, whose output equals the .pt weights'.

Why: the detector is most of each look's time on a 2-core CPU (profile of a Crazy review, session 5:
detector 0.10 s of 0.13 s a look under load). Calibration uses rendered table views of a seed of its own
(never the held-out seed 1001 the benchmark tests on), letterboxed as at run time.

Shipped for Crazy and Crazy Kick only, by measurement (session 5; held-out named mAP50-95 INT8 / float,
detector fps INT8 / float, then `scripts/bench_referee.py` seeds 9001-9002): Crazy 0.753 / 0.731, 33.4 /
23.1 fps, review 1.4x real time (float: 1.0x in session 4, 1.2-1.3x in session 5 with other work
running), 24 of 24 plays; Crazy Kick 0.643 / 0.668, 11.2 / 8.0 fps, 0.5x -> 0.6x, 19 of 19. Fodbold:
0.546 / 0.532 but only 8.8 / 7.5 fps, and its review made one false call that the float detector does not
make: not shipped (`referee quantize --game fodbold` still makes it).

Settings, each measured on the Crazy detector (held-out rook views, `scripts/bench_detector.py`):
- QDQ, weights per channel (int8), activations per tensor (uint8), min-max calibration (99.99th
  percentile calibration measured the same and fails on a tensor with no spread);
- ``reduce_range``: 7-bit weights. This CPU has AVX2 without VNNI, where ONNX Runtime's u8 x s8 products
  can saturate: without it named mAP50-95 fell from 0.73 to 0.43; with it it stays at 0.74-0.75;
- the head's decoding stays in float (the DFL, box and angle decoding and the concatenation of boxes,
  scores and angle into one output): one int8 scale cannot hold pixels and probabilities at once
  (everything quantised: mAP 0). The head's convolutions are quantised except each branch's last one.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

CALIBRATION_SEED = 4242  # rendered views for calibration only: not training (seed 1), not the test (1001)
HEAD_CONVS = ("/cv2", "/cv3", "/cv4")  # ultralytics' box, class and angle branches of the OBB head


class QuantizeError(ValueError):
    pass


def head_nodes_to_keep_float(model, head: str) -> list[str]:
    """Names of the head's nodes that stay float: all but its branches' inner layers (each branch's last
    convolution, ``....2/Conv``, stays float too)."""
    out = []
    for node in model.graph.node:
        rest = node.name[len(head):] if node.name.startswith(head + "/") else None
        if rest is not None and not (rest.startswith(HEAD_CONVS) and not rest.endswith(".2/Conv")):
            out.append(node.name)
    return out


def detection_head(model) -> str:
    """The prefix of the last ultralytics module (the head), e.g. ``/model.23``."""
    prefixes = [n.name.split("/")[1] for n in model.graph.node if n.name.startswith("/model.")]
    if not prefixes:
        raise QuantizeError("not an ultralytics export: no /model.N/ nodes")
    return "/" + max(prefixes, key=lambda p: int(p.split(".")[1]))


def quantize_detector(src: Path, out: Path, views: list[np.ndarray], imgsz: int) -> Path:
    """Quantise the float ONNX detector ``src`` to ``out`` (INT8 QDQ), calibrated on ``views`` (BGR)."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, \
        quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from .detector import letterbox

    if not views:
        raise QuantizeError("no calibration views")
    src, out = Path(src), Path(out)
    model = onnx.load(str(src))
    input_name = model.graph.input[0].name
    keep_float = head_nodes_to_keep_float(model, detection_head(model))

    class Views(CalibrationDataReader):
        def __init__(self):
            self._it = iter(views)

        def get_next(self):
            image = next(self._it, None)
            return None if image is None else {input_name: letterbox(image, imgsz)[0]}

    pre = out.with_name(out.stem + ".pre.onnx")
    try:
        # the export has a dynamic input size: the symbolic shape pass cannot finish on it, the rest helps
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(out), Views(), quant_format=QuantFormat.QDQ, per_channel=True,
                        reduce_range=True, weight_type=QuantType.QInt8, activation_type=QuantType.QUInt8,
                        nodes_to_exclude=keep_float, calibrate_method=CalibrationMethod.MinMax)
    finally:
        pre.unlink(missing_ok=True)
    # keep the export's metadata (names, imgsz, task): the loader reads them
    q = onnx.load(str(out))
    del q.metadata_props[:]
    q.metadata_props.extend(model.metadata_props)
    onnx.save(q, str(out))
    return out


def calibration_views(game: str, deck: str, images: int, seed: int) -> list[np.ndarray]:
    import cv2

    from .cardsets import sidecars
    from .train import ensure_scenes

    src, _ = ensure_scenes(game, deck, images, seed, style_seed=seed, val=0.0)
    return [cv2.imread(str(p)) for split in ("train", "val") for p, _ in sidecars(src, split)]


def write_card(path: Path, game: str, deck: str, src: Path, images: int, seed: int, imgsz: int) -> None:
    cmd = f"referee quantize --game {game}" + (f" --deck {deck}" if game == "crazy" else "") + \
        f" --images {images} --seed {seed}"
    path.write_text(f"""# {path.stem.replace('.int8', '')} (INT8)

The detector `{src.name}` quantised to INT8 for the CPU by ONNX Runtime (static, QDQ; weights per channel
with `reduce_range`, activations per tensor; the head's decoding kept in float). See `referee/quantize.py`
for why each setting. The `auto` backend uses this file; `--backend onnx` the float one.

- made by: `{cmd}`
- calibration: {images} rendered table views of the {deck} deck, seed {seed} (neither the training seed
  nor the benchmark's held-out seed 1001), letterboxed to {imgsz} px
- accuracy and speed beside the float export: `.venv/bin/python scripts/bench_detector.py` (README, models/README.md)
""", encoding="utf-8")


def _cmd(args) -> int:
    from .recognize import MODELS_DIR, detector_path

    game = args.game
    deck = args.deck or ("rook" if game == "crazy" else game)
    src = detector_path(game, Path(args.models or MODELS_DIR)).with_suffix(".onnx")
    if not src.is_file():
        print(f"referee quantize: {src}: no such file (train and export the detector first)", file=sys.stderr)
        return 2
    from .recognize import ObbDetector

    imgsz = args.imgsz or ObbDetector(src, backend="onnx").imgsz
    out = src.with_suffix(".int8.onnx")
    views = calibration_views(game, deck, args.images, args.seed)
    try:
        quantize_detector(src, out, views, imgsz)
    except QuantizeError as e:
        print(f"referee quantize: {src}: {e}", file=sys.stderr)
        return 2
    write_card(out.with_suffix("").with_suffix(".int8.md"), game, deck, src, args.images, args.seed, imgsz)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return 0


def register(sub) -> None:
    q = sub.add_parser("quantize", help="an INT8 copy of a game's detector for faster CPU inference")
    q.add_argument("--game", required=True, choices=["crazy", "crazy-kick", "fodbold"])
    q.add_argument("--deck", choices=["rook", "standard"], help="crazy: the deck whose views calibrate (default rook)")
    q.add_argument("--images", type=int, default=40, help="rendered views to calibrate on")
    q.add_argument("--seed", type=int, default=CALIBRATION_SEED)
    q.add_argument("--imgsz", type=int, help="input size to calibrate at (default: the export's)")
    q.add_argument("--models", help="the models folder (default: the shipped one)")
    q.set_defaults(func=_cmd)
