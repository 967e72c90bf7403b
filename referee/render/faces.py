"""Card faces and backs for the Rook deck (56 cards) and the standard 52-card deck.

A face is drawn upright in its own pixel frame (``width`` x ``width * 88/63``, the 63 x 88 mm card) and
returned with an alpha mask (rounded corners). A ``CardStyle`` holds every choice that makes one deck
design differ from another (paper, ink colours, font, border, corner radius, layout, wear, back
pattern); ``random_style`` draws one from a seeded generator so a detector never learns one design.
"""
from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from ..games.crazy.cards import DECKS, ROOK, Card, full_deck, parse_card
from .glyphs import FONTS, draw_suit, draw_text

CARD_W_MM, CARD_H_MM = 63.0, 88.0
ASPECT = CARD_H_MM / CARD_W_MM
BACK = "back"  # the class name of a face-down card

_RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
# Standard pip positions (column 0 = left, 0.5 = middle, 1 = right; row 0 = top, 1 = bottom).
_PIPS = {
    2: [(.5, 0), (.5, 1)],
    3: [(.5, 0), (.5, .5), (.5, 1)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (.5, .5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, .5), (1, .5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (.5, .75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (.5, .5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (.5, 5 / 6), (0, 1), (1, 1)],
}
ROOK_LAYOUTS = ("classic", "band", "circle")
BACK_PATTERNS = ("lattice", "dots", "rings", "checker", "emblem")


def card_classes(deck: str) -> list[str]:
    """The class names of one deck's faces, in deck order (the codes of referee.games.crazy.cards)."""
    if deck not in DECKS:
        raise ValueError(f"unknown deck {deck!r}; expected one of {', '.join(DECKS)}")
    return [c.code(deck) for c in full_deck(deck)]


@dataclass(frozen=True)
class CardStyle:
    """One deck design. Colours are BGR tuples; sizes are fractions of the card height."""

    deck: str
    paper: tuple[int, int, int]
    inks: dict[str, tuple[int, int, int]]       # colour/suit letter -> ink
    font: int
    weight: float                                # stroke thickness / glyph height
    italic: bool
    corner_radius: float                         # fraction of the card width
    border: str                                  # none | line | double | frame
    border_colour: tuple[int, int, int]
    index_size: float                            # corner index height / card height
    index_inset: tuple[float, float]             # corner index centre, fractions of width / height
    layout: str                                  # Rook: classic | band | circle; standard: "standard"
    centre_size: float                           # Rook centre number height / card height
    wear: float                                  # 0 = crisp print, 1 = faded, speckled, yellowed
    back_pattern: str
    back_colours: tuple[tuple[int, int, int], tuple[int, int, int]]
    back_margin: float
    court_colours: tuple[tuple[int, int, int], ...] = field(default=((40, 40, 190), (160, 80, 20), (20, 170, 220)))
    seed: int = 0
    # the headgear of the jack, queen and king (COURT_HEADGEAR); a design made by ``unlike_courts`` draws
    # them at random and adds ornaments, so a classifier cannot name a court card by our picture alone
    court_heads: tuple[str, str, str] = ("cap", "round", "crown")
    court_ornaments: int = 0

    def to_json(self) -> dict:
        return asdict(self)


def _jitter(rng: np.random.Generator, base, spread: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(b + rng.integers(-spread, spread + 1), 0, 255)) for b in base)


def random_style(rng: np.random.Generator, deck: str) -> CardStyle:
    """Draw one deck design. Every choice stays within what real printed decks look like."""
    if deck not in DECKS:
        raise ValueError(f"unknown deck {deck!r}; expected one of {', '.join(DECKS)}")
    paper = _jitter(rng, (rng.integers(225, 252),) * 3, 8)
    if deck == ROOK:
        inks = {"R": _jitter(rng, (35, 30, 200), 30), "Y": _jitter(rng, (20, rng.integers(160, 215), 235), 20),
                "G": _jitter(rng, (50, 140, 20), 30), "B": _jitter(rng, (30, 30, 30), 25)}
        layout = str(rng.choice(ROOK_LAYOUTS))
    else:
        red, black = _jitter(rng, (40, 30, 200), 30), _jitter(rng, (25, 25, 25), 20)
        inks = {"H": red, "D": red, "C": black, "S": black}
        if rng.random() < 0.15:  # four-colour decks exist (blue diamonds, green clubs)
            inks["D"] = _jitter(rng, (170, 80, 20), 25)
            inks["C"] = _jitter(rng, (40, 130, 30), 25)
        layout = "standard"
    back_a = _jitter(rng, [(40, 40, 170), (150, 60, 20), (40, 110, 30), (30, 30, 30), (110, 40, 100)][rng.integers(5)], 30)
    back_b = _jitter(rng, (235, 235, 235), 20) if rng.random() < 0.7 else _jitter(rng, back_a, 60)
    return CardStyle(
        deck=deck,
        paper=paper,
        inks=inks,
        font=int(rng.choice(FONTS)),
        weight=float(rng.uniform(0.09, 0.17)),
        italic=bool(rng.random() < 0.15),
        corner_radius=float(rng.uniform(0.03, 0.09)),
        border=str(rng.choice(["none", "line", "double", "frame"])),
        border_colour=_jitter(rng, (60, 60, 60), 50) if rng.random() < 0.5 else _jitter(rng, back_a, 20),
        index_size=float(rng.uniform(0.09, 0.13)),
        index_inset=(float(rng.uniform(0.09, 0.12)), float(rng.uniform(0.08, 0.1))),
        layout=layout,
        centre_size=float(rng.uniform(0.26, 0.36)),
        wear=float(rng.uniform(0, 1) ** 2),
        back_pattern=str(rng.choice(BACK_PATTERNS)),
        back_colours=(back_a, back_b),
        back_margin=float(rng.uniform(0.0, 0.08)),
        court_colours=(_jitter(rng, (40, 40, 190), 30), _jitter(rng, (160, 80, 20), 30), _jitter(rng, (20, 170, 220), 30)),
        seed=int(rng.integers(2 ** 31)),
    )


def card_alpha(style: CardStyle, width: int) -> np.ndarray:
    """The card outline as an 8-bit mask (rounded corners, anti-aliased edge)."""
    h = int(round(width * ASPECT))
    s = 4  # draw at 4x and shrink: a smooth rounded edge
    big = np.zeros((h * s, width * s), np.uint8)
    r = max(1, int(style.corner_radius * width * s))
    cv2.rectangle(big, (r, 0), (width * s - 1 - r, h * s - 1), 255, -1)
    cv2.rectangle(big, (0, r), (width * s - 1, h * s - 1 - r), 255, -1)
    for cx, cy in [(r, r), (width * s - 1 - r, r), (r, h * s - 1 - r), (width * s - 1 - r, h * s - 1 - r)]:
        cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (width, h), interpolation=cv2.INTER_AREA)


def _font(style: CardStyle) -> int:
    return style.font | (cv2.FONT_ITALIC if style.italic else 0)


def _blank(style: CardStyle, width: int) -> np.ndarray:
    h = int(round(width * ASPECT))
    img = np.empty((h, width, 3), np.uint8)
    img[:] = style.paper
    return img


def _draw_border(img: np.ndarray, style: CardStyle, colour=None) -> None:
    h, w = img.shape[:2]
    c = colour if colour is not None else style.border_colour
    t = max(1, int(w * 0.008))
    m = int(w * 0.045)
    if style.border == "line":
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), c, t, cv2.LINE_AA)
    elif style.border == "double":
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), c, t, cv2.LINE_AA)
        m2 = m + 3 * t
        cv2.rectangle(img, (m2, m2), (w - 1 - m2, h - 1 - m2), c, t, cv2.LINE_AA)
    elif style.border == "frame":
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), c, 2 * m // 3)


