"""The board file, square names, the one-line position notation and the text rendering."""
import pytest
import yaml

from referee.games.fodbold import load_board, load_decks, parse_position, render, start_position
from referee.games.fodbold.board import BoardError, parse_square, square_name
from referee.games.fodbold.cards import DeckError
from referee.games.fodbold.loader import DEFAULT_BOARD
from referee.games.fodbold.position import PositionError

from .helpers import BOARD, DECKS, sq


def test_square_names_read_like_chess():
    assert parse_square("g10") == (6, 10) and square_name((6, 10)) == "g10"
    assert parse_square("A1") == (0, 1)
    assert all(parse_square(square_name(s)) == s for s in BOARD.squares())
    for bad in ("10g", "g", "", "gg1", "g100"):
        with pytest.raises(BoardError, match="expected a column letter"):
            parse_square(bad)
    with pytest.raises(BoardError, match="off the 13x20 board"):
        BOARD.parse("n5")


def test_the_default_board_has_halves_zones_penalty_areas_goals_and_start_squares():
    b = BOARD
    assert (b.columns, b.rows) == (13, 20) and len(list(b.squares())) == 260
    assert b.half(sq("a10")) == "red" and b.half(sq("a11")) == "blue"
    assert b.zone(sq("c18")) == ("blue", 1) and b.zone(sq("c15")) == ("blue", 2) and b.zone(sq("c14")) is None
    assert b.zone(sq("m3")) == ("red", 1) and b.zone(sq("m6")) == ("red", 2)
    assert b.in_penalty_area(sq("d18")) == "blue" and b.in_penalty_area(sq("c18")) is None
    assert [square_name(g) for g in b.goals["blue"]] == ["f21", "g21", "h21"]
    assert all(len(b.start[t]) == 11 for t in ("red", "blue"))
    assert all(b.half(s) == t for t in ("red", "blue") for s in b.start[t].values())
    assert b.kickoff_square("red") == sq("g10") and b.kickoff_square("blue") == sq("g11")
    assert len(DECKS.passes["red"]) == len(DECKS.passes["blue"]) == 24 and len(DECKS.shots) == 16


def _board_file(tmp_path, **changes):
    data = yaml.safe_load(DEFAULT_BOARD.read_text())
    data.update(changes)
    p = tmp_path / "board.yaml"
    p.write_text(yaml.safe_dump(data))
    return p


def test_a_user_board_file_replaces_the_default(tmp_path):
    start = {"red": {1: "e1", 9: "e6"}, "blue": {1: "e12", 9: "e7"}}
    p = _board_file(tmp_path, name="tiny", columns=9, rows=12, halves={"red": [1, 6], "blue": [7, 12]},
                    zones={"red": {1: [1, 2], 2: [3, 4]}, "blue": {1: [11, 12], 2: [9, 10]}},
                    penalty_area={"red": {"columns": ["c", "g"], "rows": [1, 2]},
                                  "blue": {"columns": ["c", "g"], "rows": [11, 12]}},
                    goal={"red": ["d0", "e0", "f0"], "blue": ["d13", "e13", "f13"]}, start=start)
    b = load_board(p)
    assert b.name == "tiny" and (b.columns, b.rows) == (9, 12) and b.zone((0, 10)) == ("blue", 2)
    assert start_position(b, "red").fen() == "1e1,9e6*/1e12,9e7 red 0-0"


@pytest.mark.parametrize("changes,message", [
    ({"columns": 40}, "3-26 columns"),
    ({"halves": {"red": [1, 9], "blue": [11, 20]}}, "halves must split"),
    ({"zones": {"red": {1: [1, 3], 2: [4, 12]}, "blue": {1: [18, 20], 2: [15, 17]}}}, "not on red's half"),
    ({"goal": {"red": ["f1", "g0"], "blue": ["f21"]}}, "must be on row 0"),
    ({"start": {"red": {1: "g1", 9: "g12"}, "blue": {1: "g20", 9: "g11"}}}, "not on red's half"),
    ({"start": {"red": {1: "g1", 9: "g10", 2: "g10"}, "blue": {1: "g20", 9: "g11"}}}, "both start on g10"),
    ({"start": {"red": {1: "g1"}, "blue": {1: "g20", 9: "g11"}}}, "needs piece 9"),
])
def test_a_bad_board_file_says_what_is_wrong(tmp_path, changes, message):
    with pytest.raises(BoardError, match=message):
        load_board(_board_file(tmp_path, **changes))


