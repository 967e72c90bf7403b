"""Busy surfaces and paper clutter, for the detector's sim-to-real gap.

On the real photos (../shared/data/real-cards) the detector missed cards lying on carpet, stone, brick
and printed matter, and fired on rectangles in the carpet: our tables were wood, cloth, felt and plain
colour. A share of the table views (``Recipe.clutter``) swaps the table for one of these surfaces and
lays books, printed pages and photos on it, under and beside the cards. Everything is drawn from a
seeded generator of its own, so a recipe without clutter renders exactly what it did before.
"""
from __future__ import annotations

import string

import cv2
import numpy as np

from .scene import Prop
from .table import _colourise, fractal_noise

BUSY_KINDS = ("carpet", "granite", "brick", "rug", "print")
CLUTTER_KINDS = ("book", "page", "photo", "envelope")
CLUTTER_SIZES_MM = {"book": ((120, 180), (170, 260)), "page": ((180, 230), (250, 320)),
                    "photo": ((90, 160), (60, 120)), "envelope": ((160, 240), (90, 130))}
BUSY_SIZE = 1536  # texture pixels over TABLE_MM: about 1 px per mm, so the fine grain survives the view


def busy_texture(rng: np.random.Generator, kind: str | None = None, size: int = BUSY_SIZE) -> tuple[np.ndarray, dict]:
    """A busy surface (BGR, ``size`` square over the same 1600 mm as a table texture) and its description."""
    kind = kind or str(rng.choice(BUSY_KINDS))
    if kind == "carpet":  # loops of two or three yarn colours, fine speckle over a slow shade
        base = np.clip(rng.uniform(60, 200) + rng.normal(0, 30, 3), 15, 240)
        yarns = [base * rng.uniform(0.55, 1.35, 3) for _ in range(int(rng.integers(2, 4)))]
        pick = rng.integers(0, len(yarns), (size, size))
        img = np.stack(yarns)[pick].astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.6, 1.2))
        img *= (0.8 + 0.4 * fractal_noise(rng, size, 4, 4))[..., None]
        info = {"kind": kind, "colour": [float(c) for c in base]}
    elif kind == "granite":  # speckles at several sizes
        dark, light = np.clip(rng.uniform(20, 90, 3), 0, 255), np.clip(rng.uniform(140, 240, 3), 0, 255)
        v = np.zeros((size, size), np.float32)
        for sigma in (0.8, 2.0, 4.0):
            n = cv2.GaussianBlur(rng.random((size, size), dtype=np.float32), (0, 0), sigma)
            v += (n > np.quantile(n, rng.uniform(0.6, 0.9))).astype(np.float32) * rng.uniform(0.2, 0.5)
        img = _colourise(np.clip(1 - v, 0, 1), dark, light).astype(np.float32)
        info = {"kind": kind, "colour": [float(c) for c in light]}
    elif kind == "brick":  # bricks or tiles with mortar, each its own shade
        colour = np.array(rng.choice([(60, 80, 170), (90, 110, 150), (150, 150, 150), (120, 160, 200)]), np.float32)
        bw, bh = int(rng.uniform(110, 240)), int(rng.uniform(50, 120))
        img = np.empty((size, size, 3), np.float32)
        for r, y in enumerate(range(0, size, bh)):
            off = (bw // 2) * (r % 2) if rng.random() < 0.8 else 0
            for x in range(-off, size, bw):
                img[y:y + bh, max(x, 0):x + bw] = colour * rng.uniform(0.7, 1.2)
        mortar = np.zeros((size, size), bool)
        m = max(2, int(rng.uniform(2, 7)))
        for y in range(0, size, bh):
            mortar[y:y + m] = True
        img[mortar] = rng.uniform(150, 220)
        img *= (0.85 + 0.3 * cv2.GaussianBlur(rng.random((size, size), dtype=np.float32), (0, 0), 1.5))[..., None]
        info = {"kind": kind, "colour": [float(c) for c in colour]}
    elif kind == "rug":  # woven bands of colour with a repeating pattern
        img = np.empty((size, size, 3), np.float32)
        y = 0
        while y < size:
            h = int(rng.uniform(10, 90))
            img[y:y + h] = rng.uniform(20, 230, 3)
            if rng.random() < 0.5:  # a zigzag or dotted band
                period = int(rng.uniform(12, 40))
                xs = np.arange(size)
                tri = np.abs((xs % period) - period / 2) / (period / 2)
                for yy in range(y, min(y + h, size)):
                    on = np.abs(tri - (yy - y) / max(h, 1)) < 0.15
                    img[yy, on] = rng.uniform(20, 230, 3) if yy == y else img[y, 0] * 0.4 + 120
            y += h
        img = cv2.GaussianBlur(img, (0, 0), 0.8) * (0.85 + 0.3 * rng.random((size, size, 1), dtype=np.float32))
        info = {"kind": kind}
    elif kind == "print":  # a spread of newspaper: columns of text lines and pictures
        img = np.full((size, size, 3), rng.uniform(200, 240), np.uint8)
        _text_block(img, rng, (0, 0, size, size), line_px=int(rng.uniform(5, 10)))
        for _ in range(int(rng.integers(2, 7))):
            w, h = int(rng.uniform(80, 300)), int(rng.uniform(60, 260))
            x, y = int(rng.uniform(0, size - w)), int(rng.uniform(0, size - h))
            img[y:y + h, x:x + w] = _picture(rng, w, h)
        info = {"kind": kind}
    else:
        raise ValueError(f"unknown busy surface {kind!r}; expected one of {', '.join(BUSY_KINDS)}")
    return np.clip(img, 0, 255).astype(np.uint8), info


def clutter_props(rng: np.random.Generator, centre, radius_mm: float) -> list[Prop]:
    """1-4 books, pages, photos or envelopes anywhere within ``radius_mm`` of ``centre``: real cards lie on them."""
    props = []
    for _ in range(int(rng.integers(1, 5))):
        kind = str(rng.choice(CLUTTER_KINDS))
        (w0, w1), (h0, h1) = CLUTTER_SIZES_MM[kind]
        a, r = rng.uniform(0, 2 * np.pi), radius_mm * np.sqrt(rng.random())
        props.append(Prop(kind, (float(centre[0] + np.cos(a) * r), float(centre[1] + np.sin(a) * r)),
                          float(rng.uniform(0, 360)), (float(rng.uniform(w0, w1)), float(rng.uniform(h0, h1))),
                          int(rng.integers(2 ** 31))))
    return props


def clutter_image(prop: Prop, rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """The top view (BGR, uint8) of a clutter prop, w x h px."""
    k = prop.kind
    if k == "book":  # a cover: a colour, a title, maybe a picture, a darker spine
        img = np.empty((h, w, 3), np.float32)
        img[:] = rng.uniform(15, 235, 3)
        if rng.random() < 0.6:
            pw, ph = int(w * rng.uniform(0.5, 0.9)), int(h * rng.uniform(0.3, 0.6))
            x, y = int(rng.uniform(0, w - pw)), int(rng.uniform(h * 0.3, h - ph))
            img[y:y + ph, x:x + pw] = _picture(rng, pw, ph)
        img = img.clip(0, 255).astype(np.uint8)  # OpenCV writes text on 8-bit images only
        ink = tuple(float(v) for v in (255 - img[2, 2].astype(np.float32)) * rng.uniform(0.6, 1.0))
        for i in range(int(rng.integers(1, 4))):
            _line_of_text(img, rng, (int(w * 0.08), int(h * (0.1 + 0.09 * i))), int(w * 0.84),
                          int(h * rng.uniform(0.04, 0.08)), ink)
        img[:, : max(2, w // 14)] //= 2
        return img
    if k in ("page", "envelope"):
        img = (np.full((h, w, 3), rng.uniform(215, 250)) * rng.uniform(0.93, 1.0, 3)).astype(np.uint8)
        if k == "page":
            _text_block(img, rng, (int(w * 0.08), int(h * 0.06), int(w * 0.92), int(h * 0.94)),
                        line_px=max(4, int(h * rng.uniform(0.02, 0.035))))
        else:
            for i in range(3):
                _line_of_text(img, rng, (int(w * 0.45), int(h * (0.45 + 0.12 * i))), int(w * 0.45),
                              max(4, int(h * 0.07)), (40, 40, 40))
            img[int(h * 0.08):int(h * 0.3), int(w * 0.82):int(w * 0.94)] = rng.uniform(30, 220, 3)  # a stamp
        return img
    if k == "photo":
        img = np.full((h, w, 3), 245, np.uint8)
        m = max(2, int(min(w, h) * 0.05))
        img[m:h - m, m:w - m] = _picture(rng, w - 2 * m, h - 2 * m)
        return img
    raise ValueError(f"unknown clutter prop {k!r}")


def _picture(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A made-up photograph: a colour gradient with blobs and edges."""
    a, b = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img = a * (1 - t) + b * t + 60 * (fractal_noise(rng, max(w, h), 3, 2)[:h, :w, None] - 0.5)
    img = np.broadcast_to(img, (h, w, 3)).copy()
    for _ in range(int(rng.integers(1, 6))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        ax = (int(rng.uniform(3, max(4, w / 3))), int(rng.uniform(3, max(4, h / 3))))
        cv2.ellipse(img, c, ax, float(rng.uniform(0, 180)), 0, 360, tuple(float(v) for v in rng.uniform(0, 255, 3)), -1)
    return img.clip(0, 255).astype(np.uint8)


def _line_of_text(img, rng, org, width: int, height: int, ink) -> None:
    """Words of random letters (OpenCV's own Hershey font: nothing to load) up to ``width`` px."""
    scale = max(height, 3) / 22.0
    x = org[0]
    while True:
        word = "".join(rng.choice(list(string.ascii_letters), int(rng.integers(2, 9))))
        (tw, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        if x + tw > org[0] + width:
            break
        cv2.putText(img, word, (x, org[1] + height), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1, cv2.LINE_AA)
        x += tw + max(2, int(height * 0.5))


def _text_block(img, rng, box, line_px: int) -> None:
    """Columns of text lines inside ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    cols = int(rng.integers(1, 4))
    col_w = (x1 - x0) / cols
    ink = tuple(float(v) for v in rng.uniform(10, 70, 3))
    for c in range(cols):
        cx = int(x0 + c * col_w + line_px)
        for y in range(y0 + line_px, y1 - 2 * line_px, int(line_px * 1.6)):
            _line_of_text(img, rng, (cx, y), int(col_w - 2 * line_px), line_px, ink)
