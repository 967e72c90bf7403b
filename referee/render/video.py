"""``referee simulate``: a rendered video of a simulated game with its ground truth.

The rules engine plays a random legal game (illegal plays injected at ``--fouls``); a timeline gives
every action a time (reach in, slide the card to the trick, let go; the winner gathers the trick onto
a pile); each frame is composed from the timeline and rendered like a training image under one camera
that shakes a little.

The table is laid out as a real one is for the camera referee: the four corner markers of the playing
area (``markers.py``) and, within them, everything where the game's calibration layout
(``calibration/layouts/*.yaml``) expects it: Crazy's seats (seat 1 at the bottom edge, clockwise),
Crazy Kick's centre pile, player piles (team A = red along the bottom edge) and goal areas, fodbold's
board on the layout's grid (red at the bottom). The camera is mounted square to the markers. So
`referee review` calibrates from the video itself. Written to DIR:

    video.mp4      30 fps (mp4v)
    actions.jsonl  the action log `referee replay` reads, each action with its time ``t`` and ``frame``
    truth.json     the engine's events and scoresheet for exactly those actions; the camera; the marker
                   frame (where the calibration's table frame lies on the rendered table)
    frames.jsonl   per frame: every labelled card's class, box, four corners and visible fraction;
                   for fodbold also "objects": pieces, ball and board with their boxes

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
    asides: list[tuple[float, dict]] = field(default_factory=list)  # (t, team -> goal cards set aside)
    slides: dict[tuple[float, str], float] = field(default_factory=dict)  # (t, card) of a play -> its slide's start


SETTLE = 0.5       # the log of a Crazy Kick or fodbold video ends this long before the video: every
                   # action in it is seen come to rest (a card landing in the last frame is not)
SLIDE = 0.45       # seconds a card takes from a player's pile to the centre
PILE_REST = 0.3    # a card turned up onto a pile lies there at least this long before it is slid away (the
MIN_SLIDE = 0.1    # slide is shortened for it, to no less than MIN_SLIDE): a hand is not faster than that
GOAL_HOLD = 0.6    # a goal card lies on the centre pile this long before it is set aside (and the pile gathered)
FOUL_HOLD = 0.6    # an illegal card lies on the pile this long before the player takes it back


def plan_kick(seed: int, players: int, fouls: float, seconds: float) -> KickPlan:
    """A random Crazy Kick game (its own simulator gives the real-time pace), cut at ``seconds``."""
    import random

    from ..games.crazy_kick.actions import ACTION_ADAPTER
    from ..games.crazy_kick.rules import CrazyKickGame
    from ..games.crazy_kick.simulate import random_game

    log = random_game(random.Random(seed), n_players=players, fouls=fouls, tables="all", stuck_after=40)
    actions = [a for a in log if a.get("t", 0.0) <= seconds - SETTLE]
    game = CrazyKickGame(ACTION_ADAPTER.validate_python(actions[0]))
    snaps, piles, plays, asides = [], [], [], []
    tops: dict[str, list] = {}
    shown_at: dict[tuple[str, str], float] = {}  # (player, card) -> when it became a pile top
    slides: dict[tuple[float, str], float] = {}
    for a in actions[1:]:
        t = float(a.get("t", 0.0))
        before = [c.id for c in game.pile]
        game.apply(ACTION_ADAPTER.validate_python(a))
        after = [c.id for c in game.pile]
        piles.append((t, after))
        asides.append((t, {team: [c.id for c in cards] for team, cards in game.aside.items()}))
        if a["type"] == "table":
            for p, row in a["piles"].items():
                for i, code in enumerate(row):
                    if code is not None and code not in (tops.get(p) or []):
                        shown_at[(p, code)] = t
            tops = a["piles"]
            snaps.append((t, tops))
        elif a["type"] == "play":
            row = tops.get(a["player"], [])
            slot = row.index(a["card"]) if a["card"] in row else 0
            plays.append((t, a["player"], a["card"], slot, after != before))
            start = max(t - SLIDE, shown_at.get((a["player"], a["card"]), -1.0) + PILE_REST)
            slides[(t, a["card"])] = min(start, t - MIN_SLIDE)
    return KickPlan(actions, actions[0]["teams"], dict(game.layout), snaps, piles, plays, asides, slides)


@dataclass
class KickSeat:
    """Where one Crazy Kick player's things lie on the rendered table (renderer mm, y up)."""
    slots: list[tuple[float, float]]   # his piles, in the calibration's left-to-right order
    angle: float                       # a card upright for him (degrees)
    towards: tuple[float, float]       # unit vector from the centre towards him
    hand: tuple[float, float]          # the stack he holds, face down
    shoulder: tuple[float, float]


