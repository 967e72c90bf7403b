"""The two-stage card recognizer: find every card, then name it.

Stage 1, ``ObbDetector``: a YOLO11n-OBB model with the single class ``card`` finds each card on the
rectified top-down table view and gives its oriented box, so its four corners.
Stage 2, ``CardClassifier``: each card is warped upright through those corners to one small square
(``referee.cardsets.warp_card``) and a YOLO11n-cls model names it (a card code such as ``G7`` or ``10H``,
or ``back`` for a face-down card).

Each stage has two backends giving the same numbers, torch on the .pt weights and ONNX Runtime on the
.onnx exported beside them (the default: faster on a CPU); both share this module's pre- and
postprocessing, and stage 1 shares ``referee.detector.letterbox`` with the plain detector.

``CardRecognizer(game, deck).recognize(frame)`` is what the live pipeline calls once per frame: a list of
``RecognizedCard`` (label, confidence, four image corners TL, TR, BR, BL of the card as the classifier
read it). An oriented box cannot tell a card's top from its bottom, so the classifier is trained on both
ways up and the corners may be turned 180 degrees; each card is also read a quarter turn round and the
surer reading kept (a box with nearly equal sides can have its long side wrong).
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .detector import DetectorError, _existing, letterbox, onnx_session

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
RECT_STRIDE = 32  # the detectors' largest stride: a view that is not square is padded only up to a multiple


def detector_path(game: str, models: Path = MODELS_DIR) -> Path:
    from .train import detector_name

    return Path(models) / f"{detector_name(game)}.pt"


def classifier_path(game: str, deck: str, models: Path = MODELS_DIR) -> Path:
    from .train import classifier_name

    return Path(models) / f"{classifier_name(game, deck)}.pt"


def stage2_paths(game: str, deck: str | None = None, models: Path = MODELS_DIR) -> dict[str, Path]:
    """The classifier for each kind of object the game's detector finds (a kind without one, the ball,
    is named by the detector alone)."""
    if game == "fodbold":
        return {"card": classifier_path(game, "card", models), "piece": classifier_path(game, "piece", models)}
    return {"card": classifier_path(game, game if game == "crazy-kick" else (deck or "rook"), models)}


def face_names(game: str) -> dict[str, str]:
    """Class name -> the name it is scored as. Crazy Kick's twin goal cards (faces the same but for the
    small printed id, ``Catalog.same_faces``) count as one class: no camera tells them apart, and the
    rules treat them alike. Other games' names are their own.
    ``CardClassifier`` adds a twin's probability to the first twin's, so a goal card is read sure."""
    if game != "crazy-kick":
        return {}
    from .games.crazy_kick.catalogue import default_catalog

    return default_catalog().same_faces()


# --- geometry --------------------------------------------------------------------------------------------

def xywhr_to_corners(xywhr: np.ndarray) -> np.ndarray:
    """(N, 5) centre x, y, width, height, angle (radians) -> (N, 4, 2) corners, as ultralytics defines them."""
    c = xywhr[:, :2]
    w, h, a = xywhr[:, 2:3], xywhr[:, 3:4], xywhr[:, 4:5]
    cos, sin = np.cos(a), np.sin(a)
    v1 = np.concatenate([w / 2 * cos, w / 2 * sin], axis=1)
    v2 = np.concatenate([-h / 2 * sin, h / 2 * cos], axis=1)
    return np.stack([c + v1 + v2, c + v1 - v2, c - v1 - v2, c - v1 + v2], axis=1)


def order_card_corners(q: np.ndarray) -> np.ndarray:
    """Four corners of a rectangle in cyclic order -> TL, TR, BR, BL of the card standing upright: the
    short sides are top and bottom, the top one is the one nearer the image's top, clockwise on screen."""
    q = np.asarray(q, np.float64)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)             # now q0-q1 is a short side
    if (q[0, 1] + q[1, 1]) > (q[2, 1] + q[3, 1]):
        q = np.roll(q, 2, axis=0)              # q0-q1 is the upper short side
    x, y = q[:, 0], q[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) < 0:
        q = q[[1, 0, 3, 2]]                     # clockwise on screen (y down)
    return q


# --- stage 1: the card detector -----------------------------------------------------------------------------

