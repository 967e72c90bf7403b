"""`referee train`: train a game's two-stage recognizer with ultralytics, offline, and ship it with model cards.

Stage 1, the detector: YOLO11n-OBB on the rectified top-down table view (``referee dataset build --view
table``); its oriented boxes give each object's four corners. Crazy and Crazy Kick: the single class
``card`` (one detector serves every deck of a game: it is trained on the views of all of them);
fodbold: ``card``, ``piece`` and ``ball``.
Stage 2, the classifiers: CardNet (``referee.cardnet``; or YOLO11n-cls) on each card warped upright to
one small square through those corners, one per deck (classes: the card codes and ``back``), and for
fodbold also on each piece cut out square (classes: red-1 .. blue-11). ``CLASSIFIERS`` lists them.

Outputs, in ``--out`` (default models/): the detector (crazy-card, crazy-kick-card, fodbold-objects) and the
classifiers (crazy-rook-cls, crazy-standard-cls, crazy-kick-cls, fodbold-card-cls, fodbold-piece-cls), each
as .pt/.onnx/.md, the .md a model card: classes, data recipe and seed, the exact command, epochs, time,
metrics.

Offline by construction: the networks start from a model yaml (``yolo11n-obb.yaml``, ``yolo11n-cls.yaml``)
or from the project's own weights, ultralytics is told it is offline (YOLO_OFFLINE), and plots (which
fetch a font) and the AMP check (which fetches weights) are off. Every run keeps its checkpoints in
runs/train/NAME; ``--resume`` continues an interrupted run from its last.pt.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from . import dataset as ds

os.environ.setdefault("YOLO_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
MODELS_DIR = REPO / "models"
DATASETS_DIR = REPO / "datasets"
RUNS_DIR = REPO / "runs" / "train"
# What each game's recogniser is made of: the decks whose table views are rendered for it, the object
# kinds its detector finds, and its classifiers (key -> the rendered deck it learns from, and whether it
# names cards warped upright or round pieces cut out square).
SCENE_DECKS = {"crazy": ("rook", "standard"), "crazy-kick": ("crazy-kick",), "fodbold": ("fodbold",)}
DETECTOR_KINDS = {"crazy": ("card",), "crazy-kick": ("card",), "fodbold": ("card", "piece", "ball")}
CLASSIFIERS = {"crazy": {"rook": ("rook", "card"), "standard": ("standard", "card")},
               "crazy-kick": {"crazy-kick": ("crazy-kick", "card")},
               "fodbold": {"card": ("fodbold", "card"), "piece": ("fodbold", "piece")}}
DECKS = {game: tuple(c) for game, c in CLASSIFIERS.items()}

# Classifier augmentation: a warped card is already upright and framed, so no flips (a mirrored 7 is not
# a 7), no hue shift (the colour is the Rook card's suit), only a light crop; the crops themselves carry
# corner jitter and 180-degree turns (referee.cardsets).
# The optimizer is set: ultralytics' "auto" picks AdamW at lr 0.002 * 5 / (4 + classes) = 0.00016 for 57
# classes, far too slow from scratch (25 % top-1 after 3 epochs, measured).
CLS_AUGMENT = dict(fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.4, hsv_v=0.4, scale=0.1, erasing=0.2,
                   auto_augment=None, optimizer="AdamW", lr0=0.002, warmup_epochs=1)
# Detector: the table view is already rotated at random; mosaic off for the last epochs.
DET_AUGMENT = dict(degrees=0.0, fliplr=0.5, flipud=0.5, close_mosaic=2)


class TrainError(RuntimeError):
    pass


def detector_name(game: str) -> str:
    return "fodbold-objects" if game == "fodbold" else f"{game}-card"


def classifier_name(game: str, deck: str) -> str:
    return f"{game}-cls" if deck == game else f"{game}-{deck}-cls"


def classifier_classes(game: str, deck: str) -> list[str]:
    """The class names of one classifier: card codes and ``back``, or fodbold's pieces."""
    from .render.faces import BACK, card_classes

    if game == "crazy-kick":
        from .render.kick import kick_classes

        return kick_classes()
    if game == "fodbold":
        from .render.fodbold import fodbold_card_ids, piece_class

        if deck == "piece":
            return [piece_class(t, n) for t in ("red", "blue") for n in range(1, 12)]
        return fodbold_card_ids() + [BACK]
    return card_classes(deck) + [BACK]


