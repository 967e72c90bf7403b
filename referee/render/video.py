"""``referee simulate``: a rendered video of a simulated game with its ground truth.

The rules engine plays a random legal game (illegal plays injected at ``--fouls``); a timeline gives
every action a time (reach in, slide the card to the trick, let go; the winner gathers the trick onto
a pile); each frame is composed from the timeline and rendered like a training image under one camera
that shakes a little. Written to DIR:

    video.mp4      30 fps (mp4v)
    actions.jsonl  the action log `referee replay` reads, each action with its time ``t`` and ``frame``
    truth.json     the engine's events and scoresheet for exactly those actions
    frames.jsonl   per frame: every labelled card's class, box, four corners and visible fraction

This module is light to import (the command loads OpenCV and the renderer when it runs).
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

GAMES = ("crazy", "crazy-kick", "fodbold")
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lev")


class SimulateError(ValueError):
    """Arguments that cannot make a video."""


@dataclass
class PlaySeg:
    player: str
    code: str
    t0: float          # the hand takes the card from the fan
    t1: float          # the card lands in the trick: the action's time
    pos: tuple[float, float]
    angle: float
    round_no: int
    trick_no: int


@dataclass
class GatherSeg:
    winner: str
    t0: float
    t1: float
    round_no: int
    trick_no: int


@dataclass
class Timeline:
    actions: list[dict]
    plays: list[PlaySeg] = field(default_factory=list)
    gathers: list[GatherSeg] = field(default_factory=list)
    round_starts: list[float] = field(default_factory=list)
    cards_per_player: int = 0


def _smooth(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def plan_crazy(seed: int, players: list[str], deck: str, fouls: float, seconds: float, layout) -> Timeline:
    """Play a random game and give each action a time; keep the actions up to ``seconds``."""
    import random

    from ..games.crazy.actions import ACTION_ADAPTER
    from ..games.crazy.rules import CrazyGame
    from ..games.crazy.simulate import random_game

    prng = random.Random(seed)
    log = random_game(prng, players, deck, fouls=fouls)
    game = CrazyGame(ACTION_ADAPTER.validate_python(log[0]))
    tl = Timeline(actions=[{**log[0], "t": 0.0}], cards_per_player=game.cards_per_player)
    clock = 0.3
    round_no, trick_no = 0, 0
    for obj in log[1:]:
        if clock > seconds:
            break
        action = ACTION_ADAPTER.validate_python(obj)
        if obj["type"] == "deal":
            round_no += 1
            trick_no = 0
            tl.round_starts.append(clock)
            tl.actions.append({**obj, "t": round(clock, 3)})
            game.apply(action)
            continue
        if obj["type"] == "choose":
            tl.actions.append({**obj, "t": round(clock, 3)})
            game.apply(action)
            clock += 0.3
            continue
        # a play: think, reach, slide
        t0 = clock + prng.uniform(0.1, 0.6)
        t1 = t0 + prng.uniform(0.45, 0.8)
        if t1 > seconds:
            break
        seat = layout.seat_angle[obj["player"]]
        d = (math.cos(seat), math.sin(seat))
        r = prng.uniform(15, 60)
        pos = (layout.centre[0] + d[0] * r + prng.gauss(0, 10), layout.centre[1] + d[1] * r + prng.gauss(0, 10))
        angle = math.degrees(seat) + 90 + prng.gauss(0, 15)
        tl.plays.append(PlaySeg(obj["player"], obj["card"], t0, t1, pos, angle, round_no, trick_no))
        tl.actions.append({**obj, "t": round(t1, 3)})
        events = game.apply(ACTION_ADAPTER.validate_python({**obj, "t": round(t1, 3)}))
        clock = t1 + 0.25
        for e in events:
            if e.type == "trick_won":
                g0 = clock + prng.uniform(0.3, 0.7)
                g1 = g0 + prng.uniform(0.5, 0.8)
                tl.gathers.append(GatherSeg(e.data["player"], g0, g1, round_no, trick_no))
                trick_no += 1
                clock = g1 + 0.2
            elif e.type == "round_over":
                clock += 0.8
    return tl


@dataclass
class Layout:
    seat_angle: dict[str, float]
    edge_r: float
    centre: tuple[float, float]

    def dir(self, player: str):
        a = self.seat_angle[player]
        return math.cos(a), math.sin(a)

    def fan_pivot(self, player: str):
        dx, dy = self.dir(player)
        return dx * (self.edge_r - 45), dy * (self.edge_r - 45)

    def pile_pos(self, player: str):
        dx, dy = self.dir(player)
        r = self.edge_r * 0.62
        return dx * r - dy * 90, dy * r + dx * 90

    def shoulder(self, player: str):
        dx, dy = self.dir(player)
        return dx * (self.edge_r + 260), dy * (self.edge_r + 260)


def _lerp(a, b, s):
    return (a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s)


def frame_scene(tl: Timeline, layout: Layout, t: float, deck: str, players: list[str], skin: dict):
    """The Scene at time ``t``."""
    from .scene import Arm, CardPlacement, Scene
    from .faces import BACK, CARD_H_MM

    rnd = sum(1 for s in tl.round_starts if s <= t)
    plays = [p for p in tl.plays if p.round_no == rnd and p.t0 <= t]
    gathers = {g.trick_no: g for g in tl.gathers if g.round_no == rnd}
    cards: list[CardPlacement] = []
    arms: list[Arm] = []

    def arm(player, hand, lift=35.0):
        sk, sl = skin[player]
        arms.append(Arm(layout.shoulder(player), hand, lift, 80.0, sk, sl, 0.45, 0.25))

    # piles of gathered tricks (a couple of backs per trick: only the top one shows)
    for g in gathers.values():
        if g.t1 <= t:
            px, py = layout.pile_pos(g.winner)
            base = math.degrees(layout.seat_angle[g.winner]) + 90
            for k in range(2):
                j = (g.trick_no * 7 + k * 3) % 11 - 5
                cards.append(CardPlacement(BACK, False, (px + j * 0.6, py - j * 0.4), base + j * 1.5, "pile"))
    # fans: what each player still holds (backs to the camera)
    for p in players:
        held = tl.cards_per_player - sum(1 for q in plays if q.player == p) if rnd else 0
        pivot = layout.fan_pivot(p)
        base = math.degrees(layout.seat_angle[p]) + 90
        m = min(held, 13)
        for j in range(m):
            ang = base + (j - (m - 1) / 2) * 7
            r = math.radians(ang)
            cards.append(CardPlacement(BACK, False, (pivot[0] - math.sin(r) * CARD_H_MM * 0.32,
                                                     pivot[1] + math.cos(r) * CARD_H_MM * 0.32), ang, "hand"))
    # the trick, cards on their way in, and the trick being gathered
    for p in plays:
        g = gathers.get(p.trick_no)
        if g is not None and t >= g.t1:
            continue
        start = layout.fan_pivot(p.player)
        if t < p.t1:
            s = _smooth((t - p.t0) / (p.t1 - p.t0))
            pos = _lerp(start, p.pos, s)
            held = math.degrees(layout.seat_angle[p.player]) + 90  # as the player holds it
            angle = held + (p.angle - held) * s
            cards.append(CardPlacement(p.code, s > 0.25, pos, angle, "moving"))
            dx, dy = layout.dir(p.player)
            arm(p.player, (pos[0] + dx * 55, pos[1] + dy * 55))
        elif g is not None and t >= g.t0:
            s = _smooth((t - g.t0) / (g.t1 - g.t0))
            pos = _lerp(p.pos, layout.pile_pos(g.winner), s)
            cards.append(CardPlacement(p.code, True, pos, p.angle, "gathering"))
        else:
            cards.append(CardPlacement(p.code, True, p.pos, p.angle, "trick"))
        if t >= p.t1 and t < p.t1 + 0.3:  # the hand lets go and goes back
            s = _smooth((t - p.t1) / 0.3)
            dx, dy = layout.dir(p.player)
            arm(p.player, _lerp((p.pos[0] + dx * 55, p.pos[1] + dy * 55), layout.fan_pivot(p.player), s), 35 + 60 * s)
    for g in gathers.values():
        if g.t0 - 0.3 <= t < g.t1 + 0.3:
            s = _smooth((t - g.t0) / (g.t1 - g.t0))
            hand = _lerp(layout.centre, layout.pile_pos(g.winner), s)
            arm(g.winner, hand, 30.0)
    return Scene("crazy", deck, cards, arms)


@dataclass
class KickPlan:
    actions: list[dict]
    teams: dict[str, list[str]]
    layout_counts: dict[str, int]
    snapshots: list[tuple[float, dict]]            # (t, player -> pile tops)
    piles: list[tuple[float, list[str]]]           # (t, centre pile bottom to top) after each action
    plays: list[tuple[float, str, str, int, bool]]  # (t, player, card, pile slot, went onto the pile)


SLIDE = 0.35  # seconds a card takes from a player's pile to the centre


def plan_kick(seed: int, players: int, fouls: float, seconds: float) -> KickPlan:
    """A random Crazy Kick game (its own simulator gives the real-time pace), cut at ``seconds``."""
    import random

    from ..games.crazy_kick.actions import ACTION_ADAPTER
    from ..games.crazy_kick.rules import CrazyKickGame
    from ..games.crazy_kick.simulate import random_game

    log = random_game(random.Random(seed), n_players=players, fouls=fouls, tables="all", stuck_after=40)
    actions = [a for a in log if a.get("t", 0.0) <= seconds]
    game = CrazyKickGame(ACTION_ADAPTER.validate_python(actions[0]))
    snaps, piles, plays = [], [], []
    tops: dict[str, list] = {}
    for a in actions[1:]:
        t = float(a.get("t", 0.0))
        before = [c.id for c in game.pile]
        game.apply(ACTION_ADAPTER.validate_python(a))
        after = [c.id for c in game.pile]
        piles.append((t, after))
        if a["type"] == "table":
            tops = a["piles"]
            snaps.append((t, tops))
        elif a["type"] == "play":
            row = tops.get(a["player"], [])
            slot = row.index(a["card"]) if a["card"] in row else 0
            plays.append((t, a["player"], a["card"], slot, after != before))
    return KickPlan(actions, actions[0]["teams"], dict(game.layout), snaps, piles, plays)


def kick_scene(plan: KickPlan, layout: Layout, t: float, skin: dict):
    """The Crazy Kick table at time ``t``: piles in front of each player, the centre pile, cards in flight."""
    from .faces import BACK
    from .scene import Arm, CardPlacement, Scene

    cards: list[CardPlacement] = []
    arms: list[Arm] = []
    tops = next((sn for ts, sn in reversed(plan.snapshots) if ts <= t), {})
    pile = next((p for ts, p in reversed(plan.piles) if ts <= t), [])
    flying = [(tp, p, c, slot, ok) for tp, p, c, slot, ok in plan.plays if tp - SLIDE <= t < tp + (0 if ok else SLIDE)]
    hidden = {(p, slot) for tp, p, c, slot, ok in flying if t < tp or not ok}

    def slot_pos(player: str, slot: int):
        dx, dy = layout.dir(player)
        k = plan.layout_counts.get(player, 3)
        r = layout.edge_r * 0.62
        off = (slot - (k - 1) / 2) * 78
        return dx * r - dy * off, dy * r + dx * off

    for player, row in tops.items():
        base = math.degrees(layout.seat_angle[player]) + 90
        for slot, code in enumerate(row):
            x, y = slot_pos(player, slot)
            cards.append(CardPlacement(BACK, False, (x + 1.5, y - 1.0), base + 2, "pile"))  # the pile below the top
            if code is not None and (player, slot) not in hidden:
                cards.append(CardPlacement(code, True, (x, y), base, "pile"))
        hx, hy = layout.fan_pivot(player)  # the stack still in the hand, face down
        cards.append(CardPlacement(BACK, False, (hx, hy), base + 90, "hand"))
    cx, cy = layout.centre
    for k, code in enumerate(pile):  # slapped down in a hurry: each one a little askew
        j = (k * 37) % 17 - 8
        cards.append(CardPlacement(code, True, (cx + j * 0.9, cy + ((k * 53) % 13 - 6) * 0.9), j * 4.0, "centre-pile"))
    for tp, player, code, slot, ok in flying:
        start = slot_pos(player, slot)
        s = _smooth((t - (tp - SLIDE)) / SLIDE) if t < tp else 1 - _smooth((t - tp) / SLIDE)
        pos = _lerp(start, layout.centre, s)
        base = math.degrees(layout.seat_angle[player]) + 90
        cards.append(CardPlacement(code, True, pos, base, "moving"))
        dx, dy = layout.dir(player)
        sk, sl = skin[player]
        arms.append(Arm(layout.shoulder(player), (pos[0] + dx * 50, pos[1] + dy * 50), 30.0, 80.0, sk, sl, 0.45, 0.25))
    return Scene("crazy-kick", "crazy-kick", cards, arms)


@dataclass
class FodboldPlan:
    actions: list[dict]
    states: list[tuple[float, dict, dict, object, dict]]  # (t, piece -> square, markers, holder, team -> drawn card)
    moves: list[tuple[float, tuple, tuple, tuple]]        # (t, piece, from square, to square)


MOVE = 0.8  # seconds a piece is carried


def plan_fodbold(seed: int, fouls: float, seconds: float) -> FodboldPlan:
    import random

    from ..games.fodbold.actions import ACTION_ADAPTER
    from ..games.fodbold.loader import load_board, load_decks
    from ..games.fodbold.rules import FodboldGame
    from ..games.fodbold.simulate import random_game

    board, decks = load_board(), load_decks()
    log = random_game(random.Random(seed), board, decks, fouls=fouls)
    actions = [a for a in log if a.get("t", 0.0) <= seconds]
    game = FodboldGame(ACTION_ADAPTER.validate_python(actions[0]), board, decks)
    drawn: dict[str, str] = {}

    def state(t):
        pos = game.pos
        return (t, dict(pos.squares), dict(pos.markers), pos.holder, dict(drawn))

    states, moves = [state(0.0)], []
    for a in actions[1:]:
        before = dict(game.pos.squares)
        game.apply(ACTION_ADAPTER.validate_python(a))
        if a["type"] in ("draw", "shot"):
            drawn[a["team"]] = a["card"]
        if a["type"] == "move":
            piece = (a["team"], a["piece"])
            if piece in before and piece in game.pos.squares and before[piece] != game.pos.squares[piece]:
                moves.append((a["t"], piece, before[piece], game.pos.squares[piece]))
        states.append(state(a["t"]))
    return FodboldPlan(actions, states, moves)


def fodbold_scene(plan: FodboldPlan, board, bp, t: float, skin: dict):
    """The fodbold table at time ``t``: pieces on their squares (a moving one lifted and carried),
    markers stacked, the ball at its holder, each team's cards beside the board."""
    from .fodbold import FodboldScene, PiecePlacement
    from .faces import BACK
    from .scene import Arm, CardPlacement, Scene

    _, squares, markers, holder, drawn = next(s for s in reversed(plan.states) if s[0] <= t)
    moving = next((m for m in plan.moves if m[0] - MOVE <= t < m[0]), None)
    pieces = []
    arms = []
    for piece, sq in squares.items():
        pos, lift = bp.square_mm(board, sq), 0.0
        if moving is not None and moving[1] == piece:
            s = _smooth((t - (moving[0] - MOVE)) / MOVE)
            a, b = bp.square_mm(board, moving[2]), bp.square_mm(board, moving[3])
            pos, lift = a + (b - a) * s, 35.0 * math.sin(math.pi * s)
            side = 1 if piece[0] == "red" else -1
            ang = math.radians(bp.angle_deg)
            shoulder = (pos[0] + math.sin(ang) * side * 500, pos[1] - math.cos(ang) * side * 500)
            sk, sl = skin[piece[0]]
            arms.append(Arm(shoulder, (pos[0] - math.sin(ang) * -side * 40, pos[1] + math.cos(ang) * -side * 40),
                            40.0 + lift, 75.0, sk, sl, 0.45, 0.15))
        pieces.append(PiecePlacement(piece[0], piece[1], tuple(sq), (float(pos[0]), float(pos[1])),
                                     1 if piece in markers else 0, lift))
    ball = None
    if holder is not None:
        hp = next(p for p in pieces if (p.team, p.number) == tuple(holder))
        a = math.radians(bp.angle_deg)
        fwd = (-math.sin(a), math.cos(a)) if hp.team == "red" else (math.sin(a), -math.cos(a))
        ball = (hp.pos_mm[0] + fwd[0] * bp.style.square_mm * 0.45, hp.pos_mm[1] + fwd[1] * bp.style.square_mm * 0.45)
    cards = []
    w, h = bp.size_mm(board)
    a = math.radians(bp.angle_deg)
    right, up = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    for k, team in enumerate(("red", "blue")):
        side = 1 if team == "red" else -1
        x = bp.centre[0] + right[0] * side * (w / 2 + 70)
        y = bp.centre[1] + right[1] * side * (w / 2 + 70)
        for j in range(3):  # the team's deck, face down
            cards.append(CardPlacement(BACK, False, (x + j * 0.6, y - j * 0.4), bp.angle_deg + j, "pile"))
        if team in drawn:  # the card drawn last lies face up beside it
            cards.append(CardPlacement(drawn[team], True, (x + up[0] * 100 * side, y + up[1] * 100 * side),
                                       bp.angle_deg + (0 if team == "red" else 180), "loose"))
    scene = Scene("fodbold", "fodbold", cards, arms)
    return FodboldScene(scene, bp, pieces, ball)


