"""The Fodbold board: a grid of squares named like chess squares ("g10"), two halves, zones 1 and 2
on each half, a penalty area at each end, goal squares just beyond each goal line and the start
square of every numbered piece.

Pure data and geometry, no I/O: ``board_from_dict`` builds a Board from the parsed YAML (see
loader.py for reading files). Other code (calibration, rendering) reads the same Board.

Coordinates: a square is ``(x, y)`` with x = column index 0.. (column letter "a" = 0, left to right
seen from red's end) and y = row number 1..rows (row 1 on red's goal line, row ``rows`` on blue's).
Goal squares lie off the board, on row 0 (red's goal) and row rows+1 (blue's goal).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

Square = tuple[int, int]
TEAMS = ("red", "blue")
_SQUARE_RE = re.compile(r"^([a-z])(\d{1,2})$")


class BoardError(ValueError):
    """A board file that cannot be played on: a square off the board, overlapping start squares..."""


def other(team: str) -> str:
    return "blue" if team == "red" else "red"


def square_name(sq: Square) -> str:
    return f"{chr(ord('a') + sq[0])}{sq[1]}"


def parse_square(name: str) -> Square:
    """'g10' -> (6, 10). Raises BoardError on a malformed name (not on a square off the board)."""
    m = _SQUARE_RE.match(str(name).strip().lower())
    if not m:
        raise BoardError(f"bad square name {name!r}: expected a column letter and a row number, like 'g10'")
    return ord(m.group(1)) - ord("a"), int(m.group(2))


def _rows(value, what: str) -> tuple[int, int]:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise BoardError(f"{what}: expected [first row, last row], got {value!r}")
    lo, hi = value
    if lo > hi:
        raise BoardError(f"{what}: first row {lo} is after last row {hi}")
    return lo, hi


@dataclass(frozen=True)
class Board:
    name: str
    columns: int
    rows: int
    halves: dict[str, tuple[int, int]]  # team -> (first row, last row) of the half it defends
    zones: dict[str, dict[int, tuple[int, int]]]  # team whose half it is -> zone number -> rows
    penalty_area: dict[str, tuple[tuple[int, int], tuple[int, int]]]  # team -> ((col lo, col hi), (row lo, row hi))
    goals: dict[str, tuple[Square, ...]]  # team -> the goal squares it defends
    start: dict[str, dict[int, Square]]  # team -> piece number -> start square

    # ---- geometry ------------------------------------------------------------------------

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.columns and 1 <= sq[1] <= self.rows

    def squares(self) -> Iterator[Square]:
        for y in range(1, self.rows + 1):
            for x in range(self.columns):
                yield x, y

    def half(self, sq: Square) -> str | None:
        """The team whose half the square is on (the half it defends)."""
        for team, (lo, hi) in self.halves.items():
            if lo <= sq[1] <= hi:
                return team
        return None

    def zone(self, sq: Square) -> tuple[str, int] | None:
        """(team whose half it is, zone 1 or 2), or None outside the zones."""
        for team, zones in self.zones.items():
            for number, (lo, hi) in zones.items():
                if lo <= sq[1] <= hi:
                    return team, number
        return None

    def in_penalty_area(self, sq: Square) -> str | None:
        for team, ((c0, c1), (r0, r1)) in self.penalty_area.items():
            if c0 <= sq[0] <= c1 and r0 <= sq[1] <= r1:
                return team
        return None

    def depth(self, team: str, sq: Square) -> int:
        """How far forward a square is for ``team``: rows from its own goal (red attacks up, blue down)."""
        return sq[1] if team == "red" else self.rows + 1 - sq[1]

    def kickoff_square(self, team: str) -> Square:
        """Kick-off from the centre: the team's number 9 starts there."""
        return self.start[team][9]

    def parse(self, name: str, allow_goal: bool = False) -> Square:
        """A square name on this board; raises BoardError if malformed or off the board."""
        sq = parse_square(name)
        if self.on_board(sq) or (allow_goal and any(sq in g for g in self.goals.values())):
            return sq
        raise BoardError(f"square {name!r} is off the {self.columns}x{self.rows} board "
                         f"(columns a-{chr(ord('a') + self.columns - 1)}, rows 1-{self.rows})")