@dataclass(frozen=True)
class CardBoxes:
    """Oriented boxes of one image: ``corners`` (N, 4, 2) image pixels TL, TR, BR, BL, ``confidence`` (N,),
    ``kinds`` (N,) the detector's class index of each (card, piece, ball; all 0 for a card-only model)."""

    corners: np.ndarray
    confidence: np.ndarray
    kinds: np.ndarray | None = None

    def kind_index(self) -> np.ndarray:
        return np.zeros(len(self.corners), np.int64) if self.kinds is None else self.kinds

    def subset(self, index) -> "CardBoxes":
        return CardBoxes(self.corners[index], self.confidence[index], self.kind_index()[index])

    def __len__(self) -> int:
        return len(self.corners)


def postprocess_obb(raw: np.ndarray, scale: float, pad: tuple[float, float], conf: float, iou: float,
                    max_det: int = 300) -> CardBoxes:
    """Raw YOLO-OBB output (1, 4 + classes + 1, anchors: cx, cy, w, h, class scores, angle) -> CardBoxes in
    image pixels, after a rotated-box NMS over all classes (every class is a card)."""
    pred = raw[0].T
    scores, kinds = pred[:, 4:-1].max(axis=1), pred[:, 4:-1].argmax(axis=1)
    keep = scores > conf
    if not keep.any():
        return CardBoxes(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))
    xywhr, scores, kinds = pred[keep][:, [0, 1, 2, 3, -1]].astype(np.float64), scores[keep], kinds[keep]
    rects = [((float(x), float(y)), (float(w), float(h)), float(np.degrees(r))) for x, y, w, h, r in xywhr]
    idx = np.array(cv2.dnn.NMSBoxesRotated(rects, scores.tolist(), conf, iou), dtype=np.int64).reshape(-1)
    idx = idx[np.argsort(-scores[idx], kind="stable")][:max_det]
    corners = xywhr_to_corners(xywhr[idx])
    corners[..., 0] = (corners[..., 0] - pad[0]) / scale
    corners[..., 1] = (corners[..., 1] - pad[1]) / scale
    corners = np.stack([order_card_corners(q) for q in corners]) if len(idx) else corners
    return CardBoxes(corners.astype(np.float32), scores[idx].astype(np.float32), kinds[idx].astype(np.int64))


def _names_from_meta(meta: dict, path) -> tuple[str, ...]:
    if "names" not in meta:
        raise DetectorError(f"{path}: no class names in its metadata; export it with `referee export`")
    names = ast.literal_eval(meta["names"])
    return tuple(names[i] for i in range(len(names)))


class _TorchEngine:
    def __init__(self, path, task: str):
        import torch

        path = _existing(path, ".pt")
        self._torch = torch
        if task == "classify":
            from . import cardnet

            if cardnet.is_cardnet(path):
                self.model, self.names, self.imgsz = cardnet.load(path)
                return
        from ultralytics import YOLO

        try:
            model = YOLO(str(path))
        except Exception as e:
            raise DetectorError(f"{path}: not an ultralytics model ({e})") from e
        if model.task != task:
            raise DetectorError(f"{path}: a {model.task} model, expected {task}")
        self.model = model.model.float().eval()
        self.names = tuple(model.names[i] for i in range(len(model.names)))
        self.imgsz = int(model.overrides.get("imgsz") or 640)

    def __call__(self, tensor: np.ndarray) -> np.ndarray:
        with self._torch.inference_mode():
            out = self.model(self._torch.from_numpy(tensor))
        out = out[0] if isinstance(out, (list, tuple)) else out
        return out.numpy()


class _OnnxEngine:
    def __init__(self, path, task: str, threads: int | None = None):
        path = _existing(path, ".onnx")
        self.session = onnx_session(path, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        if meta.get("task", task) != task:
            raise DetectorError(f"{path}: a {meta.get('task')} model, expected {task}")
        self.names = _names_from_meta(meta, path)
        self.imgsz = int(ast.literal_eval(meta["imgsz"])[0]) if "imgsz" in meta else 640
        self.input_name = self.session.get_inputs()[0].name
        # an export with a fixed input size takes only that size; a dynamic one any multiple of 32
        self.fixed_size = isinstance(self.session.get_inputs()[0].shape[-1], int)

    def __call__(self, tensor: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input_name: tensor})[0]


