"""Game layouts in table millimetres: the zones of each game (seats, trick area, piles, goal-card
areas) and board grids, from the data files in ``layouts/``.

Table coordinates are those of ``table.py``: origin at the centre of the playing area, x right, y towards
the bottom edge. Angles are in degrees from +x towards +y, which is clockwise in a top-down picture.
"""
from __future__ import annotations

import math
import string
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import yaml

from .files import CalibrationError

LAYOUT_DIR = Path(__file__).with_name("layouts")


@dataclass(frozen=True)
class Zone:
    """A named region of the table. ``group`` says what kind (seat, trick, pile, centre, goal); ``owner``
    is the seat number or team it belongs to, when it belongs to one."""
    name: str
    group: str
    polygon: np.ndarray = field(repr=False)     # Nx2 table mm
    owner: int | str | None = None
    anchor: tuple[float, float] | None = None   # where a seat's player sits, a pile's centre

    def contains(self, point) -> bool:
        # >= 0: a point on the border counts as inside
        return cv2.pointPolygonTest(self.polygon.astype(np.float32).reshape(-1, 1, 2),
                                    (float(point[0]), float(point[1])), False) >= 0

    @property
    def centre(self) -> tuple[float, float]:
        if self.anchor is not None:
            return self.anchor
        m = cv2.moments(self.polygon.astype(np.float32))
        return (m["m10"] / m["m00"], m["m01"] / m["m00"])


def rect(centre, size) -> np.ndarray:
    (cx, cy), (w, h) = centre, size
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]])


def circle(centre, radius, steps: int = 90) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, steps, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)], axis=1)


def sector(inner: float, outer: float, start_deg: float, end_deg: float, steps: int = 24) -> np.ndarray:
    a = np.radians(np.linspace(start_deg, end_deg, steps))
    out = np.stack([outer * np.cos(a), outer * np.sin(a)], axis=1)
    inn = np.stack([inner * np.cos(a[::-1]), inner * np.sin(a[::-1])], axis=1)
    return np.concatenate([out, inn])


@dataclass(frozen=True)
class Grid:
    """A board of square cells: ``origin_mm`` is the board's top-left corner on the table, ``square_mm``
    the side of one cell. Names are chess-like: column letters a, b, ... from the left, row numbers 1,
    2, ... from the bottom (``row_one: bottom``) or from the top (``row_one: top``). ``extra`` names
    squares just off the board that still count (fodbold's goal squares, rows 0 and rows + 1)."""
    origin_mm: tuple[float, float]
    square_mm: float
    columns: int
    rows: int
    row_one: str = "bottom"
    extra: tuple[str, ...] = ()

    def __post_init__(self):
        if not 1 <= self.columns <= 26 or self.rows < 1 or self.square_mm <= 0:
            raise CalibrationError("", f"a board grid needs 1-26 columns, at least 1 row and a positive square size, "
                                       f"got {self.columns} x {self.rows} of {self.square_mm} mm")
        if self.row_one not in ("bottom", "top"):
            raise CalibrationError("", f"row_one must be 'bottom' or 'top', got {self.row_one!r}")
        for name in self.extra:
            c, r = self._parse(name)
            if not (0 <= c < self.columns and -1 <= r <= self.rows):
                raise CalibrationError("", f"extra square {name!r} is not next to a {self.columns} x {self.rows} board")

    def name(self, column: int, row_from_top: int) -> str:
        number = self.rows - row_from_top if self.row_one == "bottom" else row_from_top + 1
        return f"{string.ascii_lowercase[column]}{number}"

    def _parse(self, name: str) -> tuple[int, int]:
        col = string.ascii_lowercase.find(name[:1].lower()) if name[:1].isalpha() else -1
        try:
            number = int(name[1:])
        except ValueError:
            return -1, -99
        return col, (self.rows - number if self.row_one == "bottom" else number - 1)

    def cell(self, name: str) -> tuple[int, int]:
        """``e4`` -> (column, row counted from the top; -1 and ``rows`` for extra squares off the board)."""
        c, r = self._parse(name)
        if not ((0 <= c < self.columns and 0 <= r < self.rows) or name.lower() in self.extra):
            raise KeyError(f"no square {name!r} on a {self.columns} x {self.rows} board")
        return c, r

    def names(self, extra: bool = True) -> list[str]:
        return [self.name(c, r) for r in range(self.rows) for c in range(self.columns)] + (list(self.extra) if extra else [])

    def centre(self, name: str) -> tuple[float, float]:
        c, r = self.cell(name)
        return (self.origin_mm[0] + (c + 0.5) * self.square_mm, self.origin_mm[1] + (r + 0.5) * self.square_mm)

    def square_at(self, point) -> str | None:
        c = math.floor((point[0] - self.origin_mm[0]) / self.square_mm)
        r = math.floor((point[1] - self.origin_mm[1]) / self.square_mm)
        if not (0 <= c < self.columns and -1 <= r <= self.rows):
            return None
        name = self.name(c, r)
        return name if 0 <= r < self.rows or name in self.extra else None

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.columns * self.square_mm, self.rows * self.square_mm)


