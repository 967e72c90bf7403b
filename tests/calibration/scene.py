"""Rendered test scenes: a table with the printed corner markers (and optionally a colour-coded board
and a covering hand), seen by a pinhole camera with OpenCV's distortion model at a known pose.

Table mm -> image pixels of the truth is cv2.projectPoints with the same pose and intrinsics, so the
tests compare what the calibration recovers with exactly what was drawn.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.calibration.camera import CameraIntrinsics, aruco_dictionary
from referee.calibration.layouts import Grid
from referee.calibration.table import TableMarkers

PPM = 2             # canvas pixels per table millimetre
MARGIN_MM = 100     # table drawn beyond the marker centres
SS = 2              # supersampling of the camera image (edges anti-aliased like a real sensor's)


@dataclass
class Camera:
    k: np.ndarray
    dist: np.ndarray | None
    rvec: np.ndarray
    tvec: np.ndarray
    size: tuple[int, int] = (1280, 960)

    def project(self, table_pts) -> np.ndarray:
        pts = np.asarray(table_pts, np.float64).reshape(-1, 2)
        obj = np.hstack([pts, np.zeros((len(pts), 1))])
        img, _ = cv2.projectPoints(obj, self.rvec, self.tvec, self.k, self.dist if self.dist is not None else np.zeros(5))
        return img.reshape(-1, 2)

    def intrinsics(self) -> CameraIntrinsics:
        return CameraIntrinsics(self.k.copy(), (self.dist if self.dist is not None else np.zeros(5)).copy(), self.size)


def look_at(eye_mm, target_mm=(0, 0, 0), f=1000.0, size=(1280, 960), dist=None, roll_deg=0.0) -> Camera:
    """A camera at ``eye_mm`` (table frame: x right, y to the bottom edge, z into the table, so a camera
    above the table has negative z) looking at ``target_mm``, image-down roughly along table +y."""
    eye, target = np.asarray(eye_mm, float), np.asarray(target_mm, float)
    z = target - eye
    z /= np.linalg.norm(z)
    a = np.radians(roll_deg)
    hint = np.array([-np.sin(a), np.cos(a), 0.0])
    x = np.cross(hint, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    r = np.stack([x, y, z])
    k = np.array([[f, 0, (size[0] - 1) / 2], [0, f, (size[1] - 1) / 2], [0, 0, 1]], float)
    return Camera(k, None if dist is None else np.asarray(dist, float), cv2.Rodrigues(r)[0].ravel(), -r @ eye, size)


def canvas(markers: TableMarkers, grid: Grid | None = None, cover=(), turn: dict[int, int] | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Top-down picture of the table and the 3x3 matrix from table mm to its pixels. ``grid``: a board
    whose squares are colour-coded (``decode_square``); ``cover``: marker ids under a hand; ``turn``:
    marker id -> quarter turns of its sheet."""
    x0, y0 = -markers.width_mm / 2 - MARGIN_MM, -markers.height_mm / 2 - MARGIN_MM
    w, h = int((markers.width_mm + 2 * MARGIN_MM) * PPM), int((markers.height_mm + 2 * MARGIN_MM) * PPM)
    rng = np.random.default_rng(7)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (95, 130, 165)  # wood-ish
    img = cv2.add(img, rng.integers(0, 20, (h, w, 1), dtype=np.uint8).repeat(3, axis=2))
    a = np.array([[PPM, 0, -x0 * PPM - 0.5], [0, PPM, -y0 * PPM - 0.5], [0, 0, 1]], float)

    def box(x_mm, y_mm):  # table mm rectangle -> canvas slice (pixel centres inside it)
        return slice(int(round((y_mm[0] - y0) * PPM)), int(round((y_mm[1] - y0) * PPM))), \
               slice(int(round((x_mm[0] - x0) * PPM)), int(round((x_mm[1] - x0) * PPM)))

    if grid is not None:
        for name in grid.names():
            c, r = grid.cell(name)
            gx, gy = grid.origin_mm[0] + c * grid.square_mm, grid.origin_mm[1] + r * grid.square_mm
            img[box((gx, gx + grid.square_mm), (gy, gy + grid.square_mm))] = square_colour(c, r)
    d = aruco_dictionary(markers.dictionary)
    s = markers.size_mm
    for i in markers.ids:
        cx, cy = markers.centre_of(i)
        img[box((cx - s * 0.75, cx + s * 0.75), (cy - s * 0.75, cy + s * 0.75))] = 255  # the paper
        side = int(s * PPM)
        marker = np.rot90(cv2.aruco.generateImageMarker(d, i, side, borderBits=1), (turn or {}).get(i, 0))
        img[box((cx - s / 2, cx + s / 2), (cy - s / 2, cy + s / 2))] = cv2.cvtColor(np.ascontiguousarray(marker), cv2.COLOR_GRAY2BGR)
        if i in cover:  # a hand over it
            centre = cv2.perspectiveTransform(np.array([[[cx + 10, cy + 5]]], float), a).ravel()
            cv2.ellipse(img, (int(centre[0]), int(centre[1])), (int(55 * PPM), int(40 * PPM)), 30, 0, 360, (120, 160, 215), -1)
    return img, a


def square_colour(c: int, r: int) -> tuple[int, int, int]:
    """Column in blue, row (from -1, a goal square above the board) in green: up to 13 x 22 squares."""
    return (20 + 17 * c, 10 + 11 * (r + 1), 230 if (c + r) % 2 else 60)


def decode_square(bgr) -> tuple[int, int]:
    b, g, _ = (int(v) for v in bgr)
    return round((b - 20) / 17), round((g - 10) / 11) - 1


def render(cam: Camera, picture: np.ndarray, table_to_canvas: np.ndarray) -> np.ndarray:
    """What ``cam`` sees of the table picture."""
    w, h = cam.size
    s = np.array([[SS, 0, (SS - 1) / 2], [0, SS, (SS - 1) / 2], [0, 0, 1]], float)  # big-image pixel centres
    k_big = s @ cam.k
    r, _ = cv2.Rodrigues(cam.rvec)
    if cam.dist is None:
        h_img_table = k_big @ np.column_stack([r[:, 0], r[:, 1], cam.tvec])
        big = cv2.warpPerspective(picture, h_img_table @ np.linalg.inv(table_to_canvas), (w * SS, h * SS),
                                  flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    else:
        # every big-image pixel: undistort -> ray -> meet the table plane -> canvas pixel
        u, v = np.meshgrid(np.arange(w * SS, dtype=np.float32), np.arange(h * SS, dtype=np.float32))
        pix = np.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
        norm = cv2.undistortPoints(pix, k_big, cam.dist).reshape(-1, 2).astype(np.float64)
        rays = np.column_stack([norm, np.ones(len(norm))]) @ r  # camera -> table frame (r is world->camera)
        eye = -r.T @ cam.tvec
        lam = -eye[2] / rays[:, 2]
        pts = eye[:2] + rays[:, :2] * lam[:, None]
        cpx = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), table_to_canvas).reshape(h * SS, w * SS, 2).astype(np.float32)
        big = cv2.remap(picture, cpx[..., 0], cpx[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