def int8_path(path: str | Path) -> Path:
    """Where ``referee quantize`` puts the INT8 copy of a model: NAME.int8.onnx beside NAME.pt/.onnx."""
    p = Path(path)
    return p.with_name(p.name.split(".")[0] + ".int8.onnx")


def _engine(path: str | Path, task: str, backend: str):
    """``auto``: the INT8 export when there is one (faster on a CPU, same accuracy as measured in
    models/README.md), else the float ONNX export, else the .pt weights. ``int8``: the INT8 export, the
    float one for a model without (the classifiers). ``onnx``: the float export, whose output equals the
    .pt weights' (tests/test_train.py)."""
    p = Path(path)
    has_int8 = p.suffix != ".onnx" and int8_path(p).is_file()
    if backend == "auto":
        backend = "int8" if has_int8 else "onnx" if p.suffix == ".onnx" or p.with_suffix(".onnx").is_file() \
            else "torch"
    if backend == "int8" and not has_int8:
        backend = "onnx"
    if backend == "int8":
        return _OnnxEngine(int8_path(p), task), "int8"
    if backend == "onnx":
        return _OnnxEngine(p.with_suffix(".onnx"), task), "onnx"
    if backend == "torch":
        return _TorchEngine(p.with_suffix(".pt"), task), "torch"
    raise ValueError(f"unknown backend {backend!r}; expected auto, int8, onnx or torch")


class ObbDetector:
    """Stage 1: oriented card boxes. ``backend``: auto (the .onnx when it exists), onnx or torch.
    ``imgsz``: the network's input size (default: the one it was trained at); a larger view of the
    table is given a larger size, so that a card keeps the pixels it had in training."""

    def __init__(self, path: str | Path, backend: str = "auto", conf: float = 0.25, iou: float = 0.5,
                 imgsz: int | None = None):
        if not 0 <= conf < 1 or not 0 < iou <= 1:
            raise ValueError(f"conf must be in [0, 1) and iou in (0, 1], got {conf}, {iou}")
        self.engine, self.backend = _engine(path, "obb", backend)
        self.path, self.names, self.imgsz = Path(path), self.engine.names, self.engine.imgsz
        if imgsz is not None:
            self.set_imgsz(imgsz)
        self.conf, self.iou = conf, iou

    def set_imgsz(self, imgsz: int) -> None:
        """Run the network at another input size (a dynamic export only)."""
        if imgsz == self.imgsz:
            return
        if imgsz % 32 or imgsz < 64:
            raise ValueError(f"imgsz must be a multiple of 32 and at least 64, got {imgsz}")
        if getattr(self.engine, "fixed_size", False):
            raise DetectorError(f"{self.path}: exported for {self.imgsz} px input only; export it with a "
                                f"dynamic size to run it at {imgsz} px")
        self.imgsz = imgsz

    def raw(self, tensor: np.ndarray) -> np.ndarray:
        return self.engine(tensor)

    def detect(self, image: np.ndarray, imgsz: int | None = None) -> CardBoxes:
        """``imgsz``: this call's input size (a part of the view at the pixels a mm of the whole)."""
        # a network that takes any input size reads a view that is not square without the padding
        stride = None if getattr(self.engine, "fixed_size", False) else RECT_STRIDE
        tensor, scale, pad = letterbox(image, imgsz or self.imgsz, stride)
        return postprocess_obb(self.raw(tensor), scale, pad, self.conf, self.iou)


# --- stage 2: the classifier -------------------------------------------------------------------------------

def crops_tensor(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops (S, S, 3) -> NCHW float32 RGB in [0, 1], as ultralytics' classifier reads them."""
    batch = np.stack(crops)[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    return np.ascontiguousarray(batch)


class CardClassifier:
    """Stage 2: class probabilities of upright card crops. ``backend``: auto, onnx or torch.
    ``faces``: class name -> the name it is read as (``face_names``): the probability of a card whose
    face is another's is added to that one's (a goal card split 0.5/0.5 between its twins would fall
    under the tracker's confidence floor), and it is never named itself."""

    def __init__(self, path: str | Path, backend: str = "auto", faces: dict[str, str] | None = None):
        self.engine, self.backend = _engine(path, "classify", backend)
        self.names, self.imgsz = self.engine.names, self.engine.imgsz
        index = {n: i for i, n in enumerate(self.names)}
        self._merge = [(index[n], index[first]) for n, first in (faces or {}).items()
                       if n != first and n in index and first in index]

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, len(self.names)), np.float32)
        p = self.engine(crops_tensor(crops))
        if self._merge:
            p = p.copy()
            for twin, first in self._merge:
                p[:, first] += p[:, twin]
                p[:, twin] = 0.0
        return p

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        p = self.probabilities(crops)
        return [(self.names[i], float(p[k, i])) for k, i in enumerate(p.argmax(axis=1))]


