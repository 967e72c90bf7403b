"""A Fodbold position: where every piece stands, who has the ball, who marks whom, whose turn it
is and the score, with a one-line notation (like chess's FEN) and a text rendering.

Notation, fields separated by spaces:

    1g1,2b4,9g10*/1g20,4e18,8g15 red 0-0 [back=N] [left=b4:9,...] [card=R05] [turnover]

- red pieces, "/", blue pieces: piece number + square; "*" after the square = has the ball;
  "^" = a marker standing on top of the opponent piece on the same square (man-marking).
  Pieces left out are not on the board (handy in tests); both goalkeepers (1) are required.
- the team to play ("red", "blue", or "-" before the kick-off is decided); the score red-blue.
- optional: back=N backward passes in a row by the team with the ball while attacking;
  left=b4:9 blue 4 has just left red 9 and may not go straight back onto him; card=R05 a pass card
  is drawn and its move awaited; turnover the team to play wins the ball with its draw (after a
  bad pass or stalling).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import TEAMS, Board, BoardError, Square, other, square_name

Piece = tuple[str, int]  # (team, number)
_PIECE_RE = re.compile(r"^(\d{1,2})([a-z]\d{1,2})(\*?)(\^?)$")
_LETTER = {"red": "r", "blue": "b"}
_TEAM = {"r": "red", "b": "blue"}


class PositionError(ValueError):
    """A position that cannot be on the table (two pieces of a team stacked, no ball, ...)."""


def piece_name(p: Piece) -> str:
    return f"{p[0]} {p[1]}"


@dataclass
class Position:
    squares: dict[Piece, Square]
    holder: Piece | None
    markers: dict[Piece, Piece] = field(default_factory=dict)  # marker -> marked piece
    to_play: str | None = None
    score: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0})
    back_passes: int = 0
    left: dict[Piece, Piece] = field(default_factory=dict)  # marker who just left -> the player he left
    card: str | None = None
    turnover: bool = False

    def copy(self) -> "Position":
        return Position(dict(self.squares), self.holder, dict(self.markers), self.to_play, dict(self.score),
                        self.back_passes, dict(self.left), self.card, self.turnover)

    def occupied(self) -> dict[Square, list[Piece]]:
        out: dict[Square, list[Piece]] = {}
        for p, sq in self.squares.items():
            out.setdefault(sq, []).append(p)
        return out

    def at(self, sq: Square) -> list[Piece]:
        return [p for p, s in self.squares.items() if s == sq]

    def is_marked(self, p: Piece) -> bool:
        return p in self.markers.values()

    def marker_of(self, p: Piece) -> Piece | None:
        return next((m for m, t in self.markers.items() if t == p), None)

    def team(self, team: str) -> list[Piece]:
        return sorted(p for p in self.squares if p[0] == team)

    # ---- notation ------------------------------------------------------------------------

    def fen(self) -> str:
        parts = []
        for team in TEAMS:
            items = []
            for p in self.team(team):
                items.append(f"{p[1]}{square_name(self.squares[p])}"
                             f"{'*' if p == self.holder else ''}{'^' if p in self.markers else ''}")
            parts.append(",".join(items))
        fields = ["/".join(parts), self.to_play or "-", f"{self.score['red']}-{self.score['blue']}"]
        if self.back_passes:
            fields.append(f"back={self.back_passes}")
        if self.left:
            fields.append("left=" + ",".join(f"{_LETTER[m[0]]}{m[1]}:{t[1]}" for m, t in sorted(self.left.items())))
        if self.card:
            fields.append(f"card={self.card}")
        if self.turnover:
            fields.append("turnover")
        return " ".join(fields)


def parse_position(text: str, board: Board) -> Position:
    """Parse the one-line notation; raise PositionError saying what is wrong."""
    fields = text.split()
    if len(fields) < 3:
        raise PositionError(f"expected '<red>/<blue> <to play> <score> [extras]', got {text!r}")
    teams = fields[0].split("/")
    if len(teams) != 2:
        raise PositionError(f"expected red pieces, '/', blue pieces; got {fields[0]!r}")
    squares: dict[Piece, Square] = {}
    holder: Piece | None = None
    tops: list[Piece] = []
    for team, chunk in zip(TEAMS, teams):
        for item in filter(None, chunk.split(",")):
            m = _PIECE_RE.match(item)
            if not m:
                raise PositionError(f"bad piece {item!r}: expected number + square, like '9g10' or '9g10*'")
            number = int(m.group(1))
            if not 1 <= number <= 11:
                raise PositionError(f"{team} piece {number}: numbers are 1-11")
            p = (team, number)
            if p in squares:
                raise PositionError(f"{piece_name(p)} is listed twice")
            try:
                squares[p] = board.parse(m.group(2))
            except BoardError as e:
                raise PositionError(f"{piece_name(p)}: {e}") from None
            if m.group(3):
                if holder is not None:
                    raise PositionError(f"two pieces have the ball: {piece_name(holder)} and {piece_name(p)}")
                holder = p
            if m.group(4):
                tops.append(p)
    for team in TEAMS:
        if (team, 1) not in squares:
            raise PositionError(f"{team} has no goalkeeper (piece 1)")
    markers: dict[Piece, Piece] = {}
    occ: dict[Square, list[Piece]] = {}
    for p, sq in squares.items():
        occ.setdefault(sq, []).append(p)
    for sq, ps in occ.items():
        if len(ps) > 2 or (len(ps) == 2 and ps[0][0] == ps[1][0]):
            raise PositionError(f"{' and '.join(map(piece_name, ps))} share {square_name(sq)}: only a marker "
                                "may stand on an opponent")
        if len(ps) == 2:
            top = [p for p in ps if p in tops]
            if len(top) != 1:
                raise PositionError(f"{square_name(sq)} holds {ps[0][0]} {ps[0][1]} and {ps[1][0]} {ps[1][1]}: "
                                    "mark exactly one of them with '^' as the marker on top")
            markers[top[0]] = next(p for p in ps if p != top[0])
    for p in tops:
        if p not in markers:
            raise PositionError(f"{piece_name(p)} is marked '^' but stands on no opponent")
    to_play = fields[1]
    if to_play not in ("red", "blue", "-"):
        raise PositionError(f"the team to play must be red, blue or '-', got {to_play!r}")
    if to_play != "-" and holder is None:
        raise PositionError("no piece has the ball: mark the holder with '*'")
    if holder is not None and holder in markers.values():
        raise PositionError(f"{piece_name(holder)} has the ball but is marked")
    m = re.match(r"^(\d+)-(\d+)$", fields[2])
    if not m:
        raise PositionError(f"the score must be red-blue, like '1-0', got {fields[2]!r}")
    pos = Position(squares, holder, markers, None if to_play == "-" else to_play,
                   {"red": int(m.group(1)), "blue": int(m.group(2))})
    for extra in fields[3:]:
        key, _, value = extra.partition("=")
        if key == "back" and value.isdigit():
            pos.back_passes = int(value)
        elif key == "left" and value:
            for item in value.split(","):
                lm = re.match(r"^([rb])(\d{1,2}):(\d{1,2})$", item)
                if not lm:
                    raise PositionError(f"left: expected items like 'b4:9', got {item!r}")
                marker = (_TEAM[lm.group(1)], int(lm.group(2)))
                pos.left[marker] = (other(marker[0]), int(lm.group(3)))
        elif key == "card" and value:
            pos.card = value
        elif extra == "turnover":
            pos.turnover = True
        else:
            raise PositionError(f"unknown extra field {extra!r}; expected back=N, left=..., card=ID, turnover")
    return pos


def start_position(board: Board, kickoff: str | None, score: dict[str, int] | None = None) -> Position:
    """Both teams on their start squares; ``kickoff`` team's 9 has the ball on the centre spot."""
    squares = {(t, n): sq for t in TEAMS for n, sq in board.start[t].items()}
    holder = (kickoff, 9) if kickoff else None
    return Position(squares, holder, to_play=kickoff, score=dict(score or {"red": 0, "blue": 0}))


