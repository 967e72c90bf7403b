"""Procedural table textures (wood, cloth, felt, plain), generated from a seeded generator: nothing is
loaded or downloaded. A texture is a square BGR image covering ``TABLE_MM`` x ``TABLE_MM`` of table."""
from __future__ import annotations

import cv2
import numpy as np

KINDS = ("wood", "cloth", "felt", "plain")
TABLE_MM = 1600.0  # side of the textured square, centred on the table centre


def fractal_noise(rng: np.random.Generator, size: int, octaves: int = 5, base: int = 4,
                  persistence: float = 0.55) -> np.ndarray:
    """Smooth noise in [0, 1]: random grids upscaled and summed, coarse to fine."""
    out = np.zeros((size, size), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        n = base * 2 ** o
        grid = rng.random((n, n), dtype=np.float32)
        out += amp * cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= persistence
    out /= total
    lo, hi = out.min(), out.max()
    return (out - lo) / max(hi - lo, 1e-6)


def _colourise(v: np.ndarray, dark, light) -> np.ndarray:
    dark, light = np.array(dark, np.float32), np.array(light, np.float32)
    return np.clip(dark + v[..., None] * (light - dark), 0, 255).astype(np.uint8)


def make_texture(rng: np.random.Generator, kind: str | None = None, size: int = 768) -> tuple[np.ndarray, dict]:
    """A table texture and a description of what was drawn (for the sidecar)."""
    kind = kind or str(rng.choice(KINDS))
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    if kind == "wood":
        # Grain: noise stretched far along the planks, bent by low-frequency noise, plus growth rings.
        along = int(rng.integers(3, 7))
        streaks = cv2.resize(rng.random((384, along), dtype=np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
        fine = cv2.resize(rng.random((1024, along * 4), dtype=np.float32), (size, size), interpolation=cv2.INTER_LINEAR)
        warp = fractal_noise(rng, size, 3, 2)
        rings = np.abs(np.sin((yy * rng.uniform(6, 16) + warp * rng.uniform(1.5, 4) + xx * rng.uniform(-1, 1)) * np.pi)) ** 3
        grain = 0.5 + 0.35 * (streaks - 0.5) + 0.15 * (fine - 0.5) - 0.25 * rings + 0.15 * (warp - 0.5)
        base = np.array([rng.uniform(25, 80), rng.uniform(60, 120), rng.uniform(100, 180)])  # BGR brown
        dark, light = base * rng.uniform(0.45, 0.65), np.minimum(base * rng.uniform(1.15, 1.45), 255)
        img = _colourise(np.clip(grain, 0, 1), dark, light)
        if rng.random() < 0.6:  # plank seams across the grain direction's normal
            pitch = rng.uniform(0.1, 0.25)
            seam = np.abs(((yy / pitch) % 1.0) - 0.5) > 0.495
            img[seam] = (img[seam] * 0.5).astype(np.uint8)
        angle = float(rng.uniform(0, 180))
        rot = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.45)  # zoomed so no corner is empty
        img = cv2.warpAffine(img, rot, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        info = {"kind": kind, "angle_deg": angle, "colour": [float(c) for c in base]}
    elif kind == "cloth":
        grey = rng.uniform(60, 200)
        colour = np.clip(grey + rng.normal(0, 45, 3), 20, 240)  # muted, like most tablecloths
        period = rng.uniform(200, 420)
        weave = 0.5 + 0.25 * np.sin(xx * period) * np.sin(yy * period)
        v = 0.6 * weave + 0.4 * fractal_noise(rng, size, 5, 8)
        img = _colourise(v, colour * 0.6, np.minimum(colour * 1.2, 255))
        if rng.random() < 0.4:  # checked tablecloth
            check = rng.uniform(8, 20)
            mask = ((np.floor(xx * check) + np.floor(yy * check)) % 2) == 1
            img[mask] = (img[mask] * rng.uniform(0.5, 0.8)).astype(np.uint8)
        info = {"kind": kind, "colour": [float(c) for c in colour]}
    elif kind == "felt":
        colour = np.array([[30, 110, 25], [110, 70, 20], [30, 30, 120], [40, 40, 40], [90, 40, 80]][rng.integers(5)], np.float32)
        colour = colour * rng.uniform(0.8, 1.3)
        fuzz = rng.random((size, size), dtype=np.float32)
        v = 0.55 + 0.25 * (fractal_noise(rng, size, 3, 3) - 0.5) + 0.2 * (cv2.GaussianBlur(fuzz, (0, 0), 0.8) - 0.5)
        img = _colourise(v, colour * 0.6, np.minimum(colour * 1.5, 255))
        info = {"kind": kind, "colour": [float(c) for c in colour]}
    elif kind == "plain":
        grey = rng.random() < 0.5
        colour = np.full(3, rng.uniform(60, 235)) if grey else np.clip(rng.uniform(60, 220) + rng.normal(0, 40, 3), 20, 240)
        v = 0.5 + 0.15 * (fractal_noise(rng, size, 3, 2) - 0.5) + 0.06 * (rng.random((size, size), dtype=np.float32) - 0.5)
        img = _colourise(v, colour * 0.8, np.minimum(colour * 1.2, 255))
        info = {"kind": kind, "colour": [float(c) for c in colour]}
    else:
        raise ValueError(f"unknown table texture {kind!r}; expected one of {', '.join(KINDS)}")
    return img, info
