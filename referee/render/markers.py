"""The four printed corner markers of the playing area, drawn onto a rendered table, so a simulated
video is calibrated the way a real table is: by `referee calibrate table` finding the markers.

The table frame of the renderer is x right, y up (seen from above); the calibration's is x right,
y towards the bottom edge, so a calibration point (X, Y) lies at centre + Rot(phi) (X, -Y) here.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

CELLS_QUIET = 2  # white cells around the black square: the printed sheet's quiet zone


class MarkerFrame:
    """Where the calibration's table frame lies on the rendered table: its centre and rotation."""

    def __init__(self, centre: tuple[float, float], phi: float):
        self.centre = np.asarray(centre, np.float64)
        self.phi = phi

    def to_render(self, pts_calib: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_calib, np.float64).reshape(-1, 2) * [1.0, -1.0]
        c, s = math.cos(self.phi), math.sin(self.phi)
        return p @ np.array([[c, s], [-s, c]]) + self.centre

    def to_calib(self, pts_render: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_render, np.float64).reshape(-1, 2) - self.centre
        c, s = math.cos(self.phi), math.sin(self.phi)
        return (p @ np.array([[c, -s], [s, c]])) * [1.0, -1.0]

    def to_json(self) -> dict:
        return {"centre_mm": [float(v) for v in self.centre], "phi_deg": math.degrees(self.phi)}


def marker_sheet(dictionary: str, marker_id: int, cell_px: int = 16) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A marker on white paper: BGR image, alpha, and the black square's corners in image pixels
    (ArUco order: top-left, top-right, bottom-right, bottom-left)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    bits = d.markerSize + 2
    square = cv2.aruco.generateImageMarker(d, marker_id, bits * cell_px)
    q = CELLS_QUIET * cell_px
    img = cv2.copyMakeBorder(square, q, q, q, q, cv2.BORDER_CONSTANT, value=255)
    img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    n = bits * cell_px
    corners = np.array([[q, q], [q + n, q], [q + n, q + n], [q, q + n]], np.float32)
    return img, np.full(img.shape[:2], 255, np.uint8), corners


def sheet_corners(markers) -> np.ndarray:
    """The four corners of every marker's whole sheet (quiet zone included) in calibration mm, marker after
    marker: (4 * n, 2). ``marker_sheet`` draws the same sheet around the black square."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.dictionary))
    grow = (d.markerSize + 2 + 2 * CELLS_QUIET) / (d.markerSize + 2)  # the black square -> the whole sheet
    out = []
    for i in markers.ids:
        c = markers.marker_corners(i)
        out.append(c.mean(axis=0) + (c - c.mean(axis=0)) * grow)
    return np.concatenate(out)


def markers_underlay(frame: MarkerFrame, markers=None, inner=None):
    """A render_scene underlay that lays the four marker sheets on the table (then calls ``inner``)."""
    from ..calibration.table import TableMarkers
    from .render import _paste

    markers = markers or TableMarkers()
    sheets = [(marker_sheet(markers.dictionary, i), markers.marker_corners(i)) for i in markers.ids]

    def underlay(canvas, ids, camera, pad, fx):
        Hmm = camera.homography(pad)
        for (img, alpha, px), calib in sheets:
            A = cv2.getPerspectiveTransform(px, frame.to_render(calib).astype(np.float32))
            _paste(canvas, None, img, alpha, Hmm @ A, 0, 0.15)
        if inner is not None:
            inner(canvas, ids, camera, pad, fx)

    return underlay
