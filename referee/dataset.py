"""``referee dataset``: synthetic YOLO training sets (``build``), a contact sheet of random images with
their boxes (``contact-sheet``) and sheets of every card face of a deck (``faces``).

Layout of a built dataset DIR:
    data.yaml                     ultralytics trains on it directly (absolute ``path``, names)
    recipe.json                   the arguments that made it: same recipe + same seed = same bytes
    images/{train,val}/NNNNNN.jpg
    labels/{train,val}/NNNNNN.txt YOLO: class cx cy w h (normalised), one line per labelled card
    meta/{train,val}/NNNNNN.json  sidecar: everything drawn (camera, table, effects, every card with its
                                  four image corners TL, TR, BR, BL of the upright face, visible fraction,
                                  box, class, whether it is labelled), arms

Image ``i`` is drawn from ``numpy.random.default_rng([seed, i])`` alone, so the same seed gives the same
dataset whatever the number of worker processes, and a dataset can be extended without changing the
images already made. Card designs come from ``--style-seed`` (default: the seed), so a test set can use
designs never seen in training.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

GAMES = ("crazy", "crazy-kick", "fodbold")
CLASS_MODES = ("identity", "card")
VIEWS = ("camera", "table")


class DatasetError(ValueError):
    """Bad arguments or a directory that cannot be used."""


@dataclass(frozen=True)
class Recipe:
    game: str = "crazy"
    deck: str = "rook"
    images: int = 100
    seed: int = 0
    width: int = 640
    height: int = 480
    val_fraction: float = 0.1
    styles: int = 6
    style_seed: int | None = None
    classes: str = "identity"
    face_width: int = 200
    view: str = "camera"          # camera: the camera's image; table: a rectified top-down square of the table
    camera_width: int = 1280      # the camera behind a table view
    camera_height: int = 960
    clutter: float = 0.0          # share of images on a busy surface with paper clutter (render/clutter.py)

    def check(self) -> None:
        from .games.crazy.cards import DECKS

        if self.game not in GAMES:
            raise DatasetError(f"unknown game {self.game!r}; datasets exist for: {', '.join(GAMES)}")
        if self.game == "crazy" and self.deck not in DECKS:
            raise DatasetError(f"unknown deck {self.deck!r}; expected one of {', '.join(DECKS)}")
        if self.game in ("crazy-kick", "fodbold") and self.deck != self.game:
            raise DatasetError(f"{self.game} plays with its own cards, not the {self.deck!r} deck: leave --deck out")
        if self.images < 1:
            raise DatasetError(f"--images must be at least 1, not {self.images}")
        if not (64 <= self.width <= 4096 and 64 <= self.height <= 4096):
            raise DatasetError(f"image size {self.width}x{self.height} is outside 64..4096 px")
        if not 0 <= self.val_fraction < 1:
            raise DatasetError(f"--val must be in [0, 1), not {self.val_fraction}")
        if self.styles < 1:
            raise DatasetError(f"--styles must be at least 1, not {self.styles}")
        if not 0 <= self.clutter <= 1:
            raise DatasetError(f"--clutter must be in [0, 1], not {self.clutter}")
        if self.view not in VIEWS:
            raise DatasetError(f"unknown view {self.view!r}; expected one of {', '.join(VIEWS)}")
        if self.classes not in CLASS_MODES:
            raise DatasetError(f"unknown class mode {self.classes!r}; expected one of {', '.join(CLASS_MODES)}")

    def class_names(self) -> list[str]:
        from .render.faces import BACK, card_classes

        if self.classes == "card":
            return ["card", "piece", "ball", "board"] if self.game == "fodbold" else ["card"]
        if self.game == "fodbold":
            from .render.fodbold import fodbold_classes

            return fodbold_classes()
        if self.game == "crazy-kick":
            from .render.kick import kick_classes

            return kick_classes()
        return card_classes(self.deck) + [BACK]

    def split(self, index: int) -> str:
        # every k-th image goes to validation: the split does not depend on how many are built
        if self.val_fraction <= 0:
            return "train"
        k = max(2, round(1 / self.val_fraction))
        return "val" if index % k == k - 1 else "train"


def coarse_class(name: str) -> str:
    """The class of ``--classes card``: every card is "card", every piece "piece"."""
    if name.startswith(("red-", "blue-")):
        return "piece"
    return name if name in ("ball", "board") else "card"


class Builder:
    """Renders example ``i`` of a recipe: the image, its YOLO label lines and its sidecar."""

    def __init__(self, recipe: Recipe):
        import numpy as np

        from .render.faces import FaceCache, random_style

        self.recipe = recipe
        self.cache: dict = {}
        srng = np.random.default_rng([recipe.seed if recipe.style_seed is None else recipe.style_seed, 0x5171E])
        if recipe.game == "crazy-kick":
            from .render.kick import KickFaces

            self.faces = KickFaces(recipe.styles, srng, recipe.face_width)
            self.styles = self.faces.styles
        elif recipe.game == "fodbold":
            from .games.fodbold.loader import load_board
            from .render.fodbold import FodboldFaces, random_board_style

            self.board = load_board()
            self.styles = [random_board_style(srng) for _ in range(recipe.styles)]
            self.faces = FodboldFaces(self.styles, recipe.face_width)
        else:
            self.styles = [random_style(srng, recipe.deck) for _ in range(recipe.styles)]
            self.faces = FaceCache(recipe.deck, self.styles, recipe.face_width)
        self.names = recipe.class_names()
        self.class_id = {n: i for i, n in enumerate(self.names)}

    def _class(self, name: str) -> tuple[str, int]:
        name = name if self.recipe.classes == "identity" else coarse_class(name)
        return name, self.class_id[name]

    def example(self, index: int) -> tuple[bytes, str, dict]:
        import cv2
        import numpy as np

        from .render.camera import random_camera
        from .render.render import MIN_BOX_PX, MIN_VISIBLE, TableView, random_effects, rectify, render_scene
        from .render.scene import compose_crazy
        from .render.table import make_texture

        r = self.recipe
        rng = np.random.default_rng([r.seed, index])
        fs = drawer = None
        heights, sides = (230.0, 750.0), (400.0, 750.0)
        if r.game == "crazy-kick":
            from .render.kick import compose_crazy_kick

            scene = compose_crazy_kick(rng, len(self.styles))
        elif r.game == "fodbold":
            from .render.fodbold import FodboldDrawer, compose_fodbold

            fs = compose_fodbold(rng, self.styles, self.board)
            scene = fs.scene
            drawer = FodboldDrawer(fs, self.board, self.cache)
            heights, sides = (550.0, 1100.0), (450.0, 850.0)  # the whole board, or most of it, in view
        else:
            scene = compose_crazy(rng, r.deck, len(self.styles))
        target = scene.info["centre_mm"] + rng.normal(0, 60, 2)
        if r.view == "table":
            # a camera that sees the whole table sits higher than a close-up one
            camera = random_camera(rng, r.camera_width, r.camera_height, target=target,
                                   height_mm=(max(heights[0], 550.0), max(heights[1], 1000.0)))
            # the square fits what the camera sees, mostly: now and then a corner lies outside it (black)
            fit = camera.footprint_radius(target) * 2 ** 0.5 * rng.uniform(0.85, 1.1)
            side = min(rng.uniform(*sides), max(fit, sides[0]))
            view = TableView((float(target[0]), float(target[1])), float(side), float(rng.uniform(0, 360)), r.width, r.height)
        else:
            camera, view = random_camera(rng, r.width, r.height, target=target, height_mm=heights), None
        for arm in scene.arms:  # an arm can't come closer to the lens than a third of the camera height
            arm.lift_mm = float(min(arm.lift_mm, camera.info["height_mm"] * 0.3))
        texture, table_info = make_texture(rng)
        if r.clutter > 0:  # its own generator: the images without clutter stay as they were
            crng = np.random.default_rng([r.seed, index, 0xC1])
            if crng.random() < r.clutter:
                from .render.clutter import busy_texture, clutter_props

                texture, table_info = busy_texture(crng)
                reach = view.side_mm * 0.6 if view is not None else 400.0
                scene.props = scene.props + clutter_props(crng, target, reach)
        floor = None
        if scene.table.shape != "none":
            floor, floor_info = make_texture(rng, str(rng.choice(["wood", "plain", "cloth"])), 256)
            table_info = {**table_info, "floor": floor_info}
        effects = random_effects(rng)
        image, anns, ids = render_scene(scene, camera, self.faces, texture, effects, rng, floor=floor,
                                        underlay=drawer.underlay if drawer else None,
                                        overlay=drawer.overlay if drawer else None)
        project = camera.project
        if view is not None:
            image, anns, ids = rectify(scene, camera, image, ids, view)
            project = view.project
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        objects = []
        for ann, card in zip(anns, scene.cards):
            name, cid = self._class(ann.label)
            objects.append({"kind": "card", "class": name, "class_id": cid, "code": card.code,
                            "face_up": card.face_up, "group": card.group, "style": card.style,
                            "centre_mm": list(card.centre), "angle_deg": card.angle_deg,
                            "corners": ann.corners.round(2).tolist(), "visible_fraction": round(ann.visible_fraction, 4),
                            "visible_px": ann.visible_px, "bbox": list(ann.bbox) if ann.bbox else None,
                            "labelled": ann.labelled})
        if fs is not None:
            from .render.fodbold import annotate_objects, style_to_json

            for obj in annotate_objects(fs, self.board, drawer, ids, project):
                obj["class"], obj["class_id"] = self._class(obj["class"])
                objects.append(obj)
        lines = []
        for obj in objects:
            if obj["labelled"]:
                x0, y0, x1, y1 = obj["bbox"]
                lines.append(f"{obj['class_id']} {(x0 + x1) / 2 / r.width:.6f} {(y0 + y1) / 2 / r.height:.6f} "
                             f"{(x1 - x0) / r.width:.6f} {(y1 - y0) / r.height:.6f}")
        for arm in scene.arms:
            objects.append({"kind": "arm", **arm.__dict__})
        sidecar = {
            "index": index, "split": r.split(index), "width": r.width, "height": r.height,
            "game": r.game, "deck": r.deck, "seed": r.seed,
            "box_rule": (f"axis-aligned box of the object's visible pixels (covered and out-of-frame parts excluded); "
                         f"labelled when visible_fraction >= {MIN_VISIBLE} and the box is >= {MIN_BOX_PX} px each way"),
            "corner_order": "TL, TR, BR, BL of the face as printed upright, in image pixels (x right, y down)",
            "view": "camera" if view is None else {"kind": "table", **view.to_json()},
            "camera": camera.to_json(), "table": table_info, "effects": effects.to_json(),
            "scene": {k: v for k, v in scene.to_json().items() if k not in ("cards", "arms")},
            "objects": objects,
        }
        if fs is not None:
            sidecar["board_style"] = style_to_json(fs.board.style)
        return buf.tobytes(), "".join(line + "\n" for line in lines), sidecar


_WORKER: Builder | None = None


def _init_worker(recipe: Recipe) -> None:
    global _WORKER
    _WORKER = Builder(recipe)


def _work(index: int):
    return index, *_WORKER.example(index)


def build(recipe: Recipe, out: str | Path, overwrite: bool = False, workers: int = 1, progress: bool = True) -> dict:
    """Build the dataset of ``recipe`` in ``out``; returns a summary (counts, seconds)."""
    import time

    import yaml
    from tqdm import tqdm

    recipe.check()
    out = Path(out)
    if (out / "data.yaml").exists() and not overwrite:
        raise DatasetError(f"{out} already holds a dataset; pass --overwrite to replace it")
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} is a file, not a directory")
    if overwrite:
        import shutil

        for sub in ("images", "labels", "meta"):
            shutil.rmtree(out / sub, ignore_errors=True)
    for sub in ("images", "labels", "meta"):
        for split in ("train", "val"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
    # an interrupted build goes on where it stopped: an example is complete once its sidecar is written
    # (last), and image i depends on the seed and i alone
    done = {int(p.stem) for p in (out / "meta").glob("*/*.json") if p.stem.isdigit()}
    names = recipe.class_names()
    data = {"path": str(out.resolve()), "train": "images/train", "val": "images/val",
            "nc": len(names), "names": {i: n for i, n in enumerate(names)}}
    start = time.perf_counter()
    counts = {"train": 0, "val": 0, "labels": 0}

    def save(i, jpg, txt, meta):
        split = recipe.split(i)
        stem = f"{i:06d}"
        (out / "images" / split / f"{stem}.jpg").write_bytes(jpg)
        (out / "labels" / split / f"{stem}.txt").write_text(txt)
        (out / "meta" / split / f"{stem}.json").write_text(json.dumps(meta, separators=(",", ":")))
        counts[split] += 1
        counts["labels"] += txt.count("\n")

    todo = [i for i in range(recipe.images) if i not in done]
    for i in sorted(done):
        if i < recipe.images:
            split = recipe.split(i)
            counts[split] += 1
            counts["labels"] += (out / "labels" / split / f"{i:06d}.txt").read_text().count("\n")
    bar = tqdm(total=recipe.images, initial=recipe.images - len(todo), desc=f"dataset {recipe.game}/{recipe.deck}",
               unit="img", disable=not progress)
    if workers <= 1:
        builder = Builder(recipe)
        for i in todo:
            save(i, *builder.example(i))
            bar.update()
    else:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers, _init_worker, (recipe,)) as pool:
            for i, jpg, txt, meta in pool.imap_unordered(_work, todo, chunksize=4):
                save(i, jpg, txt, meta)
                bar.update()
    bar.close()
    seconds = time.perf_counter() - start
    if counts["val"] == 0:
        data["val"] = "images/train"  # ultralytics needs a val set; a tiny build validates on train
    (out / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    (out / "recipe.json").write_text(json.dumps({**recipe.__dict__, "command": "referee dataset build"}, indent=2))
    return {**counts, "seconds": seconds, "seconds_per_image": seconds / recipe.images, "out": str(out)}


def contact_sheet(dataset: str | Path, out: str | Path, seed: int = 0, tile: int = 400, grid: int = 4) -> Path:
    """A grid x grid sheet of random images of ``dataset`` with their label boxes and class names,
    and each labelled card's top-left corner (from the sidecar) as a dot, to check orientation."""
    import random

    import cv2
    import numpy as np
    import yaml

    dataset = Path(dataset)
    if not (dataset / "data.yaml").exists():
        raise DatasetError(f"{dataset} has no data.yaml; build it with `referee dataset build`")
    names = yaml.safe_load((dataset / "data.yaml").read_text())["names"]
    images = sorted((dataset / "images").glob("*/*.jpg"))
    if not images:
        raise DatasetError(f"{dataset} holds no images")
    pick = random.Random(seed).sample(images, min(grid * grid, len(images)))
    tiles = []
    for path in pick:
        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        split, stem = path.parent.name, path.stem
        label = dataset / "labels" / split / f"{stem}.txt"
        for line in label.read_text().splitlines() if label.exists() else []:
            c, cx, cy, bw, bh = line.split()
            cx, cy, bw, bh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
            p0, p1 = (int(cx - bw / 2), int(cy - bh / 2)), (int(cx + bw / 2), int(cy + bh / 2))
            cv2.rectangle(img, p0, p1, (0, 255, 0), 1)
            cv2.putText(img, str(names[int(c)]), (p0[0] + 1, p0[1] + 11), cv2.FONT_HERSHEY_PLAIN, 0.9, (0, 0, 0), 2)
            cv2.putText(img, str(names[int(c)]), (p0[0] + 1, p0[1] + 11), cv2.FONT_HERSHEY_PLAIN, 0.9, (0, 255, 0), 1)
        meta = dataset / "meta" / split / f"{stem}.json"
        if meta.exists():
            for obj in json.loads(meta.read_text())["objects"]:
                if obj.get("labelled") and obj.get("face_up"):
                    x, y = obj["corners"][0]
                    cv2.circle(img, (int(round(x)), int(round(y))), 3, (0, 0, 255), -1)
        scale = tile / max(h, w)
        img = cv2.resize(img, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
        cv2.putText(img, f"{split}/{stem}", (4, img.shape[0] - 6), cv2.FONT_HERSHEY_PLAIN, 1.0, (255, 255, 255), 1)
        tiles.append(img)
    th, tw = tiles[0].shape[:2]
    sheet = np.full((grid * th, grid * tw, 3), 40, np.uint8)
    for k, t in enumerate(tiles):
        r, c = divmod(k, grid)
        sheet[r * th:r * th + t.shape[0], c * tw:c * tw + t.shape[1]] = t
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), sheet):
        raise DatasetError(f"could not write {out} (use a .png or .jpg name)")
    return out


