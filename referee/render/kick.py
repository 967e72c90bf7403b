"""Crazy Kick scenes for the synthetic datasets: the catalogue's faces (drawn by
``referee.render.crazy_kick_faces``, the same pixels as the printed deck) on the table as the
real-time game leaves them: a face-up centre pile with only the top card whole, cards slapped on
in a hurry, goal cards set aside, hands of cards at the seats and arms reaching for the pile."""
from __future__ import annotations

import math

import cv2
import numpy as np

from .faces import BACK, card_alpha, random_style, render_back
from .scene import CardPlacement, Scene, random_arm, random_props, random_table

DECK = "crazy-kick"


def kick_classes() -> list[str]:
    from .crazy_kick_faces import card_classes

    return card_classes() + [BACK]


class KickFaces:
    """Faces of the Crazy Kick deck in a few print variations (paper tint, ink fade, corner radius,
    wear), with their backs; same interface as ``FaceCache``."""

    def __init__(self, styles: int, rng: np.random.Generator, width: int = 200):
        self.width = width
        # the Crazy Kick print has no back design of its own: borrow the generic backs
        self.styles = [random_style(rng, "standard") for _ in range(styles)]
        self.tints = [rng.uniform(0.88, 1.04, 3) for _ in range(styles)]
        self._cache: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}

    def get(self, style_index: int, code: str):
        key = (style_index, code)
        if key not in self._cache:
            style = self.styles[style_index]
            if code == BACK:
                self._cache[key] = render_back(style, self.width)
            else:
                from .crazy_kick_faces import face_by_id

                face = face_by_id(code, self.width).astype(np.float32) * self.tints[style_index]
                if style.wear > 0.3:  # a well-used deck: slightly soft print
                    face = cv2.GaussianBlur(face, (0, 0), 0.6)
                self._cache[key] = (np.clip(face, 0, 255).astype(np.uint8), card_alpha(style, self.width))
        return self._cache[key]


def compose_crazy_kick(rng: np.random.Generator, styles: int = 1) -> Scene:
    from ..games.crazy_kick.catalogue import default_catalog

    codes = kick_classes()[:-1]
    goal_ids = {c.id for c in default_catalog() if c.is_goal}
    n = int(rng.integers(2, 9))
    style = int(rng.integers(styles))
    edge_r = float(rng.uniform(330, 480))
    a0 = rng.uniform(0, 2 * math.pi)
    seat_angles = [a0 + 2 * math.pi * i / n + rng.normal(0, 0.1) for i in range(n)]
    seats = [(math.cos(a) * edge_r, math.sin(a) * edge_r) for a in seat_angles]
    pool = list(rng.permutation(codes))
    cards: list[CardPlacement] = []
    centre = rng.normal(0, 30, 2)
    # face-down draw piles in front of some players
    for a in seat_angles:
        if rng.random() < 0.4:
            d = np.array([math.cos(a), math.sin(a)])
            pos = d * edge_r * rng.uniform(0.55, 0.75) + np.array([-d[1], d[0]]) * rng.normal(0, 50)
            base = math.degrees(a) + 90 + rng.normal(0, 10)
            for _ in range(int(rng.integers(2, 6))):
                cards.append(CardPlacement(str(pool.pop()), False, tuple(pos + rng.normal(0, 2, 2)),
                                           float(base + rng.normal(0, 3)), "pile", style))
    # goal cards set aside, face up in a loose row
    for _ in range(int(rng.integers(0, 3))):
        a = seat_angles[int(rng.integers(n))]
        d = np.array([math.cos(a), math.sin(a)])
        side = np.array([-d[1], d[0]])
        pos = d * edge_r * rng.uniform(0.45, 0.65) + side * rng.normal(0, 60)
        goals = [c for c in pool if c in goal_ids] or pool
        for j in range(int(rng.integers(1, 4))):
            code = str(goals[int(rng.integers(len(goals)))])
            if code in pool:
                pool.remove(code)
            cards.append(CardPlacement(code, True, tuple(pos + side * j * rng.uniform(25, 50)),
                                       float(math.degrees(a) + 90 + rng.normal(0, 8)), "loose", style))
    # the centre pile: slapped down fast, in every direction, the top card whole
    m = int(rng.integers(1, 25))
    for _ in range(m):
        pos = centre + rng.normal(0, 9, 2)
        slapper = seat_angles[int(rng.integers(n))]
        cards.append(CardPlacement(str(pool.pop()), True, (float(pos[0]), float(pos[1])),
                                   float(rng.normal(math.degrees(slapper) + 90, 35)), "centre-pile", style))
    for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):  # a card landing late, half on the pile
        pos = centre + rng.normal(0, 40, 2)
        cards.append(CardPlacement(str(pool.pop()), True, (float(pos[0]), float(pos[1])), float(rng.uniform(0, 360)),
                                   "moving", style))
    # hands at the seats, held low: backs
    for i in [i for i in range(n) if rng.random() < 0.5][:4]:
        a = seat_angles[i]
        d = np.array([math.cos(a), math.sin(a)])
        pivot = d * (edge_r - rng.uniform(10, 80)) + np.array([-d[1], d[0]]) * rng.normal(0, 60)
        k = int(rng.integers(3, 9))
        step = rng.uniform(5, 12)
        base = math.degrees(a) + 90 + rng.normal(0, 15)
        for j in range(k):
            ang = base + (j - (k - 1) / 2) * step
            r = math.radians(ang)
            pos = pivot + np.array([-math.sin(r), math.cos(r)]) * 88 * 0.32
            cards.append(CardPlacement(str(pool.pop()), bool(rng.random() < 0.15), (float(pos[0]), float(pos[1])),
                                       float(ang), "hand", style))
    arms = []
    for _ in range(int(rng.choice([0, 1, 1, 2, 2, 3]))):
        i = int(rng.integers(n))
        target = centre + rng.normal(0, 50, 2) if rng.random() < 0.7 else np.array(cards[int(rng.integers(len(cards)))].centre)
        arms.append(random_arm(rng, seat_angles[i], (float(target[0]), float(target[1])), edge_r))
    return Scene(game="crazy-kick", deck=DECK, cards=cards, arms=arms, seats=seats,
                 info={"players": n, "pile_cards": m, "style": style, "edge_radius_mm": edge_r,
                       "centre_mm": [float(centre[0]), float(centre[1])]},
                 props=random_props(rng, edge_r), table=random_table(rng, edge_r))