def board_from_dict(data: dict[str, Any], name: str = "board") -> Board:
    """Build and check a Board from the YAML structure documented in data/board.yaml."""
    if not isinstance(data, dict):
        raise BoardError(f"{name}: expected a mapping at the top of the board file")
    try:
        columns, rows = int(data["columns"]), int(data["rows"])
    except (KeyError, TypeError, ValueError):
        raise BoardError(f"{name}: 'columns' and 'rows' (whole numbers) are required") from None
    if not 3 <= columns <= 26 or not 4 <= rows <= 99:
        raise BoardError(f"{name}: the board must be 3-26 columns and 4-99 rows, got {columns}x{rows}")

    def team_map(key: str) -> dict:
        v = data.get(key)
        if not isinstance(v, dict) or set(v) != set(TEAMS):
            raise BoardError(f"{name}: '{key}' must have exactly the keys red and blue")
        return v

    halves = {t: _rows(v, f"halves.{t}") for t, v in team_map("halves").items()}
    if halves["red"][0] != 1 or halves["blue"][1] != rows or halves["red"][1] + 1 != halves["blue"][0]:
        raise BoardError(f"{name}: halves must split rows 1-{rows}: red from row 1, blue up to row {rows}, "
                         f"meeting at the halfway line; got {halves}")
    zones: dict[str, dict[int, tuple[int, int]]] = {}
    for t, zs in team_map("zones").items():
        if not isinstance(zs, dict) or set(zs) != {1, 2}:
            raise BoardError(f"{name}: zones.{t} must have zones 1 and 2")
        zones[t] = {z: _rows(zs[z], f"zones.{t}.{z}") for z in (1, 2)}
        lo, hi = halves[t]
        for z, (a, b) in zones[t].items():
            if a < lo or b > hi:
                raise BoardError(f"{name}: zones.{t}.{z} rows {a}-{b} are not on {t}'s half (rows {lo}-{hi})")
    penalty: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for t, pa in team_map("penalty_area").items():
        try:
            c0, c1 = (parse_square(f"{c}1")[0] for c in pa["columns"])
            r = _rows(pa["rows"], f"penalty_area.{t}.rows")
        except (KeyError, TypeError, ValueError) as e:
            raise BoardError(f"{name}: penalty_area.{t} needs columns: [first, last] letters and rows: "
                             f"[first, last] ({e})") from None
        if not (0 <= c0 <= c1 < columns) or r[0] < halves[t][0] or r[1] > halves[t][1]:
            raise BoardError(f"{name}: penalty_area.{t} is not inside {t}'s half")
        penalty[t] = ((c0, c1), r)
    goals: dict[str, tuple[Square, ...]] = {}
    for t, names in team_map("goal").items():
        if not isinstance(names, list) or not names:
            raise BoardError(f"{name}: goal.{t} must list the goal squares")
        squares = tuple(parse_square(n) for n in names)
        row = 0 if t == "red" else rows + 1
        for n, sq in zip(names, squares):
            if sq[1] != row or not 0 <= sq[0] < columns:
                raise BoardError(f"{name}: goal square {n!r} of {t} must be on row {row}, just beyond {t}'s goal line")
        goals[t] = squares
    start: dict[str, dict[int, Square]] = {}
    seen: dict[Square, str] = {}
    for t, pieces in team_map("start").items():
        if not isinstance(pieces, dict):
            raise BoardError(f"{name}: start.{t} must map piece numbers to squares")
        start[t] = {}
        for number, sq_name in pieces.items():
            if not isinstance(number, int) or not 1 <= number <= 11:
                raise BoardError(f"{name}: start.{t}: piece numbers are 1-11, got {number!r}")
            sq = parse_square(sq_name)
            if not (0 <= sq[0] < columns and 1 <= sq[1] <= rows):
                raise BoardError(f"{name}: start.{t}.{number} {sq_name!r} is off the board")
            lo, hi = halves[t]
            if not lo <= sq[1] <= hi:
                raise BoardError(f"{name}: start.{t}.{number} {sq_name!r} is not on {t}'s half")
            if sq in seen:
                raise BoardError(f"{name}: start.{t}.{number} and {seen[sq]} both start on {sq_name}")
            seen[sq] = f"{t} {number}"
            start[t][number] = sq
        for needed in (1, 9):
            if needed not in start[t]:
                raise BoardError(f"{name}: start.{t} needs piece {needed} (the goalkeeper and the kick-off piece)")
    return Board(str(data.get("name", name)), columns, rows, halves, zones, penalty, goals, start)
