"""Camera intrinsics from photos of a printed ChArUco board (OpenCV's aruco module).

A ChArUco board is a chessboard with an ArUco marker in every white square: the markers say which
chessboard corner is which, so a board that is partly out of view or covered still calibrates.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Literal

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from .files import CalibrationError, floats, read_yaml, write_yaml

MIN_CORNERS = 6  # fewer matched corners than this in a photo says little about the lens
MIN_VIEWS = 3    # calibrateCamera with fewer views is badly constrained


def aruco_dictionary(name: str):
    """``DICT_6X6_250`` (or ``6x6_250``) -> the OpenCV dictionary; a clear error for an unknown name."""
    key = name.strip().upper()
    if not key.startswith("DICT_"):
        key = "DICT_" + key
    if not hasattr(cv2.aruco, key):
        known = sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_") and n == n.upper())
        raise CalibrationError("", f"unknown ArUco dictionary {name!r}; expected one of {', '.join(known)}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, key))


def parse_grid(text: str) -> tuple[int, int]:
    """``5x7`` -> (5, 7): columns x rows of squares."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not m or int(m.group(1)) < 2 or int(m.group(2)) < 2:
        raise CalibrationError("", f"board size {text!r} should be COLSxROWS of squares, each at least 2, like 5x7")
    return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True)
class CharucoSpec:
    """A ChArUco board: squares across x down, square and marker side (any one unit, metres by habit)."""
    columns: int
    rows: int
    square: float
    marker: float
    dictionary: str = "DICT_6X6_250"
    legacy: bool = False  # boards printed by OpenCV before 4.6 with an even number of rows

    def __post_init__(self):
        if not 0 < self.marker < self.square:
            raise CalibrationError("", f"the marker side ({self.marker}) must be positive and smaller than the square side ({self.square})")
        aruco_dictionary(self.dictionary)  # an unknown name fails here, before any photo is read

    def board(self):
        board = cv2.aruco.CharucoBoard((self.columns, self.rows), self.square, self.marker, aruco_dictionary(self.dictionary))
        if self.legacy:
            board.setLegacyPattern(True)
        return board

    def as_dict(self) -> dict:
        return {"squares": [self.columns, self.rows], "square": self.square, "marker": self.marker,
                "dictionary": self.dictionary, "legacy": self.legacy}


@dataclass
class ViewResult:
    """What one photo gave: how many chessboard corners were matched, and whether it was used."""
    name: str
    corners: int
    used: bool
    reason: str = ""


@dataclass
class CameraIntrinsics:
    """The pinhole model with lens distortion, as cv2.calibrateCamera gives it."""
    camera_matrix: np.ndarray            # 3x3: fx 0 cx / 0 fy cy / 0 0 1, in pixels
    distortion: np.ndarray               # k1 k2 p1 p2 k3 (OpenCV's order)
    image_size: tuple[int, int]          # width, height the calibration was made at
    rms_px: float | None = None          # RMS reprojection error of the calibration
    board: dict | None = None
    views: list[ViewResult] = field(default_factory=list)

    @property
    def fx(self) -> float: return float(self.camera_matrix[0, 0])
    @property
    def fy(self) -> float: return float(self.camera_matrix[1, 1])
    @property
    def cx(self) -> float: return float(self.camera_matrix[0, 2])
    @property
    def cy(self) -> float: return float(self.camera_matrix[1, 2])

    def summary(self) -> dict:
        return {"fx": round(self.fx, 3), "fy": round(self.fy, 3), "cx": round(self.cx, 3), "cy": round(self.cy, 3),
                "distortion": floats(self.distortion.ravel()), "rms_px": None if self.rms_px is None else round(self.rms_px, 4),
                "image_size": list(self.image_size)}

    def save(self, path: str | Path) -> Path:
        data = {
            "kind": "camera",
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "image_size": list(self.image_size),
            "camera_matrix": floats(self.camera_matrix),
            "distortion": floats(self.distortion.ravel(), 8),
            "rms_px": None if self.rms_px is None else round(float(self.rms_px), 4),
            "board": self.board,
            "views": [{"image": v.name, "corners": v.corners, "used": v.used} | ({"reason": v.reason} if v.reason else {})
                      for v in self.views],
        }
        return write_yaml(path, data, CAMERA_HEADER)

    @classmethod
    def load(cls, path: str | Path) -> "CameraIntrinsics":
        f = read_yaml(path, CameraFile, "camera", hint="make it with `referee calibrate camera`")
        return cls(np.array(f.camera_matrix, dtype=np.float64), np.array(f.distortion, dtype=np.float64),
                   tuple(f.image_size), f.rms_px, f.board)

    def scaled_to(self, image_size: tuple[int, int]) -> "CameraIntrinsics":
        """The same camera at another resolution of the same field of view (a 1280x960 stream of a 640x480 calibration)."""
        if tuple(image_size) == tuple(self.image_size):
            return self
        sx, sy = image_size[0] / self.image_size[0], image_size[1] / self.image_size[1]
        if abs(sx - sy) > 0.01:
            raise CalibrationError("", f"the camera was calibrated at {self.image_size[0]}x{self.image_size[1]} and the image is "
                                       f"{image_size[0]}x{image_size[1]}: a different aspect ratio; calibrate at this resolution")
        k = self.camera_matrix.copy()
        k[0] *= sx
        k[1] *= sy
        return CameraIntrinsics(k, self.distortion, tuple(image_size), self.rms_px, self.board)


