"""Print-and-play: card faces laid out at real size on A4 pages with cut marks, written as a PDF.

Generic over decks: ``write_pdf(faces, out)`` takes any card face images (numpy BGR arrays); the
``referee print DECK --out FILE.pdf`` command knows which decks exist (``DECKS``). The cards of a
page touch, so one straight cut along each mark separates two cards; the marks sit in the margin.
Pages are written one at a time (Pillow appends to the PDF), so a deck never sits in memory whole.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

MM_PER_INCH = 25.4
A4_MM = (210.0, 297.0)


@dataclass(frozen=True)
class SheetLayout:
    card_mm: tuple[float, float] = (63.0, 88.0)
    page_mm: tuple[float, float] = A4_MM
    cols: int = 3
    rows: int = 3
    dpi: int = 300
    mark_mm: float = 5.0      # length of a cut mark
    mark_gap_mm: float = 1.0  # between the cards' edge and the start of a mark

    def px(self, mm: float) -> int:
        return int(round(mm / MM_PER_INCH * self.dpi))

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def grid_origin_mm(self) -> tuple[float, float]:
        """Top-left corner of the card grid: the grid is centred on the page."""
        gw, gh = self.cols * self.card_mm[0], self.rows * self.card_mm[1]
        if gw > self.page_mm[0] or gh > self.page_mm[1]:
            raise ValueError(f"{self.cols}x{self.rows} cards of {self.card_mm} mm do not fit on {self.page_mm} mm")
        return (self.page_mm[0] - gw) / 2, (self.page_mm[1] - gh) / 2

    def card_px(self) -> tuple[int, int]:
        """Card width and height in pixels: the same for every card, so faces are never resampled."""
        return self.px(self.card_mm[0]), self.px(self.card_mm[1])

    def card_box_px(self, index: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) in page pixels of the card at ``index`` (row by row) on a page."""
        ox, oy = self.grid_origin_mm()
        cw, ch = self.card_px()
        x0, y0 = self.px(ox) + (index % self.cols) * cw, self.px(oy) + (index // self.cols) * ch
        return x0, y0, x0 + cw, y0 + ch


def _resize(face: np.ndarray, w: int, h: int) -> np.ndarray:
    import cv2

    if face.shape[1] == w and face.shape[0] == h:
        return face
    return cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA if face.shape[1] > w else cv2.INTER_CUBIC)


def render_page(faces: list[np.ndarray], layout: SheetLayout = SheetLayout()) -> np.ndarray:
    """One page as an RGB array: up to ``layout.per_page`` BGR faces at real size, and cut marks."""
    import cv2

    W, H = layout.px(layout.page_mm[0]), layout.px(layout.page_mm[1])
    page = np.full((H, W, 3), 255, np.uint8)
    for i, face in enumerate(faces[:layout.per_page]):
        x0, y0, x1, y1 = layout.card_box_px(i)
        page[y0:y1, x0:x1] = _resize(face, x1 - x0, y1 - y0)[:, :, ::-1]
    # Cut marks in the margins, on the line of every card edge of the full grid.
    x0, y0, _, _ = layout.card_box_px(0)
    cw, ch = layout.card_px()
    gx = [x0 + c * cw for c in range(layout.cols + 1)]
    gy = [y0 + r * ch for r in range(layout.rows + 1)]
    gap, length = layout.px(layout.mark_gap_mm), layout.px(layout.mark_mm)
    thick = max(1, layout.px(0.2))
    black = (0, 0, 0)
    for x in gx:
        cv2.line(page, (x, gy[0] - gap - length), (x, gy[0] - gap), black, thick)
        cv2.line(page, (x, gy[-1] + gap), (x, gy[-1] + gap + length), black, thick)
    for y in gy:
        cv2.line(page, (gx[0] - gap - length, y), (gx[0] - gap, y), black, thick)
        cv2.line(page, (gx[-1] + gap, y), (gx[-1] + gap + length, y), black, thick)
    return page