@dataclass
class KickTable:
    centre: tuple[float, float]
    seats: dict[str, KickSeat]
    goals: dict[str, tuple[tuple[float, float], tuple[float, float]]]  # team -> (goal area centre, step between cards)
    goal_angle: dict[str, float]


def kick_table(plan: KickPlan, frame, path=None) -> KickTable:
    """The Crazy Kick table laid out as the calibration layout expects it (``crazy_kick_layout``):
    the centre pile on the layout's centre, each player's piles in his pile zone (team A = red along
    the bottom edge, player 1 on the left), the goal cards set aside in the team's goal area."""
    import numpy as np

    from ..calibration.layouts import crazy_kick_layout
    from ..games.crazy_kick.adapter import SIDES

    red, white = plan.teams["red"], plan.teams["white"]
    layout = crazy_kick_layout(len(red), len(white), path)
    side_of = {team: side for side, team in SIDES.items()}
    edge = 500.0  # the playing area's edge (the corner markers' centres)
    seats: dict[str, KickSeat] = {}
    for team, players in (("red", red), ("white", white)):
        side = side_of[team]
        for k, p in enumerate(players, 1):
            zone = layout.zone(f"pile{side}{k}")
            ax, ay = zone.anchor
            w = float(np.ptp(zone.polygon[:, 0]))
            n = plan.layout_counts.get(p, 3)
            step = min(72.0, (w - 30.0) / max(n - 1, 1))
            calib = [(ax + (i - (n - 1) / 2) * step, ay) for i in range(n)]
            sgn = 1.0 if ay > 0 else -1.0  # +1: he sits at the bottom edge
            pts = frame.to_render(np.array(calib + [(ax, sgn * (edge - 55)), (ax, sgn * (edge + 260)), (0, 0),
                                                    (0, sgn)]))
            d = pts[-1] - pts[-2]
            seats[p] = KickSeat([tuple(map(float, q)) for q in pts[:n]], math.degrees(math.atan2(d[1], d[0])) + 90,
                                (float(d[0]), float(d[1])), tuple(map(float, pts[n])), tuple(map(float, pts[n + 1])))
    goals, goal_angle = {}, {}
    for team in ("red", "white"):
        z = layout.zone(f"goal{side_of[team]}")
        c, nxt = frame.to_render(np.array([z.centre, (z.centre[0], z.centre[1] + 28.0)]))
        goals[team] = ((float(c[0]), float(c[1])), (float(nxt[0] - c[0]), float(nxt[1] - c[1])))
        goal_angle[team] = math.degrees(frame.phi) + (0.0 if team == "red" else 180.0)  # upright for the team
    centre = frame.to_render(np.array([layout.zone("centre").centre]))[0]
    return KickTable((float(centre[0]), float(centre[1])), seats, goals, goal_angle)


