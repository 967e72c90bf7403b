"""Game layouts in table millimetres."""
import math

import pytest

from referee.calibration.files import CalibrationError
from referee.calibration.layouts import Grid, crazy_kick_layout, crazy_layout, fodbold_layout, load_layout


@pytest.mark.parametrize("players", range(4, 13))
def test_crazy_seats_go_round_the_trick_area_in_playing_order(players):
    layout = crazy_layout(players)
    seats = layout.zones_in("seat")
    assert [s.name for s in seats] == [f"seat{k}" for k in range(1, players + 1)]
    assert [s.owner for s in seats] == list(range(1, players + 1))
    assert layout.zone_at((0, 0)).name == "trick"
    angles = []
    for s in seats:
        assert layout.zone_at(s.anchor) is s  # a player's own spot is in their own wedge
        angles.append(math.degrees(math.atan2(s.anchor[1], s.anchor[0])) % 360)
    # seat 1 at the bottom edge (+y), then clockwise in a top-down picture: the angle grows evenly
    assert angles[0] == pytest.approx(90)
    steps = [(b - a) % 360 for a, b in zip(angles, angles[1:])]
    assert steps == pytest.approx([360 / players] * (players - 1))
    # every point of the playing area belongs to the trick area or exactly one seat
    for x in range(-500, 501, 125):
        for y in range(-500, 501, 125):
            assert sum(z.contains((x, y)) for z in seats) + layout.zone("trick").contains((x, y)) >= 1


def test_crazy_player_count_is_checked():
    with pytest.raises(CalibrationError, match="4-12 players, not 3"):
        crazy_layout(3)


def test_crazy_kick_piles_centre_and_goal_areas():
    layout = crazy_kick_layout(4, 3)
    assert layout.zone_at((0, 0)).name == "centre"
    assert layout.zone_at((-400, 0)).name == "goalA" and layout.zone_at((400, 0)).name == "goalB"
    piles = layout.zones_in("pile")
    assert [p.name for p in piles] == ["pileA1", "pileA2", "pileA3", "pileA4", "pileB1", "pileB2", "pileB3"]
    for p in piles:
        assert layout.zone_at(p.anchor) is p
    assert all(p.anchor[1] > 0 for p in piles[:4]) and all(p.anchor[1] < 0 for p in piles[4:])
    assert layout.zone_at((480, 480)) is None
    with pytest.raises(CalibrationError, match="team B has 5 players"):
        crazy_kick_layout(2, 5)


def test_fodbold_grid_takes_the_rules_engines_board():
    layout = fodbold_layout()
    g = layout.grid
    try:
        from referee.games.fodbold.loader import load_board
    except ImportError:
        pytest.skip("the fodbold rules engine is not there; the layout file's grid is used")
    board = load_board()
    assert (g.columns, g.rows) == (board.columns, board.rows)
    goals = {f"{chr(97 + x)}{y}" for squares in board.goals.values() for x, y in squares}
    assert set(g.extra) == goals
    for name in goals:
        assert layout.zone_at(g.centre(name)).name == f"goal-{name}"


def test_grid_names_chess_like_from_the_bottom_left():
    g = Grid((-100.0, -50.0), 25.0, 8, 4)
    assert g.square_at((-100 + 1, 50 - 1)) == "a1"      # bottom-left corner
    assert g.square_at((100 - 1, -50 + 1)) == "h4"      # top-right corner
    assert g.square_at((-101, 0)) is None and g.square_at((0, 51)) is None
    assert all(g.square_at(g.centre(n)) == n for n in g.names())
    assert len(set(g.names())) == 32
    top = Grid((0.0, 0.0), 10.0, 3, 3, row_one="top")
    assert top.square_at((1, 1)) == "a1" and top.square_at((29, 29)) == "c3"
    with pytest.raises(KeyError):
        g.cell("i1")
    with pytest.raises(CalibrationError, match="not next to"):
        Grid((0.0, 0.0), 10.0, 3, 3, extra=("a9",))


def test_layout_files_are_checked(tmp_path):
    bad = tmp_path / "crazy.yaml"
    bad.write_text("kind: layout\ngame: crazy\nseats: {players: [4, 12]}\n")
    with pytest.raises(CalibrationError, match="crazy.yaml: missing field 'trick_area'"):
        crazy_layout(4, bad)
    bad.write_text("kind: layout\ngame: crazy-kick\n")
    with pytest.raises(CalibrationError, match="expected 'kind: layout' and 'game: crazy'"):
        crazy_layout(4, bad)
    with pytest.raises(CalibrationError, match="no layout for game 'chess'"):
        load_layout("chess")