@dataclass
class Layout:
    """A game's zones (first match wins, so list the small, central ones first) and its board grid."""
    game: str
    zones: list[Zone]
    grid: Grid | None = None
    source: str = ""

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone {name!r} in the {self.game} layout; zones: {', '.join(z.name for z in self.zones)}")

    def zone_at(self, point) -> Zone | None:
        return next((z for z in self.zones if z.contains(point)), None)

    def zones_in(self, group: str) -> list[Zone]:
        return [z for z in self.zones if z.group == group]


def _read(game: str, path: str | Path | None) -> tuple[dict, str]:
    p = Path(path) if path else LAYOUT_DIR / f"{game.replace('-', '_')}.yaml"
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(str(p), "no such layout file") from None
    except yaml.YAMLError as e:
        raise CalibrationError(str(p), f"not valid YAML ({e})") from None
    if not isinstance(data, dict) or data.get("kind") != "layout" or data.get("game") != game:
        raise CalibrationError(str(p), f"expected 'kind: layout' and 'game: {game}'")
    return data, str(p)


def _get(data: dict, where: str, *keys):
    cur = data
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            raise CalibrationError(where, f"missing field '{'.'.join(keys)}'")
        cur = cur[k]
    return cur


def _shape(spec: dict, where: str, name: str) -> np.ndarray:
    try:
        if spec["shape"] == "circle":
            return circle(spec["centre_mm"], float(spec["radius_mm"]))
        if spec["shape"] == "rect":
            return rect(spec["centre_mm"], spec["size_mm"])
        if spec["shape"] == "polygon":
            return np.array(spec["points_mm"], dtype=np.float64).reshape(-1, 2)
    except (KeyError, TypeError, ValueError) as e:
        raise CalibrationError(where, f"zone '{name}': bad shape ({e!r}); a circle needs centre_mm and radius_mm, "
                                      "a rect centre_mm and size_mm, a polygon points_mm") from None
    raise CalibrationError(where, f"zone '{name}': shape must be circle, rect or polygon, got {spec.get('shape')!r}")


def crazy_layout(players: int, path: str | Path | None = None) -> Layout:
    """Crazy: the trick area in the middle and one seat per player around it, seat 1 first and the
    rest in playing order. A seat's zone is its wedge of the table between the trick area and the edge,
    so a card lying in front of a player belongs to that player."""
    data, where = _read("crazy", path)
    lo, hi = _get(data, where, "seats", "players")
    if not lo <= players <= hi:
        raise CalibrationError(where, f"Crazy seats {lo}-{hi} players, not {players}")
    trick_spec = _get(data, where, "trick_area")
    trick = Zone("trick", "trick", _shape(trick_spec, where, "trick_area"))
    ring = float(_get(data, where, "seats", "ring_mm"))
    outer = float(_get(data, where, "seats", "outer_mm"))
    first = float(_get(data, where, "seats", "first_angle_deg"))
    step = 360.0 / players * (1 if _get(data, where, "seats", "direction") == "clockwise" else -1)
    inner = float(trick_spec.get("radius_mm", 0.0))
    zones = [trick]
    for k in range(players):
        a = first + k * step
        half = abs(step) / 2
        anchor = (ring * math.cos(math.radians(a)), ring * math.sin(math.radians(a)))
        zones.append(Zone(f"seat{k + 1}", "seat", sector(inner, outer, a - half, a + half), owner=k + 1, anchor=anchor))
    return Layout("crazy", zones, source=where)