def kick_scene(plan: KickPlan, table: KickTable, t: float, skin: dict):
    """The Crazy Kick table at time ``t``: piles in front of each player, the centre pile, cards in
    flight; a goal card lies on the pile a moment, then goes to the team's goal area and the pile is
    gathered; an illegal card lies on the pile a moment, then goes back to its pile."""
    from .faces import BACK
    from .scene import Arm, CardPlacement, Scene

    cards: list[CardPlacement] = []
    arms: list[Arm] = []
    tops = next((sn for ts, sn in reversed(plan.snapshots) if ts <= t), {})
    pile = next((p for ts, p in reversed(plan.piles) if ts <= t), [])
    aside = next((a for ts, a in reversed(plan.asides) if ts <= t), {})
    goal_ids = {c for ids in aside.values() for c in ids}
    flying = []
    for tp, p, c, slot, ok in plan.plays:
        back = 0.0 if ok else FOUL_HOLD + SLIDE
        if plan.slides.get((tp, c), tp - SLIDE) <= t < tp + back:
            flying.append((tp, p, c, slot, ok))
    hidden = {(p, slot) for tp, p, c, slot, ok in flying if t < tp or not ok}
    c0 = table.centre

    for player, row in tops.items():
        seat = table.seats[player]
        for slot, code in enumerate(row[:len(seat.slots)]):
            x, y = seat.slots[slot]
            # the pile below the top
            cards.append(CardPlacement(BACK, False, (x + 1.5, y - 1.0), seat.angle + 2, "pile"))
            if code is not None and (player, slot) not in hidden:
                cards.append(CardPlacement(code, True, (x, y), seat.angle, "pile"))
        cards.append(CardPlacement(BACK, False, seat.hand, seat.angle + 90, "hand"))  # the stack in his hand
    # a goal just scored: the pile it was laid on stays a moment under it, then is gathered
    shown = list(pile)
    for tp, p, c, slot, ok in plan.plays:
        if c in goal_ids and tp <= t < tp + GOAL_HOLD and ok:
            shown = [x for x in _pile_at(plan, tp, before=True) if x not in shown] + shown
    for k, code in enumerate(shown):  # slapped down in a hurry: each one a little askew
        j = (k * 37) % 17 - 8
        cards.append(CardPlacement(code, True, (c0[0] + j * 0.9, c0[1] + ((k * 53) % 13 - 6) * 0.9), j * 4.0,
                                   "centre-pile"))
    for team, ids in aside.items():  # goal cards set aside
        (gx, gy), (sx, sy) = table.goals[team]
        for k, code in enumerate(ids):
            tp = next((q[0] for q in plan.plays if q[2] == code and q[4]), -1.0)
            spot = (gx + sx * (k - 1.5), gy + sy * (k - 1.5))
            if t < tp + GOAL_HOLD:  # still on the centre pile
                cards.append(CardPlacement(code, True, c0, table.seats[_player_of(plan, code)].angle, "centre-pile"))
                continue
            if t < tp + GOAL_HOLD + SLIDE:  # carried to the goal area
                s = _smooth((t - tp - GOAL_HOLD) / SLIDE)
                pos = _lerp(c0, spot, s)
                cards.append(CardPlacement(code, True, pos, table.goal_angle[team], "moving"))
                continue
            cards.append(CardPlacement(code, True, spot, table.goal_angle[team], "goal"))
    for tp, player, code, slot, ok in flying:
        seat = table.seats[player]
        start = seat.slots[min(slot, len(seat.slots) - 1)]
        if t < tp:
            t0 = plan.slides.get((tp, code), tp - SLIDE)
            s = _smooth((t - t0) / (tp - t0))
        elif t < tp + (0 if ok else FOUL_HOLD):
            s = 1.0
        else:
            s = 1 - _smooth((t - tp - FOUL_HOLD) / SLIDE)
        if ok and code in goal_ids and t >= tp:
            continue  # drawn with the goal cards
        pos = _lerp(start, c0, s)
        cards.append(CardPlacement(code, True, pos, seat.angle, "moving" if s < 1 else "centre-pile"))
        if s < 1 or t < tp + 0.2:
            dx, dy = seat.towards
            sk, sl = skin[player]
            arms.append(Arm(seat.shoulder, (pos[0] + dx * 50, pos[1] + dy * 50), 30.0, 80.0, sk, sl, 0.45, 0.25))
    return Scene("crazy-kick", "crazy-kick", cards, arms)


def _player_of(plan: KickPlan, code: str) -> str:
    return next(p for tp, p, c, slot, ok in plan.plays if c == code)


