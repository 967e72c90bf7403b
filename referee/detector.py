"""The detector: one interface, two backends that give the same result.

- ``TorchDetector`` runs the ultralytics model (.pt) in torch;
- ``OnnxDetector`` runs the exported .onnx in ONNX Runtime (faster on a CPU: the default when both exist).

Both share one preprocessing (letterbox to the model's square input, as ultralytics exports it) and
one postprocessing (confidence filter, class-aware NMS from OpenCV, boxes back to image pixels), so
they differ only in the engine that multiplies the numbers. The output is the project's own
``Detections`` value, never the library's.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Sequence

import cv2
import numpy as np


class DetectorError(RuntimeError):
    """A model file that is missing, unreadable or not a detection model."""


@dataclass(frozen=True)
class Detections:
    """Boxes of one image: ``xyxy`` (N, 4) image pixels, ``confidence`` (N,), ``class_id`` (N,),
    with the model's class ``names``. Filter with a boolean mask: ``d[d.confidence > 0.5]``."""

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    names: tuple[str, ...]

    def __post_init__(self):
        n = len(self.xyxy)
        if self.xyxy.shape != (n, 4):
            raise ValueError(f"xyxy must have shape (N, 4), got {self.xyxy.shape}")
        if self.confidence.shape != (n,) or self.class_id.shape != (n,):
            raise ValueError(f"confidence and class_id must have shape ({n},), got "
                             f"{self.confidence.shape} and {self.class_id.shape}")
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(self.names)):
            raise ValueError(f"class ids must be in [0, {len(self.names)}), got {sorted(set(self.class_id.tolist()))}")

    @classmethod
    def empty(cls, names: Sequence[str]) -> "Detections":
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64), tuple(names))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index) -> "Detections":
        index = np.atleast_1d(np.arange(len(self))[index])
        return Detections(self.xyxy[index], self.confidence[index], self.class_id[index], self.names)

    @property
    def labels(self) -> list[str]:
        return [self.names[i] for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        return np.stack([(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2, (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2], axis=1)

    def to_json(self) -> list[dict]:
        return [{"label": self.names[c], "confidence": round(float(s), 4), "box": [round(float(v), 1) for v in b]}
                for b, s, c in zip(self.xyxy, self.confidence, self.class_id)]


class Detector(Protocol):
    names: tuple[str, ...]
    imgsz: int

    def detect(self, image: np.ndarray) -> Detections: ...


def letterbox(image: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad to size x size with grey 114, centred, as ultralytics
    does. ``stride``: pad each side only up to a multiple of it (ultralytics' rectangular inference: a
    1070x890 px view at 672 px is read as 672x576, a sixth less work). Returns the NCHW float32 RGB
    tensor in [0, 1], the scale and the (x, y) padding."""
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image of shape (H, W, 3), got {None if image is None else image.shape}")
    h, w = image.shape[:2]
    r = min(size / h, size / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR) if (nw, nh) != (w, h) else image
    out_w, out_h = (size, size) if stride is None else (-(-nw // stride) * stride, -(-nh // stride) * stride)
    px, py = (out_w - nw) / 2, (out_h - nh) / 2
    top, left = int(round(py - 0.1)), int(round(px - 0.1))
    canvas = cv2.copyMakeBorder(resized, top, out_h - nh - top, left, out_w - nw - left, cv2.BORDER_CONSTANT,
                                value=(114, 114, 114))
    tensor = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return np.ascontiguousarray(tensor), r, (left, top)


def postprocess(raw: np.ndarray, names: Sequence[str], scale: float, pad: tuple[float, float],
                shape: tuple[int, int], conf: float, iou: float, max_det: int = 300) -> Detections:
    """Raw YOLO output (1, 4 + classes, anchors: centre x, y, width, height, class scores) to Detections."""
    pred = raw[0].T
    if pred.shape[1] != 4 + len(names):
        raise DetectorError(f"the model outputs {pred.shape[1] - 4} classes but names {len(names)}")
    scores = pred[:, 4:]
    cls = scores.argmax(axis=1)
    best = scores[np.arange(len(cls)), cls]
    keep = best > conf
    if not keep.any():
        return Detections.empty(names)
    boxes, best, cls = pred[keep, :4], best[keep], cls[keep]
    xywh = np.column_stack([boxes[:, 0] - boxes[:, 2] / 2, boxes[:, 1] - boxes[:, 3] / 2, boxes[:, 2], boxes[:, 3]])
    idx = cv2.dnn.NMSBoxesBatched(xywh.tolist(), best.tolist(), cls.tolist(), conf, iou)
    idx = np.array(idx, dtype=np.int64).reshape(-1)
    idx = idx[np.argsort(-best[idx], kind="stable")][:max_det]
    xyxy = xywh[idx].copy()
    xyxy[:, 2:] += xyxy[:, :2]
    xyxy[:, [0, 2]] = (xyxy[:, [0, 2]] - pad[0]) / scale
    xyxy[:, [1, 3]] = (xyxy[:, [1, 3]] - pad[1]) / scale
    h, w = shape
    xyxy[:, [0, 2]] = xyxy[:, [0, 2]].clip(0, w)
    xyxy[:, [1, 3]] = xyxy[:, [1, 3]].clip(0, h)
    return Detections(xyxy.astype(np.float32), best[idx].astype(np.float32), cls[idx].astype(np.int64), tuple(names))


class _Letterboxed:
    names: tuple[str, ...]
    imgsz: int

    def __init__(self, conf: float, iou: float):
        if not 0 <= conf < 1 or not 0 < iou <= 1:
            raise ValueError(f"conf must be in [0, 1) and iou in (0, 1], got {conf}, {iou}")
        self.conf, self.iou = conf, iou

    def raw(self, tensor: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def detect(self, image: np.ndarray) -> Detections:
        tensor, scale, pad = letterbox(image, self.imgsz)
        return postprocess(self.raw(tensor), self.names, scale, pad, image.shape[:2], self.conf, self.iou)


class TorchDetector(_Letterboxed):
    """The ultralytics model (.pt) in torch, on the CPU."""

    def __init__(self, path: str | Path, imgsz: int | None = None, conf: float = 0.25, iou: float = 0.7):
        super().__init__(conf, iou)
        import torch
        from ultralytics import YOLO

        path = _existing(path, ".pt")
        try:
            model = YOLO(str(path), task="detect")
        except Exception as e:
            raise DetectorError(f"{path}: not an ultralytics detection model ({e})") from e
        self._torch = torch
        self.model = model.model.float().eval()
        self.names = tuple(model.names[i] for i in range(len(model.names)))
        self.imgsz = int(imgsz or model.overrides.get("imgsz") or 640)

    def raw(self, tensor: np.ndarray) -> np.ndarray:
        with self._torch.inference_mode():
            out = self.model(self._torch.from_numpy(tensor))
        out = out[0] if isinstance(out, (list, tuple)) else out
        return out.numpy()


class OnnxDetector(_Letterboxed):
    """The exported model (.onnx) in ONNX Runtime, on the CPU. Class names and input size come from
    the metadata ultralytics writes into the file."""

    def __init__(self, path: str | Path, conf: float = 0.25, iou: float = 0.7, threads: int | None = None):
        super().__init__(conf, iou)
        path = _existing(path, ".onnx")
        self.session = onnx_session(path, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        if "names" not in meta:
            raise DetectorError(f"{path}: no class names in its metadata; export it with `referee export`")
        names = ast.literal_eval(meta["names"])
        self.names = tuple(names[i] for i in range(len(names)))
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        self.imgsz = int(inp.shape[2]) if isinstance(inp.shape[2], int) else int(ast.literal_eval(meta["imgsz"])[0])

    def raw(self, tensor: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input_name: tensor})[0]


def onnx_session(path: Path, threads: int | None = None):
    """An ONNX Runtime session on the CPU; a file it cannot load is a DetectorError naming it."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    if threads:
        opts.intra_op_num_threads = threads
    # ONNX Runtime's threads spin on the CPU after each run, waiting for the next one: on a small CPU that
    # takes the time the review's own work and its decoding thread need between runs
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as e:
        raise DetectorError(f"{path}: ONNX Runtime cannot load it ({e})") from e


def _existing(path: str | Path, suffix: str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise DetectorError(f"{p}: no such model file")
    if p.suffix != suffix:
        raise DetectorError(f"{p}: expected a {suffix} file")
    return p


def load_detector(path: str | Path, backend: str = "auto", conf: float = 0.25, iou: float = 0.7) -> Detector:
    """``backend``: "onnx", "torch", or "auto" (the .onnx beside a .pt when it exists: it is faster)."""
    p = Path(path)
    if backend == "auto":
        backend = "onnx" if p.suffix == ".onnx" or p.with_suffix(".onnx").is_file() else "torch"
    if backend == "onnx":
        return OnnxDetector(p.with_suffix(".onnx"), conf=conf, iou=iou)
    if backend == "torch":
        return TorchDetector(p.with_suffix(".pt"), conf=conf, iou=iou)
    raise ValueError(f"unknown backend {backend!r}; expected auto, onnx or torch")


def export_onnx(weights: str | Path, imgsz: int | None = None, task: str | None = "detect",
                dynamic: bool = False) -> Path:
    """Export ultralytics weights to ONNX beside them (opset 17, no network). ``task=None`` takes the task
    from the weights (obb, classify); ``dynamic`` leaves batch and size open (the card classifier)."""
    from ultralytics import YOLO

    weights = _existing(weights, ".pt")
    model = YOLO(str(weights), task=task)
    size = int(imgsz or model.overrides.get("imgsz") or 640)
    out = model.export(format="onnx", imgsz=size, dynamic=dynamic, simplify=False, opset=17, verbose=False)
    return Path(out)
