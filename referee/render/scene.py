"""What lies on the table, in table millimetres: cards as they lie in a game of Crazy (the trick in the
middle, won tricks in piles, fanned hands at the edge) and the players' hands and arms over them.

A scene is plain data (dataclasses of numbers and strings) so it can be written to the sidecar JSON and
drawn by ``render.render_scene`` under any camera. The table centre is (0, 0); +x right, +y away.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from .faces import BACK, CARD_H_MM, CARD_W_MM, card_classes

GROUPS = ("trick", "pile", "centre-pile", "hand", "loose", "moving", "gathering")  # the last two: videos


@dataclass
class CardPlacement:
    """One card on the table. ``angle_deg`` turns the card's printed up direction from table +y
    counter-clockwise; ``code`` is the face (drawn when ``face_up``), ``style`` indexes the deck styles."""

    code: str
    face_up: bool
    centre: tuple[float, float]
    angle_deg: float
    group: str
    style: int = 0

    @property
    def label(self) -> str:
        return self.code if self.face_up else BACK

    def corners_mm(self) -> np.ndarray:
        """Table coordinates of the face's top-left, top-right, bottom-right, bottom-left corners
        (as printed, upright): warping these to a rectangle gives the card upright."""
        a = math.radians(self.angle_deg)
        up = np.array([-math.sin(a), math.cos(a)])      # printed top direction
        right = np.array([math.cos(a), math.sin(a)])
        w, h = CARD_W_MM / 2, CARD_H_MM / 2
        c = np.array(self.centre)
        return np.array([c - right * w + up * h, c + right * w + up * h, c + right * w - up * h, c - right * w - up * h])


@dataclass
class Arm:
    """A player's arm reaching over the table: from ``shoulder`` (outside the table edge) to the
    ``hand`` centre, held ``lift_mm`` above the table; skin and sleeve colours are BGR."""

    shoulder: tuple[float, float]
    hand: tuple[float, float]
    lift_mm: float
    width_mm: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    sleeve_frac: float
    spread: float = 0.3          # how far the fingers are spread (0 = closed)

    def polygons_mm(self) -> list[tuple[np.ndarray, tuple[int, int, int]]]:
        """(polygon (N, 2) mm, colour) pieces, drawn in order: forearm, sleeve, palm, thumb, fingers.
        Limbs are capsules (rounded ends) so they read as arms, not boards."""
        s, e = np.array(self.shoulder, float), np.array(self.hand, float)
        d = e - s
        d /= max(float(np.linalg.norm(d)), 1e-6)
        n = np.array([-d[1], d[0]])
        w = self.width_mm
        wrist = e - d * w * 0.75
        cuff = s + (wrist - s) * self.sleeve_frac
        out = [(_capsule(s, wrist, w * 0.48, w * 0.3), self.skin),
               (_capsule(s - d * w, cuff, w * 0.62, w * 0.52), self.sleeve)]
        # palm: a rounded box, a little wider at the knuckles
        t = np.linspace(0, 2 * math.pi, 28, endpoint=False)
        cx, cy = np.cos(t), np.sin(t)
        rx = np.sign(cx) * np.abs(cx) ** 0.6 * w * 0.48
        ry = np.sign(cy) * np.abs(cy) ** 0.6 * w * (0.42 + 0.06 * (cx > 0))
        out.append((e[None] + np.outer(rx, d) + np.outer(ry, n), self.skin))
        side = 1 if self.spread < 0.33 else -1  # left or right hand
        base = e - d * w * 0.15 + n * side * w * 0.38
        thumb_dir = d * 0.55 + n * side * 0.85
        out.append((_capsule(base, base + thumb_dir * w * 0.6, w * 0.13, w * 0.11), self.skin))
        for off, flen in [(-0.3, 0.62), (-0.1, 0.74), (0.1, 0.7), (0.29, 0.55)]:
            ang = off * self.spread * 1.2
            fd = d * math.cos(ang) + n * math.sin(ang)
            base = e + n * off * w * -side + d * w * 0.38
            out.append((_capsule(base, base + fd * w * flen, w * 0.1, w * 0.085), self.skin))
        return out


def _capsule(a: np.ndarray, b: np.ndarray, ra: float, rb: float, n: int = 10) -> np.ndarray:
    """A tapered capsule from ``a`` (radius ``ra``) to ``b`` (radius ``rb``) as a polygon."""
    d = b - a
    d /= max(float(np.linalg.norm(d)), 1e-6)
    nrm = np.array([-d[1], d[0]])
    t = np.linspace(-math.pi / 2, math.pi / 2, n)
    cap_b = b + np.outer(np.cos(t), d) * rb + np.outer(np.sin(t), nrm) * rb
    cap_a = a - np.outer(np.cos(t), d) * ra - np.outer(np.sin(t), nrm) * ra
    return np.concatenate([cap_b, cap_a])


PROP_KINDS = ("scoresheet", "phone", "cup", "pen", "chips", "box")
PROP_SIZES_MM = {"scoresheet": (148, 210), "phone": (72, 150), "cup": (85, 85), "pen": (10, 140),
                 "chips": (38, 38), "box": (68, 95)}


@dataclass
class Prop:
    """Something else on the table (drawn under the cards): a scoresheet, a phone, a cup seen from
    above, a pen, a poker chip, a card box. ``seed`` fixes its look."""

    kind: str
    centre: tuple[float, float]
    angle_deg: float
    size_mm: tuple[float, float]
    seed: int


@dataclass
class Table:
    """The table top: ``round`` (radius) or ``rect`` (half width, half depth), centred at (0, 0).
    Beyond it, ``floor_mm`` below, is the floor."""

    shape: str = "none"          # none: the table fills the view
    radius_mm: float = 0.0
    half_mm: tuple[float, float] = (0.0, 0.0)
    floor_mm: float = 740.0

    def contains(self, x, y):
        if self.shape == "round":
            return x * x + y * y <= self.radius_mm ** 2
        if self.shape == "rect":
            return (abs(x) <= self.half_mm[0]) & (abs(y) <= self.half_mm[1])
        return np.ones_like(x, bool) if isinstance(x, np.ndarray) else True


@dataclass
class Scene:
    game: str
    deck: str
    cards: list[CardPlacement] = field(default_factory=list)
    arms: list[Arm] = field(default_factory=list)
    seats: list[tuple[float, float]] = field(default_factory=list)
    info: dict = field(default_factory=dict)
    props: list[Prop] = field(default_factory=list)
    table: Table = field(default_factory=Table)

    def to_json(self) -> dict:
        return asdict(self)


SKIN_TONES = [(185, 200, 240), (150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130), (45, 60, 95)]


def random_arm(rng: np.random.Generator, seat_angle: float, reach_to: tuple[float, float], edge_r: float) -> Arm:
    shoulder = (math.cos(seat_angle) * (edge_r + 250), math.sin(seat_angle) * (edge_r + 250))
    skin = np.array(SKIN_TONES[rng.integers(len(SKIN_TONES))], float) * rng.uniform(0.9, 1.1)
    sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
    return Arm(shoulder=shoulder, hand=(float(reach_to[0]), float(reach_to[1])), lift_mm=float(rng.uniform(20, 160)),
               width_mm=float(rng.uniform(70, 95)), skin=tuple(int(min(v, 255)) for v in skin), sleeve=sleeve,
               sleeve_frac=float(rng.uniform(0.2, 0.75)), spread=float(rng.uniform(0.05, 0.6)))


def compose_crazy(rng: np.random.Generator, deck: str, styles: int = 1) -> Scene:
    """A moment of a game of Crazy: 4-8 players round the table, a trick of 4-8 cards overlapping in
    the middle, piles of won tricks in front of players, fanned hands at the edge, 0-2 arms."""
    codes = card_classes(deck)
    n = int(rng.integers(4, 9))
    style = int(rng.integers(styles))  # one deck design on the table
    back_style = style
    edge_r = float(rng.uniform(380, 520))                        # centre to the table edge at a seat
    a0 = rng.uniform(0, 2 * math.pi)
    seat_angles = [a0 + 2 * math.pi * i / n + rng.normal(0, 0.08) for i in range(n)]
    seats = [(math.cos(a) * edge_r, math.sin(a) * edge_r) for a in seat_angles]
    pool = list(rng.permutation(codes))
    def draw() -> str:
        nonlocal pool
        if not pool:  # two decks are shuffled together for 8 or more players
            pool = list(rng.permutation(codes))
        return str(pool.pop())

    cards: list[CardPlacement] = []
    centre = np.array([rng.normal(0, 30), rng.normal(0, 30)])
    # won tricks, face down, in front of some players (a stack each, sometimes crossed per trick)
    for a in seat_angles:
        if rng.random() < 0.55:
            d = np.array([math.cos(a), math.sin(a)])
            pos = d * edge_r * rng.uniform(0.55, 0.75) + np.array([-d[1], d[0]]) * rng.normal(0, 60)
            tricks = int(rng.integers(1, 5))
            crossed = rng.random() < 0.5
            base_angle = math.degrees(a) + 90 + rng.normal(0, 15)
            for k in range(tricks):
                for _ in range(n if k < tricks - 1 else int(rng.integers(1, n + 1))):
                    ang = base_angle + (90 * (k % 2) if crossed else 0) + rng.normal(0, 4)
                    cards.append(CardPlacement(draw(), False, tuple(pos + rng.normal(0, 2.5, 2)), float(ang), "pile", back_style))
            if rng.random() < 0.2:  # the last trick turned over to look at it
                cards[-1].face_up = True
    # a face-up pile in the centre with only its top card fully visible (sometimes)
    if rng.random() < 0.2:
        pos = centre + rng.normal(0, 120, 2)
        for _ in range(int(rng.integers(3, 12))):
            cards.append(CardPlacement(draw(), True, tuple(pos + rng.normal(0, 6, 2)), float(rng.uniform(0, 360)),
                                       "centre-pile", style))
    # the trick: each player's card slid in from their seat, overlapping, in play order
    k = int(rng.integers(min(4, n), n + 1)) if rng.random() < 0.9 else int(rng.integers(1, 4))
    first = int(rng.integers(n))
    for i in range(k):
        a = seat_angles[(first + i) % n]
        d = np.array([math.cos(a), math.sin(a)])
        pos = centre + d * rng.uniform(15, 75) + rng.normal(0, 12, 2)
        # a card is put down facing its player: its printed top points away from them
        ang = math.degrees(a) + 90 + rng.normal(0, 20)
        cards.append(CardPlacement(draw(), True, (float(pos[0]), float(pos[1])), float(ang), "trick", style))
    # fanned hands at the edge: held low or put down, mostly backs up, sometimes faces
    fans = [i for i in range(n) if rng.random() < 0.45]
    for i in fans[:3]:
        a = seat_angles[i]
        d = np.array([math.cos(a), math.sin(a)])
        side = np.array([-d[1], d[0]])
        pivot = d * (edge_r - rng.uniform(10, 90)) + side * rng.normal(0, 80)
        m = int(rng.integers(3, 14))
        step = rng.uniform(5, 13)
        face_up = rng.random() < 0.4
        base = math.degrees(a) + 90 + rng.normal(0, 15)   # fan points into the table
        for j in range(m):
            ang = base + (j - (m - 1) / 2) * step
            r = math.radians(ang)
            up = np.array([-math.sin(r), math.cos(r)])
            pos = pivot + up * CARD_H_MM * 0.32
            cards.append(CardPlacement(draw(), face_up, (float(pos[0]), float(pos[1])), float(ang), "hand", style))
    # a stray card or two
    for _ in range(int(rng.integers(0, 3))):
        pos = rng.uniform(-edge_r * 0.7, edge_r * 0.7, 2)
        cards.append(CardPlacement(draw(), bool(rng.random() < 0.6), (float(pos[0]), float(pos[1])),
                                   float(rng.uniform(0, 360)), "loose", style))

    arms = []
    for _ in range(int(rng.choice([0, 1, 1, 2, 2, 3]))):
        i = int(rng.integers(n))
        target = cards[int(rng.integers(len(cards)))].centre if cards and rng.random() < 0.8 else tuple(rng.uniform(-200, 200, 2))
        arms.append(random_arm(rng, seat_angles[i], (target[0] + rng.normal(0, 40), target[1] + rng.normal(0, 40)), edge_r))
    return Scene(game="crazy", deck=deck, cards=cards, arms=arms, seats=seats,
                 info={"players": n, "trick_cards": k, "style": style, "edge_radius_mm": edge_r,
                       "centre_mm": [float(centre[0]), float(centre[1])]},
                 props=random_props(rng, edge_r), table=random_table(rng, edge_r))


def random_table(rng: np.random.Generator, edge_r: float) -> Table:
    """Most tables reach beyond the picture; some show their edge and the floor."""
    u = rng.random()
    if u < 0.55:
        return Table()
    if u < 0.75:
        return Table("round", radius_mm=float(edge_r + rng.uniform(20, 80)))
    a = edge_r + rng.uniform(20, 80)
    return Table("rect", half_mm=(float(a * rng.uniform(1.0, 1.5)), float(a)))


def random_props(rng: np.random.Generator, edge_r: float) -> list[Prop]:
    """0-4 everyday things lying near the edge of the table, between the seats."""
    props = []
    for _ in range(int(rng.choice([0, 1, 1, 2, 2, 3, 4]))):
        kind = str(rng.choice(PROP_KINDS))
        a = rng.uniform(0, 2 * math.pi)
        r = edge_r * rng.uniform(0.55, 0.95)
        w, h = PROP_SIZES_MM[kind]
        props.append(Prop(kind, (float(math.cos(a) * r), float(math.sin(a) * r)), float(rng.uniform(0, 360)),
                          (float(w), float(h)), int(rng.integers(2 ** 31))))
    return props