def pages(faces: Iterable[np.ndarray], layout: SheetLayout = SheetLayout()) -> Iterator[np.ndarray]:
    batch: list[np.ndarray] = []
    for face in faces:
        batch.append(face)
        if len(batch) == layout.per_page:
            yield render_page(batch, layout)
            batch = []
    if batch:
        yield render_page(batch, layout)


def write_pdf(faces: Iterable[np.ndarray], out: str | Path, layout: SheetLayout = SheetLayout(),
              title: str = "Referee print-and-play") -> int:
    """Write the faces, ``layout.per_page`` to a page, to a PDF at real size; return the page count."""
    from PIL import Image

    out = Path(out)
    n = 0
    for page in pages(faces, layout):
        im = Image.fromarray(page, "RGB")
        # resolution makes the PDF page exactly page_mm; quality keeps small text crisp.
        im.save(out, "PDF", resolution=layout.dpi, append=n > 0, title=title, quality=92)
        n += 1
    return n


# ---- the command ---------------------------------------------------------------------------------

def _crazy_kick_faces(args, width: int, height: int) -> Iterator[np.ndarray]:
    from .games.crazy_kick.catalogue import load_catalog
    from .render.crazy_kick_faces import card_face

    cat = load_catalog(args.catalog)
    for card in cat:
        yield card_face(card, width, height, catalog=cat)


def _crazy_deck_faces(deck: str) -> Callable:
    """The Rook or standard deck in one of the renderer's designs (``--style``), the same faces the
    detector is trained on; white paper where the card's rounded corners leave the sheet."""
    def faces(args, width: int, height: int) -> Iterator[np.ndarray]:
        from .render.faces import card_classes, random_style, render_face

        style = random_style(np.random.default_rng(args.style), deck)
        for code in card_classes(deck):
            img, alpha = render_face(deck, code, style, width=width)
            a = alpha.astype(np.float32)[..., None] / 255
            yield (img * a + 255 * (1 - a)).astype(np.uint8)

    return faces


# deck name -> function(args, face width, face height in pixels) -> faces
DECKS: dict[str, Callable] = {"crazy-kick": _crazy_kick_faces, "rook": _crazy_deck_faces("rook"),
                              "standard": _crazy_deck_faces("standard")}


def _print(args) -> int:
    layout = SheetLayout(dpi=args.dpi)
    width, height = layout.card_px()
    try:
        n = write_pdf(DECKS[args.deck](args, width, height), args.out, layout, title=f"{args.deck} print-and-play")
    except (ValueError, OSError) as e:
        print(f"referee print: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {n} A4 pages, {layout.per_page} cards a page at "
          f"{layout.card_mm[0]:g} x {layout.card_mm[1]:g} mm, {args.dpi} dpi")
    return 0


def _print_group(subparsers):
    """``referee print`` is shared with other modules (calibration sheets): each adds its targets to
    one group, whichever registers first (the same handshake as referee.calibration.commands)."""
    import argparse

    existing = subparsers.choices.get("print")
    if existing is None:
        parser = subparsers.add_parser("print", help="write printable sheets and decks (PDF)")
        group = parser.add_subparsers(dest="print_target", required=True, metavar="TARGET")
        parser._referee_targets = group  # type: ignore[attr-defined]
        return group
    group = getattr(existing, "_referee_targets", None)
    if group is None:
        group = next((a for a in existing._actions if isinstance(a, argparse._SubParsersAction)), None)
    if group is None:
        raise RuntimeError("'referee print' is registered without targets; cannot add the decks to it")
    return group


def register(subparsers) -> None:
    group = _print_group(subparsers)
    for deck in sorted(DECKS):
        p = group.add_parser(deck, help=f"the {deck} deck as a print-and-play PDF: real-size cards on A4, cut marks")
        p.add_argument("--out", required=True, metavar="FILE.pdf")
        if deck == "crazy-kick":
            p.add_argument("--catalog", metavar="FILE", help="a catalogue file; default: the bundled one")
        else:
            p.add_argument("--style", type=int, default=0, help="which of the renderer's card designs (a seed)")
        p.add_argument("--dpi", type=int, default=300, help="resolution of the page images (default 300)")
        p.set_defaults(func=_print, deck=deck)