def simulate(game: str, seed: int, out: str | Path, fouls: float = 0.0, seconds: float = 20.0, deck: str = "rook",
             players: int = 4, width: int = 640, height: int = 480, fps: int = 30, progress: bool = True) -> dict:
    import cv2
    import numpy as np
    from tqdm import tqdm

    from ..games import game_module
    from .camera import random_camera
    from .faces import FaceCache, random_style
    from .markers import MarkerFrame, markers_underlay
    from .render import Effects, render_scene
    from .scene import SKIN_TONES
    from .table import make_texture

    if game not in GAMES:
        raise SimulateError(f"simulated videos exist for: {', '.join(GAMES)} (not {game!r})")
    if not 0 <= fouls <= 1:
        raise SimulateError(f"--fouls is a rate in [0, 1], not {fouls}")
    if seconds <= 0:
        raise SimulateError(f"--seconds must be positive, not {seconds}")
    lo = 4 if game == "crazy" else 2
    hi = len(NAMES) if game == "crazy" else 8 if game == "crazy-kick" else 2
    if game == "fodbold":
        players = 2
    if not lo <= players <= hi:
        raise SimulateError(f"{game} needs {lo}-{hi} players, not {players}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, 0x51D])
    centre = (float(rng.normal(0, 20)), float(rng.normal(0, 20)))
    edge_r = float(rng.uniform(380, 460))
    a0 = rng.uniform(0, 2 * math.pi)
    if game == "crazy":
        names = list(NAMES[:players])
        # clockwise as seen from above, as the game is played (angles fall in this y-up frame)
        layout = Layout({p: a0 - 2 * math.pi * i / players for i, p in enumerate(names)}, edge_r, centre)
        tl = plan_crazy(seed, names, deck, fouls, seconds, layout)
        actions, n_plays = tl.actions, len(tl.plays)
        style = random_style(rng, deck)
        faces = FaceCache(deck, [style], 200)
    elif game == "fodbold":
        from ..games.fodbold.loader import load_board
        from .fodbold import BoardPlacement, FodboldDrawer, FodboldFaces, annotate_objects, random_board_style

        board = load_board()
        fplan = plan_fodbold(seed, fouls, seconds)
        names = ["red", "blue"]
        layout = Layout({"red": a0, "blue": a0 + math.pi}, edge_r, centre)
        actions, n_plays = fplan.actions, len(fplan.moves)
        bstyle = random_board_style(rng)
        bp = BoardPlacement(centre, float(math.degrees(a0) - 90), bstyle)
        faces = FodboldFaces([bstyle])
        style = bstyle.card_style
        deck = "fodbold"
        fcache: dict = {}
    else:
        from .kick import KickFaces

        plan = plan_kick(seed, players, fouls, seconds)
        names = [p for team in ("red", "white") for p in plan.teams.get(team, [])]
        # team-mates sit together, the teams face each other
        layout = Layout({p: a0 + 2 * math.pi * i / len(names) for i, p in enumerate(names)}, edge_r, centre)
        actions, n_plays = plan.actions, len(plan.plays)
        faces = KickFaces(1, rng)
        style = faces.styles[0]
        deck = "crazy-kick"
    skin = {p: (tuple(int(v) for v in SKIN_TONES[rng.integers(len(SKIN_TONES))]),
                tuple(int(v) for v in rng.integers(20, 230, 3))) for p in names}
    marker_frame = None
    if game == "crazy":
        # The corner markers of a 1 m playing area (`referee print table-markers`) lie so that the first
        # player sits at the bottom edge of the calibration's layout; the camera is mounted square to them
        # and high enough to see all four, as the README tells a person to do.
        marker_frame = MarkerFrame(layout.centre, a0 + math.pi / 2)
        camera = aligned_camera(rng, width, height, marker_frame)
    else:
        camera = random_camera(rng, width, height, target=layout.centre,
                               height_mm=(900.0, 1000.0) if game == "fodbold" else (700.0, 900.0),
                               tilt_deg=(0.0, 20.0), hfov_deg=(60.0, 72.0))
    camera.k1, camera.k2 = camera.k1 * 0.5, 0.0
    texture, table_info = make_texture(rng)
    fx = Effects(light_gradient=float(rng.uniform(0, 0.4)), light_dir_deg=float(rng.uniform(0, 360)),
                 vignette=float(rng.uniform(0, 0.3)), card_shadow=0.3, arm_shadow=0.35,
                 shadow_offset_mm=(float(rng.normal(0, 30)), float(rng.normal(0, 30))), noise=2.0,
                 focus_blur=float(rng.uniform(0, 0.8)))
    phases = rng.uniform(0, 2 * math.pi, 6)
    R0, t0 = camera.R.copy(), camera.t.copy()

    n_frames = int(round(seconds * fps))
    writer = cv2.VideoWriter(str(out / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
    if not writer.isOpened():
        raise SimulateError("OpenCV cannot write MP4 here (no mp4v encoder)")
    frames_f = (out / "frames.jsonl").open("w")
    try:
        for i in tqdm(range(n_frames), desc="simulate", unit="frame", disable=not progress):
            t = i / fps
            # a hand-held-steady camera: sub-degree wobble and a millimetre or two of drift
            ax = 0.0015 * math.sin(1.3 * t + phases[0]) + 0.0008 * math.sin(4.1 * t + phases[1])
            ay = 0.0015 * math.sin(1.7 * t + phases[2]) + 0.0008 * math.sin(3.7 * t + phases[3])
            Rs = cv2.Rodrigues(np.array([ax, ay, 0.0]))[0]
            drift = [1.5 * math.sin(0.9 * t + phases[4]), 1.5 * math.sin(1.1 * t + phases[5]), 0]
            camera.R, camera.t = Rs @ R0, Rs @ t0 + drift
            hooks, fs = {}, None
            if game == "crazy":
                scene = frame_scene(tl, layout, t, deck, names, skin)
            elif game == "fodbold":
                fs = fodbold_scene(fplan, board, bp, t, skin)
                scene = fs.scene
                drawer = FodboldDrawer(fs, board, fcache)
                hooks = {"underlay": drawer.underlay, "overlay": drawer.overlay}
            else:
                scene = kick_scene(plan, layout, t, skin)
            if marker_frame is not None:
                hooks["underlay"] = markers_underlay(marker_frame, inner=hooks.get("underlay"))
            img, anns, ids = render_scene(scene, camera, faces, texture, fx, np.random.default_rng([seed, i]), **hooks)
            writer.write(img)
            record = {"frame": i, "t": round(t, 4), "cards": [
                {"class": a.label, "group": c.group, "bbox": [round(v, 1) for v in a.bbox],
                 "corners": a.corners.round(1).tolist(), "visible_fraction": round(a.visible_fraction, 3)}
                for a, c in zip(anns, scene.cards) if a.labelled]}
            if fs is not None:
                record["objects"] = [o for o in annotate_objects(fs, board, drawer, ids, camera.project) if o["labelled"]]
            frames_f.write(json.dumps(record) + "\n")
    finally:
        writer.release()
        frames_f.close()
    camera.R, camera.t = R0, t0

    for a in actions:
        if "t" in a:
            a["frame"] = int(math.ceil(a["t"] * fps))
        a["source"] = "simulator"
    log_path = out / "actions.jsonl"
    log_path.write_text("".join(json.dumps(a) + "\n" for a in actions))
    mod = game_module(game)
    g, events = mod.replay(mod.load_log(log_path))
    sheet = g.scoresheet()
    truth = {"game": game, "seed": seed, "deck": deck, "players": names, "fouls": fouls, "seconds": seconds, "fps": fps,
             "frames": n_frames, "camera": camera.to_json(), "table": table_info, "style": style.to_json(),
             "marker_frame": marker_frame.to_json() if marker_frame is not None else None,
             "events": [e.to_dict() for e in events], "scoresheet": sheet,
             "totals": g.totals() if hasattr(g, "totals") else sheet.get("score")}
    (out / "truth.json").write_text(json.dumps(truth, indent=1))
    return {"frames": n_frames, "actions": len(actions), "plays": n_plays, "events": len(events), "out": str(out)}


def aligned_camera(rng, width: int, height: int, frame):
    """A camera above the playing area, square to its markers (image up = the table's top edge), high
    enough that all four corner markers are in view at this aspect ratio."""
    from .camera import Camera, look_at
    import numpy as np

    hfov = math.radians(rng.uniform(68.0, 78.0))
    f = width / 2 / math.tan(hfov / 2)
    half_h = min(width, height) / 2 / f  # tan of half the narrower field of view
    tilt = math.radians(rng.uniform(0.0, 8.0))
    h = 560.0 / half_h * (1 + 1.6 * math.tan(tilt)) * rng.uniform(1.0, 1.08)
    up = frame.phi + math.pi / 2  # the calibration's -Y (top edge) in the renderer's frame
    yaw = up + float(rng.normal(0, math.radians(2)))
    target = np.array([frame.centre[0], frame.centre[1], 0.0])
    eye = target + np.array([-math.cos(yaw), -math.sin(yaw), 0.0]) * h * math.tan(tilt) + [0, 0, h]
    R, t = look_at(eye, target, yaw, float(rng.normal(0, 0.01)))
    K = np.array([[f, 0, width / 2 + rng.normal(0, width * 0.005)], [0, f, height / 2 + rng.normal(0, height * 0.005)],
                  [0, 0, 1]])
    k1 = float(rng.uniform(-0.08, 0.1))
    info = {"height_mm": h, "tilt_deg": math.degrees(tilt), "yaw_deg": math.degrees(yaw), "hfov_deg": math.degrees(hfov),
            "focal_px": f, "target_mm": [float(frame.centre[0]), float(frame.centre[1])], "aligned_to_markers": True}
    return Camera(width, height, K, R, t, k1, 0.0, info)


def _cmd(args) -> int:
    try:
        s = simulate(args.game, args.seed, args.out, fouls=args.fouls, seconds=args.seconds, deck=args.deck,
                     players=args.players, width=args.width, height=args.height, progress=not args.quiet)
    except SimulateError as e:
        print(f"referee simulate: {e}", file=sys.stderr)
        return 2
    print(f"wrote {s['out']}/video.mp4 ({s['frames']} frames), actions.jsonl ({s['actions']} actions, "
          f"{s['plays']} plays), truth.json ({s['events']} events), frames.jsonl")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("simulate", help="render a video of a simulated game with its ground-truth action log")
    p.add_argument("--game", choices=GAMES, default="crazy")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--fouls", type=float, default=0.0, help="chance a player who can follow suit revokes (0-1)")
    p.add_argument("--seconds", type=float, default=20.0, help="video length (default 20)")
    p.add_argument("--deck", choices=("rook", "standard"), default="rook", help="crazy's deck")
    p.add_argument("--players", type=int, default=4, help="crazy: 4-12, crazy-kick: 2-8 (default 4)")
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd)