def _pile_at(plan: KickPlan, t: float, before: bool = False) -> list[str]:
    """The centre pile just after (or, ``before``, just before) the action at time ``t``."""
    prev: list[str] = []
    for ts, p in plan.piles:
        if ts >= t if before else ts > t:
            break
        prev = p
    return prev


@dataclass
class FodboldPlan:
    actions: list[dict]
    states: list[tuple[float, dict, dict, object, dict]]  # (t, piece -> square, markers, holder, team -> drawn card)
    moves: list[tuple[float, tuple, tuple, tuple]]        # (t, piece, from square, to square)
    refused: list[tuple[float, tuple, tuple, tuple]] = field(default_factory=list)  # moves the engine refused
    goals: list[float] = field(default_factory=list)  # times of goals: the pieces are set up again a little later


MOVE = 0.8        # seconds a piece is carried
REFUSED_HOLD = 0.8  # a refused move's piece lies on its wrong square this long, then is carried back
GOAL_PAUSE = 1.0  # after a goal the shot card shows this long before the pieces are set up for the kick-off


def plan_fodbold(seed: int, fouls: float, seconds: float) -> FodboldPlan:
    import random

    from ..games.fodbold.actions import ACTION_ADAPTER
    from ..games.fodbold.board import BoardError
    from ..games.fodbold.loader import load_board, load_decks
    from ..games.fodbold.rules import FodboldGame
    from ..games.fodbold.simulate import random_game

    board, decks = load_board(), load_decks()
    log = random_game(random.Random(seed), board, decks, fouls=fouls)
    game = FodboldGame(ACTION_ADAPTER.validate_python(log[0]), board, decks)
    refused = set()  # moves the engine refused (too far ...): the piece goes there, then back
    goals = set()    # actions that scored: the table is set up for the kick-off after a pause
    for k, a in enumerate(log[1:], 1):
        before, score = dict(game.pos.squares), dict(game.pos.score)
        game.apply(ACTION_ADAPTER.validate_python(a))
        if game.pos.score != score:
            goals.add(k)
        piece = (a.get("team"), a.get("piece"))
        if a["type"] == "move" and a.get("from") != a.get("to") and before.get(piece) == game.pos.squares.get(piece):
            refused.add(k)
    # The random game's pace (1-6 s per action) is a slow table's; a video keeps the rhythm but
    # brisker, so a short clip shows a few turns: 1.2 s to 2.7 s per action (a piece is carried
    # for MOVE seconds of that, a card lies still at once; a refused move's piece is put back first).
    clock, last = 0.0, 0.0
    for k, a in enumerate(log[1:], 1):
        gap, last = a["t"] - last, a["t"]
        clock += (1.2 + 0.3 * max(gap - 1.0, 0.0) + (REFUSED_HOLD + MOVE if k - 1 in refused else 0.0)
                  + (GOAL_PAUSE + 0.5 if k - 1 in goals else 0.0))
        a["t"] = round(clock, 2)
    actions = [a for a in log if a.get("t", 0.0) <= seconds - SETTLE]
    game = FodboldGame(ACTION_ADAPTER.validate_python(actions[0]), board, decks)
    drawn: dict[str, str] = {}

    def state(t):
        pos = game.pos
        return (t, dict(pos.squares), dict(pos.markers), pos.holder, dict(drawn))

    states, moves, wrong = [state(0.0)], [], []
    for k, a in enumerate(actions[1:], 1):
        before = dict(game.pos.squares)
        game.apply(ACTION_ADAPTER.validate_python(a))
        if a["type"] in ("draw", "shot"):
            drawn[a["team"]] = a["card"]
        if a["type"] == "move":
            piece = (a["team"], a["piece"])
            if piece in before and piece in game.pos.squares and before[piece] != game.pos.squares[piece]:
                moves.append((a["t"], piece, before[piece], game.pos.squares[piece]))
            elif k in refused and piece in before:
                try:
                    wrong.append((a["t"], piece, before[piece], board.parse(a["to"])))
                except BoardError:  # a square off the board: nothing to show
                    pass
        states.append(state(a["t"]))
    return FodboldPlan(actions, states, moves, wrong, [a["t"] for k, a in enumerate(actions) if k in goals])


