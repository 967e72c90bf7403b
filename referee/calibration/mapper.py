"""TableMapper: image pixels <-> table millimetres while a game runs.

It maps points both ways (taking lens distortion out when the camera's intrinsics are known), draws
the table top-down at a chosen scale so every card has one size on screen, says which layout zone or
board square a point is in, and looks at the corner markers again on the frames it is given: a bumped
camera is corrected without stopping, a partly covered set of markers keeps the last good homography
(and says so), and markers lost for long raise a warning.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .camera import CameraIntrinsics
from .files import CalibrationError
from .layouts import Layout, Zone
from .table import CORNER_NAMES, TableCalibration, detector, find_markers


@dataclass
class MarkerStatus:
    """What one look at the corner markers found.

    state: ``ok`` (all four seen where expected), ``moved`` (all four seen elsewhere: the homography was
    replaced), ``partial`` (some covered: the last good homography is kept) or ``lost`` (none seen)."""
    state: str
    seen: list[int]
    missing: list[int]
    shift_px: float | None          # how far the seen markers are from where the homography in use puts them
    seconds_since_good: float       # since all four markers were last seen
    message: str
    warning: str | None = None      # set when the markers have been incomplete for longer than lost_warning_s

    @property
    def kept_last_good(self) -> bool:
        return self.state in ("partial", "lost")


@dataclass
class Location:
    """Where an image point is on the table."""
    table_mm: tuple[float, float]
    zone: str | None
    square: str | None


@dataclass
class TableMapper:
    table: TableCalibration
    layout: Layout | None = None
    move_tolerance_px: float = 1.0   # smaller changes are detection noise: the homography is left alone
    max_residual_mm: float = 4.0     # a fit worse than this is a misdetection, not a moved camera
    lost_warning_s: float = 5.0
    homography: np.ndarray = field(init=False)
    _intrinsics: CameraIntrinsics | None = field(init=False, default=None)
    _last_good_t: float | None = field(init=False, default=None)
    _detector: object = field(init=False, default=None, repr=False)
    _rect_cache: dict = field(init=False, default_factory=dict, repr=False)

    def __post_init__(self):
        self.homography = np.asarray(self.table.homography, dtype=np.float64)
        self._intrinsics = self.table.intrinsics

    @classmethod
    def from_files(cls, table_path: str | Path, layout: Layout | None = None, **kw) -> "TableMapper":
        return cls(TableCalibration.load(table_path), layout, **kw)

    # --- points ---------------------------------------------------------------------------------

    def _undistort(self, pts: np.ndarray) -> np.ndarray:
        if self._intrinsics is None:
            return pts
        k = self._intrinsics.camera_matrix
        return cv2.undistortPoints(pts.reshape(-1, 1, 2), k, self._intrinsics.distortion, P=k).reshape(-1, 2)

    def image_to_table(self, points) -> np.ndarray:
        """Image pixels (Nx2, or one point) -> table mm (Nx2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return cv2.perspectiveTransform(self._undistort(pts).reshape(-1, 1, 2), self.homography).reshape(-1, 2)

    def table_to_image(self, points) -> np.ndarray:
        """Table mm (Nx2, or one point) -> image pixels (Nx2), with the lens distortion put back."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        ideal = cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)
        if self._intrinsics is None:
            return ideal
        k = self._intrinsics.camera_matrix
        rays = cv2.convertPointsToHomogeneous(ideal).reshape(-1, 3) @ np.linalg.inv(k).T
        img, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), k, self._intrinsics.distortion)
        return img.reshape(-1, 2)

    def zone_at(self, table_point) -> Zone | None:
        return self.layout.zone_at(table_point) if self.layout is not None else None

    def square_at(self, table_point) -> str | None:
        grid = self.layout.grid if self.layout is not None else None
        return grid.square_at(table_point) if grid is not None else None

    def locate(self, image_points) -> list[Location]:
        """Table position, zone and board square of each image point."""
        out = []
        for x, y in self.image_to_table(image_points):
            z = self.zone_at((x, y))
            out.append(Location((float(x), float(y)), z.name if z else None, self.square_at((x, y))))
        return out

    # --- top-down picture -------------------------------------------------------------------------

    def rectified_size(self, mm_per_px: float, bounds=None) -> tuple[tuple[float, float, float, float], tuple[int, int]]:
        if bounds is None:
            m = self.table.markers
            bounds = (-m.width_mm / 2, -m.height_mm / 2, m.width_mm / 2, m.height_mm / 2)
        x0, y0, x1, y1 = map(float, bounds)
        return (x0, y0, x1, y1), (math.ceil((x1 - x0) / mm_per_px), math.ceil((y1 - y0) / mm_per_px))

    def table_to_rectified(self, mm_per_px: float, bounds=None) -> np.ndarray:
        """The 3x3 matrix from table mm to pixels of ``rectify``'s picture (pixel centres at +0.5)."""
        (x0, y0, _, _), _ = self.rectified_size(mm_per_px, bounds)
        return np.array([[1 / mm_per_px, 0, -x0 / mm_per_px - 0.5], [0, 1 / mm_per_px, -y0 / mm_per_px - 0.5], [0, 0, 1]])

    def rectify(self, image: np.ndarray, mm_per_px: float = 1.0, bounds=None, part=None) -> np.ndarray:
        """The table seen from straight above, ``mm_per_px`` millimetres a pixel; ``bounds`` (x0, y0, x1,
        y1) in table mm, the playing area by default. ``part`` (x0, y0, x1, y1 px of that picture): only
        that part of it, the same pixels at a fraction of the work."""
        self._check_size(image)
        return self._warp(image, mm_per_px, bounds, part)

    def rectify_means(self, image: np.ndarray, mm_per_px: float, bounds, cell: int) -> np.ndarray:
        """``rectify``'s picture averaged over ``cell`` x ``cell`` px blocks (a partial block at the edge
        left out), rectified at half a block a pixel and averaged 2 x 2: close to the true block means
        (the simulated 720p videos: median difference 0 levels, 99th percentile 1-5) at a quarter of the
        work. Warping straight to one pixel a block samples the camera image too sparsely: fodbold's
        board lines then flickered from look to look (99th percentile 21 levels off, and 3 false calls
        more on seed 9003), also when the camera image was first shrunk by area."""
        self._check_size(image)
        _, (w, h) = self.rectified_size(mm_per_px, bounds)
        sub = 2 if cell % 2 == 0 else 1  # block j's centre is the mean of its sub-pixels' centres
        n_w, n_h = w // cell, h // cell
        small = self._warp(image, mm_per_px * cell / sub, bounds, (0, 0, n_w * sub, n_h * sub))
        return cv2.resize(small, (n_w, n_h), interpolation=cv2.INTER_AREA) if sub > 1 else small

    def _warp(self, image: np.ndarray, mm_per_px: float, bounds, part) -> np.ndarray:
        """Rectify ``part`` (x0, y0, x1, y1 px; all by default) of the picture at ``mm_per_px``."""
        box, size = self.rectified_size(mm_per_px, bounds)
        a = self.table_to_rectified(mm_per_px, bounds)
        x0, y0, x1, y1 = (0, 0, *size) if part is None else map(int, part)
        if self._intrinsics is None:
            m = a @ self.homography
            if x0 or y0:
                m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ m
            return cv2.warpPerspective(image, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        # With lens distortion the map is no homography: look every output pixel up once and cache the maps.
        key = (self.homography.tobytes(), mm_per_px, box, image.shape[:2])
        if key not in self._rect_cache:
            if len(self._rect_cache) >= 4:  # a view, its block means, and a moved camera's
                self._rect_cache.pop(next(iter(self._rect_cache)))
            u, v = np.meshgrid(np.arange(size[0], dtype=np.float64), np.arange(size[1], dtype=np.float64))
            rect_px = np.stack([u.ravel(), v.ravel()], axis=1)
            table = cv2.perspectiveTransform(rect_px.reshape(-1, 1, 2), np.linalg.inv(a)).reshape(-1, 2)
            img = self.table_to_image(table).astype(np.float32)
            self._rect_cache[key] = (img[:, 0].reshape(size[1], size[0]), img[:, 1].reshape(size[1], size[0]))
        mx, my = self._rect_cache[key]
        return cv2.remap(image, mx[y0:y1, x0:x1], my[y0:y1, x0:x1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT)

    # --- live re-detection --------------------------------------------------------------------------

    def _check_size(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        want = tuple(self.table.image_size)
        if want != (0, 0) and want != (w, h):
            raise CalibrationError("", f"the table was calibrated on {want[0]}x{want[1]} images and this one is {w}x{h}: "
                                       "calibrate the table at the resolution the camera runs at")

    def _shift_px(self, fix) -> float | None:
        """How far (undistorted px) the markers are from where the homography in use puts them: with all
        four, the largest move of a marker centre between the two homographies (the corner-fit noise of
        one detection cancels out); with some covered, the seen markers' centres against the prediction."""
        if not fix.seen:
            return None
        inv = np.linalg.inv(self.homography)
        ids = sorted(fix.seen)
        table = np.array([self.table.markers.centre_of(i) for i in ids]).reshape(-1, 1, 2)
        expected = cv2.perspectiveTransform(table, inv).reshape(-1, 2)
        if fix.homography is not None:
            now = cv2.perspectiveTransform(table, np.linalg.inv(fix.homography)).reshape(-1, 2)
        else:
            now = np.array([fix.seen[i].mean(axis=0) for i in ids])
        return float(np.linalg.norm(now - expected, axis=1).max())

    def update(self, image: np.ndarray, t: float | None = None) -> MarkerStatus:
        """Look for the corner markers in a frame taken at time ``t`` (seconds; now by default) and
        correct the homography when the camera has moved."""
        t = time.monotonic() if t is None else float(t)
        if self._last_good_t is None:
            self._last_good_t = t  # the calibration itself was the last good look
        self._check_size(image)
        markers = self.table.markers
        if self._detector is None:
            self._detector = detector(markers)
        fix = find_markers(image, markers, self._intrinsics, self._detector)
        seen, missing = sorted(fix.seen), fix.missing
        shift = self._shift_px(fix)

        if fix.complete and fix.residual_mm <= self.max_residual_mm:
            self._last_good_t = t
            if shift > self.move_tolerance_px:
                self.homography = fix.homography
                self._rect_cache.clear()
                state, message = "moved", f"camera moved: markers {shift:.1f} px from where they were; table homography updated"
            else:
                state, message = "ok", "all four corner markers in place"
        elif fix.complete:
            state = "partial"
            message = (f"corner markers disagree ({fix.residual_mm:.1f} mm misfit, allowed {self.max_residual_mm:g}); "
                       "keeping the last good table homography")
        elif seen:
            names = ", ".join(f"id {i} ({CORNER_NAMES[markers.ids.index(i)]})" for i in missing)
            state = "partial"
            message = f"corner marker(s) {names} not seen (covered?); keeping the last good table homography"
            if shift is not None and shift > 3 * self.move_tolerance_px:
                message += f"; the markers seen are {shift:.1f} px off it: the camera may have moved"
        else:
            state, message = "lost", "no corner markers seen; keeping the last good table homography"

        since = t - self._last_good_t
        warning = None
        if state in ("partial", "lost") and since > self.lost_warning_s:
            warning = (f"table markers not all seen for {since:.1f} s: if the camera moved, table positions are off "
                       "until all four corner markers are in view again")
        return MarkerStatus(state, seen, missing, None if shift is None else round(shift, 2), round(since, 3), message, warning)


class RectifiedView:
    """``mapper.rectify(image, mm_per_px, bounds)``, made a part at a time when a part is asked for
    (``view[y0:y1, x0:x1]``; ``np.asarray(view)`` for all of it). A recogniser that re-reads only what
    changed (``referee.incremental``) needs a few windows and the kept cards' crops on most looks, not
    the whole view: rectifying all of Crazy Kick's 1070x890 px view cost 7 ms of its 60 ms a look.
    ``warp`` makes a crop straight from the camera image; ``cell_means`` gives the view's block means
    for the change map (``TableMapper.rectify_means``)."""

    def __init__(self, mapper: TableMapper, image: np.ndarray, mm_per_px: float = 1.0, bounds=None):
        mapper._check_size(image)
        self.mapper, self.image, self.mm_per_px, self.bounds = mapper, image, mm_per_px, bounds
        _, (w, h) = mapper.rectified_size(mm_per_px, bounds)
        self.shape = (h, w) + image.shape[2:]
        self.dtype = image.dtype
        self._whole: np.ndarray | None = None
        # camera px -> view px, for crops warped in one step; None with lens distortion (no homography then)
        self._to_view = (mapper.table_to_rectified(mm_per_px, bounds) @ mapper.homography
                         if mapper._intrinsics is None else None)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        if self._whole is None:
            self._whole = self.mapper.rectify(self.image, self.mm_per_px, self.bounds)
        return self._whole if dtype is None else self._whole.astype(dtype)

    def __getitem__(self, key) -> np.ndarray:
        if self._whole is not None:
            return self._whole[key]
        if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, slice) and k.step in (None, 1)
                                                                  for k in key)):
            raise TypeError(f"a RectifiedView is cut by two slices, view[y0:y1, x0:x1]; got {key!r}")
        (y0, y1, _), (x0, x1, _) = key[0].indices(self.shape[0]), key[1].indices(self.shape[1])
        if y1 <= y0 or x1 <= x0:
            return np.zeros((max(0, y1 - y0), max(0, x1 - x0)) + self.shape[2:], self.dtype)
        return self.mapper.rectify(self.image, self.mm_per_px, self.bounds, part=(x0, y0, x1, y1))

    def warp(self, m: np.ndarray, size: int, flags: int) -> np.ndarray | None:
        """The view warped through ``m`` (view px -> a size x size crop), straight from the camera image
        in one step; None with lens distortion (the view is no homography of the image then)."""
        if self._to_view is None:
            return None
        return cv2.warpPerspective(self.image, m @ self._to_view, (size, size), flags=flags,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def cell_means(self, cell: int) -> np.ndarray:
        return self.mapper.rectify_means(self.image, self.mm_per_px, self.bounds, cell)
