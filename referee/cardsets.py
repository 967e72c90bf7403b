"""Training sets for the two-stage card recognizer, made from a dataset that `referee dataset build` wrote.

The built dataset's JSON sidecars hold every card's four image corners (TL, TR, BR, BL of the face as
printed upright), its code, whether it lies face up and its visible fraction. From them this module makes:

- an **OBB set** (stage 1, the detector): the same images, one class ``card``, one oriented-box label
  line per labelled card: ``0 x1 y1 x2 y2 x3 y3 x4 y4`` (normalised). The box is the whole card (the
  parts under other cards included: a card is a rectangle of known shape), cut to the image where the
  card runs out of it (ultralytics refuses coordinates outside the image).
- a **crop set** (stage 2, the classifier): each card warped upright to one square of ``size`` px through
  its corners, the corners jittered as a detector's would be and turned 180 degrees half the time (the
  decks are printed point-symmetric, so an oriented box cannot tell up from down). One folder per class
  (the card codes and ``back``), as ultralytics' classifier trains on.

Nothing here edits the source dataset; images are linked, not copied.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

CARD_ASPECT = 88 / 63          # height / width of a card
CROP_MIN_VISIBLE = 0.4         # a crop is worth training on when this much of the card shows
JITTER = 0.03                  # corner jitter, as a fraction of the card's short side (a detector's error)


def sidecars(dataset: str | Path, split: str):
    """(image path, sidecar dict) of every image of one split of a built dataset, in name order."""
    dataset = Path(dataset)
    for meta in sorted((dataset / "meta" / split).glob("*.json")):
        yield dataset / "images" / split / f"{meta.stem}.jpg", json.loads(meta.read_text())


def card_label(obj: dict) -> str:
    return obj["code"] if obj.get("face_up", True) else "back"


def clip_quad(corners: np.ndarray, width: int, height: int) -> np.ndarray | None:
    """The card's quadrilateral, or, when part of it lies outside the image, the minimum-area rectangle
    of the part inside. None when nothing is left."""
    import cv2

    q = np.asarray(corners, np.float32)
    if (q[:, 0] >= 0).all() and (q[:, 0] <= width).all() and (q[:, 1] >= 0).all() and (q[:, 1] <= height).all():
        return q
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    area, inter = cv2.intersectConvexConvex(_ccw(q), frame)
    if area < 1 or inter is None or len(inter) < 3:
        return None
    box = cv2.boxPoints(cv2.minAreaRect(inter.reshape(-1, 2)))
    box[:, 0] = box[:, 0].clip(0, width)
    box[:, 1] = box[:, 1].clip(0, height)
    return box


def _ccw(q: np.ndarray) -> np.ndarray:
    # intersectConvexConvex wants both polygons with the same orientation
    x, y = q[:, 0], q[:, 1]
    signed = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return q if signed > 0 else q[::-1].copy()


def _link(src: Path, dst: Path) -> None:
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.symlink(src.resolve(), dst)
    except OSError:
        import shutil

        shutil.copy2(src, dst)


def _split_items(src, split: str, test: bool):
    if not test:
        yield from sidecars(src, split)
    elif split == "val":
        yield from sidecars(src, "train")
        yield from sidecars(src, "val")


def object_quad(obj: dict) -> np.ndarray:
    """The four image corners of a labelled object: a card's own corners; for a round piece or the ball,
    the box of its visible pixels (a piece has no up: its box is axis-aligned)."""
    if "corners" in obj and obj.get("kind") == "card":
        return np.array(obj["corners"], np.float64)
    x0, y0, x1, y1 = obj["bbox"]
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


def make_obb_set(sources: list[str | Path], out: str | Path, test: bool = False,
                 kinds: tuple[str, ...] = ("card",)) -> Path:
    """An ultralytics OBB dataset from one or more built datasets, one class per object kind in ``kinds``
    (default: the single class ``card``). Returns data.yaml.
    ``test``: every image of the sources goes to ``val`` (a held-out set to validate on)."""
    import yaml

    out = Path(out)
    class_id = {k: i for i, k in enumerate(kinds)}
    counts = {"train": 0, "val": 0, "labels": 0}
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        for k, src in enumerate(sources):
            for image, meta in _split_items(src, split, test):
                w, h = meta["width"], meta["height"]
                lines = []
                for obj in meta["objects"]:
                    if obj.get("kind") not in class_id or not obj.get("labelled"):
                        continue
                    q = clip_quad(object_quad(obj), w, h)
                    if q is None:
                        continue
                    q = q / np.array([w, h], np.float32)
                    lines.append(f"{class_id[obj['kind']]} " + " ".join(f"{v:.6f}" for v in q.clip(0, 1).reshape(-1)))
                stem = f"{k}_{image.stem}"
                _link(image, out / "images" / split / f"{stem}.jpg")
                (out / "labels" / split / f"{stem}.txt").write_text("".join(line + "\n" for line in lines))
                counts[split] += 1
                counts["labels"] += len(lines)
    if test:
        counts["train"] = 0
    data = {"path": str(out.resolve()), "train": "images/val" if test else "images/train",
            "val": "images/val" if counts["val"] else "images/train",  # a tiny build validates on train
            "nc": len(kinds), "names": dict(enumerate(kinds))}
    (out / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (out / "sources.json").write_text(json.dumps({"sources": [str(Path(s).resolve()) for s in sources],
                                                  **counts}, indent=2))
    return out / "data.yaml"


def canonical_quad(size: int) -> np.ndarray:
    return np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)


def warp_card(image: np.ndarray, corners, size: int) -> np.ndarray:
    """The card whose image corners are TL, TR, BR, BL, warped upright onto a size x size square (the
    card's 63:88 shape is stretched to a square: every crop is stretched alike)."""
    import cv2

    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), canonical_quad(size))
    return cv2.warpPerspective(image, m, (size, size), flags=cv2.INTER_AREA if size < 64 else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


PIECE_SIDE = 1.3  # a piece's crop: a square this many times the long side of its box, centred on it


def piece_crop(image: np.ndarray, corners, size: int, scale: float = PIECE_SIDE, turn_deg: float = 0.0,
               shift=(0.0, 0.0)) -> np.ndarray:
    """A round piece cut out as a size x size square around its box (``scale`` x its long side), turned by
    ``turn_deg`` and shifted by ``shift`` (fractions of the side): the numbers on a piece face any way."""
    import cv2

    q = np.asarray(corners, np.float64).reshape(-1, 2)
    side = max(float(np.ptp(q[:, 0])), float(np.ptp(q[:, 1])), 2.0) * scale
    cx, cy = q.mean(axis=0) + np.asarray(shift) * side
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), turn_deg, size / side)
    m[:, 2] += (size / 2 - cx, size / 2 - cy)
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def object_crop(kind: str, image: np.ndarray, corners, size: int) -> np.ndarray:
    """What stage 2 sees of a found object: a card warped upright, a piece cut out square. ``image`` may
    be a view made a part at a time (``RectifiedView``): a card is then warped straight from the camera
    image (one interpolation instead of two: Crazy Kick 9009-9016 and 9033-9040 read as many plays, at
    2.2x real time instead of 2.0x), a piece cut from the part of the view around it."""
    if not isinstance(image, np.ndarray):
        if kind != "piece" and hasattr(image, "warp"):
            import cv2

            m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), canonical_quad(size))
            crop = image.warp(m, size, cv2.INTER_AREA if size < 64 else cv2.INTER_LINEAR)
            if crop is not None:
                return crop
        image, corners = _part_around(image, corners, PIECE_SIDE if kind == "piece" else 0.0)
    return piece_crop(image, corners, size) if kind == "piece" else warp_card(image, corners, size)