def fodbold_scene(plan: FodboldPlan, board, bp, t: float, skin: dict):
    """The fodbold table at time ``t``: pieces on their squares (a moving one lifted and carried),
    markers stacked, the ball at its holder, each team's cards beside the board."""
    from .fodbold import FodboldScene, PiecePlacement
    from .faces import BACK
    from .scene import Arm, CardPlacement, Scene

    i = max(k for k, s in enumerate(plan.states) if s[0] <= t)
    _, squares, markers, holder, drawn = plan.states[i]
    if i > 0 and any(tg == plan.states[i][0] and t < tg + GOAL_PAUSE for tg in plan.goals):
        _, squares, markers, holder, _ = plan.states[i - 1]  # the shot card shows; the pieces stay a moment
    moving = next((m for m in plan.moves if m[0] - MOVE <= t < m[0]), None)
    # a refused move: carried to the wrong square, left there a moment, carried back
    for tw, piece, a, b in plan.refused:
        if tw - MOVE <= t < tw:
            moving = (tw, piece, a, b)
        elif tw + REFUSED_HOLD <= t < tw + REFUSED_HOLD + MOVE:
            moving = (tw + REFUSED_HOLD + MOVE, piece, b, a)
    resting = {piece: b for tw, piece, a, b in plan.refused if tw <= t < tw + REFUSED_HOLD}
    pieces = []
    arms = []
    for piece, sq in squares.items():
        sq = resting.get(piece, sq)
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


def fodbold_placement(board, frame, style, path=None):
    """The BoardPlacement that puts ``board`` where ``fodbold_layout``'s grid is in the calibration's
    frame ``frame`` (a MarkerFrame): the layout's square size; blue's goal towards the top edge."""
    import numpy as np

    from ..calibration.layouts import fodbold_layout
    from .fodbold import BoardPlacement

    grid = fodbold_layout(path, board=board).grid
    if (grid.columns, grid.rows) != (board.columns, board.rows):
        raise SimulateError(f"the fodbold layout's grid is {grid.columns} x {grid.rows}, the board "
                            f"{board.columns} x {board.rows}")
    if grid.row_one != "bottom":
        raise SimulateError("the simulator lays red's goal line (row 1) at the layout's bottom edge: "
                            "the layout needs row_one: bottom")
    style.square_mm = grid.square_mm
    w, h = grid.size_mm
    centre = frame.to_render(np.array([[grid.origin_mm[0] + w / 2, grid.origin_mm[1] + h / 2]]))[0]
    return BoardPlacement((float(centre[0]), float(centre[1])), math.degrees(frame.phi), style)


def simulate(game: str, seed: int, out: str | Path, fouls: float = 0.0, seconds: float = 20.0, deck: str = "rook",
             players: int = 4, width: int = 640, height: int = 480, fps: int = 30, progress: bool = True) -> dict:
    import cv2
    import numpy as np
    from tqdm import tqdm

    from ..games import game_module
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
        from .fodbold import FodboldDrawer, FodboldFaces, annotate_objects, random_board_style

        board = load_board()
        fplan = plan_fodbold(seed, fouls, seconds)
        names = ["red", "blue"]
        layout = Layout({"red": a0, "blue": a0 + math.pi}, edge_r, centre)
        actions, n_plays = fplan.actions, len(fplan.moves)
        bstyle = random_board_style(rng)
        # The board lies where the calibration's fodbold layout has its grid (red at the bottom edge):
        # same square size and orientation, so the grid names each piece's square as the engine does.
        marker_frame = MarkerFrame(layout.centre, a0 + math.pi / 2)
        bp = fodbold_placement(board, marker_frame, bstyle)
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
        # red (the layout's team A) along the bottom edge of the calibration's layout, white at the top
        marker_frame = MarkerFrame(layout.centre, a0 + math.pi / 2)
        ktable = kick_table(plan, marker_frame)
        faces = KickFaces(1, rng)
        style = faces.styles[0]
        deck = "crazy-kick"
    skin = {p: (tuple(int(v) for v in SKIN_TONES[rng.integers(len(SKIN_TONES))]),
                tuple(int(v) for v in rng.integers(20, 230, 3))) for p in names}
    if game == "crazy":
        # The corner markers of a 1 m playing area (`referee print table-markers`) lie so that the first
        # player sits at the bottom edge of the calibration's layout (for every game the layout's bottom
        # edge: Crazy's seat 1, Crazy Kick's team A, fodbold's red); the camera is mounted square to them
        # and high enough to see all four, as the README tells a person to do.
        marker_frame = MarkerFrame(layout.centre, a0 + math.pi / 2)
    camera = aligned_camera(rng, width, height, marker_frame)
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
                scene = kick_scene(plan, ktable, t, skin)
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
             "marker_frame": marker_frame.to_json(),
             "events": [e.to_dict() for e in events], "scoresheet": sheet,
             "totals": g.totals() if hasattr(g, "totals") else sheet.get("score")}
    (out / "truth.json").write_text(json.dumps(truth, indent=1))
    return {"frames": n_frames, "actions": len(actions), "plays": n_plays, "events": len(events), "out": str(out)}