def test_bad_deck_files_say_what_is_wrong(tmp_path):
    p = tmp_path / "d.yaml"
    p.write_text("pass: {red: {R1: [2, 12]}, blue: {B1: [3]}}\nshot: {S1: {straight: 3, lofted: 4}}\n")
    with pytest.raises(DeckError, match="piece numbers 1-11"):
        load_decks(p)
    p.write_text("pass: {red: {R1: [2]}, blue: {R1: [3]}}\nshot: {S1: {straight: 3, lofted: 4}}\n")
    with pytest.raises(DeckError, match="used twice"):
        load_decks(p)
    with pytest.raises(DeckError, match="no such file"):
        load_decks(tmp_path / "missing.yaml")


def test_the_notation_round_trips_every_field():
    text = "1g1,7c14,9g10*/1g20,4c14^,8g15 blue 2-1 back=1 left=r6:3 card=B16 turnover"
    pos = parse_position(text, BOARD)
    assert pos.holder == ("red", 9) and pos.markers == {("blue", 4): ("red", 7)}
    assert pos.score == {"red": 2, "blue": 1} and pos.back_passes == 1 and pos.left == {("red", 6): ("blue", 3)}
    assert pos.card == "B16" and pos.turnover and pos.fen() == text
    start = start_position(BOARD, "red")
    assert parse_position(start.fen(), BOARD).fen() == start.fen()


@pytest.mark.parametrize("text,message", [
    ("1g1,9g10*/4e18 red 0-0", "blue has no goalkeeper"),
    ("1g1,9g10*,7g10/1g20 red 0-0", "only a marker may stand"),
    ("1g1,9g10*/1g20,4g10 red 0-0", "mark exactly one of them"),
    ("1g1,9g10*/1g20,4g11^ red 0-0", "stands on no opponent"),
    ("1g1,9g10/1g20 red 0-0", "no piece has the ball"),
    ("1g1,9g10*/1g20*,4g11 red 0-0", "two pieces have the ball"),
    ("1g1,9g10*,7c14*/1g20,4c14^ red 0-0", "two pieces have the ball"),
    ("1g1,7c14*/1g20,4c14^ red 0-0", "has the ball but is marked"),
    ("1g1,9z10*/1g20 red 0-0", "off the 13x20 board"),
    ("1g1,g10*/1g20 red 0-0", "expected number"),
    ("1g1,9g10*/1g20 green 0-0", "red, blue or '-'"),
    ("1g1,9g10*/1g20 red 0:0", "the score"),
    ("1g1,9g10*/1g20 red 0-0 wind=3", "unknown extra"),
    ("1g1,9g10*", "expected"),
])
def test_impossible_positions_are_refused_with_a_reason(text, message):
    with pytest.raises(PositionError, match=message):
        parse_position(text, BOARD)


def test_the_rendering_shows_pieces_the_ball_stacks_and_the_board():
    text = render(parse_position("1g1,7c14,9g16*/1g20,4c14^ red 1-0", BOARD), BOARD)
    lines = text.splitlines()
    row16 = next(l for l in lines if l.startswith("  16"))
    row14 = next(l for l in lines if l.startswith("  14"))
    assert "R9*" in row16 and "blue zone 2" in row16
    assert "b4/7" in row14 and row14.index("b4/7") < row16.index("R9*")  # column c is left of g
    assert lines[1].count("[  ]") == 3 and "score red 1 - 0 blue; to play: red" in lines[-1]
    assert sum(l.count("+") for l in lines) == 2 * 7 * 3 - 2  # two penalty areas, less the two keepers