def _part_around(view, corners, square: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``view`` that an object's crop samples (its box, or for a piece the square ``square``
    times its long side around it, with a pixel to interpolate), and the corners in that part. An edge
    of the part is the view's edge or beyond what is sampled, so the crop is the one from the whole view."""
    q = np.asarray(corners, np.float64).reshape(-1, 2)
    side = max(float(np.ptp(q[:, 0])), float(np.ptp(q[:, 1])), 2.0) * square
    centre = q.mean(axis=0)
    lo = np.floor(np.minimum(q.min(axis=0), centre - side / 2)) - 2
    hi = np.ceil(np.maximum(q.max(axis=0), centre + side / 2)) + 2
    h, w = view.shape[:2]
    x0, y0 = int(min(max(lo[0], 0), w - 1)), int(min(max(lo[1], 0), h - 1))
    x1, y1 = int(max(min(hi[0], w), x0 + 1)), int(max(min(hi[1], h), y0 + 1))
    return view[y0:y1, x0:x1], q - (x0, y0)


LOOSE = ((0.9, 1.35), 4.0)  # loose boxes: size x U(0.9, 1.35), turned N(0, 4) degrees (a young detector's error)


def jitter_corners(corners: np.ndarray, rng: np.random.Generator, amount: float = JITTER,
                   loose: bool = False) -> np.ndarray:
    q = np.asarray(corners, np.float64)
    short = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0]))
    if loose:
        c = q.mean(axis=0)
        a = np.radians(rng.normal(0, LOOSE[1]))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        q = c + ((q - c) * rng.uniform(*LOOSE[0], size=2)) @ rot.T
    q = q + rng.normal(0, amount * short, q.shape)
    if rng.random() < 0.5:
        q = np.roll(q, 2, axis=0)  # upside down: the same card
    return q