MARKER_MARGIN_PX = 6  # the corner markers' sheets lie at least this far inside the image (``aligned_camera``)


def aligned_camera(rng, width: int, height: int, frame):
    """A camera above the playing area, square to its markers (image up = the table's top edge), high
    enough that all four corner markers are in view at this aspect ratio: raised in 3 % steps until every
    marker sheet, quiet zone included, lies ``MARKER_MARGIN_PX`` inside the image (seed 9168, standard cards:
    the tilt and the principal point's offset put the bottom-left marker's edge out of view, and the video
    could not be calibrated). The raising draws nothing from ``rng``: a camera that sees them stays as it was."""
    import numpy as np

    from ..calibration.table import TableMarkers
    from .camera import Camera, look_at
    from .markers import sheet_corners

    hfov = math.radians(rng.uniform(68.0, 78.0))
    f = width / 2 / math.tan(hfov / 2)
    half_h = min(width, height) / 2 / f  # tan of half the narrower field of view
    tilt = math.radians(rng.uniform(0.0, 8.0))
    h = 560.0 / half_h * (1 + 1.6 * math.tan(tilt)) * rng.uniform(1.0, 1.08)
    up = frame.phi + math.pi / 2  # the calibration's -Y (top edge) in the renderer's frame
    yaw = up + float(rng.normal(0, math.radians(2)))
    roll = float(rng.normal(0, 0.01))
    target = np.array([frame.centre[0], frame.centre[1], 0.0])
    K = np.array([[f, 0, width / 2 + rng.normal(0, width * 0.005)], [0, f, height / 2 + rng.normal(0, height * 0.005)],
                  [0, 0, 1]])
    k1 = float(rng.uniform(-0.08, 0.1)) * 0.5
    sheets = frame.to_render(sheet_corners(TableMarkers()))
    world = np.column_stack([sheets, np.zeros(len(sheets))])
    for _ in range(40):
        eye = target + np.array([-math.cos(yaw), -math.sin(yaw), 0.0]) * h * math.tan(tilt) + [0, 0, h]
        R, t = look_at(eye, target, yaw, roll)
        info = {"height_mm": h, "tilt_deg": math.degrees(tilt), "yaw_deg": math.degrees(yaw),
                "hfov_deg": math.degrees(hfov), "focal_px": f,
                "target_mm": [float(frame.centre[0]), float(frame.centre[1])], "aligned_to_markers": True}
        camera = Camera(width, height, K, R, t, k1, 0.0, info)
        uv = camera.project(world)
        m = MARKER_MARGIN_PX
        if ((uv[:, 0] >= m) & (uv[:, 0] <= width - 1 - m) & (uv[:, 1] >= m) & (uv[:, 1] <= height - 1 - m)).all():
            break
        h *= 1.03
    return camera


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
