"""Procedurally drawn glyphs: the four suit symbols as polygons and text fitted into a box with
OpenCV's Hershey fonts. Nothing is loaded from disk, so every machine draws the same pixels."""
from __future__ import annotations

import math

import cv2
import numpy as np

# Hershey faces that read well as card indices (the script faces are too ornate for small digits).
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
_SHIFT = 4  # sub-pixel bits for fillPoly: smooth edges on small glyphs
_N = 48     # points on each curved outline


def _circle(cx: float, cy: float, r: float, n: int = _N) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def _heart(n: int = 72) -> np.ndarray:
    # The classic parametric heart, scaled to fit [-1, 1] with the point at the bottom (+y).
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x, y], axis=1)
    pts -= (pts.max(0) + pts.min(0)) / 2
    return pts / np.abs(pts).max()


def _suit_polygons(suit: str) -> list[np.ndarray]:
    """Polygons of one suit symbol in a unit box [-1, 1]^2, pointing up (as printed upright)."""
    if suit == "H":
        return [_heart()]
    if suit == "D":
        t = np.linspace(0, 1, 12)
        # Slightly concave sides, like printed diamonds.
        sides = []
        for (x0, y0), (x1, y1) in [((0, -1), (0.75, 0)), ((0.75, 0), (0, 1)), ((0, 1), (-0.75, 0)), ((-0.75, 0), (0, -1))]:
            mx, my = (x0 + x1) / 2 * 0.86, (y0 + y1) / 2 * 0.86
            bez = ((1 - t) ** 2)[:, None] * [x0, y0] + (2 * (1 - t) * t)[:, None] * [mx, my] + (t ** 2)[:, None] * [x1, y1]
            sides.append(bez[:-1])
        return [np.concatenate(sides)]
    if suit == "S":
        h = _heart() * [0.92, -0.78] + [0, -0.18]  # an upside-down heart makes the blade
        stem = np.array([[0, 0.2], [0.38, 1.0], [-0.38, 1.0]])
        return [h, stem]
    if suit == "C":
        r = 0.36
        return [_circle(0, -0.56, r), _circle(-0.5, 0.1, r), _circle(0.5, 0.1, r), _circle(0, -0.05, 0.25),
                np.array([[0, -0.1], [0.34, 1.0], [-0.34, 1.0]])]
    raise ValueError(f"unknown suit {suit!r}; expected one of C, D, H, S")


_SUIT_CACHE: dict[str, list[np.ndarray]] = {}


def draw_suit(img: np.ndarray, suit: str, centre: tuple[float, float], size: float, colour,
              flip: bool = False) -> None:
    """Fill the suit symbol of height ``size`` px centred at ``centre``; ``flip`` turns it upside
    down (the pips in the lower half of a real card)."""
    polys = _SUIT_CACHE.get(suit)
    if polys is None:
        polys = _SUIT_CACHE[suit] = _suit_polygons(suit)
    s = size / 2 * (-1 if flip else 1)
    pts = [np.round((p * s + centre) * (1 << _SHIFT)).astype(np.int32) for p in polys]
    cv2.fillPoly(img, pts, colour, cv2.LINE_AA, _SHIFT)


def text_size(text: str, font: int, scale: float, thickness: int) -> tuple[int, int]:
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    return w, h


def draw_text(img: np.ndarray, text: str, centre: tuple[float, float], height: float, colour, font: int,
              weight: float = 0.12, max_width: float | None = None) -> tuple[float, float]:
    """Draw ``text`` with its cap height ``height`` px centred at ``centre``; ``weight`` is the
    stroke thickness as a fraction of the height. Narrowed to ``max_width`` when given.
    Returns the drawn (width, height)."""
    thickness = max(1, int(round(height * weight)))
    w1, h1 = text_size(text, font, 1.0, thickness)
    scale = height / max(h1, 1)
    if max_width is not None and w1 * scale > max_width:
        scale = max_width / w1
    thickness = max(1, int(round(h1 * scale * weight)))
    w, h = text_size(text, font, scale, thickness)
    org = (int(round(centre[0] - w / 2)), int(round(centre[1] + h / 2)))
    cv2.putText(img, text, org, font, scale, colour, thickness, cv2.LINE_AA)
    return w, h
