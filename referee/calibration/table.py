"""The table plane: four ArUco markers at the corners of the playing area, and the homography from
image pixels to table millimetres that they give.

Table coordinates: millimetres, origin at the centre of the playing area, x to the right and y towards
the bottom edge as the marker sheets read (so a top-down picture of the table has the usual image
orientation). Marker ``ids[0]`` sits at the top-left corner, then top-right, bottom-right, bottom-left;
each marker's centre is on the corner of the playing area.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from .camera import CameraIntrinsics, aruco_dictionary
from .files import CalibrationError, floats, read_yaml, write_yaml

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class TableMarkers:
    """Which markers mark the playing area and where their centres are, in table mm."""
    width_mm: float = 1000.0
    height_mm: float = 1000.0
    size_mm: float = 60.0               # printed side of the black square
    dictionary: str = "DICT_4X4_50"     # few bits: detected small and far, and unlike the ChArUco board's 6x6
    ids: tuple[int, int, int, int] = (0, 1, 2, 3)

    def __post_init__(self):
        if len(set(self.ids)) != 4:
            raise CalibrationError("", f"the four corner markers need four different ids, got {list(self.ids)}")
        if min(self.width_mm, self.height_mm) <= 2 * self.size_mm or self.size_mm <= 0:
            raise CalibrationError("", f"a {self.width_mm:g} x {self.height_mm:g} mm playing area is too small for {self.size_mm:g} mm markers")
        aruco_dictionary(self.dictionary)

    def centres(self) -> np.ndarray:
        w, h = self.width_mm / 2, self.height_mm / 2
        return np.array([[-w, -h], [w, -h], [w, h], [-w, h]], dtype=np.float64)

    def centre_of(self, marker_id: int) -> np.ndarray:
        return self.centres()[self.ids.index(marker_id)]

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The marker's four corners in table mm, in ArUco's order (its own top-left, clockwise) when
        the sheet lies upright."""
        cx, cy = self.centre_of(marker_id)
        s = self.size_mm / 2
        return np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]], dtype=np.float64)

    def as_dict(self) -> dict:
        return {"dictionary": self.dictionary, "size_mm": float(self.size_mm), "ids": [int(i) for i in self.ids],
                "centres_mm": floats(self.centres(), 3)}


@dataclass
class MarkerFix:
    """One look at the corner markers: the homography they give (when all four are seen) and what was missing."""
    seen: dict[int, np.ndarray]                  # id -> 4x2 corners in (undistorted) image pixels
    missing: list[int]
    homography: np.ndarray | None = None         # (undistorted) image px -> table mm
    residual_mm: float | None = None             # RMS misfit of the 16 marker corners

    @property
    def complete(self) -> bool:
        return not self.missing and self.homography is not None


def detector(markers: TableMarkers):
    params = cv2.aruco.DetectorParameters()
    # Sub-pixel corners: each pixel of error is about a millimetre on the table.
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(aruco_dictionary(markers.dictionary), params)


def undistort_points(points: np.ndarray, intrinsics: CameraIntrinsics | None) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    if intrinsics is None:
        return pts.reshape(-1, 2)
    k = intrinsics.camera_matrix
    return cv2.undistortPoints(pts, k, intrinsics.distortion, P=k).reshape(-1, 2)