def _cmd_build(args) -> int:
    width, height = args.width or 640, args.height or (640 if args.view == "table" else 480)
    deck = args.deck or (args.game if args.game in ("crazy-kick", "fodbold") else "rook")
    recipe = Recipe(game=args.game, deck=deck, images=args.images, seed=args.seed, width=width,
                    height=height, val_fraction=args.val, styles=args.styles, style_seed=args.style_seed,
                    classes=args.classes, view=args.view, clutter=args.clutter)
    try:
        summary = build(recipe, args.out, overwrite=args.overwrite, workers=args.workers, progress=not args.quiet)
    except DatasetError as e:
        print(f"referee dataset build: {e}", file=sys.stderr)
        return 2
    print(f"wrote {summary['train']} training and {summary['val']} validation images with {summary['labels']} "
          f"labels to {summary['out']} in {summary['seconds']:.1f} s ({summary['seconds_per_image']:.3f} s/image)")
    print(f"train with: yolo train data={Path(summary['out']).resolve() / 'data.yaml'}")
    return 0


def _cmd_contact(args) -> int:
    try:
        out = contact_sheet(args.dataset, args.out, seed=args.seed, tile=args.tile)
    except DatasetError as e:
        print(f"referee dataset contact-sheet: {e}", file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0


def _cmd_faces(args) -> int:
    import cv2
    import numpy as np

    from .render.faces import face_sheet, random_style

    rng = np.random.default_rng([args.seed, 0x5171E])
    sheets = [face_sheet(args.deck, random_style(rng, args.deck), args.width) for _ in range(args.styles)]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), np.vstack(sheets)):
        print(f"referee dataset faces: could not write {out}", file=sys.stderr)
        return 2
    print(f"wrote {out}: {args.styles} styles of the {args.deck} deck")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("dataset", help="synthetic training data: build, contact-sheet, faces")
    sub = p.add_subparsers(dest="dataset_command", required=True, metavar="ACTION")

    b = sub.add_parser("build", help="render a YOLO dataset (images, labels, data.yaml, JSON sidecars)")
    b.add_argument("--game", choices=GAMES, default="crazy")
    b.add_argument("--deck", choices=("rook", "standard"), default=None, help="crazy: rook (default) or standard")
    b.add_argument("--images", type=int, required=True, help="how many images")
    b.add_argument("--seed", type=int, default=0, help="same seed, same dataset")
    b.add_argument("--out", required=True, help="output directory (e.g. datasets/crazy-rook)")
    b.add_argument("--view", choices=VIEWS, default="camera",
                   help="camera: the camera's picture; table: a rectified top-down square of the table "
                        "(rendered through a 1280x960 camera), as the calibrated pipeline sees it")
    b.add_argument("--width", type=int, default=None, help="image width (default 640)")
    b.add_argument("--height", type=int, default=None, help="image height (default 480; 640 for --view table)")
    b.add_argument("--val", type=float, default=0.1, help="fraction of images for validation (default 0.1)")
    b.add_argument("--styles", type=int, default=6, help="card designs in the dataset (default 6)")
    b.add_argument("--style-seed", type=int, default=None,
                   help="seed of the card designs (default: --seed); a different one gives unseen designs")
    b.add_argument("--classes", choices=CLASS_MODES, default="identity",
                   help="identity: one class per card and 'back'; card: a single class 'card'")
    b.add_argument("--clutter", type=float, default=0.0,
                   help="share of images on a busy surface (carpet, stone, brick, rug, newsprint) with books, "
                        "pages and photos under and beside the cards (default 0)")
    b.add_argument("--workers", type=int, default=1, help="processes (default 1: the machine is shared)")
    b.add_argument("--overwrite", action="store_true", help="replace a dataset already in --out")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=_cmd_build)

    c = sub.add_parser("contact-sheet", help="a 4x4 sheet of random images of a dataset with their boxes")
    c.add_argument("dataset")
    c.add_argument("--out", required=True, help="the sheet, e.g. sheet.png")
    c.add_argument("--seed", type=int, default=0, help="which images (default 0)")
    c.add_argument("--tile", type=int, default=400, help="long side of each image on the sheet, px")
    c.set_defaults(func=_cmd_contact)

    f = sub.add_parser("faces", help="every card face and the back of a deck, in several random styles")
    f.add_argument("--deck", choices=("rook", "standard"), default="rook")
    f.add_argument("--styles", type=int, default=3)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--width", type=int, default=120, help="card width on the sheet, px")
    f.add_argument("--out", required=True)
    f.set_defaults(func=_cmd_faces)
