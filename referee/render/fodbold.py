"""Fodbold on the table: the board (grid, halves, zones, penalty areas, goals, start numbers, edge
labels), the pieces (red and blue, numbered 1-11, cylinders seen from above and a little from the
side, a marker stacked on the piece it marks), the ball, and the pass and shot cards beside the board.

The board is read from the game's own Board (referee/games/fodbold/board.py), so a different board
file draws a different board. Pieces and the ball are drawn in 3-D through the camera; their labels
follow the same rule as the cards (box of the visible pixels; see render.py).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from .faces import BACK, CardStyle, card_alpha, random_style, render_back
from .glyphs import FONTS, draw_text
from .scene import CardPlacement, Scene, random_arm, random_props, random_table

PIECE_BASE, BALL_ID, BOARD_ID = 20000, 29999, 30000
TEAM_COLOURS = {"red": (40, 40, 200), "blue": (170, 90, 20)}


def piece_class(team: str, number: int) -> str:
    return f"{team}-{number}"


def fodbold_card_ids() -> list[str]:
    from ..games.fodbold.loader import load_decks

    d = load_decks()
    return [*d.passes["red"], *d.passes["blue"], *d.shots]


def fodbold_classes() -> list[str]:
    return ([piece_class(t, n) for t in ("red", "blue") for n in range(1, 12)] + ["ball", "board"]
            + fodbold_card_ids() + [BACK])


@dataclass
class BoardStyle:
    square_mm: float
    margin_mm: float
    greens: tuple[tuple[int, int, int], tuple[int, int, int]]
    line: tuple[int, int, int]
    frame: tuple[int, int, int]
    font: int
    piece_height_mm: float
    piece_colours: dict[str, tuple[int, int, int]]
    number_colour: tuple[int, int, int]
    card_style: CardStyle | None = None


def random_board_style(rng: np.random.Generator) -> BoardStyle:
    g = np.array([rng.uniform(30, 70), rng.uniform(120, 170), rng.uniform(30, 70)])
    return BoardStyle(
        square_mm=float(rng.uniform(26, 34)), margin_mm=float(rng.uniform(12, 25)),
        greens=(tuple(int(v) for v in g), tuple(int(v) for v in np.clip(g * rng.uniform(0.82, 0.92), 0, 255))),
        line=tuple(int(v) for v in rng.integers(215, 256, 3)),
        frame=tuple(int(v) for v in (rng.integers(20, 60, 3) if rng.random() < 0.5 else g * 0.6)),
        font=int(rng.choice(FONTS)), piece_height_mm=float(rng.uniform(6, 12)),
        piece_colours={t: tuple(int(np.clip(v + rng.integers(-25, 26), 0, 255)) for v in c) for t, c in TEAM_COLOURS.items()},
        number_colour=(245, 245, 245) if rng.random() < 0.8 else (20, 20, 20),
        card_style=random_style(rng, "standard"),
    )


@dataclass
class BoardPlacement:
    centre: tuple[float, float]
    angle_deg: float            # the board's "up" (towards blue's goal) from table +y
    style: BoardStyle

    def size_mm(self, board) -> tuple[float, float]:
        s, m = self.style.square_mm, self.style.margin_mm
        return board.columns * s + 2 * m, (board.rows + 2) * s + 2 * m

    def square_mm(self, board, sq) -> np.ndarray:
        """Table mm of the centre of square (x, y) (goal squares too)."""
        s = self.style.square_mm
        local = np.array([(sq[0] - (board.columns - 1) / 2) * s, (sq[1] - (board.rows + 1) / 2) * s])
        a = math.radians(self.angle_deg)
        R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return np.array(self.centre) + R @ local

    def corners_mm(self, board) -> np.ndarray:
        w, h = self.size_mm(board)
        a = math.radians(self.angle_deg)
        right, up = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        c = np.array(self.centre)
        return np.array([c - right * w / 2 + up * h / 2, c + right * w / 2 + up * h / 2,
                         c + right * w / 2 - up * h / 2, c - right * w / 2 - up * h / 2])


@dataclass
class PiecePlacement:
    team: str
    number: int
    square: tuple[int, int]
    pos_mm: tuple[float, float]
    level: int = 0              # 1: stacked on the piece it marks
    lift_mm: float = 0.0        # held above the board (a piece being moved)


@dataclass
class FodboldScene:
    scene: Scene                # cards, arms, props, table
    board: BoardPlacement
    pieces: list[PiecePlacement] = field(default_factory=list)
    ball_mm: tuple[float, float] | None = None


def board_image(board, style: BoardStyle, px_per_mm: float = 2.0) -> np.ndarray:
    """The printed board, upright (blue's goal at the top), ``px_per_mm`` pixels per millimetre."""
    s, m = style.square_mm * px_per_mm, style.margin_mm * px_per_mm
    W = int(round(board.columns * s + 2 * m))
    H = int(round((board.rows + 2) * s + 2 * m))
    img = np.empty((H, W, 3), np.uint8)
    img[:] = style.frame

    def box(x0, y0, x1, y1):
        """Square-grid coords (column, row; rows count up) -> pixel rectangle. Rows 0 and rows + 1 (the
        goal squares) are the first and last square rows of the image inside the margin, so the image's
        centre is the board's centre, as ``BoardPlacement.square_mm`` has it."""
        return ((int(m + x0 * s), int(m + (board.rows + 2 - y1) * s)),
                (int(m + x1 * s), int(m + (board.rows + 2 - y0) * s)))

    for y in range(1, board.rows + 1):  # mowing stripes, two rows each
        p0, p1 = box(0, y, board.columns, y + 1)
        cv2.rectangle(img, p0, p1, style.greens[(y // 2) % 2], -1)
    for team, zones in board.zones.items():  # zones: a faint tint
        for z, (lo, hi) in zones.items():
            p0, p1 = box(0, lo, board.columns, hi + 1)
            roi = img[p0[1]:p1[1], p0[0]:p1[0]]
            roi[:] = np.clip(roi.astype(np.int16) + (12 if z == 1 else 6), 0, 255).astype(np.uint8)
            draw_text(img, str(z), (m / 2, (p0[1] + p1[1]) / 2), m * 0.45, style.line, style.font, 0.12)
    t = max(1, int(px_per_mm * 0.6))
    for x in range(board.columns + 1):
        p0, p1 = box(x, 1, x, board.rows + 1)
        cv2.line(img, p0, (p0[0], p1[1]), style.line, t, cv2.LINE_AA)
    for y in range(1, board.rows + 2):
        p0, _ = box(0, y, board.columns, y)
        cv2.line(img, (int(m), p0[1]), (int(m + board.columns * s), p0[1]), style.line, t, cv2.LINE_AA)
    half = board.halves["red"][1] + 1
    p0, _ = box(0, half, board.columns, half)
    cv2.line(img, (int(m), p0[1]), (int(m + board.columns * s), p0[1]), style.line, 3 * t, cv2.LINE_AA)
    cv2.circle(img, (W // 2, p0[1]), int(s * 2), style.line, 2 * t, cv2.LINE_AA)
    for team, ((c0, c1), (r0, r1)) in board.penalty_area.items():
        p0, p1 = box(c0, r0, c1 + 1, r1 + 1)
        cv2.rectangle(img, p0, p1, style.line, 3 * t, cv2.LINE_AA)
    for team, squares in board.goals.items():  # the goal: a net beyond the goal line
        for sq in squares:
            p0, p1 = box(sq[0], sq[1], sq[0] + 1, sq[1] + 1)
            cv2.rectangle(img, p0, p1, (200, 200, 200), -1)
            for k in range(1, 4):
                xk = p0[0] + (p1[0] - p0[0]) * k // 4
                yk = p0[1] + (p1[1] - p0[1]) * k // 4
                cv2.line(img, (xk, p0[1]), (xk, p1[1]), (120, 120, 120), 1)
                cv2.line(img, (p0[0], yk), (p1[0], yk), (120, 120, 120), 1)
        xs = [q[0] for q in squares]
        p0, p1 = box(min(xs), squares[0][1], max(xs) + 1, squares[0][1] + 1)
        cv2.rectangle(img, p0, p1, style.line, 2 * t, cv2.LINE_AA)
    for team, starts in board.start.items():  # the start numbers printed in their squares
        ink = TEAM_COLOURS[team]
        for number, sq in starts.items():
            p0, p1 = box(sq[0], sq[1], sq[0] + 1, sq[1] + 1)
            draw_text(img, str(number), (p0[0] + s * 0.27, p0[1] + s * 0.25), s * 0.22, ink, style.font, 0.15)
    for x in range(board.columns):  # column letters and row numbers on the frame
        p0, p1 = box(x, 0, x + 1, 0)
        draw_text(img, chr(ord("a") + x), ((p0[0] + p1[0]) / 2, H - m / 2), m * 0.4, style.line, style.font, 0.12)
        draw_text(img, chr(ord("a") + x), ((p0[0] + p1[0]) / 2, m / 2), m * 0.4, style.line, style.font, 0.12)
    for y in range(1, board.rows + 1):
        p0, p1 = box(0, y, 1, y + 1)
        draw_text(img, str(y), (W - m / 2, (p0[1] + p1[1]) / 2), m * 0.35, style.line, style.font, 0.12, max_width=m * 0.8)
    return img


def fodbold_card_face(card_id: str, style: CardStyle, width: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """A pass card (team colour, the two or three piece numbers) or a shot card (black: the straight
    number on top, the lofted number under an arc)."""
    from ..games.fodbold.loader import load_decks

    d = load_decks()
    h = int(round(width * 88 / 63))
    img = np.empty((h, width, 3), np.uint8)
    font = style.font
    if card_id in d.shots:
        shot = d.shots[card_id]
        img[:] = (25, 25, 25)
        ink = (240, 240, 240)
        draw_text(img, str(shot.straight), (width / 2, h * 0.3), h * 0.2, ink, font, 0.13)
        cv2.ellipse(img, (width // 2, int(h * 0.72)), (int(width * 0.3), int(h * 0.12)), 0, 180, 360, ink,
                    max(1, width // 60), cv2.LINE_AA)
        draw_text(img, str(shot.lofted), (width / 2, h * 0.72), h * 0.14, ink, font, 0.13)
    else:
        team = "red" if card_id in d.passes["red"] else "blue"
        img[:] = TEAM_COLOURS[team]
        ink = (245, 245, 245)
        nums = d.passes[team][card_id].players
        for k, n in enumerate(nums):
            draw_text(img, str(n), (width / 2, h * (k + 1) / (len(nums) + 1)), h * 0.2, ink, font, 0.13)
    draw_text(img, card_id, (width * 0.18, h * 0.06), h * 0.04, ink, font, 0.12)
    e = width // 25
    cv2.rectangle(img, (e, e), (width - 1 - e, h - 1 - e), ink, max(1, width // 80), cv2.LINE_AA)
    return img, card_alpha(style, width)


class FodboldFaces:
    """``FaceCache`` interface over the fodbold pass and shot cards (one design per board style)."""

    def __init__(self, styles: list[BoardStyle], width: int = 200):
        self.styles, self.width = styles, width
        self._cache: dict = {}

    def get(self, style_index: int, code: str):
        key = (style_index, code)
        if key not in self._cache:
            cs = self.styles[style_index].card_style
            self._cache[key] = render_back(cs, self.width) if code == BACK else fodbold_card_face(code, cs, self.width)
        return self._cache[key]


def compose_fodbold(rng: np.random.Generator, styles: list[BoardStyle], board=None) -> FodboldScene:
    """A game of fodbold under way: pieces near their start squares, some man-marking stacks, the
    ball at one piece, the card piles and a drawn card beside the board, arms now and then."""
    from ..games.fodbold.loader import load_decks, load_board

    board = board or load_board()
    decks = load_decks()
    si = int(rng.integers(len(styles)))
    style = styles[si]
    bp = BoardPlacement((float(rng.normal(0, 30)), float(rng.normal(0, 30))), float(rng.uniform(0, 360)), style)
    pieces: list[PiecePlacement] = []
    taken: dict[str, set] = {"red": set(), "blue": set()}
    for team in ("red", "blue"):
        for number in range(1, 12):
            sx, sy = board.start[team][number]
            for _ in range(20):
                sq = (int(np.clip(sx + rng.integers(-3, 4), 0, board.columns - 1)),
                      int(np.clip(sy + rng.integers(-4, 5), 1, board.rows)))
                if number == 1:
                    sq = (int(np.clip(sx + rng.integers(-1, 2), 0, board.columns - 1)), sy)
                if sq not in taken[team]:
                    break
            taken[team].add(sq)
            pieces.append(PiecePlacement(team, number, sq, tuple(bp.square_mm(board, sq))))
    # man-marking: a piece stacked on an opponent (never on a square where it already stands)
    for _ in range(int(rng.integers(0, 4))):
        marker = pieces[int(rng.integers(len(pieces)))]
        targets = [p for p in pieces if p.team != marker.team and p.level == 0 and p.number != 1
                   and not any(q.square == p.square and q.level == 1 for q in pieces)]
        if marker.level or not targets or marker.number == 1:
            continue
        target = targets[int(rng.integers(len(targets)))]
        if target.square in taken[marker.team]:
            continue
        taken[marker.team].discard(marker.square)
        marker.square, marker.pos_mm, marker.level = target.square, target.pos_mm, 1
        taken[marker.team].add(target.square)
    holder = pieces[int(rng.integers(len(pieces)))]
    s = style.square_mm
    a = math.radians(bp.angle_deg)
    fwd = np.array([-math.sin(a), math.cos(a)]) * (1 if holder.team == "red" else -1)
    ball = tuple(np.array(holder.pos_mm) + fwd * s * 0.45 + rng.normal(0, 2, 2))
    # card piles beside the board: face-down decks, the drawn card face up
    W, H = bp.size_mm(board)
    right = np.array([math.cos(a), math.sin(a)])
    up = np.array([-math.sin(a), math.cos(a)])
    cards: list[CardPlacement] = []
    for k, ids in enumerate([list(decks.passes["red"]), list(decks.passes["blue"]), list(decks.shots)]):
        if rng.random() < 0.7:
            side = 1 if k != 1 else -1
            pos = (np.array(bp.centre) + right * side * (W / 2 + 60 + rng.uniform(0, 40)) + up * (k - 1) * 110
                   + rng.normal(0, 10, 2))
            ang = bp.angle_deg + rng.normal(0, 10)
            for _ in range(int(rng.integers(2, 6))):
                code = str(ids[int(rng.integers(len(ids)))])
                cards.append(CardPlacement(code, False, tuple(pos + rng.normal(0, 1.5, 2)), float(ang + rng.normal(0, 2)),
                                           "pile", si))
            if rng.random() < 0.6:
                drawn = pos + up * rng.uniform(60, 100) * (1 if k != 2 else -1) + rng.normal(0, 10, 2)
                code = str(ids[int(rng.integers(len(ids)))])
                cards.append(CardPlacement(code, True, tuple(drawn), float(ang + rng.normal(0, 15)), "loose", si))
    edge_r = float(max(W, H) / 2 + rng.uniform(120, 250))
    arms = []
    for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):
        seat = bp.angle_deg * math.pi / 180 + (math.pi / 2 if rng.random() < 0.5 else -math.pi / 2)
        target = np.array(pieces[int(rng.integers(len(pieces)))].pos_mm) + rng.normal(0, 20, 2)
        arms.append(random_arm(rng, seat, (float(target[0]), float(target[1])), edge_r))
    scene = Scene("fodbold", "fodbold", cards, arms, info={"style": si, "holder": piece_class(holder.team, holder.number),
                                                            "centre_mm": list(bp.centre)},
                  props=random_props(rng, edge_r), table=random_table(rng, edge_r))
    scene.props = [p for p in scene.props if not _on_board(bp, board, p.centre)]
    return FodboldScene(scene, bp, pieces, (float(ball[0]), float(ball[1])))


def _on_board(bp: BoardPlacement, board, pt) -> bool:
    a = math.radians(bp.angle_deg)
    d = np.array(pt) - bp.centre
    u, v = d @ [math.cos(a), math.sin(a)], d @ [-math.sin(a), math.cos(a)]
    w, h = bp.size_mm(board)
    return abs(u) < w / 2 + 60 and abs(v) < h / 2 + 60


def _plane_h(camera, pad: int, z: float) -> np.ndarray:
    K = camera.K.copy()
    K[:2, 2] += pad
    return K @ np.column_stack([camera.R[:, 0], camera.R[:, 1], camera.t + z * camera.R[:, 2]])


class FodboldDrawer:
    """Draws a FodboldScene's board (under the cards) and pieces and ball (over them); keeps the
    number of pixels each object was drawn with, for its visible fraction."""

    def __init__(self, fs: FodboldScene, board, cache: dict):
        self.fs, self.board, self.cache = fs, board, cache
        self.drawn_px: dict[int, int] = {}

    def _board_img(self):
        key = ("board", id(self.fs.board.style))
        if key not in self.cache:
            self.cache[key] = board_image(self.board, self.fs.board.style)
        return self.cache[key]

    def underlay(self, canvas, ids, camera, pad, fx):
        from .render import _paste, _rect_to_table

        img = self._board_img()
        h, w = img.shape[:2]
        bp = self.fs.board
        A = _rect_to_table(bp.centre, bp.angle_deg, bp.size_mm(self.board), w, h)
        before = int((ids == BOARD_ID).sum())
        _paste(canvas, ids, img, np.full((h, w), 255, np.uint8), camera.homography(pad) @ A, BOARD_ID, fx.card_shadow)
        self.drawn_px[BOARD_ID] = int((ids == BOARD_ID).sum()) - before

    def overlay(self, canvas, ids, camera, pad, fx):
        st = self.fs.board.style
        r = st.square_mm * 0.38
        hgt = st.piece_height_mm
        t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
        circle = np.stack([np.cos(t), np.sin(t)], 1) * r
        # lower pieces first so a marker on top covers the piece it marks
        order = sorted(range(len(self.fs.pieces)), key=lambda k: (self.fs.pieces[k].level, self.fs.pieces[k].lift_mm))
        for k in order:
            p = self.fs.pieces[k]
            z0 = p.level * hgt + p.lift_mm
            c = np.array(p.pos_mm)
            bot = camera.project_undistorted(np.column_stack([circle + c, np.full(len(t), z0)]), pad)
            top = camera.project_undistorted(np.column_stack([circle + c, np.full(len(t), z0 + hgt)]), pad)
            colour = np.array(st.piece_colours[p.team], np.float32)
            H, W = canvas.shape[:2]
            if p.level == 0 and p.lift_mm < 5:  # soft contact shadow on the board
                x0, y0 = np.maximum(bot.min(0).astype(int) - 12, 0)
                x1, y1 = np.minimum(bot.max(0).astype(int) + 14, (W, H))
                if x1 > x0 and y1 > y0:  # drawn in a window around the piece (the same pixels as full-frame)
                    sh = np.zeros((y1 - y0, x1 - x0), np.float32)
                    cv2.fillConvexPoly(sh, np.round((bot - (x0, y0)) * 4 + 6).astype(np.int32), 1.0, cv2.LINE_AA, 2)
                    sh = cv2.GaussianBlur(sh, (0, 0), 3) * 0.45
                    canvas[y0:y1, x0:x1] *= (1 - sh)[..., None]
            hull = cv2.convexHull(np.round(np.concatenate([bot, top]) * 4).astype(np.int32))
            hx0, hy0 = np.maximum(hull.reshape(-1, 2).min(0) // 4 - 2, 0)
            hx1, hy1 = np.minimum(hull.reshape(-1, 2).max(0) // 4 + 3, (W, H))
            m = np.zeros((max(hy1 - hy0, 0), max(hx1 - hx0, 0)), np.uint8)  # its pixels, in a window
            if m.size:
                cv2.fillConvexPoly(m, hull - np.array([hx0 * 4, hy0 * 4], np.int32), 1, cv2.LINE_8, 2)
            cv2.fillConvexPoly(canvas, hull, tuple(float(v) for v in colour * 0.6), cv2.LINE_AA, 2)
            # the top face with its number, warped through the plane at the top's height
            key = ("top", p.team, p.number, id(st))
            if key not in self.cache:
                size = 64
                face = np.zeros((size, size, 3), np.uint8)
                face[:] = st.piece_colours[p.team]
                rim = tuple(int(v * 0.8) for v in st.piece_colours[p.team])
                cv2.circle(face, (size // 2, size // 2), int(size * 0.42), rim, 2, cv2.LINE_AA)
                draw_text(face, str(p.number), (size / 2, size / 2), size * 0.42, st.number_colour, st.font, 0.14,
                          max_width=size * 0.7)
                alpha = np.zeros((size, size), np.uint8)
                cv2.circle(alpha, (size // 2, size // 2), size // 2 - 1, 255, -1, cv2.LINE_AA)
                self.cache[key] = (face, alpha)
            face, alpha = self.cache[key]
            from .render import _paste

            # the number reads from the piece's own end of the board
            a = self.fs.board.angle_deg + (0 if p.team == "red" else 180)
            ar = math.radians(a)
            right, up = np.array([math.cos(ar), math.sin(ar)]), np.array([-math.sin(ar), math.cos(ar)])
            tl = c - right * r + up * r
            k64 = 2 * r / 64  # top-face pixel -> mm
            A = np.array([[right[0] * k64, -up[0] * k64, tl[0]], [right[1] * k64, -up[1] * k64, tl[1]], [0, 0, 1]])
            _paste(canvas, None, face, alpha, _plane_h(camera, pad, z0 + hgt) @ A, 0, 0.0)
            if m.size:
                ids[hy0:hy1, hx0:hx1][m > 0] = PIECE_BASE + k
            self.drawn_px[PIECE_BASE + k] = int(m.sum())
        if self.fs.ball_mm is not None:
            rb = st.square_mm * 0.27
            centre = camera.project_undistorted(np.array([[*self.fs.ball_mm, rb]]), pad)[0]
            edge = camera.project_undistorted(np.array([[self.fs.ball_mm[0] + rb, self.fs.ball_mm[1], rb]]), pad)[0]
            rp = float(np.linalg.norm(edge - centre))
            mask = np.zeros(canvas.shape[:2], np.uint8)
            cxy = (int(round(centre[0] * 4)), int(round(centre[1] * 4)))
            cv2.circle(mask, cxy, int(rp * 4), 1, -1, cv2.LINE_8, 2)
            cv2.circle(canvas, cxy, int(rp * 4), (235, 235, 235), -1, cv2.LINE_AA, 2)
            for ang in (0.3, 2.4, 4.4):  # the black patches of a football
                q = (int(round((centre[0] + math.cos(ang) * rp * 0.5) * 4)),
                     int(round((centre[1] + math.sin(ang) * rp * 0.5) * 4)))
                cv2.circle(canvas, q, max(1, int(rp * 4 * 0.28)), (30, 30, 30), -1, cv2.LINE_AA, 2)
            ids[mask > 0] = BALL_ID
            self.drawn_px[BALL_ID] = int(mask.sum())


def annotate_objects(fs: FodboldScene, board, drawer: FodboldDrawer, ids: np.ndarray, project) -> list[dict]:
    """Pieces, ball and board: class, box of visible pixels, visible fraction (of the pixels drawn)."""
    from .render import MIN_BOX_PX, MIN_VISIBLE

    objs = []
    entries = [(PIECE_BASE + k, piece_class(p.team, p.number),
                {"kind": "piece", "team": p.team, "number": p.number, "square": _sq_name(p.square), "level": p.level,
                 "centre_mm": list(p.pos_mm)}) for k, p in enumerate(fs.pieces)]
    if fs.ball_mm is not None:
        entries.append((BALL_ID, "ball", {"kind": "ball", "centre_mm": list(fs.ball_mm)}))
    entries.append((BOARD_ID, "board", {"kind": "board", "corners": project(fs.board.corners_mm(board)).round(2).tolist(),
                                        "centre_mm": list(fs.board.centre), "angle_deg": fs.board.angle_deg}))
    # one pass over the frame for the small objects (pieces, ball), one for the board
    ys, xs = np.nonzero((ids >= PIECE_BASE) & (ids < BOARD_ID))
    vals = ids[ys, xs]
    order = np.argsort(vals, kind="stable")
    ys, xs, vals = ys[order], xs[order], vals[order]
    board_mask = ids == BOARD_ID
    for oid, name, extra in entries:
        if oid == BOARD_ID:
            rows, cols = np.nonzero(board_mask.any(axis=1))[0], np.nonzero(board_mask.any(axis=0))[0]
            vis = int(board_mask.sum())
            bbox = (float(cols.min()), float(rows.min()), float(cols.max() + 1), float(rows.max() + 1)) if vis else None
        else:
            lo, hi = np.searchsorted(vals, oid, "left"), np.searchsorted(vals, oid, "right")
            oy, ox = ys[lo:hi], xs[lo:hi]
            vis = int(hi - lo)
            bbox = (float(ox.min()), float(oy.min()), float(ox.max() + 1), float(oy.max() + 1)) if vis else None
        full = max(drawer.drawn_px.get(oid, 0), 1)
        frac = min(1.0, vis / full)
        labelled = bool(bbox and frac >= MIN_VISIBLE and bbox[2] - bbox[0] >= MIN_BOX_PX and bbox[3] - bbox[1] >= MIN_BOX_PX)
        objs.append({**extra, "class": name, "visible_fraction": round(frac, 4), "visible_px": vis,
                     "bbox": list(bbox) if bbox else None, "labelled": labelled})
    return objs


def _sq_name(sq) -> str:
    return f"{chr(ord('a') + sq[0])}{sq[1]}"


def style_to_json(style: BoardStyle) -> dict:
    d = asdict(style)
    d.pop("card_style", None)
    return d