def find_markers(image: np.ndarray, markers: TableMarkers, intrinsics: CameraIntrinsics | None = None,
                 det=None) -> MarkerFix:
    """Detect the corner markers in ``image``; with all four, fit the image -> table homography."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = (det or detector(markers)).detectMarkers(gray)
    seen: dict[int, np.ndarray] = {}
    for c, i in zip(corners, [] if ids is None else ids.ravel()):
        if int(i) in markers.ids and int(i) not in seen:  # a stray duplicate id is ignored, not averaged in
            seen[int(i)] = undistort_points(c.reshape(4, 2), intrinsics)
    missing = [i for i in markers.ids if i not in seen]
    fix = MarkerFix(seen, missing)
    if not missing:
        fix.homography, fix.residual_mm = fit_homography(seen, markers)
    return fix


def fit_homography(seen: dict[int, np.ndarray], markers: TableMarkers) -> tuple[np.ndarray, float]:
    """Homography from the four marker centres, refined with all sixteen marker corners.

    A sheet may lie turned by a quarter: each marker's corners are matched to the turn that fits the
    centre-only homography best, so the sixteen-point fit never mixes up corners."""
    ids = list(markers.ids)
    img_centres = np.array([seen[i].mean(axis=0) for i in ids], dtype=np.float32)
    rough = cv2.getPerspectiveTransform(img_centres, markers.centres().astype(np.float32))
    src, dst = [], []
    for i in ids:
        on_table = cv2.perspectiveTransform(seen[i].reshape(-1, 1, 2), rough).reshape(4, 2)
        want = markers.marker_corners(i)
        turn = min(range(4), key=lambda r: np.linalg.norm(np.roll(on_table, r, axis=0) - want))
        src.append(np.roll(seen[i], turn, axis=0))
        dst.append(want)
    src, dst = np.concatenate(src), np.concatenate(dst)
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("", "the corner markers are degenerate (all in a line?); no table homography")
    fitted = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
    return h, float(np.sqrt(np.mean(np.sum((fitted - dst) ** 2, axis=1))))


@dataclass
class TableCalibration:
    """The table plane as one camera sees it."""
    homography: np.ndarray                    # (undistorted) image px -> table mm
    markers: TableMarkers = field(default_factory=TableMarkers)
    image_size: tuple[int, int] = (0, 0)
    intrinsics: CameraIntrinsics | None = None
    residual_mm: float | None = None
    camera_file: str | None = None

    def save(self, path: str | Path) -> Path:
        data = {
            "kind": "table",
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "image_size": list(self.image_size),
            "play_area_mm": [float(self.markers.width_mm), float(self.markers.height_mm)],
            "markers": self.markers.as_dict(),
            "homography": floats(self.homography, 10),
            "residual_mm": None if self.residual_mm is None else round(self.residual_mm, 3),
            "undistort": None if self.intrinsics is None else {
                "source": self.camera_file,
                "image_size": list(self.intrinsics.image_size),
                "camera_matrix": floats(self.intrinsics.camera_matrix),
                "distortion": floats(self.intrinsics.distortion.ravel(), 8),
            },
        }
        return write_yaml(path, data, TABLE_HEADER)

    @classmethod
    def load(cls, path: str | Path) -> "TableCalibration":
        f = read_yaml(path, TableFile, "table", hint="make it with `referee calibrate table`")
        m = f.markers
        try:
            markers = TableMarkers(f.play_area_mm[0], f.play_area_mm[1], m.size_mm, m.dictionary, tuple(m.ids))
        except CalibrationError as e:
            raise CalibrationError(str(path), e.message) from None
        if not np.allclose(markers.centres(), np.array(m.centres_mm), atol=0.5):
            raise CalibrationError(str(path), "markers.centres_mm do not match play_area_mm (centres at +-width/2, +-height/2)")
        h = np.array(f.homography, dtype=np.float64)
        if abs(np.linalg.det(h)) < 1e-12:
            raise CalibrationError(str(path), "the homography is singular")
        intr = None
        if f.undistort is not None:
            u = f.undistort
            intr = CameraIntrinsics(np.array(u.camera_matrix, dtype=np.float64), np.array(u.distortion, dtype=np.float64),
                                    tuple(u.image_size))
        return cls(h, markers, tuple(f.image_size), intr, f.residual_mm, f.undistort.source if f.undistort else None)


TABLE_HEADER = """\
Referee table calibration, made by `referee calibrate table`.
Table millimetres: origin at the centre of the playing area, x to the right, y towards the bottom edge.
homography: image pixels (undistorted with 'undistort' when it is set) -> table mm.
residual_mm: RMS misfit of the sixteen marker corners; about a millimetre or less is good.
"""


class _Markers(BaseModel):
    model_config = ConfigDict(extra="forbid")
    dictionary: str
    size_mm: float = Field(gt=0)
    ids: tuple[int, int, int, int]
    centres_mm: tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


class _Undistort(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str | None = None
    image_size: tuple[int, int]
    camera_matrix: tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
    distortion: list[float] = Field(min_length=4, max_length=14)


Row3 = tuple[float, float, float]


class TableFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["table"]
    created: str | None = None
    image_size: tuple[int, int]
    play_area_mm: tuple[float, float]
    markers: _Markers
    homography: tuple[Row3, Row3, Row3]
    residual_mm: float | None = None
    undistort: _Undistort | None = None


def calibrate_table(image: np.ndarray, markers: TableMarkers, intrinsics: CameraIntrinsics | None = None,
                    name: str = "") -> TableCalibration:
    """Find the four corner markers in ``image`` and return the table calibration; a clear error
    naming the missing corners otherwise."""
    h, w = image.shape[:2]
    if intrinsics is not None:
        intrinsics = intrinsics.scaled_to((w, h))
    fix = find_markers(image, markers, intrinsics)
    if fix.missing:
        where = ", ".join(f"id {i} ({CORNER_NAMES[markers.ids.index(i)]})" for i in fix.missing)
        raise CalibrationError(name, f"corner marker(s) not found: {where}; found {sorted(fix.seen) or 'none'} "
                                     f"of {markers.dictionary} ids {list(markers.ids)}. Are all four in view, flat, lit and uncovered?")
    return TableCalibration(fix.homography, markers, (w, h), intrinsics, fix.residual_mm)