def _mirror_corner(img: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """Copy the top-left index patch, turned half round, to the bottom-right corner (real cards
    carry the index twice, point-symmetric)."""
    x0, y0, x1, y1 = box
    h, w = img.shape[:2]
    patch = img[y0:y1, x0:x1][::-1, ::-1]
    img[h - y1:h - y0, w - x1:w - x0] = patch


def _wear(img: np.ndarray, style: CardStyle, code: str) -> np.ndarray:
    if style.wear < 0.05:
        return img
    rng = np.random.default_rng([style.seed, zlib.crc32(code.encode())])
    out = img.astype(np.float32)
    paper = np.array(style.paper, np.float32)
    out = out + (paper - out) * (0.25 * style.wear)                   # faded ink
    out *= np.array([1 - 0.12 * style.wear, 1 - 0.04 * style.wear, 1.0], np.float32)  # yellowed paper
    h, w = img.shape[:2]
    n = int(style.wear * 40)
    for _ in range(n):  # specks and scuffs
        x, y = int(rng.integers(w)), int(rng.integers(h))
        shade = float(rng.uniform(-35, 5))
        cv2.circle(out, (x, y), int(rng.integers(1, 3)), tuple(float(v + shade) for v in paper), -1)
    return np.clip(out, 0, 255).astype(np.uint8)


def _index(img: np.ndarray, style: CardStyle, text: str, ink, suit: str | None) -> tuple[int, int, int, int]:
    """Draw the corner index (rank, and suit pip below it for standard cards); return its patch."""
    h, w = img.shape[:2]
    ih = style.index_size * h
    cx, cy = style.index_inset[0] * w, style.index_inset[1] * h + ih / 2
    draw_text(img, text, (cx, cy), ih * 0.72, ink, _font(style), style.weight, max_width=w * 0.17)
    bottom = cy + ih / 2
    if suit is not None:
        draw_suit(img, suit, (cx, bottom + ih * 0.42), ih * 0.62, ink)
        bottom += ih * 0.8
    half = w * 0.11
    return (max(0, int(cx - half)), max(0, int(cy - ih / 2 - 3)), int(cx + half), int(bottom + 4))


COURT_HEADGEAR = ("cap", "round", "crown", "none")


def unlike_courts(style: CardStyle, rng: np.random.Generator) -> CardStyle:
    """``style`` with court figures whose headgear is drawn at random for each rank (two ranks may share
    one) and whose robes carry a few random ornaments. Real court pictures differ from ours (on the real
    photos the classifier took 27 of 66 kings for jacks by our crown and cap); on these designs only the
    corner index tells a jack from a king, so a classifier trained on them learns to read it."""
    from dataclasses import replace

    heads = tuple(str(rng.choice(COURT_HEADGEAR)) for _ in range(3))
    return replace(style, court_heads=heads, court_ornaments=int(rng.integers(4, 14)))


def _ornaments(half: np.ndarray, style: CardStyle, card: Card, ink) -> None:
    """Random small shapes over the figure's robe (the busy print of a real court card)."""
    fh, fw = half.shape[:2]
    rng = np.random.default_rng([style.seed, card.number, ord(card.colour)])
    colours = [*style.court_colours, ink, (25, 25, 25)]
    for _ in range(style.court_ornaments):
        c = colours[int(rng.integers(len(colours)))]
        x, y = int(rng.uniform(0.05, 0.95) * fw), int(rng.uniform(0.45, 1.0) * fh)
        r = max(1, int(rng.uniform(0.02, 0.08) * fw))
        kind = rng.integers(3)
        if kind == 0:
            cv2.circle(half, (x, y), r, c, -1, cv2.LINE_AA)
        elif kind == 1:
            x2, y2 = x + int(rng.uniform(-0.3, 0.3) * fw), y + int(rng.uniform(-0.2, 0.2) * fh)
            cv2.line(half, (x, y), (x2, y2), c, max(1, fw // 50), cv2.LINE_AA)
        else:
            cv2.rectangle(half, (x - r, y - r), (x + r, y + r), c, -1)


def _draw_court(img: np.ndarray, style: CardStyle, card: Card, ink) -> None:
    """A double-headed court figure built from simple shapes, framed like a real court card."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = int(w * 0.22), int(h * 0.15), int(w * 0.78), int(h * 0.85)
    fw, fh = x1 - x0, (y1 - y0) // 2
    half = np.empty((fh, fw, 3), np.uint8)
    half[:] = style.paper
    c1, c2, c3 = style.court_colours
    skin = (150, 190, 235)
    # robe: two colour blocks and a collar
    cv2.fillPoly(half, [np.array([[0, fh], [fw * 0.15, fh * 0.45], [fw * 0.85, fh * 0.45], [fw, fh]], np.int32)], c1, cv2.LINE_AA)
    band = np.array([[fw * 0.35, fh], [fw * 0.42, fh * 0.45], [fw * 0.58, fh * 0.45], [fw * 0.65, fh]], np.int32)
    cv2.fillPoly(half, [band], c2, cv2.LINE_AA)
    cv2.ellipse(half, (fw // 2, int(fh * 0.47)), (int(fw * 0.3), int(fh * 0.07)), 0, 0, 360, c3, -1, cv2.LINE_AA)
    # head and face
    cv2.circle(half, (fw // 2, int(fh * 0.33)), int(fw * 0.14), skin, -1, cv2.LINE_AA)
    cv2.circle(half, (int(fw * 0.45), int(fh * 0.31)), max(1, fw // 60), (40, 40, 40), -1)
    cv2.circle(half, (int(fw * 0.55), int(fh * 0.31)), max(1, fw // 60), (40, 40, 40), -1)
    if style.court_ornaments:
        _ornaments(half, style, card, ink)
    # headgear: by default crown (K), rounded crown (Q), cap (J)
    top = int(fh * 0.2)
    head = style.court_heads[card.number - 11]
    if head == "crown":
        pts = [[fw * 0.34, top], [fw * 0.34, fh * 0.06], [fw * 0.42, fh * 0.13], [fw * 0.5, fh * 0.03],
               [fw * 0.58, fh * 0.13], [fw * 0.66, fh * 0.06], [fw * 0.66, top]]
        cv2.fillPoly(half, [np.array(pts, np.int32)], c3, cv2.LINE_AA)
    elif head == "round":
        cv2.ellipse(half, (fw // 2, top), (int(fw * 0.17), int(fh * 0.1)), 0, 180, 360, c3, -1, cv2.LINE_AA)
        for dx in (-0.1, 0, 0.1):
            cv2.circle(half, (int(fw * (0.5 + dx)), int(fh * 0.08)), max(1, fw // 40), c1, -1, cv2.LINE_AA)
    elif head == "cap":
        cap = np.array([[fw * 0.32, top], [fw * 0.4, fh * 0.07], [fw * 0.7, fh * 0.1], [fw * 0.68, top]], np.int32)
        cv2.fillPoly(half, [cap], c1, cv2.LINE_AA)
    # a sceptre / sword line and the suit symbol on the robe
    cv2.line(half, (int(fw * 0.8), int(fh * 0.15)), (int(fw * 0.72), fh), c2, max(1, fw // 40), cv2.LINE_AA)
    draw_suit(half, card.colour, (fw * 0.2, fh * 0.2), fh * 0.18, ink)
    img[y0:y0 + fh, x0:x1] = half
    img[y0 + fh:y0 + 2 * fh, x0:x1] = half[::-1, ::-1]
    cv2.line(img, (x0, y0 + fh), (x1 - 1, y0 + fh), ink, 1, cv2.LINE_AA)
    cv2.rectangle(img, (x0, y0), (x1 - 1, y0 + 2 * fh - 1), ink, max(1, w // 100), cv2.LINE_AA)


def _standard_face(style: CardStyle, card: Card, width: int) -> np.ndarray:
    img = _blank(style, width)
    h, w = img.shape[:2]
    ink = style.inks[card.colour]
    _draw_border(img, style)
    if card.number in (11, 12, 13):
        _draw_court(img, style, card, ink)
    elif card.number == 14:
        draw_suit(img, card.colour, (w / 2, h / 2), h * (0.34 if card.colour == "S" else 0.22), ink)
    else:
        px0, px1, py0, py1 = w * 0.3, w * 0.7, h * 0.2, h * 0.8
        size = h * (0.13 if card.number <= 8 else 0.115)
        for fx, fy in _PIPS[card.number]:
            draw_suit(img, card.colour, (px0 + fx * (px1 - px0), py0 + fy * (py1 - py0)), size, ink, flip=fy > 0.5)
    box = _index(img, style, _RANK_TEXT.get(card.number, str(card.number)), ink, card.colour)
    _mirror_corner(img, box)
    return img


def _rook_face(style: CardStyle, card: Card, width: int) -> np.ndarray:
    img = _blank(style, width)
    h, w = img.shape[:2]
    ink = style.inks[card.colour]
    text = str(card.number)
    font = _font(style)
    _draw_border(img, style, colour=ink if style.border != "none" else None)
    if style.layout == "band":
        bh = int(h * (style.index_size + 0.08))
        img[:bh] = ink
        img[h - bh:] = ink
        index_ink = style.paper
    else:
        index_ink = ink
    if style.layout == "circle":
        r = int(h * style.centre_size * 0.85)
        cv2.circle(img, (w // 2, h // 2), r, ink, -1, cv2.LINE_AA)
        draw_text(img, text, (w / 2, h / 2), h * style.centre_size * 0.75, style.paper, font, style.weight,
                  max_width=r * 1.6)
    else:
        draw_text(img, text, (w / 2, h / 2), h * style.centre_size, ink, font, style.weight, max_width=w * 0.8)
        # A smaller copy above and below the centre number, as on real Rook cards.
        for dy in (-0.27, 0.27):
            draw_text(img, text, (w / 2, h * (0.5 + dy)), h * style.centre_size * 0.28, ink, font, style.weight)
    box = _index(img, style, text, index_ink, None)
    _mirror_corner(img, box)
    return img


def render_face(deck: str, code: str, style: CardStyle, width: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """The upright face of card ``code`` (BGR) and its alpha mask, ``width`` px wide."""
    if style.deck != deck:
        raise ValueError(f"style is for the {style.deck} deck, not {deck}")
    card = parse_card(code, deck)
    img = _rook_face(style, card, width) if deck == ROOK else _standard_face(style, card, width)
    return _wear(img, style, code), card_alpha(style, width)


def render_back(style: CardStyle, width: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """The card back (point-symmetric, so a face-down card shows no orientation) and its alpha mask."""
    h = int(round(width * ASPECT))
    a, b = style.back_colours
    img = np.empty((h, width, 3), np.uint8)
    img[:] = b
    m = int(style.back_margin * width)
    inner = np.empty((h - 2 * m, width - 2 * m, 3), np.uint8)
    inner[:] = a
    ih, iw = inner.shape[:2]
    step = max(4, int(width * 0.06))
    t = max(1, width // 100)
    if style.back_pattern == "lattice":
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + ih, ih), b, t, cv2.LINE_AA)
            cv2.line(inner, (k, ih), (k + ih, 0), b, t, cv2.LINE_AA)
    elif style.back_pattern == "dots":
        for y in range(step // 2, ih, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, iw, step):
                cv2.circle(inner, (x, y), max(1, step // 4), b, -1, cv2.LINE_AA)
    elif style.back_pattern == "rings":
        for r in range(step, max(ih, iw), step):
            cv2.ellipse(inner, (iw // 2, ih // 2), (r, int(r * ih / iw)), 0, 0, 360, b, t, cv2.LINE_AA)
    elif style.back_pattern == "checker":
        yy, xx = np.mgrid[0:ih, 0:iw]
        inner[((yy // step + xx // step) % 2) == 1] = b
    else:  # emblem: a ring with the deck's name, as on Rook backs
        cv2.ellipse(inner, (iw // 2, ih // 2), (int(iw * 0.38), int(ih * 0.3)), 0, 0, 360, b, 2 * t, cv2.LINE_AA)
        name = "ROOK" if style.deck == ROOK else "CARDS"
        draw_text(inner, name, (iw / 2, ih * 0.4), ih * 0.07, b, _font(style), style.weight, max_width=iw * 0.5)
    inner[ih // 2:] = inner[:ih - ih // 2][::-1, ::-1]  # point-symmetric: a back shows no orientation
    img[m:h - m, m:width - m] = inner
    if m > 0:
        cv2.rectangle(img, (m, m), (width - 1 - m, h - 1 - m), a, t, cv2.LINE_AA)
    return _wear(img, style, BACK), card_alpha(style, width)


class FaceCache:
    """Faces drawn once per (style, card) and reused: a dataset uses a handful of styles."""

    def __init__(self, deck: str, styles: list[CardStyle], width: int = 200):
        self.deck, self.styles, self.width = deck, styles, width
        self._cache: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}

    def get(self, style_index: int, code: str) -> tuple[np.ndarray, np.ndarray]:
        key = (style_index, code)
        if key not in self._cache:
            style = self.styles[style_index]
            self._cache[key] = render_back(style, self.width) if code == BACK else render_face(self.deck, code, style, self.width)
        return self._cache[key]


def face_sheet(deck: str, style: CardStyle, width: int = 120, columns: int = 14) -> np.ndarray:
    """Every face of the deck and its back on one image (for a person to look at)."""
    codes = card_classes(deck) + [BACK]
    h = int(round(width * ASPECT))
    gap = max(2, width // 20)
    rows = -(-len(codes) // columns)
    sheet = np.full((rows * (h + gap) + gap, columns * (width + gap) + gap, 3), 90, np.uint8)
    for i, code in enumerate(codes):
        img, alpha = render_back(style, width) if code == BACK else render_face(deck, code, style, width)
        y, x = gap + (i // columns) * (h + gap), gap + (i % columns) * (width + gap)
        a = alpha[..., None].astype(np.float32) / 255
        roi = sheet[y:y + h, x:x + width]
        roi[:] = (img * a + roi * (1 - a)).astype(np.uint8)
    return sheet