def make_crop_set(source: str | Path, out: str | Path, classes: list[str], size: int = 64, copies: int = 2,
                  seed: int = 0, min_visible: float = CROP_MIN_VISIBLE, loose: bool = False,
                  kind: str = "card") -> dict:
    """A classification set (out/{train,val}/CLASS/*.png) of upright crops from one built dataset.
    ``kind``: card (warped upright through its corners) or piece (a square around its box, turned at
    random for training)."""
    import cv2

    out = Path(out)
    rng = np.random.default_rng([seed, 0xC0])
    counts = {"train": 0, "val": 0}
    for split in ("train", "val"):
        for c in classes:
            (out / split / c).mkdir(parents=True, exist_ok=True)
        has_val = any(True for _ in sidecars(source, "val"))
        # a tiny build without a val split validates on its training images
        for image_path, meta in sidecars(source, split if has_val else "train"):
            image = None
            for j, obj in enumerate(meta["objects"]):
                if obj.get("kind") != kind or not obj.get("labelled") or obj["visible_fraction"] < min_visible:
                    continue
                label = card_label(obj) if kind == "card" else obj["class"]
                if label not in classes:
                    continue
                if image is None:
                    image = cv2.imread(str(image_path))
                for k in range(copies if split == "train" else 1):
                    if kind == "piece":
                        train = split == "train"
                        crop = piece_crop(image, object_quad(obj), size,
                                          scale=PIECE_SIDE * (rng.uniform(0.88, 1.12) if train else 1.0),
                                          turn_deg=float(rng.uniform(0, 360)) if train else 0.0,
                                          shift=rng.normal(0, 0.05, 2) if train else (0.0, 0.0))
                    else:
                        crop = warp_card(image, jitter_corners(np.array(obj["corners"]), rng,
                                                               loose=loose and split == "train"), size)
                    cv2.imwrite(str(out / split / label / f"{image_path.stem}_{j:02d}_{k}.png"), crop)
                    counts[split] += 1
    (out / "sources.json").write_text(json.dumps({"source": str(Path(source).resolve()), "size": size,
                                                  "copies": copies, "seed": seed, "min_visible": min_visible,
                                                  "loose": loose, "kind": kind,
                                                  "jitter": JITTER, **counts}, indent=2))
    return counts


LOWRES_WIDTH = (26.0, 48.0)  # a card's width in camera pixels at a real table's distance (720p: about 36)


