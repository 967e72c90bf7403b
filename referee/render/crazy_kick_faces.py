"""Crazy Kick card faces, drawn with OpenCV: the same pixels for the print-and-play deck and for the
synthetic training data, so that what is printed is what the detector learns.

    face = card_face(card, width=630)            # numpy uint8 BGR, portrait, 63 x 88 proportions

A red card is red with white ink; a white card is white with black ink. The player with the ball
is in the middle (number large, name below); each corner is a chip in the named player's team
colour: team-mates he can pass to at the top, opponents who can tackle him at the bottom. Goal
cards show a goal net, GOAL and the scorer. The card id is printed small at the bottom edge.
Hershey fonts only (built into OpenCV): nothing is loaded from disk, every machine draws alike.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..games.crazy_kick.catalogue import Catalog, KickCard, default_catalog, other

CARD_MM = (63.0, 88.0)
# BGR. The white team's ink is near-black so its cards read on a white face.
TEAM_FILL = {"red": (38, 38, 200), "white": (248, 248, 248)}
TEAM_INK = {"red": (255, 255, 255), "white": (25, 25, 25)}
TEAM_EDGE = {"red": (20, 20, 120), "white": (25, 25, 25)}
FONT = cv2.FONT_HERSHEY_DUPLEX
BOLD = cv2.FONT_HERSHEY_TRIPLEX


def _fit_text(img: np.ndarray, text: str, box: tuple[int, int, int, int], colour, font=FONT,
              weight: float = 1.0, max_scale: float | None = None) -> None:
    """Draw ``text`` centred in ``box`` (x0, y0, x1, y1), as large as fits."""
    x0, y0, x1, y1 = box
    (w1, h1), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = min((x1 - x0) / max(w1, 1), (y1 - y0) / max(h1, 1))
    if max_scale is not None:
        scale = min(scale, max_scale)
    thick = max(1, int(round(scale * 1.6 * weight)))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    while (w > x1 - x0 or h > y1 - y0) and scale > 0.05:  # the stroke adds width: shrink to fit
        scale *= 0.95
        (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(x0 + (x1 - x0 - w) / 2), int(y0 + (y1 - y0 + h) / 2))
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _rounded(img: np.ndarray, box, r: int, fill, edge=None, edge_w: int = 0) -> None:
    x0, y0, x1, y1 = box
    r = max(1, min(r, (x1 - x0) // 2, (y1 - y0) // 2))

    def shape(colour, shrink: int, thickness: int) -> None:
        a0, b0, a1, b1, rr = x0 + shrink, y0 + shrink, x1 - shrink, y1 - shrink, max(1, r - shrink)
        cv2.rectangle(img, (a0 + rr, b0), (a1 - rr, b1), colour, thickness, cv2.LINE_AA)
        cv2.rectangle(img, (a0, b0 + rr), (a1, b1 - rr), colour, thickness, cv2.LINE_AA)
        for cx, cy in ((a0 + rr, b0 + rr), (a1 - rr, b0 + rr), (a0 + rr, b1 - rr), (a1 - rr, b1 - rr)):
            cv2.circle(img, (cx, cy), rr, colour, thickness, cv2.LINE_AA)

    if edge is not None and edge_w > 0:
        shape(edge, 0, -1)
        shape(fill, edge_w, -1)
    else:
        shape(fill, 0, -1)


def _chip(img, box, team: str, number: int, name: str, u: float) -> None:
    """A corner: the named player's number and name on his team's colour."""
    _rounded(img, box, int(6 * u), TEAM_FILL[team], TEAM_EDGE[team] if team == "white" else TEAM_INK["red"],
             max(1, int(1.6 * u)))
    x0, y0, x1, y1 = box
    pad = int(3 * u)
    split = y0 + int((y1 - y0) * 0.56)
    _fit_text(img, str(number), (x0 + pad, y0 + pad, x1 - pad, split - pad // 2), TEAM_INK[team], BOLD, 1.1)
    _fit_text(img, name, (x0 + pad, split, x1 - pad, y1 - pad), TEAM_INK[team], FONT, 0.9)


def _goal_net(img, box, ink, u: float) -> None:
    x0, y0, x1, y1 = box
    t = max(1, int(2.5 * u))
    for i in range(1, 8):
        x = x0 + (x1 - x0) * i // 8
        cv2.line(img, (x, y0), (x, y1), ink, max(1, t // 3), cv2.LINE_AA)
    for j in range(1, 5):
        y = y0 + (y1 - y0) * j // 5
        cv2.line(img, (x0, y), (x1, y), ink, max(1, t // 3), cv2.LINE_AA)
    cv2.line(img, (x0, y1), (x0, y0), ink, t * 2, cv2.LINE_AA)   # posts and crossbar
    cv2.line(img, (x0, y0), (x1, y0), ink, t * 2, cv2.LINE_AA)
    cv2.line(img, (x1, y0), (x1, y1), ink, t * 2, cv2.LINE_AA)


def card_face(card: KickCard, width: int = 630, height: int | None = None, catalog: Catalog | None = None) -> np.ndarray:
    """The face of one card as a uint8 BGR array (height x width x 3); height defaults to 88/63 of width."""
    cat = catalog or default_catalog()
    if height is None:
        height = int(round(width * CARD_MM[1] / CARD_MM[0]))
    w, h = int(width), int(height)
    u = w / 63.0 / 4  # drawing unit: a quarter millimetre at real size
    team, ink = card.team, TEAM_INK[card.team]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = TEAM_FILL[team]
    # A frame: the white card needs it to show its edge; on the red card it reads as a border.
    border = max(1, int(6 * u))
    cv2.rectangle(img, (border, border), (w - 1 - border, h - 1 - border), TEAM_EDGE[team] if team == "white"
                  else TEAM_INK["red"], max(1, int(2 * u)), cv2.LINE_AA)
    m = int(12 * u)  # inner margin
    chip_w, chip_h = int(w * 0.40), int(h * 0.17)
    id_h = int(h * 0.05)
    _fit_text(img, card.id, (w // 2 - int(w * 0.1), h - m - id_h, w // 2 + int(w * 0.1), h - m), ink, FONT, 0.8)
    if card.is_goal:
        _fit_text(img, "GOAL!", (m * 2, m + int(h * 0.03), w - m * 2, m + int(h * 0.16)), ink, BOLD, 1.3)
        _goal_net(img, (m * 2, int(h * 0.24), w - m * 2, int(h * 0.50)), ink, u)
        cv2.circle(img, (w // 2, int(h * 0.45)), int(w * 0.06), ink, -1, cv2.LINE_AA)  # the ball in the net
        _fit_text(img, str(card.player), (m * 3, int(h * 0.54), w - m * 3, int(h * 0.74)), ink, BOLD, 1.2)
        _fit_text(img, card.name, (m * 2, int(h * 0.77), w - m * 2, int(h * 0.87)), ink, FONT, 1.0)
        return img
    # Corners: passes (team-mates) on top, tackles (opponents) at the bottom.
    slots_top = [(m, m, m + chip_w, m + chip_h), (w - m - chip_w, m, w - m, m + chip_h)]
    y_b = h - m - id_h - int(4 * u) - chip_h
    slots_bottom = [(m, y_b, m + chip_w, y_b + chip_h), (w - m - chip_w, y_b, w - m, y_b + chip_h)]
    for box, n in zip(slots_top if len(card.passes) == 2 else slots_top[:1], card.passes):
        _chip(img, box, team, n, cat.name(team, n), u)
    for box, n in zip(slots_bottom if len(card.tackles) == 2 else slots_bottom[1:], card.tackles):
        _chip(img, box, other(team), n, cat.name(other(team), n), u)
    # The player with the ball: a disc with his number, his name below.
    cy, r = int(h * 0.45), int(w * 0.21)
    cv2.circle(img, (w // 2, cy), r, ink, max(1, int(3 * u)), cv2.LINE_AA)
    _fit_text(img, str(card.player), (w // 2 - int(r * 0.72), cy - int(r * 0.62), w // 2 + int(r * 0.72),
                                      cy + int(r * 0.62)), ink, BOLD, 1.3)
    _fit_text(img, card.name, (m * 2, cy + r + int(4 * u), w - m * 2, cy + r + int(h * 0.10)), ink, BOLD, 1.1)
    if card.is_keeper:
        _fit_text(img, "GOALKEEPER", (w // 2 - int(w * 0.25), cy - r - int(h * 0.06), w // 2 + int(w * 0.25),
                                      cy - r - int(2 * u)), ink, FONT, 0.9)
    return img


def deck_faces(catalog: Catalog | None = None, width: int = 630):
    """Every card of the catalogue, in catalogue order: (card, face)."""
    cat = catalog or default_catalog()
    for card in cat:
        yield card, card_face(card, width, catalog=cat)


def card_classes(catalog: Catalog | None = None) -> list[str]:
    """Detector class names for this deck: the card ids, in catalogue order (each face is unique)."""
    return [c.id for c in (catalog or default_catalog())]


def face_by_id(card_id: str, width: int = 630, height: int | None = None, catalog: Catalog | None = None) -> np.ndarray:
    """``card_face`` by card id (``R01`` .. ``W60`` in the default catalogue)."""
    cat = catalog or default_catalog()
    return card_face(cat[card_id], width, height, catalog=cat)
