"""A pinhole camera with radial lens distortion looking down at the table plane (z = 0, millimetres).

Distortion model (normalised image coordinates, r^2 = x_d^2 + y_d^2 of the *distorted* point):
    undistorted = distorted * (1 + k1 r^2 + k2 r^4)
It is written from the distorted side so an image is made with one closed-form ``cv2.remap``; points
(card corners) go the other way with a few fixed-point steps.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class Camera:
    width: int
    height: int
    K: np.ndarray          # 3x3 intrinsics of the output image
    R: np.ndarray          # 3x3, world -> camera
    t: np.ndarray          # 3, world -> camera
    k1: float = 0.0
    k2: float = 0.0
    info: dict | None = None  # how it was drawn (height, tilt, fov...), for the sidecar

    def project_undistorted(self, pts: np.ndarray, pad: float = 0.0) -> np.ndarray:
        """World points (N, 2) on the table or (N, 3) -> undistorted pixels (N, 2), shifted by ``pad``."""
        pts = np.asarray(pts, np.float64)
        if pts.shape[1] == 2:
            pts = np.concatenate([pts, np.zeros((len(pts), 1))], axis=1)
        pc = pts @ self.R.T + self.t
        z = np.maximum(pc[:, 2:3], 1e-3)  # points behind the camera never occur in our scenes
        uv = (pc[:, :2] / z) * [self.K[0, 0], self.K[1, 1]] + [self.K[0, 2] + pad, self.K[1, 2] + pad]
        return uv

    def distort_pixels(self, uv: np.ndarray, with_valid: bool = False):
        """Undistorted pixels -> where they land in the distorted output image.

        The model only holds near the frame: far outside it the polynomial folds back and has no
        inverse. Such points keep their undistorted position and are flagged invalid."""
        f = np.array([self.K[0, 0], self.K[1, 1]])
        c = np.array([self.K[0, 2], self.K[1, 2]])
        xu = (np.asarray(uv, np.float64) - c) / f
        xd = xu.copy()
        for _ in range(30):
            r2 = (xd ** 2).sum(1, keepdims=True)
            xd = xu / (1 + self.k1 * r2 + self.k2 * r2 ** 2)
        r2 = (xd ** 2).sum(1, keepdims=True)
        s = 1 + self.k1 * r2 + self.k2 * r2 ** 2
        slope = 1 + 3 * self.k1 * r2 + 5 * self.k2 * r2 ** 2  # d(r s(r))/dr: the map is one-to-one while > 0
        half_diag2 = ((self.width / f[0]) ** 2 + (self.height / f[1]) ** 2)  # twice the frame, squared, roughly
        valid = ((np.abs(xd * s - xu).max(1) < 1e-6) & (slope[:, 0] > 0.2) & (r2[:, 0] < half_diag2))
        out = np.where(valid[:, None], xd, xu) * f + c
        return (out, valid) if with_valid else out

    def project(self, pts: np.ndarray, with_valid: bool = False):
        """World points -> pixels of the final (distorted) image."""
        return self.distort_pixels(self.project_undistorted(pts), with_valid)

    def footprint_radius(self, target) -> float:
        """Distance from ``target`` on the table to the nearest edge of what the camera sees (mm)."""
        Hinv = np.linalg.inv(self.homography())
        m = 0.05  # stay clear of the distorted rim
        corners = np.array([[self.width * m, self.height * m, 1], [self.width * (1 - m), self.height * m, 1],
                            [self.width * (1 - m), self.height * (1 - m), 1], [self.width * m, self.height * (1 - m), 1]])
        poly = corners @ Hinv.T
        poly = poly[:, :2] / poly[:, 2:3]
        p = np.asarray(target, float)
        best = np.inf
        for a, b in zip(poly, np.roll(poly, -1, 0)):
            d = b - a
            t = np.clip((p - a) @ d / max(d @ d, 1e-9), 0, 1)
            best = min(best, float(np.linalg.norm(a + t * d - p)))
        return best

    def homography(self, pad: float = 0.0) -> np.ndarray:
        """Table plane (mm) -> undistorted pixels (shifted by ``pad``)."""
        K = self.K.copy()
        K[0, 2] += pad
        K[1, 2] += pad
        H = K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    def undistort_maps(self) -> tuple[np.ndarray, np.ndarray, int]:
        """remap maps from the output image into an undistorted render padded by ``pad`` px each side."""
        f = np.array([self.K[0, 0], self.K[1, 1]], np.float32)
        c = np.array([self.K[0, 2], self.K[1, 2]], np.float32)
        v, u = np.mgrid[0:self.height, 0:self.width].astype(np.float32)
        x, y = (u - c[0]) / f[0], (v - c[1]) / f[1]
        r2 = x * x + y * y
        s = 1 + self.k1 * r2 + self.k2 * r2 * r2
        mx, my = x * s * f[0] + c[0], y * s * f[1] + c[1]
        pad = int(math.ceil(max(0.0, -mx.min(), -my.min(), mx.max() - self.width + 1, my.max() - self.height + 1))) + 2
        return mx + pad, my + pad, pad

    def to_json(self) -> dict:
        return {"width": self.width, "height": self.height, "K": self.K.tolist(), "R": self.R.tolist(),
                "t": self.t.tolist(), "distortion": {"model": "undistorted = distorted * (1 + k1 r^2 + k2 r^4)",
                                                     "k1": self.k1, "k2": self.k2}, **(self.info or {})}


def look_at(eye: np.ndarray, target: np.ndarray, yaw: float, roll: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """R, t of a camera at ``eye`` looking at ``target``; the image's up points along ``yaw`` on the table."""
    z = target - eye
    z /= np.linalg.norm(z)
    a = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    y = -(a - z * (a @ z))
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    if roll:
        c, s = math.cos(roll), math.sin(roll)
        x, y = c * x + s * y, -s * x + c * y
    R = np.stack([x, y, z])
    return R, -R @ eye


