"""Calibration figures as tables: the real ChArUco photos against OpenCV's published calibration, and
table-point accuracy, board squares and timings on rendered views with known camera poses.

    .venv/bin/python -m tests.calibration.check
"""
from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from referee.calibration.camera import CharucoSpec, calibrate_from_images, read_images
from referee.calibration.layouts import fodbold_layout
from referee.calibration.mapper import TableMapper
from referee.calibration.table import TableMarkers, calibrate_table

from .scene import canvas, look_at, render

SHARED_PHOTOS = str(Path(__file__).resolve().parents[3] / "shared" / "data" / "charuco" / "img_0{}.jpg")
PUBLISHED = {"fx": 452.51, "fy": 456.77, "cx": 317.70, "cy": 277.75, "rms": 0.182}

POSES = {
    "overhead 1.35 m": dict(eye_mm=(0, 0, -1350)),
    "tilted ~25 deg": dict(eye_mm=(100, 650, -1500), target_mm=(0, 60, 0), roll_deg=8),
    "barrel lens": dict(eye_mm=(-150, 600, -1450), target_mm=(0, 60, 0), roll_deg=-5, dist=[-0.25, 0.08, 0.001, -0.001, 0]),
    "steep ~40 deg": dict(eye_mm=(0, 1150, -1250), target_mm=(0, 80, 0)),
    "high 2.2 m, f 1400": dict(eye_mm=(50, 300, -2200), f=1400.0),
    "tilted, blur+noise": dict(eye_mm=(100, 650, -1500), target_mm=(0, 60, 0), roll_deg=8),
}


def _degrade(image: np.ndarray, seed: int = 1) -> np.ndarray:
    """A cheap webcam: slight defocus and sensor noise."""
    noise = np.random.default_rng(seed).normal(0, 4, image.shape)
    return np.clip(cv2.GaussianBlur(image, (0, 0), 0.9) + noise, 0, 255).astype(np.uint8)


def _row(cells, widths):
    return "  ".join(str(c).rjust(w) for c, w in zip(cells, widths))


def real_photos() -> None:
    paths = [Path(SHARED_PHOTOS.format(i)) for i in range(4)]
    print("Real ChArUco photos (5x7, 0.04 m / 0.02 m, DICT_6X6_250), img_00..img_03")
    if not all(p.exists() for p in paths):
        print("  not there:", paths[0].parent, "\n")
        return
    t = time.perf_counter()
    cam = calibrate_from_images(read_images(paths), CharucoSpec(5, 7, 0.04, 0.02))
    ms = (time.perf_counter() - t) * 1000
    got = {"fx": cam.fx, "fy": cam.fy, "cx": cam.cx, "cy": cam.cy, "rms": cam.rms_px}
    w = (6, 10, 10, 12)
    print(_row(["", "ours", "OpenCV", "difference"], w))
    for k in got:
        diff = got[k] - PUBLISHED[k]
        rel = f" ({100 * diff / PUBLISHED[k]:+.2f} %)" if k in ("fx", "fy") else ""
        print(_row([k, f"{got[k]:.2f}" if k != "rms" else f"{got[k]:.3f}", PUBLISHED[k], f"{diff:+.2f}{rel}"], w))
    print(f"  {ms:.0f} ms for 4 photos\n")


def rendered() -> None:
    markers, layout = TableMarkers(), fodbold_layout()
    grid = layout.grid
    picture, to_canvas = canvas(markers, grid)
    pts = np.array([[x, y] for x in range(-500, 501, 50) for y in range(-500, 501, 50)], float)
    centre, corners = np.array([[0.0, 0.0]]), np.array([[-500.0, -500], [500, -500], [500, 500], [-500, 500]])
    names = grid.names()
    sq_centres = np.array([grid.centre(n) for n in names])
    print("Rendered 1280x960 views of a 1000 x 1000 mm playing area, 60 mm DICT_4X4_50 corner markers,")
    print(f"a {grid.columns}x{grid.rows} board of {grid.square_mm:g} mm squares (+{len(grid.extra)} goal squares)")
    w = (20, 9, 9, 10, 9, 9, 9, 10, 10)
    print(_row(["pose", "fit mm", "centre", "corners", "max mm", "mean mm", "squares", "update ms", "rectify ms"], w))
    for name, pose in POSES.items():
        cam = look_at(**pose)
        image = render(cam, picture, to_canvas)
        if "noise" in name:
            image = _degrade(image)
        table = calibrate_table(image, markers, cam.intrinsics() if cam.dist is not None else None)
        mapper = TableMapper(table, layout)
        err = lambda p: np.linalg.norm(mapper.image_to_table(cam.project(p)) - p, axis=1)
        squares = sum(loc.square == n for loc, n in zip(mapper.locate(cam.project(sq_centres)), names))
        t = time.perf_counter()
        for i in range(5):
            mapper.update(image, t=i)
        upd = (time.perf_counter() - t) * 200
        mapper.rectify(image, 1.0)  # first call builds the maps when there is a lens model
        t = time.perf_counter()
        mapper.rectify(image, 1.0)
        rect = (time.perf_counter() - t) * 1000
        e = err(pts)
        print(_row([name, f"{table.residual_mm:.2f}", f"{err(centre).max():.2f}", f"{err(corners).max():.2f}",
                    f"{e.max():.2f}", f"{e.mean():.2f}", f"{squares}/{len(names)}", f"{upd:.1f}", f"{rect:.1f}"], w))
    print("fit mm: RMS misfit of the 16 marker corners; centre/corners/max/mean: table-point error in mm over a 50 mm grid;")
    print("squares: square centres mapped to the right square; rectify: 1000x1000 top-down picture at 1 mm a pixel.")


if __name__ == "__main__":
    real_photos()
    rendered()