def read_data_yaml(path: Path) -> dict:
    import yaml

    if not path.is_file():
        raise TrainError(f"{path}: no such dataset file; build one with `referee dataset build`")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        raise TrainError(f"{path}: not valid YAML ({e})") from None
    for key in ("train", "val", "names"):
        if key not in data:
            raise TrainError(f"{path}: missing '{key}'; expected an ultralytics data.yaml")
    return data


SCENE_STYLES = ds.Recipe.styles  # designs per rendered dataset unless --styles says otherwise


def ensure_scenes(game: str, deck: str, images: int, seed: int, root: Path = DATASETS_DIR,
                  style_seed: int | None = None, val: float = 0.1, workers: int = 1,
                  clutter: float = 0.0, styles: int = SCENE_STYLES) -> tuple[Path, dict]:
    """The rendered table-view dataset of one deck (built when missing). Returns its folder and recipe.
    ``clutter``: share of views on a busy surface with paper clutter (``referee.render.clutter``).
    ``styles``: how many random designs (card faces, fodbold's board and pieces) the views are drawn in."""
    tag = (f"-st{style_seed}" if style_seed is not None else "") + scene_tag(clutter, styles)
    out = root / (f"{game}-table-s{seed}{tag}-n{images}" if deck == game else
                  f"{game}-{deck}-table-s{seed}{tag}-n{images}")
    recipe = ds.Recipe(game=game, deck=deck if game == "crazy" else game, images=images, seed=seed, width=640,
                       height=640, view="table",
                       classes="identity", style_seed=style_seed, val_fraction=val, clutter=clutter,
                       styles=styles)
    if not (out / "data.yaml").is_file():
        print(f"building {out} ({images} table views of the {deck} deck, seed {seed}) ...", file=sys.stderr)
        ds.build(recipe, out, workers=workers)
    return out, {"deck": deck, "images": images, "seed": seed, "style_seed": style_seed, "view": "table",
                 "size": "640x640", **({"clutter": clutter} if clutter else {}),
                 **({"styles": styles} if styles != SCENE_STYLES else {}), "dir": _rel(out)}


def scene_tag(clutter: float, styles: int) -> str:
    """The part of a dataset's folder name that tells its views from the default ones (none for those, so
    folders built before these options keep their names)."""
    return (f"-cl{clutter:g}" if clutter else "") + (f"-sty{styles}" if styles != SCENE_STYLES else "")


VIDEO_SEEDS = 5001        # training videos are simulated from seed 5001 on: the benchmarks use 6001+ and 9001+
VIDEO_SIZE = (1280, 720)  # the size the referee's figures are measured at (scripts/bench_referee.py)


def ensure_videos(game: str, deck: str, count: int, root: Path = DATASETS_DIR, seconds: float = 20.0,
                  workers: int = 1) -> tuple[list[Path], dict]:
    """``count`` simulated game videos (``referee simulate``, seeds VIDEO_SEEDS on) of one deck, made when
    missing. Returns their folders and the recipe."""
    folder = root / (f"{game}-videos" if deck == game else f"{game}-{deck}-videos")
    seeds = list(range(VIDEO_SEEDS, VIDEO_SEEDS + count))
    todo = [s for s in seeds if not (folder / f"seed-{s}" / "frames.jsonl").is_file()]
    if todo:
        print(f"simulating {len(todo)} {game} videos into {folder} ...", file=sys.stderr)
        jobs = [(game, s, str(folder / f"seed-{s}"), seconds, deck) for s in todo]
        if workers > 1:
            import multiprocessing as mp

            with mp.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
                pool.map(_simulate_job, jobs)
        else:
            for job in jobs:
                _simulate_job(job)
    return [folder / f"seed-{s}" for s in seeds], {"videos": count, "seeds": f"{seeds[0]}-{seeds[-1]}",
                                                  "seconds": seconds, "size": "x".join(map(str, VIDEO_SIZE)),
                                                  "dir": _rel(folder)}


def _simulate_job(job) -> None:
    from .render.video import simulate

    game, seed, out, seconds, deck = job
    simulate(game, seed, out, seconds=seconds, deck=deck if game == "crazy" else "rook", width=VIDEO_SIZE[0],
             height=VIDEO_SIZE[1], progress=False)


