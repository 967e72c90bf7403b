"""Printable sheets at true size: the ChArUco calibration board and the four table corner markers.

PNG or PDF by the file name's extension; the PDF page is the paper size, so printing it at 100 %
(no "fit to page") gives the stated millimetres. Each sheet says what to measure to check that.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .camera import CharucoSpec, aruco_dictionary
from .files import CalibrationError
from .table import CORNER_NAMES, TableMarkers

PAPER_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
MIN_MARGIN_MM = 5.0  # most printers cannot print closer to the edge


def _px(mm: float, dpi: int) -> int:
    return int(round(mm / 25.4 * dpi))


def _page(paper: str, dpi: int) -> np.ndarray:
    if paper.lower() not in PAPER_MM:
        raise CalibrationError("", f"unknown paper {paper!r}; expected one of {', '.join(PAPER_MM)}")
    w, h = PAPER_MM[paper.lower()]
    return np.full((_px(h, dpi), _px(w, dpi)), 255, np.uint8)


def _text(page: np.ndarray, text: str, x_mm: float, y_mm: float, dpi: int, size_mm: float = 3.0) -> None:
    scale = _px(size_mm, dpi) / 22.0  # HERSHEY_SIMPLEX capitals are about 22 px tall at scale 1
    cv2.putText(page, text, (_px(x_mm, dpi), _px(y_mm, dpi)), cv2.FONT_HERSHEY_SIMPLEX, scale, 0,
                max(1, _px(0.25, dpi)), cv2.LINE_AA)


def charuco_sheet(spec: CharucoSpec, paper: str = "a4", dpi: int = 300) -> np.ndarray:
    """A page with the ChArUco board at true size (``spec`` sides in metres) and a caption."""
    page = _page(paper, dpi)
    pw, ph = PAPER_MM[paper.lower()]
    bw, bh = spec.columns * spec.square * 1000, spec.rows * spec.square * 1000
    if bw > pw - 2 * MIN_MARGIN_MM or bh > ph - 2 * MIN_MARGIN_MM:
        raise CalibrationError("", f"a {spec.columns}x{spec.rows} board of {spec.square * 1000:g} mm squares is {bw:g} x {bh:g} mm: "
                                   f"too big for {paper} ({pw:g} x {ph:g} mm with {MIN_MARGIN_MM:g} mm margins); use smaller squares")
    board = spec.board().generateImage((_px(bw, dpi), _px(bh, dpi)), marginSize=0, borderBits=1)
    x0, y0 = _px((pw - bw) / 2, dpi), _px((ph - bh) / 2, dpi)
    page[y0:y0 + board.shape[0], x0:x0 + board.shape[1]] = board
    caption = (f"ChArUco {spec.columns}x{spec.rows}  square {spec.square * 1000:g} mm  marker {spec.marker * 1000:g} mm  "
               f"{spec.dictionary}{'  legacy' if spec.legacy else ''}  - print at 100 %, check a square")
    _text(page, caption, (pw - bw) / 2, (ph - bh) / 2 + bh + min(4.0, (ph - bh) / 2 - 1), dpi, size_mm=2.0)
    return page


def table_marker_pages(markers: TableMarkers, paper: str = "a4", dpi: int = 300) -> list[np.ndarray]:
    """One page per corner marker: the marker at true size in the middle, guide lines along its centre
    lines (lay them along the edges of the playing area, so the marker's centre is on the corner), and
    a label saying which corner it is and which way it faces."""
    dictionary = aruco_dictionary(markers.dictionary)
    pages = []
    pw, ph = PAPER_MM[paper.lower()] if paper.lower() in PAPER_MM else (0, 0)
    for corner, marker_id in zip(CORNER_NAMES, markers.ids):
        page = _page(paper, dpi)
        s = markers.size_mm
        if s + 40 > min(pw, ph):
            raise CalibrationError("", f"a {s:g} mm marker does not fit on {paper} with its quiet zone and guide lines")
        side = _px(s, dpi)
        img = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        cx, cy = _px(pw / 2, dpi), _px(ph / 2, dpi)
        page[cy - side // 2:cy - side // 2 + side, cx - side // 2:cx - side // 2 + side] = img
        quiet = _px(s / 2 + 10, dpi)  # keep the lines off the white border the detector needs
        t = max(1, _px(0.3, dpi))
        top, bottom = _px(34, dpi), _px(ph - 18, dpi)  # clear of the text
        for a, b in (((cx, top), (cx, cy - quiet)), ((cx, cy + quiet), (cx, bottom)),
                     ((0, cy), (cx - quiet, cy)), ((cx + quiet, cy), (page.shape[1], cy))):
            cv2.line(page, a, b, 0, t)
        _text(page, f"Referee table marker id {marker_id}: {corner.upper()} corner of the playing area", 12, 15, dpi, 4.0)
        _text(page, f"{markers.dictionary}, black square {s:g} mm: print at 100 % and measure it.", 12, 22, dpi, 3.0)
        _text(page, "Lay the lines along the edges of the playing area; this text towards the table's top edge.", 12, 28, dpi, 3.0)
        _text(page, f"Playing area {markers.width_mm:g} x {markers.height_mm:g} mm between marker centres.", 12, ph - 12, dpi, 3.0)
        pages.append(page)
    return pages


def write_pages(pages: list[np.ndarray], out: str | Path, dpi: int) -> list[Path]:
    """PDF: one file, one page each. PNG: one file per page (``name-1.png`` ... when there are several)."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise CalibrationError(str(out), "the output must end in .pdf or .png")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        return _write(pages, out, suffix, dpi)
    except OSError as e:
        raise CalibrationError(str(out), f"cannot write it: {e.strerror or e}") from None


def _write(pages: list[np.ndarray], out: Path, suffix: str, dpi: int) -> list[Path]:
    from PIL import Image

    if suffix == ".pdf":
        # bilevel pages: a few kB each instead of a megabyte (marker edges stay sharp, no dithering)
        images = [Image.fromarray(np.where(p >= 128, 255, 0).astype(np.uint8)).convert("1", dither=Image.Dither.NONE)
                  for p in pages]
        images[0].save(out, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:])
        return [out]
    paths = [out] if len(pages) == 1 else [out.with_name(f"{out.stem}-{i + 1}{out.suffix}") for i in range(len(pages))]
    for p, page in zip(paths, pages):
        # pHYs chunk via Pillow so image viewers and printers know the true size
        Image.fromarray(page).save(p, dpi=(dpi, dpi))
    return paths