def render(pos: Position, board: Board) -> str:
    """The position as text: blue's goal at the top, red's at the bottom. r9 = red 9, R9* = red 9 with
    the ball, b4/9 = blue 4 marking red 9 on that square; '+' = penalty area, '.' = other squares."""
    width = 6
    occ = pos.occupied()
    cols = "".join(chr(ord("a") + x).rjust(width) for x in range(board.columns))

    def goal_row(team: str) -> str:
        cells = []
        for x in range(board.columns):
            cells.append(("[  ]" if any(g[0] == x for g in board.goals[team]) else "").rjust(width))
        return ("    " + "".join(cells)).rstrip()

    lines = [f"    {cols}", goal_row("blue")]
    for y in range(board.rows, 0, -1):
        cells = []
        for x in range(board.columns):
            ps = occ.get((x, y), [])
            if not ps:
                cell = "+" if board.in_penalty_area((x, y)) else "."
            elif len(ps) == 1:
                p = ps[0]
                letter = _LETTER[p[0]]
                cell = (letter.upper() + f"{p[1]}*") if p == pos.holder else f"{letter}{p[1]}"
            else:
                top = next(p for p in ps if p in pos.markers)
                cell = f"{_LETTER[top[0]]}{top[1]}/{pos.markers[top][1]}"
            cells.append(cell.rjust(width))
        z = board.zone((0, y))
        note = f"  {z[0]} zone {z[1]}" if z else ""
        if y == board.halves["red"][1]:
            note += "  -- halfway line above --"
        lines.append(f"{y:>4}" + "".join(cells) + note)
    lines.append(goal_row("red"))
    to_play = pos.to_play or "kick-off not decided"
    lines.append(f"score red {pos.score['red']} - {pos.score['blue']} blue; to play: {to_play}"
                 + (f"; card {pos.card} drawn" if pos.card else ""))
    return "\n".join(lines)