def _face_crop(rng: np.random.Generator, face: np.ndarray, alpha: np.ndarray, other: np.ndarray, size: int,
               amount: float = JITTER, loose: bool = False, lowres: float = 0.0) -> np.ndarray:
    """One card face as a detector would hand it over: on a random table colour, corners off by a few per
    cent, either way up, sometimes partly under another card or a hand, light, blur, noise, JPEG.
    ``lowres``: the share of crops first shrunk to a card ``LOWRES_WIDTH`` px wide, as a camera 1.5 m up
    sees it, then warped up to ``size`` (what the review does with a 720p frame)."""
    import cv2

    h, w = face.shape[:2]
    pad = int(0.25 * w)
    table = np.empty((h + 2 * pad, w + 2 * pad, 3), np.float32)
    table[:] = rng.uniform(20, 200, 3)
    table += rng.normal(0, rng.uniform(2, 15), table.shape)
    a = alpha[..., None].astype(np.float32) / 255
    roi = table[pad:pad + h, pad:pad + w]
    roi[:] = face * a + roi * (1 - a)
    if rng.random() < 0.5:  # another card or a hand lying over one side
        k = rng.integers(4)
        cover = int(rng.uniform(0.1, 0.5) * (h if k < 2 else w))
        patch = other if rng.random() < 0.7 else np.full_like(other, rng.uniform(90, 230, 3))
        ph, pw = patch.shape[:2]
        if k == 0:
            table[:pad + cover, :] = cv2.resize(patch, (table.shape[1], pad + cover))
        elif k == 1:
            table[pad + h - cover:, :] = cv2.resize(patch, (table.shape[1], table.shape[0] - (pad + h - cover)))
        elif k == 2:
            table[:, :pad + cover] = cv2.resize(patch, (pad + cover, table.shape[0]))
        else:
            table[:, pad + w - cover:] = cv2.resize(patch, (table.shape[1] - (pad + w - cover), table.shape[0]))
    corners = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]], np.float64)
    if lowres and rng.random() < lowres:
        scale = rng.uniform(*LOWRES_WIDTH) / w
        table = cv2.resize(table, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners *= scale
    img = warp_card(table.clip(0, 255).astype(np.uint8), jitter_corners(corners, rng, amount, loose), size).astype(np.float32)
    img = img * rng.uniform(0.55, 1.25) + rng.uniform(-25, 25)             # exposure
    img *= rng.uniform(0.9, 1.1, 3)                                          # colour temperature
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    img += rng.normal(0, rng.uniform(0, 8), img.shape)
    img = img.clip(0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def face_designs(deck: str, styles: int, rng: np.random.Generator, face_width: int = 96, unlike: float = 0.0,
                 seed: int = 0):
    """``styles`` random print designs of a deck (rook, standard, crazy-kick or fodbold's cards), as an
    object whose ``get(style_index, code)`` gives (face BGR, alpha). ``unlike``: the share of standard
    designs whose court pictures do not tell the rank (``unlike_courts``), chosen from a stream of their
    own (``seed``) so the designs drawn stay those drawn without it."""
    from .render.faces import FaceCache, random_style, unlike_courts

    if deck == "crazy-kick":
        from .render.kick import KickFaces

        return KickFaces(styles, rng, face_width)
    if deck == "fodbold":
        from .render.fodbold import FodboldFaces, random_board_style

        return FodboldFaces([random_board_style(rng) for _ in range(styles)], face_width)
    drawn = [random_style(rng, deck) for _ in range(styles)]
    if unlike and deck == "standard":
        for i in range(styles):
            pick = np.random.default_rng([seed, 0xC0, i])
            if pick.random() < unlike:
                drawn[i] = unlike_courts(drawn[i], pick)
    return FaceCache(deck, drawn, face_width)


def add_face_crops(deck: str, out: str | Path, classes: list[str], size: int, styles: int = 40, per_card: int = 3,
                   seed: int = 0, face_width: int = 96, loose: bool = False, workers: int = 1,
                   lowres: float = 0.0, unlike: float = 0.0) -> int:
    """Add crops of freshly drawn faces in ``styles`` random designs to out/train (many more designs than the
    rendered scenes hold: the classifier must name cards of designs it never saw). Each design has its own
    random stream, so ``workers`` processes write the same files as one. ``unlike``: see ``face_designs``."""
    import multiprocessing as mp

    jobs = [(deck, str(out), list(classes), size, styles, per_card, seed, face_width, loose, lowres, unlike, chunk)
            for chunk in np.array_split(np.arange(styles), max(1, min(workers, styles)))]
    if len(jobs) == 1:
        return _face_crop_job(jobs[0])
    with mp.get_context("spawn").Pool(len(jobs)) as pool:
        return sum(pool.map(_face_crop_job, jobs))


def _face_crop_job(job) -> int:
    import cv2

    deck, out, classes, size, styles, per_card, seed, face_width, loose, lowres, unlike, chunk = job
    out = Path(out)
    designs = face_designs(deck, styles, np.random.default_rng([seed, 0xFACE]), face_width, unlike, seed)
    n = 0
    for s in (int(v) for v in chunk):
        rng = np.random.default_rng([seed, 0xFACE, s])
        faces = {c: designs.get(s, c) for c in classes}
        codes = list(faces)
        for c in classes:
            (out / "train" / c).mkdir(parents=True, exist_ok=True)
            for k in range(per_card):
                other = faces[codes[rng.integers(len(codes))]][0].astype(np.float32)
                crop = _face_crop(rng, faces[c][0].astype(np.float32), faces[c][1], other, size, loose=loose,
                                  lowres=lowres)
                cv2.imwrite(str(out / "train" / c / f"face{s:03d}_{k}.png"), crop)
                n += 1
    return n


VIDEO_EVERY = 2        # a video's frames a crop is taken from: every 2nd (neighbours are near copies)
VIDEO_BACKS = 0.1      # share of face-down cards kept: the hands' backs fill most of every frame


def video_cards(folder: str | Path, every: int = 1):
    """(frame index, frame, card index, card) of every card in every ``every``-th frame of a simulated game
    (``referee simulate``: video.mp4, and frames.jsonl with each card's class, true corners and visible
    fraction)."""
    import cv2

    folder = Path(folder)
    frames, video = folder / "frames.jsonl", folder / "video.mp4"
    if not frames.is_file() or not video.is_file():
        raise FileNotFoundError(f"{folder}: no video.mp4 and frames.jsonl (make one with `referee simulate`)")
    cap = cv2.VideoCapture(str(video))
    try:
        with frames.open() as f:
            for line in f:
                row = json.loads(line)
                ok, frame = cap.read()
                if not ok:
                    return
                if row["frame"] % every == 0:
                    for j, card in enumerate(row["cards"]):
                        yield row["frame"], frame, j, card
    finally:
        cap.release()


def add_video_crops(videos: list[str | Path], out: str | Path, classes: list[str], size: int, seed: int = 0,
                    every: int = VIDEO_EVERY, min_visible: float = CROP_MIN_VISIBLE, backs: float = VIDEO_BACKS,
                    split: str = "train") -> int:
    """Add crops of the cards of simulated game videos (``referee simulate``: video.mp4 and frames.jsonl with
    each card's true corners) to out/``split``, warped from the video frame as the review warps them, corners
    jittered as a detector's and either way up. The table views of ``make_crop_set`` are rendered closer
    up (0.8-2.8 px per mm); a 720p game sees a card at about 0.55 px per mm, 36 x 50 px, blurred by the
    video codec, often half under the hand laying it or the next card: what the referee really reads."""
    import cv2

    out = Path(out)
    rng = np.random.default_rng([seed, 0x51DE0])
    n = 0
    for folder in (Path(v) for v in videos):
        for index, frame, j, card in video_cards(folder, every):
            label = card["class"]
            if label not in classes or card["visible_fraction"] < min_visible:
                continue
            if label == "back" and rng.random() >= backs:
                continue
            (out / split / label).mkdir(parents=True, exist_ok=True)
            crop = warp_card(frame, jitter_corners(np.array(card["corners"]), rng), size)
            cv2.imwrite(str(out / split / label / f"vid_{folder.name}_{index:05d}_{j:02d}.png"), crop)
            n += 1
    return n


def add_video_set(videos: list[str | Path], out: str | Path, classes: list[str], size: int, seed: int = 0,
                  val_share: float = 1 / 8) -> tuple[int, int, int]:
    """``add_video_crops`` of the first videos to out/train and of the last ``val_share`` of them (card designs
    of their own) to out/val: the best epoch is then the one that reads the referee's kind of picture best,
    not only the close-up table views. Returns (training crops, validation crops, validation videos)."""
    videos = list(videos)
    held = int(len(videos) * val_share)
    train = add_video_crops(videos[:len(videos) - held], out, classes, size, seed=seed)
    val = add_video_crops(videos[len(videos) - held:], out, classes, size, seed=seed, split="val") if held else 0
    return train, val, held


def add_detector_crops(source: str | Path, out: str | Path, classes: list[str], size: int, detector,
                       seed: int = 0, min_visible: float = CROP_MIN_VISIBLE, iou: float = 0.5) -> int:
    """Add crops warped through the corners a trained detector (``referee.recognize.ObbDetector``) finds on the
    training images of ``source``, each labelled with the true card it overlaps (IoU >= ``iou``): the
    classifier then learns the boxes it will really be given, not only the true ones. Training split only."""
    import cv2

    out = Path(out)
    rng = np.random.default_rng([seed, 0xDE7])
    n = 0
    for image_path, meta in sidecars(source, "train"):
        image = cv2.imread(str(image_path))
        w, h = meta["width"], meta["height"]
        truth = [(obj, clip_quad(np.array(obj["corners"]), w, h)) for obj in meta["objects"]
                 if obj.get("kind") == "card" and obj.get("labelled") and obj["visible_fraction"] >= min_visible]
        truth = [(o, q) for o, q in truth if q is not None and card_label(o) in classes]
        if not truth:
            continue
        boxes = detector.detect(image)
        taken = set()
        for quad in boxes.corners:
            ious = [(_quad_iou(quad, q), j) for j, (_, q) in enumerate(truth) if j not in taken]
            if not ious:
                break
            best, j = max(ious)
            if best < iou:
                continue
            taken.add(j)
            obj = truth[j][0]
            full = np.array(obj["corners"])
            # the turn of the found corners nearest the true ones (then either way up, as in training)
            k = min(range(4), key=lambda r: float(np.abs(np.roll(quad, -r, axis=0) - full).sum()))
            q = np.roll(quad, -k + (2 if rng.random() < 0.5 else 0), axis=0)
            label = card_label(obj)
            (out / "train" / label).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / "train" / label / f"det_{image_path.stem}_{j:02d}.png"), warp_card(image, q, size))
            n += 1
    return n


def _quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    import cv2

    a, b = _ccw(np.asarray(a, np.float32)), _ccw(np.asarray(b, np.float32))
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0