def random_camera(rng: np.random.Generator, width: int, height: int, target=(0.0, 0.0),
                  height_mm=(230.0, 750.0), tilt_deg=(0.0, 35.0), hfov_deg=(45.0, 75.0),
                  distortion: bool = True) -> Camera:
    """A camera over the table: random height, tilt from straight down, heading, focal length and lens."""
    h = float(math.exp(rng.uniform(math.log(height_mm[0]), math.log(height_mm[1]))))  # close-ups as often as wide shots
    tilt = math.radians(rng.uniform(*tilt_deg))
    yaw = float(rng.uniform(0, 2 * math.pi))
    roll = float(rng.normal(0, 0.03))
    fov = math.radians(rng.uniform(*hfov_deg))
    f = width / 2 / math.tan(fov / 2)
    target3 = np.array([target[0], target[1], 0.0])
    eye = target3 + np.array([-math.cos(yaw), -math.sin(yaw), 0.0]) * h * math.tan(tilt) + [0, 0, h]
    R, t = look_at(eye, target3, yaw, roll)
    K = np.array([[f, 0, width / 2 + rng.normal(0, width * 0.01)], [0, f, height / 2 + rng.normal(0, height * 0.01)], [0, 0, 1]])
    k1 = float(rng.uniform(-0.12, 0.15)) if distortion else 0.0
    k2 = float(rng.uniform(-0.03, 0.03)) if distortion else 0.0
    info = {"height_mm": h, "tilt_deg": math.degrees(tilt), "yaw_deg": math.degrees(yaw), "roll_deg": math.degrees(roll),
            "hfov_deg": math.degrees(fov), "focal_px": f, "target_mm": [float(target[0]), float(target[1])]}
    return Camera(width, height, K, R, t, k1, k2, info)


def top_down_camera(width: int, height: int, mm_per_px: float, target=(0.0, 0.0), height_mm: float = 800.0) -> Camera:
    """A distortion-free camera straight above ``target`` with a known scale (tests, face sheets)."""
    f = height_mm / mm_per_px
    target3 = np.array([target[0], target[1], 0.0])
    R, t = look_at(target3 + [0, 0, height_mm], target3, math.pi / 2)  # table +x right, +y up
    K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    return Camera(width, height, K, R, t, 0.0, 0.0, {"height_mm": height_mm, "tilt_deg": 0.0, "mm_per_px": mm_per_px})