# --- both stages -----------------------------------------------------------------------------------------

# Kinds whose every name is on the table at most once (each fodbold piece is one of a kind): the names
# of one image are assigned jointly, so two pieces never both read "blue-6".
UNIQUE_KINDS = frozenset({"piece"})


def unique_labels(p: np.ndarray) -> np.ndarray:
    """The class of each row of ``p`` (N, classes) such that no class is taken twice, with the largest
    summed log-probability (Hungarian assignment). Rows left over (more objects than classes: a false
    find) keep their own best class."""
    from scipy.optimize import linear_sum_assignment

    choice = p.argmax(axis=1)
    if len(p) < 2:
        return choice
    rows, cols = linear_sum_assignment(-np.log(np.clip(p, 1e-9, 1.0)))
    choice = choice.copy()
    choice[rows] = cols
    return choice


def given_the_others(p: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Each row of ``p`` given the names ``choice`` gave the other rows (a kind whose names are on the
    table once: a class another object took is not this one's), renormalised over the classes left.
    Seed 9061: red 1 under the ball token looked like a 7 (0.9) while red 7 stood in full view; named
    red 1 by the joint assignment, his own probability for it was 0.02, under the tracker's floor, and
    his move was never seen. Given that red 7 is the other piece, red 1 is what is left."""
    out = np.zeros_like(p)
    for j in range(len(p)):
        left = np.ones(p.shape[1], bool)
        left[np.delete(choice, j)] = False
        left[choice[j]] = True
        total = p[j, left].sum()
        out[j, left] = p[j, left] / total if total > 0 else 0.0
    return out


# A card is 88/63 = 1.40 times as long as wide; a box under 1.25 (a card partly covered, a blurred edge)
# may have taken the wrong side for the long one, and is read a quarter turn round as well.
QUARTER_TURN_ASPECT = 1.25
# ``angle_search``: degrees a card is also read turned by, about its box's centre (an oriented box on cards
# that overlap in a trick is often 10-40 degrees off, and a tilted crop is read wrong). Off by default:
# measured with ANGLE_SEARCH on 50 held-out views, identity among found cards rose for Rook (0.640 -> 0.715)
# but fell for standard cards (0.712 -> 0.693), and on two Crazy review videos it added 2 false calls.
ANGLE_SEARCH = (-36.0, -24.0, -12.0, 12.0, 24.0, 36.0)
# A fodbold piece has no up: its classifier was trained on crops turned at random, and reads each piece
# cut out at this many turns (every 360/n degrees), its probabilities averaged. Measured on the pieces of
# two simulated 720p games (seeds 8101-8102, true boxes, at least 90 % visible; /tmp script, session 11):
# one reading 2,310 of 2,503 right (0.923), 4 quarter turns 2,426 (0.969), 8 turns 2,453 (0.980).
PIECE_TURNS = 8
# Games whose cards are also read turned 180 degrees, the two readings averaged (``both_ways``): the
# classifiers learnt every card both ways up (``cardsets.jitter_corners``), and a Crazy Kick face is not
# point-symmetric, so the second reading adds what the first missed. Measured on the held-out views
# (scripts/bench_detector.py, seed 1001, style seed 777; session 11): Crazy Kick identity of found cards
# 0.904 -> 0.928, stage 2 alone on true corners 0.955 -> 0.964; Crazy Rook 0.920 -> 0.920 and standard
# 0.943 -> 0.939, fodbold cards 0.949 -> 0.949: not worth twice the work there.
BOTH_WAYS_GAMES = frozenset({"crazy-kick"})


# A card read at least this surely one way up is not read the other way (``both_ways``). Measured on the
# 3,203 card crops of Crazy Kick 9193's review (fouls 0.2; session 29): 70 % are read that surely, and the
# turned reading changed the name of none of them (0.003 less sure on average). Reviewing 9193-9196 took
# 60.6 s instead of 66.5 (idle machine, each video twice each way; docs/benchmarks.md, session 29).
SURE_ONE_WAY = 0.9


def both_ways(probabilities, crops: list[np.ndarray], sure: float = SURE_ONE_WAY) -> np.ndarray:
    """``probabilities(crops)``, averaged with the same crops turned 180 degrees where the upright reading
    is less sure than ``sure``: a card that lies either way up is read both ways (``BOTH_WAYS_GAMES``)
    when one way does not tell. ``sure`` above 1 reads every crop both ways."""
    p = probabilities(crops)
    unsure = np.flatnonzero(p.max(axis=1) < sure) if len(crops) else np.zeros(0, int)
    if len(unsure):
        p = np.array(p, copy=True)
        p[unsure] = (p[unsure] + probabilities([crops[i][::-1, ::-1] for i in unsure])) / 2
    return p


def turned(crops: list[np.ndarray], turns: int) -> list[np.ndarray]:
    """Every crop at ``turns`` turns about its centre (0, 360/turns, ...): the crops at the first turn,
    then all at the second, and so on. Quarter turns are exact (np.rot90); the others are resampled,
    the edge repeated (a piece's crop has a margin of 0.15 its width round the piece)."""
    import cv2

    out: list[np.ndarray] = []
    for k in range(turns):
        angle = 360.0 * k / turns
        if angle % 90 == 0:
            out += [np.ascontiguousarray(np.rot90(c, int(angle // 90))) for c in crops]
        else:
            for c in crops:
                h, w = c.shape[:2]
                m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0)
                out.append(cv2.warpAffine(c, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return out


@dataclass(frozen=True)
class Reading:
    """One object found, before it is named (``CardRecognizer.name``)."""

    kind: str                         # what the detector took it for: card, piece, ball
    corners: np.ndarray               # (4, 2) image pixels: TL, TR, BR, BL
    detector_confidence: float
    probabilities: np.ndarray | None  # the classifier's, over its names; None for a kind without one

    def moved(self, dx: float, dy: float) -> "Reading":
        return replace(self, corners=self.corners + np.array([dx, dy], np.float32))


@dataclass(frozen=True)
class RecognizedCard:
    label: str                  # card code (G7, 10H) or "back"
    confidence: float           # detector confidence x classifier probability
    corners: np.ndarray         # (4, 2) image pixels: TL, TR, BR, BL
    detector_confidence: float
    classifier_confidence: float
    kind: str = "card"          # what the detector took it for: card, piece, ball

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    def to_json(self) -> dict:
        return {"label": self.label, "confidence": round(self.confidence, 4),
                "detector_confidence": round(self.detector_confidence, 4),
                "classifier_confidence": round(self.classifier_confidence, 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


class CardRecognizer:
    """Both stages. ``CardRecognizer("crazy", "rook").recognize(table_view)`` -> [RecognizedCard].

    The input is the rectified top-down view of the table (``TableMapper.rectify``), the view the models
    were trained on: about 0.6-1.2 mm a pixel. ``recognize_on_table`` does the rectification and returns
    the tracker's ``TableDetection`` values in table millimetres.

    A detector with several kinds (fodbold: card, piece, ball) hands each kind to its own classifier
    (``stage2_paths``): cards are warped upright, pieces cut out square; a kind without a classifier
    (the ball) keeps the detector's name."""

    def __init__(self, game: str = "crazy", deck: str = "rook", backend: str = "auto", conf: float = 0.25,
                 iou: float = 0.5, detector: str | Path | None = None, classifier: str | Path | None = None,
                 both_ways: bool | None = None, quarter_turn: bool = True, imgsz: int | None = None,
                 models: Path = MODELS_DIR, angle_search=(), piece_turns: int = PIECE_TURNS):
        self.detector = ObbDetector(detector or detector_path(game, models), backend=backend, conf=conf, iou=iou,
                                    imgsz=imgsz)
        paths = stage2_paths(game, deck, models)
        if classifier is not None:
            paths["card"] = Path(classifier)
        self.stage2 = {kind: CardClassifier(path, backend=backend, faces=face_names(game) if kind == "card" else None)
                       for kind, path in paths.items() if kind in self.detector.names}
        if "card" in self.detector.names and "card" not in self.stage2:
            raise DetectorError(f"{detector or detector_path(game)}: finds cards, but no card classifier is set")
        self.classifier = self.stage2.get("card")
        # also classify each card crop turned 180 degrees and average (default: BOTH_WAYS_GAMES)
        self.both_ways = game in BOTH_WAYS_GAMES if both_ways is None else bool(both_ways)
        # also read each card a quarter turn round and keep the surer reading: an oriented box whose sides
        # are nearly equal can have its long side wrong (measured: +7 points of identity accuracy)
        self.quarter_turn = quarter_turn
        self.angle_search = tuple(angle_search)  # e.g. ANGLE_SEARCH; off by default (see there)
        if not 1 <= int(piece_turns) <= 36:
            raise ValueError(f"piece_turns must be 1-36 (readings of each piece), not {piece_turns}")
        self.piece_turns = int(piece_turns)  # a piece is read this many ways round (PIECE_TURNS)

    def crops(self, image: np.ndarray, boxes: CardBoxes, kind: str = "card") -> list[np.ndarray]:
        """Each object cut out for its classifier: a card warped upright through its corners, a piece
        cut out square."""
        from .cardsets import object_crop

        size = self.stage2[kind].imgsz
        return [object_crop(kind, image, q, size) for q in boxes.corners]

    def probabilities(self, crops: list[np.ndarray], kind: str = "card") -> np.ndarray:
        """The classifier of ``kind`` on crops made by ``crops``, as the recogniser reads them (a piece
        at ``piece_turns`` turns, averaged)."""
        if kind == "piece" and self.piece_turns > 1 and len(crops):
            p = self.stage2[kind].probabilities(turned(crops, self.piece_turns))  # one batch for all turns
            return p.reshape(self.piece_turns, len(crops), -1).mean(axis=0)
        if self.both_ways and kind == "card" and len(crops):
            return both_ways(self.stage2[kind].probabilities, crops)
        return self.stage2[kind].probabilities(crops)

    def _name(self, boxes: CardBoxes, image: np.ndarray, kind: str):
        """(probabilities, corners) of boxes of one kind."""
        corners = boxes.corners
        p = self.probabilities(self.crops(image, boxes, kind), kind)
        if kind == "card" and self.quarter_turn and len(boxes):
            # only a box whose sides are nearly equal can have its long side wrong: read those again
            long_ = np.linalg.norm(corners[:, 2] - corners[:, 1], axis=1)
            short = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
            doubt = np.flatnonzero(long_ < QUARTER_TURN_ASPECT * np.maximum(short, 1e-6))
            if len(doubt):
                turned = np.roll(corners[doubt], -1, axis=1)
                q = self.probabilities(self.crops(image, CardBoxes(turned, boxes.confidence[doubt]), kind), kind)
                better = q.max(axis=1) > p[doubt].max(axis=1)
                p, corners = p.copy(), corners.copy()
                p[doubt[better]] = q[better]
                corners[doubt[better]] = turned[better]
        if kind == "card" and self.angle_search and len(boxes):
            # the box's angle may be off (cards overlapping in a trick): read the card turned a little
            # either way about its centre and keep the surest reading; the corners stay the detector's
            centre = corners.mean(axis=1, keepdims=True)
            for a in np.radians(self.angle_search):
                rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
                turned = ((corners - centre) @ rot.T + centre).astype(np.float32)
                q = self.probabilities(self.crops(image, CardBoxes(turned, boxes.confidence), kind), kind)
                better = q.max(axis=1) > p.max(axis=1)
                if better.any():
                    p = p.copy()
                    p[better] = q[better]
        return p, corners

    def read(self, image: np.ndarray, imgsz: int | None = None) -> list[Reading]:
        """Every object found in ``image``, with its classifier's probabilities, not yet named."""
        boxes = self.detector.detect(image, imgsz)
        kinds = boxes.kind_index()
        found: dict[int, Reading] = {}
        for k in np.unique(kinds):
            idx = np.flatnonzero(kinds == k)
            kind, part = self.detector.names[int(k)], boxes.subset(idx)
            if kind not in self.stage2:    # the ball: the detector's word is the name
                for j, i in enumerate(idx):
                    found[int(i)] = Reading(kind, part.corners[j], float(part.confidence[j]), None)
                continue
            p, corners = self._name(part, image, kind)
            for j, i in enumerate(idx):
                found[int(i)] = Reading(kind, corners[j], float(part.confidence[j]), p[j])
        return [found[i] for i in range(len(boxes))]

    def reread(self, image: np.ndarray, readings: list[Reading]) -> list[Reading]:
        """The classifier's probabilities afresh, on ``image``, for objects whose boxes are known
        (stage 2 only: a card turned face up, or laid square on another, keeps its box)."""
        out = list(readings)
        for kind in self.stage2:
            idx = [i for i, r in enumerate(readings) if r.kind == kind]
            if not idx:
                continue
            boxes = CardBoxes(np.stack([readings[i].corners for i in idx]),
                              np.array([readings[i].detector_confidence for i in idx], np.float32))
            p, corners = self._name(boxes, image, kind)
            for j, i in enumerate(idx):
                out[i] = replace(readings[i], corners=corners[j], probabilities=p[j])
        return out

    def name(self, readings: list[Reading]) -> list[RecognizedCard]:
        """Name what was read, all of one image together: a kind each of whose names is on the table
        once (``UNIQUE_KINDS``) is named jointly."""
        out: list[RecognizedCard | None] = [None] * len(readings)
        for kind in dict.fromkeys(r.kind for r in readings):
            idx = [i for i, r in enumerate(readings) if r.kind == kind]
            if kind not in self.stage2:
                for i in idx:
                    r = readings[i]
                    out[i] = RecognizedCard(kind, r.detector_confidence, r.corners, r.detector_confidence, 1.0, kind)
                continue
            p = np.stack([readings[i].probabilities for i in idx])
            choice = unique_labels(p) if kind in UNIQUE_KINDS else p.argmax(axis=1)
            names = self.stage2[kind].names
            given = given_the_others(p, choice) if kind in UNIQUE_KINDS else p
            for j, i in enumerate(idx):
                r, c = readings[i], int(choice[j])
                q = float(given[j, c])
                out[i] = RecognizedCard(names[c], r.detector_confidence * q, r.corners, r.detector_confidence, q, kind)
        return out

    def recognize(self, image: np.ndarray) -> list[RecognizedCard]:
        return self.name(self.read(image))

    def recognize_on_table(self, frame: np.ndarray, mapper, mm_per_px: float = 1.0, bounds=None):
        """Camera frame -> rectified view -> cards -> ``TableDetection`` (label, x, y mm, confidence)."""
        from .tracker import TableDetection

        view = mapper.rectify(frame, mm_per_px=mm_per_px, bounds=bounds)
        to_mm = np.linalg.inv(mapper.table_to_rectified(mm_per_px, bounds))
        out = []
        for card in self.recognize(view):
            x, y = cv2.perspectiveTransform(np.array([[card.centre]], np.float64), to_mm)[0, 0]
            out.append(TableDetection(card.label, float(x), float(y), card.confidence))
        return out


def draw_cards(image: np.ndarray, cards: list[RecognizedCard]) -> np.ndarray:
    out = image.copy()
    for c in cards:
        q = c.corners.round().astype(np.int32)
        cv2.polylines(out, [q], True, (0, 220, 255), 2, cv2.LINE_AA)
        cv2.circle(out, tuple(q[0]), 3, (0, 0, 255), -1)
        x, y = q.min(axis=0)
        cv2.putText(out, f"{c.label} {c.confidence:.2f}", (int(x), int(max(12, y - 4))), cv2.FONT_HERSHEY_SIMPLEX,
                    0.45, (0, 220, 255), 1, cv2.LINE_AA)
    return out


def detect_command(args) -> int:
    """`referee detect --game G --deck D IMAGES...` through both stages (called by referee.detector_cli)."""
    try:
        rec = CardRecognizer(args.game, args.deck, backend=args.backend, conf=args.conf)
    except DetectorError as e:
        print(f"referee detect: {e} (train them with `referee train --game {args.game}`)", file=sys.stderr)
        return 2
    from .detector_cli import detect_images

    def one(image):
        cards = rec.recognize(image)
        text = ", ".join(f"{c.label} {c.confidence:.2f}" for c in cards)
        return {"cards": [c.to_json() for c in cards]}, draw_cards(image, cards), \
            f"{len(cards)} cards{': ' + text if text else ''}"

    return detect_images(args, one)
