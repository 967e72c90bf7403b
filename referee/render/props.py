"""Everyday things on a card table, drawn from above: a scoresheet, a phone, a cup, a pen, a poker
chip, a card box. They teach the detector what is *not* a card (a white sheet, a card-sized box)."""
from __future__ import annotations

import cv2
import numpy as np

from .clutter import CLUTTER_KINDS, clutter_image
from .glyphs import FONTS, draw_text
from .scene import Prop


def prop_image(prop: Prop, px_per_mm: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """The prop's top view (BGR) and alpha, ``px_per_mm`` pixels per millimetre, upright."""
    rng = np.random.default_rng(prop.seed)
    w, h = max(2, int(prop.size_mm[0] * px_per_mm)), max(2, int(prop.size_mm[1] * px_per_mm))
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    k = prop.kind
    if k in CLUTTER_KINDS:  # paper clutter of busy scenes (clutter.py): opaque rectangles
        alpha[:] = 255
        return clutter_image(prop, rng, w, h), alpha
    if k == "scoresheet":
        img[:] = (rng.integers(225, 250), rng.integers(230, 252), rng.integers(232, 255))
        alpha[:] = 255
        ink = tuple(int(v) for v in rng.choice([(120, 60, 20), (30, 30, 30), (40, 40, 150)]))
        step = max(4, int(8 * px_per_mm))
        for y in range(step * 2, h - step, step):
            cv2.line(img, (step, y), (w - step, y), (200, 170, 150), 1, cv2.LINE_AA)
        for x in range(step, w - step, w // 5):
            cv2.line(img, (x, step * 2), (x, h - step), (200, 170, 150), 1, cv2.LINE_AA)
        for y in range(step * 2, h - step * 3, step):  # hand-written scores: short wobbly strokes
            for x in range(step + 4, w - step * 2, w // 5):
                if rng.random() < 0.6:
                    pts = np.stack([x + np.cumsum(rng.uniform(0, 4, 5)), y + step * 0.7 - rng.uniform(0, step * 0.6, 5)], 1)
                    cv2.polylines(img, [pts.astype(np.int32)], False, ink, 1, cv2.LINE_AA)
        draw_text(img, "CRAZY", (w / 2, step), step * 0.6, ink, int(rng.choice(FONTS)), 0.1)
    elif k == "phone":
        r = int(w * 0.12)
        cv2.rectangle(alpha, (r, 0), (w - r, h), 255, -1)
        cv2.rectangle(alpha, (0, r), (w, h - r), 255, -1)
        for c in [(r, r), (w - r, r), (r, h - r), (w - r, h - r)]:
            cv2.circle(alpha, c, r, 255, -1)
        img[:] = (rng.integers(10, 40),) * 3
        m = int(w * 0.06)
        yy = np.linspace(0, 1, h - 2 * m)[:, None, None]
        screen = (np.array([60, 30, 20]) * (1 - yy) + np.array([rng.integers(60, 200), 80, 40]) * yy).astype(np.uint8)
        img[m:h - m, m:w - m] = np.broadcast_to(screen, (h - 2 * m, w - 2 * m, 3))
    elif k in ("cup", "chips"):
        c = (w // 2, h // 2)
        cv2.circle(alpha, c, min(w, h) // 2 - 1, 255, -1, cv2.LINE_AA)
        rim = tuple(int(v) for v in rng.integers(150, 250, 3))
        img[:] = rim
        if k == "cup":  # rim, then coffee (or tea) inside
            drink = tuple(int(v) for v in rng.choice([(20, 40, 70), (40, 90, 150), (200, 200, 200)]))
            cv2.circle(img, c, int(min(w, h) * 0.4), drink, -1, cv2.LINE_AA)
            cv2.circle(img, (int(w * 0.4), int(h * 0.4)), max(1, w // 12), (235, 235, 235), -1, cv2.LINE_AA)
        else:  # a poker chip: coloured with white edge spots
            img[:] = tuple(int(v) for v in rng.integers(20, 220, 3))
            for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                p = (int(c[0] + np.cos(a) * w * 0.4), int(c[1] + np.sin(a) * h * 0.4))
                cv2.circle(img, p, max(1, w // 12), (240, 240, 240), -1, cv2.LINE_AA)
    elif k == "pen":
        cv2.ellipse(alpha, (w // 2, h // 2), (w // 2, h // 2), 0, 0, 360, 255, -1, cv2.LINE_AA)
        img[:] = tuple(int(v) for v in rng.integers(20, 230, 3))
        img[: h // 8] = (200, 200, 200)
    elif k == "box":
        alpha[:] = 255
        img[:] = tuple(int(v) for v in rng.integers(30, 220, 3))
        cv2.rectangle(img, (w // 8, h // 6), (w - w // 8, h - h // 6), tuple(int(v) for v in rng.integers(30, 250, 3)), -1)
        draw_text(img, "CARDS", (w / 2, h / 2), h * 0.08, (250, 250, 250), int(rng.choice(FONTS)), 0.12, max_width=w * 0.7)
    else:
        raise ValueError(f"unknown prop {k!r}")
    return img, alpha
