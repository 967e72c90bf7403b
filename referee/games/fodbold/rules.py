"""The Fodbold rules engine: pure Python, deterministic, no I/O.

``FodboldGame(setup, board, decks).apply(action) -> [Event]`` checks one action against the rules,
updates the position and says what happened. Impossible actions become recorded violations (and
are ignored: the table puts the piece back); offside and stalling are violations with their
penalty applied. The rules and every decision the text leaves open are in docs/rules/fodbold.md.
"""
from __future__ import annotations

from collections import deque
from typing import Sequence

from ..base import NOTABLE, ROUTINE, URGENT, Event, Violation, violation_event
from .actions import Draw, Move, Roll, Setup, Shot
from .board import TEAMS, Board, BoardError, Square, other, square_name
from .cards import Decks, PassCard
from .position import Piece, Position, parse_position, piece_name, start_position

STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]  # a move goes in all directions


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


class FodboldGame:
    """State of one game. Feed it actions with ``apply``; read ``position``, ``scoresheet()``."""

    def __init__(self, setup: Setup, board: Board, decks: Decks):
        self.setup, self.board, self.decks, self.opts = setup, board, decks, setup.options
        self.violations: list[Violation] = []
        self.events: list[Event] = []
        self.goals: list[dict] = []
        self.drawn: dict[str, set[str]] = {t: set() for t in TEAMS}
        self.shots_drawn: dict[str, set[str]] = {t: set() for t in TEAMS}
        self.turns = 0
        self.over = False
        self._out: set[str] = set()  # teams whose pass cards have run out
        if setup.position:
            self.position = parse_position(setup.position, board)
            card = self.position.card
            if card is not None:
                team = self.position.to_play
                if team is None or decks.pass_card(team, card) is None:
                    raise ValueError(f"position: card={card} is not a pass card of the team to play")
                self.drawn[team].add(card)
        else:
            self.position = start_position(board, setup.first)
        self._events: list[Event] = []

    # ---- queries (also used by the simulator) --------------------------------------------

    @property
    def pos(self) -> Position:
        return self.position

    @property
    def phase(self) -> str:
        """'roll' (kick-off not decided), 'turn' (draw or shoot), 'move' (a card awaits its move) or 'over'."""
        if self.over:
            return "over"
        if self.pos.to_play is None:
            return "roll"
        return "move" if self.pos.card else "turn"

    def fen(self) -> str:
        return self.pos.fen()

    def cards_left(self, team: str) -> int:
        return len(self.decks.passes[team]) - len(self.drawn[team])

    def pass_cards_left(self, team: str) -> list[str]:
        return [c for c in self.decks.passes[team] if c not in self.drawn[team]]

    def shot_cards_left(self, team: str) -> list[str]:
        left = [c for c in self.decks.shots if c not in self.shots_drawn[team]]
        return left or list(self.decks.shots)  # an empty shot deck is reshuffled

    def ball_team(self) -> str | None:
        return self.pos.holder[0] if self.pos.holder else None

    def shot_chance(self, team: str) -> bool:
        """The team has the ball in zone 1 or 2 of the opponent's half."""
        h = self.pos.holder
        if h is None or h[0] != team:
            return False
        z = self.board.zone(self.pos.squares[h])
        return z is not None and z[0] == other(team)

    def offside_line(self, attackers: str) -> Piece | None:
        """The rearmost defender against ``attackers``: the counted piece nearest its own goal line."""
        defenders = [p for p in self.pos.team(other(attackers))
                     if self.opts.offside_counts == "all" or p[1] != 1]
        if not defenders:
            return None
        return max(defenders, key=lambda p: (self.board.depth(attackers, self.pos.squares[p]), -p[1]))

    def offside(self, p: Piece, sq: Square | None = None) -> tuple[Piece, str] | None:
        """(rearmost defender, 'level with' or 'behind') if ``p`` on ``sq`` is in an offside position:
        on the opponent's half, level with or behind the rearmost defender."""
        sq = sq or self.pos.squares[p]
        if self.board.half(sq) != other(p[0]):
            return None
        d = self.offside_line(p[0])
        if d is None:
            return None
        mine, theirs = self.board.depth(p[0], sq), self.board.depth(p[0], self.pos.squares[d])
        if mine < theirs:
            return None
        return d, ("level with" if mine == theirs else "behind")

    def named(self, card: PassCard, team: str) -> list[Piece]:
        return [(team, n) for n in card.players if (team, n) in self.pos.squares]

    def allowed_movers(self) -> list[Piece]:
        """Pieces that may move for the card awaiting its move: the ball winner after a turnover;
        otherwise the named pieces that are not marked, and only the markers among them if any."""
        pos = self.pos
        if pos.card is None:
            return []
        if pos.turnover:
            return [pos.holder] if pos.holder else []
        card = self.decks.pass_card(pos.to_play, pos.card)
        free = [p for p in self.named(card, pos.to_play) if not pos.is_marked(p)]
        markers = [p for p in free if p in pos.markers]
        return markers or free

    def _reach(self, p: Piece) -> dict[Square, int]:
        """Free squares ``p`` can reach in at most its number of steps, never jumping a piece."""
        pos, n = self.pos, p[1]
        occupied = set(pos.squares.values())
        src = pos.squares[p]
        dist = {src: 0}
        queue = deque([src])
        while queue:
            sq = queue.popleft()
            if dist[sq] == n:
                continue
            for dx, dy in STEPS:
                q = (sq[0] + dx, sq[1] + dy)
                if q not in dist and q not in occupied and self.board.on_board(q):
                    dist[q] = dist[sq] + 1
                    queue.append(q)
        return dist

    def move_problem(self, p: Piece, dest: Square, reach: dict[Square, int] | None = None) -> tuple[str, str] | None:
        """Why ``p`` may not move to ``dest`` now, as (violation type, reason); None if it may."""
        pos, board = self.pos, self.board
        src, n, name = pos.squares[p], p[1], piece_name(p)
        if dest == src:
            if p in pos.markers and self._can_leave(p):
                return ("marker_must_move", f"{name} marks {piece_name(pos.markers[p])} and must move at least "
                        "one square when his number comes up")
            return None
        if chebyshev(src, dest) > n:
            return ("too_far", f"{name} may move at most {n} square{'s' if n > 1 else ''}; "
                    f"{square_name(src)} to {square_name(dest)} is {chebyshev(src, dest)}")
        there = pos.at(dest)
        if there:
            target = there[0]
            if len(there) > 1 or target[0] == p[0]:
                return ("occupied", f"{square_name(dest)} is taken by {' and '.join(map(piece_name, there))}")
            if self.ball_team() == p[0]:
                return ("occupied", f"{name} cannot stand on {piece_name(target)}: only the team without the "
                        "ball marks")
            if board.half(dest) != p[0]:
                return ("bad_mark", f"{name} may mark only on {p[0]}'s own half; {square_name(dest)} is on "
                        f"{other(p[0])}'s half")
            if target == pos.holder:
                return ("bad_mark", f"{name} may not mark {piece_name(target)}: he has the ball")
            if target[1] == 1:
                return ("bad_mark", f"{name} may not mark {piece_name(target)}: the goalkeeper cannot be marked")
            if pos.left.get(p) == target:
                return ("remark", f"{name} has just left {piece_name(target)} and may not go straight back onto "
                        "him on his next move")
        reach = reach if reach is not None else self._reach(p)
        if there:
            ok = any(reach.get((dest[0] - dx, dest[1] - dy), n) <= n - 1 for dx, dy in STEPS)
        else:
            ok = dest in reach
        if not ok:
            return ("blocked", f"{name} cannot get from {square_name(src)} to {square_name(dest)} in at most {n} "
                    "squares without jumping over a piece")
        return None

    def _can_leave(self, p: Piece) -> bool:
        reach = self._reach(p)
        return len(reach) > 1 or any(self.move_problem(p, q, reach) is None
                                     for q in self._mark_candidates(p, reach))

    def _mark_candidates(self, p: Piece, reach: dict[Square, int]) -> set[Square]:
        out = set()
        for sq, d in reach.items():
            if d < p[1]:
                for dx, dy in STEPS:
                    q = (sq[0] + dx, sq[1] + dy)
                    if q in self.pos.squares.values() and q != self.pos.squares[p]:
                        out.add(q)
        return out

    def destinations(self, p: Piece) -> list[Square]:
        """Every square ``p`` may legally move to now (its own square when it may stay)."""
        reach = self._reach(p)
        cands = set(reach) | self._mark_candidates(p, reach)
        return sorted(q for q in cands if self.move_problem(p, q, reach) is None)

    def solo_problem(self, p: Piece, dest: Square) -> str | None:
        """A solo run past the last defender must shoot before the penalty area: it may not enter it."""
        if p != self.pos.holder or self.board.in_penalty_area(dest) != other(p[0]):
            return None
        off = self.offside(p, dest)
        if off is None:
            return None
        return (f"{piece_name(p)} is running solo {off[1]} the last defender {piece_name(off[0])} and must shoot "
                f"before the penalty area; he may not move into it ({square_name(dest)})")

    def pass_direction(self, receiver: Piece) -> str:
        passer = self.pos.holder
        a = self.board.depth(passer[0], self.pos.squares[passer])
        b = self.board.depth(passer[0], self.pos.squares[receiver])
        return "forward" if b > a else "backward" if b < a else "level"

    def attacking(self, team: str) -> bool:
        """The team is in attack: its player with the ball stands on the opponent's half."""
        h = self.pos.holder
        return h is not None and h[0] == team and self.board.half(self.pos.squares[h]) == other(team)

    def would_stall(self, receiver: Piece) -> bool:
        return (receiver != self.pos.holder and self.attacking(receiver[0])
                and self.pass_direction(receiver) == "backward"
                and self.pos.back_passes + 1 >= self.opts.stalling_back_passes)

    def shot_line(self, team: str) -> dict:
        """How the ball holder's shot goes: straight along a column or diagonal to a goal square with
        nothing in between (the nearest such), else lofted to the nearest goal square."""
        pos, board = self.pos, self.board
        src = pos.squares[pos.holder]
        occupied = {sq: ps for sq, ps in pos.occupied().items() if sq != src}
        lines = []
        for g in board.goals[other(team)]:
            dx, dy = g[0] - src[0], g[1] - src[1]
            if dx == 0 or abs(dx) == abs(dy):
                between = [(src[0] + _sign(dx) * i, src[1] + _sign(dy) * i) for i in range(1, abs(dy))]
                blockers = [p for sq in between for p in sorted(occupied.get(sq, []))]
                lines.append((abs(dy), abs(dx), g, blockers))
        clear = sorted(l for l in lines if not l[3])
        if clear:
            d, _, g, _ = clear[0]
            return {"kind": "straight", "distance": d, "target": square_name(g), "blocked_by": None}
        d, g = min((chebyshev(src, g), abs(g[0] - src[0]), g) for g in board.goals[other(team)])[0::2]
        blocked = sorted(lines)[0][3][0] if lines else None
        return {"kind": "lofted", "distance": d, "target": square_name(g),
                "blocked_by": piece_name(blocked) if blocked else None}

    # ---- actions -------------------------------------------------------------------------

    def apply(self, action) -> list[Event]:
        """Apply one action; return the events it caused (violations included)."""
        self._events = []
        if isinstance(action, Setup):
            self._violate("bad_action", None, "a second setup; a log holds one game", action)
        elif self.over:
            self._violate("game_over", getattr(action, "team", None),
                          f"the game is over; '{action.type}' ignored", action)
        elif isinstance(action, Roll):
            self._roll(action)
        elif self._kickoff_decided(action):
            if isinstance(action, Draw):
                self._draw(action)
            elif isinstance(action, Move):
                self._move(action)
            elif isinstance(action, Shot):
                self._shot(action)
            else:  # pragma: no cover - the schema admits nothing else
                raise TypeError(f"not a Fodbold action: {action!r}")
        self.events.extend(self._events)
        return self._events

    def _emit(self, type_: str, action, priority: int = ROUTINE, **data) -> None:
        self._events.append(Event(type_, data, t=action.t, priority=priority))

    def _violate(self, type_: str, team: str | None, detail: str, action) -> None:
        v = Violation(type_, team, detail, t=action.t)
        self.violations.append(v)
        self._events.append(violation_event(v))

    def _turn_check(self, a) -> bool:
        if a.team != self.pos.to_play:
            self._violate("out_of_turn", a.team, f"it is {self.pos.to_play}'s turn, not {a.team}'s; "
                          f"'{a.type}' ignored", a)
            return False
        return True

    def _kickoff(self, team: str, a) -> None:
        self.pos.to_play = team
        self.pos.holder = (team, 9)
        self._emit("kickoff", a, NOTABLE, team=team, piece=9, square=square_name(self.pos.squares[(team, 9)]))

    def _kickoff_decided(self, a) -> bool:
        if self.pos.to_play is not None:
            return True
        self._violate("no_kickoff_roll", a.team, f"nobody has rolled an odd number for the kick-off; {a.team} "
                      f"played first and kicks off", a)
        self._kickoff(a.team, a)
        return True

    def _roll(self, a: Roll) -> None:
        if self.pos.to_play is not None or self.turns:
            self._violate("bad_roll", a.team, f"the kick-off is already decided ({self.pos.to_play} to play); "
                          "roll ignored", a)
            return
        odd = a.value % 2 == 1
        self._emit("roll", a, ROUTINE, team=a.team, value=a.value, result="kicks_off" if odd else "roll_again")
        if odd:
            self._kickoff(a.team, a)

    def _draw(self, a: Draw) -> None:
        pos = self.pos
        if not self._turn_check(a):
            return
        if pos.card is not None:
            self._violate("move_expected", a.team, f"{a.team} drew {a.card} but must first move a player for "
                          f"{pos.card}; draw ignored", a)
            return
        card = self.decks.pass_card(a.team, a.card)
        if card is None:
            self._violate("unknown_card", a.team, f"{a.card} is not one of {a.team}'s pass cards; draw ignored", a)
            return
        if a.card in self.drawn[a.team]:
            self._violate("card_already_drawn", a.team, f"{a.card} was already drawn; draw ignored", a)
            return
        self.drawn[a.team].add(a.card)
        self._emit("card_drawn", a, ROUTINE, team=a.team, card=a.card, players=list(card.players),
                   cards_left=self.cards_left(a.team))
        named = self.named(card, a.team)
        if pos.turnover:
            # Bad pass or stalling: the lowest number on the card wins the ball, the goalkeeper if he is marked.
            winner = named[0] if named else (a.team, 1)
            if pos.is_marked(winner):
                winner = (a.team, 1)
            pos.holder = winner
            pos.back_passes = 0
            pos.card = a.card
            self._emit("ball_won", a, NOTABLE, team=a.team, piece=winner[1], card=a.card,
                       square=square_name(pos.squares[winner]))
            return
        free = [p for p in named if not pos.is_marked(p)]
        if not free:
            if self.ball_team() == a.team:
                self._emit("bad_pass", a, NOTABLE, team=a.team, card=a.card, players=list(card.players))
                self._end_turn(a, a.team, turnover=True)
            else:
                self._emit("no_move", a, ROUTINE, team=a.team, card=a.card, players=list(card.players))
                self._end_turn(a, a.team)
            return
        pos.card = a.card

    def _move(self, a: Move) -> None:
        pos = self.pos
        if not self._turn_check(a):
            return
        if pos.card is None:
            self._violate("no_card", a.team, f"{a.team} must draw a pass card (or shoot) before moving; "
                          f"move of {a.team} {a.piece} ignored", a)
            return
        p = (a.team, a.piece)
        name = piece_name(p)
        if p not in pos.squares:
            self._violate("unknown_piece", a.team, f"{name} is not on the board; move ignored", a)
            return
        try:
            dest = self.board.parse(a.to)
            src_seen = self.board.parse(a.from_) if a.from_ else None
        except BoardError as e:
            self._violate("off_board", a.team, f"{e}; move ignored", a)
            return
        src = pos.squares[p]
        if src_seen is not None and src_seen != src:
            self._violate("wrong_square", a.team, f"{name} stands on {square_name(src)}, not {a.from_}; "
                          "move ignored", a)
            return
        allowed = self.allowed_movers()
        if p not in allowed:
            self._violate(*self._not_allowed(p, allowed), a)
            return
        problem = self.move_problem(p, dest)
        if problem:
            self._violate(problem[0], a.team, problem[1] + "; move ignored", a)
            return
        has_ball = self.ball_team() == a.team
        if has_ball and not pos.turnover and p != pos.holder:
            # A pass: judged where the receiver stands when he gets the ball, before he moves.
            off = self.offside(p)
            if off is not None:
                defender, where = off
                self._violate("offside", a.team, f"Offside: {name} was {where} {piece_name(defender)} when he "
                              "received the ball", a)
                self._free_kick(a, defender, "offside")
                return
            direction = self.pass_direction(p)
            if direction == "backward" and self.attacking(a.team):
                if self.would_stall(p):
                    n = pos.back_passes + 1
                    self._violate("stalling", a.team, f"Stalling: {a.team} passed backwards {n} times in a row "
                                  f"while attacking ({piece_name(pos.holder)} to {name}); {other(a.team)} takes "
                                  "over the ball", a)
                    pos.back_passes = 0
                    self._end_turn(a, a.team, turnover=True)
                    return
                pos.back_passes += 1
                self._emit("back_pass", a, ROUTINE, team=a.team, count=pos.back_passes,
                           limit=self.opts.stalling_back_passes)
            else:
                pos.back_passes = 0
            self._emit("pass", a, ROUTINE, team=a.team, passer=pos.holder[1], receiver=a.piece,
                       square=square_name(src), direction=direction, card=pos.card)
            pos.holder = p
        elif has_ball and p == pos.holder and not pos.turnover:
            solo = self.solo_problem(p, dest)
            if solo:
                self._violate("solo_into_penalty_area", a.team, solo + "; move ignored", a)
                return
            pos.back_passes = 0
            self._emit("solo", a, ROUTINE, team=a.team, piece=a.piece, card=pos.card)
        self._relocate(a, p, dest)
        self._end_turn(a, a.team)

    def _not_allowed(self, p: Piece, allowed: list[Piece]) -> tuple[str, str, str]:
        pos, name = self.pos, piece_name(p)
        card = self.decks.pass_card(pos.to_play, pos.card)
        if pos.turnover:
            return ("wrong_piece", p[0], f"{piece_name(pos.holder)} won the ball with {pos.card}; only he may "
                    f"move; {name} ignored")
        if p[1] not in card.players:
            return ("not_on_card", p[0], f"{name} is not on {pos.card} ({', '.join(map(str, card.players))}); "
                    "move ignored")
        if pos.is_marked(p):
            return ("marked", p[0], f"{name} is marked by {piece_name(pos.marker_of(p))} and can neither move "
                    "nor receive the ball; move ignored")
        markers = ", ".join(f"{piece_name(m)} (on {piece_name(pos.markers[m])})" for m in allowed)
        return ("marker_must_move", p[0], f"{markers} marks and is named on {pos.card}, so he must be the one "
                f"to move, not {name}; move ignored")

    def _relocate(self, a, p: Piece, dest: Square) -> None:
        pos = self.pos
        src = pos.squares[p]
        if dest == src:  # staying put (allowed unless he marks and can get away)
            self._emit("moved", a, ROUTINE, team=p[0], piece=p[1], square_from=square_name(src),
                       square_to=square_name(dest), squares=0, ball=pos.holder == p)
            return
        if p in pos.markers:
            released = pos.markers.pop(p)
            pos.left[p] = released
            self._emit("released", a, ROUTINE, team=p[0], piece=p[1], player=released[1], square=square_name(src))
        else:
            pos.left.pop(p, None)  # the ban on going straight back lasts one move
        there = pos.at(dest)
        pos.squares[p] = dest
        self._emit("moved", a, ROUTINE, team=p[0], piece=p[1], square_from=square_name(src),
                   square_to=square_name(dest), squares=chebyshev(src, dest), ball=pos.holder == p)
        if there and there[0] != p:
            pos.markers[p] = there[0]
            self._emit("marked", a, NOTABLE, team=p[0], piece=p[1], player=there[0][1], square=square_name(dest))

    def _free_kick(self, a, defender: Piece, reason: str) -> None:
        pos = self.pos
        if pos.is_marked(defender):
            defender = (defender[0], 1)
        pos.holder = defender
        pos.back_passes = 0
        self._emit("free_kick", a, NOTABLE, team=defender[0], piece=defender[1], reason=reason,
                   square=square_name(pos.squares[defender]))
        self._end_turn(a, other(defender[0]))

    def _shot(self, a: Shot) -> None:
        pos = self.pos
        if not self._turn_check(a):
            return
        if pos.card is not None:
            self._violate("move_expected", a.team, f"{a.team} drew {pos.card} and must move a player for it; "
                          "no shot", a)
            return
        if pos.turnover or self.ball_team() != a.team:
            self._violate("no_ball", a.team, f"{a.team} does not have the ball; shot ignored", a)
            return
        shooter = pos.holder
        if not self.shot_chance(a.team):
            self._violate("no_shot_chance", a.team, f"{piece_name(shooter)} on {square_name(pos.squares[shooter])} "
                          f"is not in zone 1 or 2 of {other(a.team)}'s half; shot ignored", a)
            return
        card = self.decks.shots.get(a.card)
        if card is None:
            self._violate("unknown_card", a.team, f"{a.card} is not a shot card; shot ignored", a)
            return
        if len(self.shots_drawn[a.team]) == len(self.decks.shots):
            self.shots_drawn[a.team].clear()
            self._emit("shot_deck_reshuffled", a, ROUTINE, team=a.team)
        if a.card in self.shots_drawn[a.team]:
            self._violate("card_already_drawn", a.team, f"{a.card} was already drawn from {a.team}'s shot deck; "
                          "shot ignored", a)
            return
        self.shots_drawn[a.team].add(a.card)
        if self.opts.offside_on_shot:
            for mate in pos.team(a.team):
                off = None if mate == shooter or pos.is_marked(mate) else self.offside(mate)
                if off is not None:
                    self._violate("offside", a.team, f"Offside: {piece_name(mate)} was {off[1]} "
                                  f"{piece_name(off[0])} when {piece_name(shooter)} shot", a)
                    self._free_kick(a, off[0], "offside")
                    return
        line = self.shot_line(a.team)
        d = line["distance"]
        if line["kind"] == "straight":
            number = card.straight
            result = "goal" if number > d else "missed"
        else:
            number = card.lofted
            result = ("goal" if d <= number <= d + self.opts.lofted_margin
                      else "over_bar" if number > d else "short")
        self._emit("shot", a, NOTABLE, team=a.team, piece=shooter[1], square=square_name(pos.squares[shooter]),
                   card=a.card, number=number, result=result, **line)
        pos.back_passes = 0
        if result == "goal":
            pos.score[a.team] += 1
            self.goals.append({"team": a.team, "piece": shooter[1], "kind": line["kind"], "t": a.t,
                               "score": dict(pos.score)})
            self._emit("goal", a, URGENT, team=a.team, piece=shooter[1], score=dict(pos.score))
            self.position = start_position(self.board, None, pos.score)
            self._kickoff(other(a.team), a)
        else:
            keeper = (other(a.team), 1)
            pos.holder = keeper
            self._emit("goal_kick", a, NOTABLE, team=keeper[0], piece=1, reason=result,
                       square=square_name(pos.squares[keeper]))
        self._end_turn(a, a.team)

    def _end_turn(self, a, team: str, turnover: bool = False) -> None:
        """``team``'s turn is over: the other team plays, unless it has no pass card left and no
        shot chance (a team out of cards may still shoot), which ends the game."""
        pos = self.pos
        self.turns += 1
        nxt = other(team)
        pos.to_play, pos.turnover, pos.card = nxt, turnover, None
        if self.cards_left(team) == 0 and team not in self._out:
            self._out.add(team)
            self._emit("cards_out", a, NOTABLE, team=team, opponent_cards_left=self.cards_left(nxt))
        if self.cards_left(nxt) == 0:
            if not turnover and self.shot_chance(nxt):
                self._emit("last_chance", a, NOTABLE, team=nxt)
            else:
                self._finish(a)

    def _finish(self, a) -> None:
        self.over = True
        self._emit("game_over", a, URGENT, score=dict(self.pos.score), winner=self.winner())

    # ---- results -------------------------------------------------------------------------

    def winner(self) -> str | None:
        """The team with more goals once the game is over; None for a draw or a game in play."""
        s = self.pos.score
        if not self.over or s["red"] == s["blue"]:
            return None
        return "red" if s["red"] > s["blue"] else "blue"

    def scoresheet(self) -> dict:
        """Everything a scoresheet shows, as plain JSON-ready data."""
        return {
            "game": "fodbold",
            "teams": dict(self.setup.teams),
            "board": self.board.name,
            "score": dict(self.pos.score),
            "complete": self.over,
            "winner": self.winner(),
            "result": ("in play" if not self.over else "draw" if self.winner() is None else f"{self.winner()} wins"),
            "goals": list(self.goals),
            "turns": self.turns,
            "cards_left": {t: self.cards_left(t) for t in TEAMS},
            "position": self.fen(),
            "events": [e.to_dict() for e in self.events],
            "violations": [v.to_dict() for v in self.violations],
        }


def replay(actions: Sequence, board: Board, decks: Decks) -> tuple[FodboldGame, list[Event]]:
    """Play a parsed action log (setup first) on a loaded board and decks."""
    game = FodboldGame(actions[0], board, decks)
    events: list[Event] = []
    for action in actions[1:]:
        events.extend(game.apply(action))
    return game, events