def train_yolo(data: Path, name: str, task: str, start: str, epochs: int, imgsz: int, device: str, batch: int,
               seed: int, resume: bool = False, project: Path = RUNS_DIR, workers: int = 2, hours: float | None = None,
               **overrides) -> tuple[Path, dict, float]:
    """One ultralytics training run; ``hours`` caps its time (ultralytics then fits the epochs and the
    learning-rate schedule into it). Returns (best.pt, final metrics, minutes)."""
    from ultralytics import YOLO

    run_dir = project / name
    last = run_dir / "weights" / "last.pt"
    t0 = time.time()
    if resume:
        if not last.is_file():
            raise TrainError(f"nothing to resume: {last} does not exist")
        results = YOLO(str(last)).train(resume=True)
    else:
        if start.endswith(".pt") and not Path(start).is_file():
            raise TrainError(f"{start}: no such weights file (start from a model yaml or the project's own .pt)")
        model = YOLO(start, task=task)
        if hours is not None:
            overrides["time"] = hours
        results = model.train(data=str(data), epochs=epochs, imgsz=imgsz, device=device, batch=batch, seed=seed,
                              deterministic=True, workers=workers, project=str(project), name=name, exist_ok=True,
                              plots=False, amp=False, verbose=False, patience=max(10, epochs // 3), **overrides)
    minutes = (time.time() - t0) / 60
    best = run_dir / "weights" / "best.pt"
    if not best.is_file():
        raise TrainError(f"training finished without {best}")
    return best, _metrics(results), minutes


def _metrics(results) -> dict:
    if results is None or not hasattr(results, "results_dict"):
        return {}
    return {k.replace("metrics/", ""): round(float(v), 4) for k, v in results.results_dict.items()
            if k.startswith("metrics/")}


def ship(best: Path, name: str, out_dir: Path, imgsz: int, dynamic: bool) -> list[Path]:
    """Copy best.pt to out_dir/NAME.pt and export NAME.onnx beside it."""
    from .detector import export_onnx

    out_dir.mkdir(parents=True, exist_ok=True)
    pt = out_dir / f"{name}.pt"
    shutil.copy2(best, pt)
    onnx = export_onnx(pt, imgsz=imgsz, task=None, dynamic=dynamic)
    return [pt, onnx]


def write_model_card(path: Path, *, name: str, role: str, start: str, names: list[str], data: str, recipe: list,
                     epochs: int | str, imgsz: int, device: str, minutes: float, metrics: dict, command: str,
                     files: list[Path], seed: int, notes: str = "") -> None:
    lines = [
        f"# Model card: {name}",
        "",
        role,
        "",
        f"- trained: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} on {_device_label(device)}, "
        f"{minutes:.1f} minutes, {epochs} epochs, input {imgsz} px, training seed {seed}",
        f"- command: `{command}`" if command else "- command: (library call)",
        f"- start: `{start}` (no pretrained weights, nothing downloaded)",
        f"- training set: `{data}`, made from these rendered scenes (`referee dataset build`, synthetic only):",
        *[f"  - {json.dumps(r)}" for r in recipe],
        "- files: " + ", ".join(f"`{Path(f).name}` ({Path(f).stat().st_size / 1e6:.1f} MB)" for f in files),
        "",
        f"## Classes ({len(names)})",
        "",
        ", ".join(names),
        "",
        "## Validation metrics (on the training set's own val split: " + (
            "its table views share the training designs; its video cards are of games and designs not trained on)"
            if any("videos" in r for r in recipe) else "same seed and card designs)"),
        "",
        "| metric | value |",
        "| --- | --- |",
        *[f"| {k} | {v} |" for k, v in metrics.items()],
        "",
        "Held-out figures (another seed, unseen card designs) come from `scripts/bench_detector.py`; see "
        "models/README.md. Synthetic images only: a real table may score lower.",
    ]
    if notes:
        lines += ["", notes]
    path.write_text("\n".join(lines) + "\n")


def _device_label(device: str) -> str:
    """'cpu', or the GPU's index with its name (the card should say what it was trained on)."""
    if str(device) == "cpu":
        return "cpu"
    try:
        import torch

        return f"GPU {device} ({torch.cuda.get_device_name(int(device) if str(device).isdigit() else None)})"
    except Exception:
        return f"GPU {device}"


def _epochs_run(run_dir: Path, planned: int) -> int | str:
    """The epochs an ultralytics run really trained (``--hours`` makes it fit its own number)."""
    table = run_dir / "results.csv"
    if not table.is_file():
        return planned
    done = max(0, len(table.read_text().strip().splitlines()) - 1)
    return planned if done == planned else f"{done} (fitted into the --hours limit; planned {planned})"


def _rel(p: Path) -> str:
    p = Path(p).resolve()
    return str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(p)


def train_detector(args, command: str) -> Path:
    from .cardsets import make_obb_set

    name = detector_name(args.game)
    decks = [args.deck] if args.deck and args.game == "crazy" else list(SCENE_DECKS[args.game])
    kinds = DETECTOR_KINDS[args.game]
    scenes = [ensure_scenes(args.game, d, args.images, args.seed, root=Path(args.datasets), workers=args.workers,
                            clutter=args.clutter, styles=args.styles) for d in decks]
    obb_dir = Path(args.datasets) / (f"{name}-obb-s{args.seed}-n{args.images}-{'+'.join(decks)}"
                                     + scene_tag(args.clutter, args.styles))
    data = obb_dir / "data.yaml"
    if not data.is_file():
        print(f"writing the oriented-box set {obb_dir} ...", file=sys.stderr)
        make_obb_set([s for s, _ in scenes], obb_dir, kinds=kinds)
    read_data_yaml(data)
    notes, epochs = "", args.epochs
    if args.ship_only:
        best, metrics, minutes, done = _interrupted_run(Path(args.runs) / name)
        command, epochs = command.replace(" --ship-only", ""), f"{done} of {args.epochs}"
        notes = (f"Training stopped after epoch {done} of {args.epochs} (the time limit of this machine); these are the "
                 f"weights of its best epoch. `{full_command(args).replace(' --ship-only', '')} --resume` continues it.")
    else:
        print(f"training the detector {name}: yolo11n-obb, {args.epochs} epochs at {args.imgsz} px on {args.device}; "
              f"checkpoints in {Path(args.runs) / name}", file=sys.stderr)
        best, metrics, minutes = train_yolo(data, name, "obb", args.start_det, args.epochs, args.imgsz, args.device,
                                            args.batch, args.seed, resume=args.resume, workers=args.workers,
                                            project=Path(args.runs), hours=args.hours,
                                            **DET_AUGMENT)
        epochs = _epochs_run(Path(args.runs) / name, args.epochs)
    # dynamic input size: a larger view of the table runs at a larger size (referee.review.ModelPerception)
    files = ship(best, name, Path(args.out), args.imgsz, dynamic=True)
    write_model_card(Path(args.out) / f"{name}.md", name=name,
                     role=(f"Stage 1 of the recognizer for `{args.game}`: finds every {', '.join(kinds)} (cards "
                           f"face up or down) on the rectified top-down table view and gives its oriented box, "
                           f"whose four corners stage 2 warps upright (a piece: cuts out square). Trained on "
                           f"640x640 table views of 400-750 mm of table (about 0.6-1.2 mm per px)."),
                     start=args.start_det, names=list(kinds), data=_rel(obb_dir),
                     recipe=[r for _, r in scenes], epochs=epochs, imgsz=args.imgsz, device=args.device,
                     minutes=minutes, metrics=metrics, command=command, files=files, seed=args.seed, notes=notes)
    return files[0]


def _interrupted_run(run_dir: Path) -> tuple[Path, dict, float, int]:
    """best.pt of an ultralytics run that was stopped, without its optimizer, and its best epoch's metrics."""
    import csv

    from ultralytics.utils.torch_utils import strip_optimizer

    best, table = run_dir / "weights" / "best.pt", run_dir / "results.csv"
    if not best.is_file() or not table.is_file():
        raise TrainError(f"no run to ship in {run_dir}")
    rows = [{k.strip(): v for k, v in r.items()} for r in csv.DictReader(table.open())]
    top = max(rows, key=lambda r: float(r.get("metrics/mAP50-95(B)", 0)))
    stripped = run_dir / "weights" / "best-stripped.pt"
    shutil.copy2(best, stripped)
    strip_optimizer(str(stripped))
    metrics = {k.replace("metrics/", ""): round(float(v), 4) for k, v in top.items() if k.startswith("metrics/")}
    metrics["best epoch"] = int(float(top["epoch"]))
    return stripped, metrics, float(rows[-1]["time"]) / 60, int(float(rows[-1]["epoch"]))


def train_classifier(args, deck: str, command: str) -> Path:
    from .cardsets import PIECE_SIDE, VIDEO_EVERY, add_detector_crops, add_face_crops, make_crop_set

    name = classifier_name(args.game, deck)
    scene_deck, kind = CLASSIFIERS[args.game][deck]
    scenes, recipe = ensure_scenes(args.game, scene_deck, args.images, args.seed, root=Path(args.datasets),
                                   workers=args.workers, clutter=args.clutter, styles=args.styles)
    classes = classifier_classes(args.game, deck)
    face_styles = args.face_styles if kind == "card" else 0
    crops = Path(args.datasets) / (f"{name}-crops{args.cls_imgsz}-s{args.seed}-n{args.images}-c{args.copies}"
                                   f"-f{face_styles}x{args.face_copies}" + ("-loose" if args.loose_crops else "")
                                   + scene_tag(args.clutter, args.styles)
                                   + (f"-det{Path(args.detector_crops).stem}" if args.detector_crops else "")
                                   + (f"-v{args.videos}" if args.videos else "")
                                   + (f"-lr{args.face_lowres:g}" if args.face_lowres else "")
                                   + (f"-uc{args.face_courts:g}" if args.face_courts else ""))
    if not (crops / "sources.json").is_file():
        print(f"warping the cards of {scenes} into {crops} ...", file=sys.stderr)
        counts = make_crop_set(scenes, crops, classes, size=args.cls_imgsz, copies=args.copies, seed=args.seed,
                               loose=args.loose_crops, kind=kind)
        if face_styles:
            print(f"adding {face_styles} more card designs, {args.face_copies} crops per card ...", file=sys.stderr)
            counts["faces"] = add_face_crops(scene_deck, crops, classes, args.cls_imgsz, styles=face_styles,
                                             per_card=args.face_copies, seed=args.seed, loose=args.loose_crops,
                                             workers=args.workers, lowres=args.face_lowres,
                                             unlike=args.face_courts)
            info = json.loads((crops / "sources.json").read_text())
            (crops / "sources.json").write_text(json.dumps({**info, "face_styles": face_styles,
                                                            "face_crops": counts["faces"],
                                                            "face_lowres": args.face_lowres,
                                                            "face_courts": args.face_courts}, indent=2))
        if args.detector_crops and kind == "card":
            from .recognize import ObbDetector

            print(f"adding crops through the corners {args.detector_crops} finds ...", file=sys.stderr)
            found = add_detector_crops(scenes, crops, classes, args.cls_imgsz, ObbDetector(args.detector_crops),
                                       seed=args.seed)
            info = json.loads((crops / "sources.json").read_text())
            (crops / "sources.json").write_text(json.dumps({**info, "detector_crops": found,
                                                            "detector": str(args.detector_crops)}, indent=2))
        if args.videos and kind == "card":
            from .cardsets import add_video_set

            # made only for a new crop set: a set already made has its video crops in it
            videos, video_recipe = ensure_videos(args.game, scene_deck, args.videos, root=Path(args.datasets),
                                                 workers=args.workers)
            print(f"adding the cards of {len(videos)} simulated game videos ...", file=sys.stderr)
            found, video_recipe["val_crops"], video_recipe["val_videos"] = add_video_set(
                videos, crops, classes, args.cls_imgsz, seed=args.seed)
            video_recipe["every"] = VIDEO_EVERY
            if not found:
                raise TrainError(f"the {len(videos)} videos in {video_recipe['dir']} hold no card of the classes of "
                                 f"{name}; were they simulated for another game?")
            info = json.loads((crops / "sources.json").read_text())
            (crops / "sources.json").write_text(json.dumps({**info, "video_crops": found, "videos": video_recipe},
                                                           indent=2))
    print(f"training the classifier {name}: {args.cls_arch}, {args.cls_epochs} epochs at {args.cls_imgsz} px on "
          f"{args.device}; checkpoints in {Path(args.runs) / name}", file=sys.stderr)
    if args.cls_arch == "cardnet":
        from . import cardnet

        init = None
        if args.start_cls.endswith(".pt"):
            if not cardnet.is_cardnet(args.start_cls):
                raise TrainError(f"{args.start_cls}: not a CardNet file to start from")
            init = Path(args.start_cls)
            # keep the weights we start from: training writes the shipped file again
            if init.resolve().parent == Path(args.out).resolve():
                kept = Path(args.runs) / name / "start.pt"
                kept.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(init, kept)
                init = kept

        try:
            best, metrics, minutes = cardnet.train(crops, Path(args.runs) / name, args.cls_epochs, args.cls_imgsz,
                                                   args.cls_batch, args.seed, resume=args.resume,
                                                   log=lambda m: print(m, file=sys.stderr, flush=True),
                                                   width=args.cls_width, init=init, lr=1e-3 if init else 3e-3,
                                                   device=args.device, hours=args.hours)
        except (FileNotFoundError, ValueError) as e:
            raise TrainError(str(e)) from None
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        if args.cls_ship == "last":
            best = cardnet.strip_checkpoint(best.parent / "last.pt", out / f"{name}.pt")
            metrics["shipped"] = "last epoch"
        else:
            shutil.copy2(best, out / f"{name}.pt")
        files = [out / f"{name}.pt", cardnet.export_onnx(out / f"{name}.pt")]
        start = (f"CardNet (referee/cardnet.py) from {args.start_cls}" if init else
                 "CardNet (referee/cardnet.py), random initialisation")
    else:
        best, metrics, minutes = train_yolo(crops, name, "classify", args.start_cls, args.cls_epochs, args.cls_imgsz,
                                            args.device, args.cls_batch, args.seed, resume=args.resume,
                                            workers=args.workers, project=Path(args.runs), hours=args.hours,
                                            **CLS_AUGMENT)
        files = ship(best, name, Path(args.out), args.cls_imgsz, dynamic=True)
        start = args.start_cls
    counts = json.loads((crops / "sources.json").read_text())
    if kind == "piece":
        role = (f"Stage 2 of the recognizer for `{args.game}`: names a piece (team and number) from a square "
                f"{args.cls_imgsz}x{args.cls_imgsz} px cut out around the box stage 1 found ({PIECE_SIDE} x its long "
                f"side). Crops: {counts['train']} train, {counts['val']} val from the rendered scenes (pieces at "
                f"least {counts['min_visible']:.0%} visible, {counts['copies']} crops per training piece, each "
                f"turned at random, its size off by up to 12 % and its centre by about 5 %).")
    else:
        role = (f"Stage 2 of the card recognizer for `{args.game}` ({deck}): names a card from its crop warped "
                f"upright (either way up) to {args.cls_imgsz}x{args.cls_imgsz} px through the four corners stage 1 "
                f"found. Crops: {counts['train']} train, {counts['val']} val from the rendered scenes (cards at least "
                f"{counts['min_visible']:.0%} visible, corners jittered by {counts['jitter']:.0%} of the card width, "
                f"{counts['copies']} crops per training card), plus {counts.get('face_crops', 0)} training crops of "
                f"faces drawn in {counts.get('face_styles', 0)} further random designs (other cards or a hand over "
                f"a side, light, blur, noise, JPEG" + (
                    f"; {counts['face_lowres']:.0%} of them first shrunk to a card 26-48 px wide, as a camera "
                    f"1.5 m up sees it" if counts.get("face_lowres") else "") + (
                    f"; {counts['face_courts']:.0%} of the designs with court pictures that do not tell the rank "
                    f"(headgear drawn at random, ornaments added): only the corner index tells the rank" if counts.get("face_courts")
                    else "") + ")" + (
                    f", plus {counts['video_crops']} crops of the cards of {counts['videos']['videos']} simulated "
                    f"1280x720 game videos (seeds {counts['videos']['seeds']}, one frame in {counts['videos']['every']}, "
                    f"through the true corners jittered, as the review warps them; the val split also holds the "
                    f"{counts['videos'].get('val_crops', 0)} crops of the last {counts['videos'].get('val_videos', 0)} "
                    f"videos, designs not trained on)" if counts.get("video_crops") else "") + ".")
    write_model_card(Path(args.out) / f"{name}.md", name=name, role=role,
                     start=start, names=classes, data=_rel(crops), recipe=[recipe] + ([counts["videos"]] if counts.get("videos") else []),
                     epochs=(args.cls_epochs if metrics.get("epochs_run", args.cls_epochs) >= args.cls_epochs else
                             f"{metrics['epochs_run']} of {args.cls_epochs} (stopped by the --hours limit)"),
                     imgsz=args.cls_imgsz, device=args.device, minutes=minutes,
                     metrics=metrics, command=command, files=files, seed=args.seed)
    return files[0]


TRAIN_OPTIONS = ("game", "deck", "stage", "images", "seed", "epochs", "imgsz", "batch", "cls_epochs", "cls_imgsz",
                 "cls_batch", "cls_arch", "cls_width", "cls_ship", "clutter", "styles", "copies", "loose_crops", "detector_crops", "face_styles", "face_copies",
                 "face_lowres", "face_courts", "videos", "device", "workers", "hours",
                 "start_det", "start_cls", "ship_only")


def full_command(args) -> str:
    """The training command with every option spelled out (defaults may change; the card must not)."""
    parts = ["referee", "train"]
    skip = {"classify": ("epochs", "imgsz", "batch", "start_det", "ship_only"),
            "detect": ("cls_", "copies", "face_", "videos", "start_cls")}.get(getattr(args, "stage", "all"), ())
    for key in TRAIN_OPTIONS:
        if key.startswith(skip):
            continue
        value = getattr(args, key, None)
        if value is True:
            parts.append(f"--{key.replace('_', '-')}")
        elif value is not None and value is not False:
            parts += [f"--{key.replace('_', '-')}", str(value)]
    return shlex.join(parts)


def _cmd(args) -> int:
    if args.game not in DECKS:
        print(f"referee train: no training recipe for {args.game!r} yet; games with one: {', '.join(DECKS)}",
              file=sys.stderr)
        return 2
    if args.deck and args.deck not in DECKS[args.game]:
        print(f"referee train: {args.game} has no classifier {args.deck!r}; expected {', '.join(DECKS[args.game])}",
              file=sys.stderr)
        return 2
    if not 0.0 <= args.face_courts <= 1.0:
        print(f"referee train: --face-courts is a share of the designs, from 0 to 1, not {args.face_courts}",
              file=sys.stderr)
        return 2
    if args.styles < 1:
        print(f"referee train: --styles must be 1 or more, not {args.styles}", file=sys.stderr)
        return 2
    if not 0.0 <= args.clutter <= 1.0:
        print(f"referee train: --clutter is a share of the table views, from 0 to 1, not {args.clutter}",
              file=sys.stderr)
        return 2
    if not 0.0 <= args.face_lowres <= 1.0:
        print(f"referee train: --face-lowres is a share of the crops, from 0 to 1, not {args.face_lowres}",
              file=sys.stderr)
        return 2
    if args.videos < 0:
        print(f"referee train: --videos must be 0 or more, not {args.videos}", file=sys.stderr)
        return 2
    command = full_command(args)
    try:
        if args.stage in ("all", "detect"):
            print(train_detector(args, command))
        if args.stage in ("all", "classify"):
            for deck in [args.deck] if args.deck else DECKS[args.game]:
                print(train_classifier(args, deck, command))
    except TrainError as e:
        print(f"referee train: {e}", file=sys.stderr)
        return 2
    return 0


def _positive_float(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def register(sub) -> None:
    t = sub.add_parser("train", help="train the card recognizer of a game: detector and classifiers (offline)",
                       description="Stage 1: a YOLO11n-OBB 'card' detector on the rectified table view (all decks). "
                                   "Stage 2: a YOLO11n-cls classifier per deck on cards warped upright. Datasets "
                                   "are rendered under datasets/ when missing; runs are kept in runs/train/.")
    t.add_argument("--game", required=True, choices=["crazy", "crazy-kick", "fodbold"])
    t.add_argument("--deck", choices=sorted({d for c in CLASSIFIERS.values() for d in c}),
                   help="only this classifier (crazy: rook or standard; crazy-kick: crazy-kick; fodbold: card or "
                        "piece); default: all of the game's")
    t.add_argument("--stage", choices=["all", "detect", "classify"], default="all",
                   help="detect: the card detector; classify: the classifier(s); all: both (default)")
    t.add_argument("--images", type=int, default=1000, help="table views rendered per deck (default 1000)")
    t.add_argument("--seed", type=int, default=1, help="seed of the rendered data and of training (default 1)")
    t.add_argument("--epochs", type=int, default=10, help="detector epochs (default 10)")
    t.add_argument("--imgsz", type=int, default=384, help="detector input size (default 384)")
    t.add_argument("--batch", type=int, default=16, help="detector batch (default 16)")
    t.add_argument("--cls-epochs", type=int, default=8, help="classifier epochs (default 8)")
    t.add_argument("--cls-imgsz", type=int, default=64, help="crop size of the classifier (default 64)")
    t.add_argument("--cls-batch", type=int, default=64, help="classifier batch (default 64)")
    t.add_argument("--cls-width", type=int, default=16, help="CardNet channels of its first layer (default 16)")
    t.add_argument("--cls-arch", choices=["cardnet", "yolo11n-cls"], default="cardnet",
                   help="classifier network (default cardnet: yolo11n-cls did not learn the numbers, see models/README.md)")
    t.add_argument("--cls-ship", choices=["best", "last"], default="best",
                   help="CardNet: ship the epoch best on the val split (default) or the last one")
    t.add_argument("--loose-crops", action="store_true",
                   help="classifier crops through loose corners too (box 0.9-1.35 x the card, turned a few degrees)")
    t.add_argument("--detector-crops", metavar="WEIGHTS",
                   help="also train the classifier on crops through the corners this detector finds (its real input)")
    t.add_argument("--face-lowres", type=float, default=0.0,
                   help="share of the extra designs' crops first shrunk to a card 26-48 px wide, as a 720p camera "
                        "1.5 m up sees it (default 0)")
    t.add_argument("--clutter", type=float, default=0.0,
                   help="share of the rendered table views on a busy surface (carpet, stone, brick, rug, newsprint) "
                        "with books, pages and photos under and beside the cards (default 0)")
    t.add_argument("--styles", type=int, default=SCENE_STYLES,
                   help="random designs (card faces; fodbold's board and pieces) the table views are drawn in "
                        f"(default {SCENE_STYLES}); more of them: a model that does not learn the designs by heart")
    t.add_argument("--face-courts", type=float, default=0.0,
                   help="standard deck: share of the extra designs whose court pictures do not tell the rank "
                        "(headgear at random), so the classifier learns to read the corner index (default 0)")
    t.add_argument("--videos", type=int, default=0,
                   help="card classifiers: also train on the cards of this many simulated 1280x720 game videos "
                        "(seeds 5001 on; made under datasets/ when missing), the resolution the referee reads")
    t.add_argument("--copies", type=int, default=2, help="jittered crops per training card (default 2)")
    t.add_argument("--face-styles", type=int, default=40, help="extra card designs drawn for the classifier (default 40)")
    t.add_argument("--face-copies", type=int, default=3, help="crops per card and extra design (default 3)")
    t.add_argument("--device", default="cpu", help="cpu, cuda or a GPU index")
    t.add_argument("--workers", type=int, default=2,
                   help="processes for rendering, crops and the data loader (default 2)")
    t.add_argument("--hours", type=_positive_float, default=None,
                   help="stop training after this much time (the detector fits its epochs into it; the "
                        "classifier stops after the epoch that passes it)")
    t.add_argument("--start-det", default="yolo11n-obb.yaml", help="model yaml or own .pt the detector starts from")
    t.add_argument("--start-cls", default="yolo11n-cls.yaml", help="model yaml or own .pt the classifier starts from")
    t.add_argument("--out", default=str(MODELS_DIR), help="where the shipped weights and cards go (default models/)")
    t.add_argument("--datasets", default=str(DATASETS_DIR), help="where rendered sets go (default datasets/)")
    t.add_argument("--runs", default=str(RUNS_DIR), help="where training runs go (default runs/train/)")
    t.add_argument("--ship-only", action="store_true",
                   help="detector: ship the best epoch of a stopped run (runs/train/NAME) without training further")
    t.add_argument("--resume", action="store_true", help="continue the interrupted run(s) of this stage from last.pt")
    t.set_defaults(func=_cmd)