def crazy_kick_layout(team_a: int, team_b: int, path: str | Path | None = None) -> Layout:
    """Crazy Kick: the centre pile, each team's goal-card area, and one pile per player along the
    team's edge of the table (player 1 of a team on the left as seen from above)."""
    data, where = _read("crazy-kick", path)
    most = int(_get(data, where, "player_piles", "max_per_team"))
    for team, n in (("A", team_a), ("B", team_b)):
        if not 1 <= n <= most:
            raise CalibrationError(where, f"team {team} has {n} players; a team has 1-{most}")
    zones = [Zone("centre", "centre", _shape(_get(data, where, "centre_pile"), where, "centre_pile"))]
    size = _get(data, where, "player_piles", "size_mm")
    span = float(_get(data, where, "player_piles", "span_mm"))
    for team, n in (("A", team_a), ("B", team_b)):
        spec = _get(data, where, "teams", team)
        zones.append(Zone(f"goal{team}", "goal", _shape(_get(spec, where, "goal_area"), where, f"teams.{team}.goal_area"), owner=team))
        y = float(_get(spec, where, "piles_y_mm"))
        for i in range(n):
            x = -span / 2 + (i + 0.5) * span / n
            zones.append(Zone(f"pile{team}{i + 1}", "pile", rect((x, y), size), owner=f"{team}{i + 1}", anchor=(x, y)))
    return Layout("crazy-kick", zones, source=where)


def fodbold_layout(path: str | Path | None = None, board=None) -> Layout:
    """Fodbold: the board grid, its goal squares just beyond each goal line, and the board's outline.
    Columns, rows and goal squares come from the fodbold rules engine's board (``board``, or
    ``referee.games.fodbold``'s default board when that package is there), else from the layout file;
    the square size and the board's place on the table always come from the layout file."""
    data, where = _read("fodbold", path)
    g = _get(data, where, "grid")
    columns, rows = int(_get(g, where, "columns")), int(_get(g, where, "rows"))
    extra = tuple(str(n).lower() for n in g.get("extra", []))
    found = _fodbold_board(board)
    if found is not None:
        columns, rows, extra = found
    square = float(_get(g, where, "square_mm"))
    # The board is centred on the table unless the file says where its top-left corner is.
    origin = g.get("origin_mm") or (-columns * square / 2, -rows * square / 2)
    try:
        grid = Grid((float(origin[0]), float(origin[1])), square, columns, rows, g.get("row_one", "bottom"), extra)
    except CalibrationError as e:
        raise CalibrationError(where, e.message) from None
    outline = rect((origin[0] + grid.size_mm[0] / 2, origin[1] + grid.size_mm[1] / 2), grid.size_mm)
    zones = [Zone("board", "board", outline)]
    for name in extra:  # goal squares lie off the board: zones of their own
        zones.append(Zone(f"goal-{name}", "goal", rect(grid.centre(name), (square, square)), owner=name))
    return Layout("fodbold", zones, grid, source=where)


def _fodbold_board(board=None) -> tuple[int, int, tuple[str, ...]] | None:
    """(columns, rows, goal square names) of the fodbold rules engine's board, when there is one."""
    if board is None:
        try:
            from referee.games.fodbold.loader import load_board
        except ImportError:
            return None
        board = load_board()
    columns, rows = getattr(board, "columns", None), getattr(board, "rows", None)
    if not (isinstance(columns, int) and isinstance(rows, int)):
        return None
    goals = getattr(board, "goals", {}) or {}
    names = tuple(f"{chr(ord('a') + x)}{y}" for squares in goals.values() for x, y in squares)
    return columns, rows, names


def load_layout(game: str, players: int | None = None, teams: tuple[int, int] | None = None,
                path: str | Path | None = None) -> Layout:
    if game == "crazy":
        return crazy_layout(players or 4, path)
    if game == "crazy-kick":
        return crazy_kick_layout(*(teams or (2, 2)), path=path)
    if game == "fodbold":
        return fodbold_layout(path)
    raise CalibrationError("", f"no layout for game {game!r}; expected crazy, crazy-kick or fodbold")