CAMERA_HEADER = """\
Referee camera calibration (intrinsics), made by `referee calibrate camera`.
camera_matrix: fx 0 cx / 0 fy cy / 0 0 1 in pixels; distortion: k1 k2 p1 p2 k3 (OpenCV's order).
rms_px: RMS reprojection error of the calibration; under about 0.5 px is good.
"""


class CameraFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["camera"]
    created: str | None = None
    image_size: tuple[int, int]
    camera_matrix: tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
    distortion: list[float] = Field(min_length=4, max_length=14)
    rms_px: float | None = None
    board: dict | None = None
    views: list[dict] = []


def detect_charuco(image: np.ndarray, spec: CharucoSpec, board=None):
    """Return (object points Nx3, image points Nx2) of the chessboard corners seen in ``image``."""
    board = board or spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    corners, ids, _, _ = detector.detectBoard(image)
    if ids is None or len(ids) == 0:
        return np.empty((0, 3), np.float32), np.empty((0, 2), np.float32)
    obj, img = board.matchImagePoints(corners, ids)
    return obj.reshape(-1, 3), img.reshape(-1, 2)


def calibrate_from_images(images: Iterable[tuple[str, np.ndarray]], spec: CharucoSpec) -> CameraIntrinsics:
    """Calibrate from (name, image) pairs of the board seen from different angles."""
    board = spec.board()
    obj_points, img_points, views, size = [], [], [], None
    for name, image in images:
        h, w = image.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            raise CalibrationError(name, f"is {w}x{h} but the first image is {size[0]}x{size[1]}; all photos must come from one camera mode")
        obj, img = detect_charuco(image, spec, board)
        if len(obj) < MIN_CORNERS:
            views.append(ViewResult(name, len(obj), False, f"only {len(obj)} board corners found (need {MIN_CORNERS})"))
            continue
        obj_points.append(obj.astype(np.float32))
        img_points.append(img.astype(np.float32))
        views.append(ViewResult(name, len(obj), True))
    if len(obj_points) < MIN_VIEWS:
        detail = "; ".join(f"{v.name}: {v.reason or 'ok'}" for v in views) or "no images"
        raise CalibrationError("", f"the board was found in {len(obj_points)} usable photo(s), need at least {MIN_VIEWS} "
                                   f"(check --charuco, --square, --marker and --dict against the printed board). {detail}")
    rms, k, dist, _, _ = cv2.calibrateCamera(obj_points, img_points, size, None, None)
    return CameraIntrinsics(k, dist.ravel(), size, float(rms), spec.as_dict(), views)


def read_images(paths: Iterable[str | Path]) -> list[tuple[str, np.ndarray]]:
    out = []
    for p in paths:
        image = cv2.imread(str(p))
        if image is None:
            raise CalibrationError(str(p), "cannot read it as an image (missing file or unknown format)")
        out.append((str(p), image))
    return out
