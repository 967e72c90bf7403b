"""Observations (as the tracker emits them) to Fodbold actions, through the real engine and layout."""
import pytest

from referee.calibration.layouts import fodbold_layout
from referee.games.fodbold import load_board, load_decks, square_name
from referee.games.fodbold.actions import ACTION_ADAPTER
from referee.games.fodbold.adapter import Correction, FodboldAdapter
from referee.games.fodbold.labels import fodbold_classes, parse_piece, piece_label
from referee.games.fodbold.rules import FodboldGame
from referee.tracker import Observation

BOARD, DECKS = load_board(), load_decks()
LAYOUT = fodbold_layout()
SQ = LAYOUT.grid.centre
BESIDE = (400, 300)  # off the board, where a drawn card is shown


class Table:
    def __init__(self, first="red", position=None):
        setup = {"type": "setup", "game": "fodbold", "first": first, "position": position}
        self.setup = ACTION_ADAPTER.validate_python(setup)
        self.game = FodboldGame(self.setup, BOARD, DECKS)
        self.ad = FodboldAdapter(self.game, LAYOUT)
        self.frame = 0
        self.events = []

    def see(self, kind, track, label, where, came_from=None, old=None, frames=30, confidence=1.0):
        self.frame += frames
        xy = SQ(where) if isinstance(where, str) else where
        from_xy = SQ(came_from) if isinstance(came_from, str) else came_from
        obs = Observation(kind, track, label, float(xy[0]), float(xy[1]), self.frame, from_xy=from_xy, old_label=old,
                          confidence=confidence)
        out = self.ad.observe(obs, t=self.frame / 30)
        for a in out:
            if isinstance(a, dict):
                self.events += self.game.apply(ACTION_ADAPTER.validate_python(a))
            else:  # a correction: re-score the corrected log, as the session does
                self.game = FodboldGame(self.setup, BOARD, DECKS)
                self.ad.game = self.game
                self.events = []
                for b in self.ad.log:
                    self.events += self.game.apply(ACTION_ADAPTER.validate_python(b))
        return out

    def kinds(self):
        return [e.data.get("violation", e.type) for e in self.events]


def test_a_drawn_card_and_a_piece_moved_are_a_draw_and_a_pass():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9
    assert tb.ad.log[-1] == {"type": "draw", "team": "red", "card": "R06", "t": 1.0, "frame": 30, "source": "camera"}
    tb.see("moved", 2, "red-7", "c11", came_from="c9")
    assert tb.ad.log[-1] == {"type": "move", "team": "red", "piece": 7, "from": "c9", "to": "c11", "t": 2.0,
                             "frame": 60, "source": "camera"}
    assert tb.kinds() == ["card_drawn", "pass", "moved"] and tb.game.pos.holder == ("red", 7)
    assert tb.game.pos.to_play == "blue"


def test_a_face_down_card_turned_over_is_a_draw_shown_and_drawn_cards_count_once():
    tb = Table()
    tb.see("appeared", 1, "back", BESIDE)
    assert tb.ad.log == []
    tb.see("relabelled", 1, "R06", BESIDE, old="back")
    assert [a["card"] for a in tb.ad.log] == ["R06"]
    tb.see("moved", 1, "R06", (420, 250), came_from=BESIDE)  # put on the discard pile
    tb.see("appeared", 7, "R06", (420, 250))  # seen again after a hand hid it: the same card
    assert len(tb.ad.log) == 1 and tb.kinds() == ["card_drawn"]


def test_a_misread_card_and_a_misread_piece_are_corrected():
    tb = Table()
    tb.see("appeared", 1, "R03", BESIDE)  # 4 or 9: read wrongly
    out = tb.see("relabelled", 1, "R06", BESIDE, old="R03", frames=5)
    assert out == [Correction(0, {**tb.ad.log[0], "card": "R06"})] and tb.game.pos.card == "R06"
    # a piece first seen somewhere the engine has no red piece (carried there unseen) is named by its label
    tb.see("appeared", 2, "red-9", "c11")  # 9 is on g10: read wrongly, and no 'from'
    assert tb.ad.log[-1]["piece"] == 9 and "from" not in tb.ad.log[-1] and tb.kinds()[-2:] == ["solo", "moved"]
    out = tb.see("relabelled", 2, "red-7", "c11", old="red-9", frames=5)
    assert isinstance(out[0], Correction) and tb.ad.log[1]["piece"] == 7
    assert tb.game.pos.squares[("red", 7)] == BOARD.parse("c11") and tb.game.violations == []
    assert tb.kinds() == ["card_drawn", "pass", "moved"]


def test_a_piece_is_the_one_that_left_its_square_whatever_number_is_read_on_it():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("appeared", 2, "red-9", "c9")  # red 7 stands on c9: read wrongly, no call
    assert len(tb.ad.log) == 1
    tb.see("moved", 2, "red-4", "c11", came_from="c9")  # carried on, still misread
    assert tb.ad.log[-1] == {"type": "move", "team": "red", "piece": 7, "from": "c9", "to": "c11", "t": 3.0,
                             "frame": 90, "source": "camera"}
    assert tb.kinds() == ["card_drawn", "pass", "moved"]
    assert tb.see("relabelled", 2, "red-9", "c11", old="red-4") == []  # later misreads change nothing
    blue7 = next(c.id for c in DECKS.passes["blue"].values() if 7 in c.players)
    tb.see("appeared", 4, blue7, BESIDE)
    tb.see("moved", 3, "blue-3", "k8", came_from="k12")  # first seen moving, from blue 7's square
    assert {k: tb.ad.log[-1][k] for k in ("team", "piece", "from", "to")} == {
        "team": "blue", "piece": 7, "from": "k12", "to": "k8"}


def test_a_piece_carried_unseen_with_a_number_not_on_the_card_is_the_one_mover_out_of_sight():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)     # red 7 or red 9 moves
    tb.see("appeared", 3, "red-9", "g10")    # red 9 rests on his square, in sight
    tb.see("appeared", 4, "red-7", "c9")
    tb.see("vanished", 4, "red-7", "c9")     # red 7 lifted under a hand ...
    tb.see("appeared", 5, "red-4", "c11")    # ... and set down, his number read as 4
    assert {k: tb.ad.log[-1][k] for k in ("team", "piece", "to")} == {"team": "red", "piece": 7, "to": "c11"}
    assert tb.kinds() == ["card_drawn", "pass", "moved"] and tb.game.violations == []


def test_a_number_the_card_lets_move_stands_and_so_does_one_with_two_movers_out_of_sight():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)     # red 7 or red 9
    tb.see("appeared", 4, "red-7", "c9")     # red 7 in sight (his track may be held unseen) ...
    tb.see("appeared", 5, "red-7", "c11", frames=10)  # ... and 7 is read on a piece carried to c11:
    assert [a["type"] for a in tb.ad.log] == ["draw"]  # it waits while red 7 seems in sight ...
    tb.see("vanished", 4, "red-7", "c9", frames=10)    # ... and when his old track is let go,
    assert tb.ad.log[-1]["piece"] == 7                 # the number stands
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("appeared", 4, "red-7", "c9")
    tb.see("appeared", 5, "red-7", "c11", frames=10)
    tb.see("appeared", 6, "ball", "c11", frames=45)    # so it does when the old track is held longer
    assert tb.ad.log[-1]["piece"] == 7 and tb.game.violations == []
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)     # neither red 7 nor red 9 in sight:
    tb.see("appeared", 5, "red-4", "c11")    # which of them was carried cannot be told ...
    assert [a["type"] for a in tb.ad.log] == ["draw"]
    tb.see("appeared", 6, "ball", "c11", frames=45)  # ... and after doubt_frames the number stands
    assert tb.ad.log[-1]["piece"] == 4 and tb.kinds()[-1] == "not_on_card"


def test_a_piece_carried_unseen_waits_for_the_tracker_to_let_go_of_the_one_that_moved():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)     # red 7 or red 9
    tb.see("appeared", 3, "red-9", "g10")
    tb.see("appeared", 4, "red-7", "c9")     # red 7's track, held unseen while he is carried
    tb.see("appeared", 5, "red-4", "c11", frames=10)
    assert [a["type"] for a in tb.ad.log] == ["draw"], "no call while red 7 still seems in sight"
    tb.see("vanished", 4, "red-7", "c9", frames=10)
    assert {k: tb.ad.log[-1][k] for k in ("team", "piece", "to")} == {"team": "red", "piece": 7, "to": "c11"}
    assert tb.game.violations == []


def test_a_mover_carried_and_read_as_another_mover_in_sight_is_the_one_whose_track_goes():
    """Seed 9111: the card let blue 6 or 8 move; blue 6 was carried and read as 8 on his new square
    while blue 8 stood in view on his own. Blue 6's old track was let go a look later."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)     # red 7 or red 9
    tb.see("appeared", 3, "red-9", "g10")    # red 9 stands in view on his square ...
    tb.see("appeared", 4, "red-7", "c9")     # ... red 7's track is held while he is carried
    tb.see("appeared", 5, "red-9", "c11", frames=10)   # red 7 set down, read as 9
    assert [a["type"] for a in tb.ad.log] == ["draw"]
    tb.see("vanished", 4, "red-7", "c9", frames=10)
    assert {k: tb.ad.log[-1][k] for k in ("team", "piece", "to")} == {"team": "red", "piece": 7, "to": "c11"}
    tb.see("relabelled", 3, "red-9", "g10", old="red-7")  # red 9 read anew on his square: no move
    assert len(tb.ad.log) == 2 and tb.game.violations == []


def test_a_non_mover_track_carried_off_read_surely_as_a_mover_is_the_mover():
    """Seed 9203: blue 11 taken from l11 to b16 went to the track of blue 10 on d14 (which read 11 a moment
    before, as the hand passed over him), and blue 10 was called not on the card (6, 11). A track of a piece the
    card does not let move, carried off and read surely as one it does, is that mover; read unsurely, it is
    the piece its track was."""
    for sure, piece in ((0.9, 9), (0.6, 8)):
        tb = Table()
        tb.see("appeared", 1, "R06", BESIDE)  # red 7 or red 9
        tb.see("appeared", 3, "red-9", "g10")
        tb.see("appeared", 2, "red-8", "g6")  # named red 8 by his square
        tb.see("moved", 2, "red-9", "g12", came_from="g6", confidence=sure)
        assert (tb.ad.log[-1]["type"], tb.ad.log[-1]["piece"]) == ("move", piece)
        assert [v.type for v in tb.game.violations] == ([] if piece == 9 else ["not_on_card"])


def test_a_move_let_go_as_the_other_teams_card_shows_is_played_before_anyone_is_made_to_stay():
    """Seed 9108: red 11's move waited while his old track was held; blue's card showed, the move was
    let go, but the staying move was judged on the engine without it: red moved and stayed, and the
    staying move was called out of turn."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)     # red 7 or red 9
    tb.see("appeared", 4, "red-7", "c9")     # red 7's old track, held
    tb.see("appeared", 5, "red-7", "c11", frames=10)   # red 7 set down: waits while track 4 is held
    blue = next(c.id for c in DECKS.passes["blue"].values())
    tb.see("appeared", 8, blue, (400, -300), frames=10)
    assert [(a["type"], a.get("piece")) for a in tb.ad.log] == [("draw", None), ("move", 7), ("draw", None)]
    assert tb.game.violations == [] and tb.game.pos.squares[("red", 7)] == BOARD.parse("c11")


def test_a_piece_still_in_doubt_when_the_recording_ends_is_judged_as_last_seen():
    """Seed 9110: red 10 was set down 0.1 s before the end, while his old track was still held."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("appeared", 4, "red-7", "c9")
    tb.see("appeared", 5, "red-7", "c11", frames=10)
    assert [a["type"] for a in tb.ad.log] == ["draw"]
    out = tb.ad.finish(tb.frame + 3, t=(tb.frame + 3) / 30)
    assert [(a["type"], a["piece"], a["to"]) for a in out] == [("move", 7, "c11")]
    assert tb.ad.finish(tb.frame + 4) == []   # nothing is judged twice


def test_a_marker_set_on_a_piece_takes_over_its_track_and_is_a_move():
    """Seed 9090: red 10 marked blue 8; the tracker took the red piece for the blue one's track
    relabelled (another colour at its resting place), and the move was never made."""
    tb = Table(position="1g1,5g12,9g9*/1g20,4g14 blue 0-0")
    tb.see("appeared", 1, "red-5", "g12")          # named red 5 by his square
    tb.see("appeared", 2, "blue-4", "g14")
    tb.see("appeared", 3, "B03", (400, -300))      # blue 4 or 9 moves
    tb.see("vanished", 2, "blue-4", "g14")         # blue 4 lifted ...
    tb.see("relabelled", 1, "blue-4", "g12", old="red-5")   # ... and set on red 5
    assert {k: tb.ad.log[-1][k] for k in ("type", "team", "piece", "to")} == {
        "type": "move", "team": "blue", "piece": 4, "to": "g12"}
    assert tb.game.violations == [] and tb.game.pos.squares[("red", 5)] == BOARD.parse("g12")
    tb.see("relabelled", 1, "red-5", "g12", old="blue-4")   # the marker lifted off again: red 5 shows
    assert len(tb.ad.log) == 2 and tb.game.violations == []


def test_a_doubted_piece_is_judged_before_the_other_teams_card():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("appeared", 3, "red-9", "g10")
    tb.see("appeared", 4, "red-7", "c9")
    tb.see("appeared", 5, "red-4", "c11", frames=10)
    blue = next(c.id for c in DECKS.passes["blue"].values())
    tb.see("appeared", 8, blue, (400, -300), frames=10)
    assert tb.ad.log[1]["type"] == "move" and tb.ad.log[1]["piece"] == 4 and tb.ad.log[-1]["card"] == blue
    kinds = tb.kinds()
    assert kinds.index("not_on_card") < len(kinds) - 1 - kinds[::-1].index("card_drawn")


def _blue_to_draw():
    """Red drew R06 and passed to 7 (c9 -> c11): blue is to draw. Also a blue card naming blue 7."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("moved", 2, "red-7", "c11", came_from="c9")
    assert tb.game.phase == "turn" and tb.game.pos.to_play == "blue"
    return tb, next(c.id for c in DECKS.passes["blue"].values() if 7 in c.players)


def test_a_pieces_old_track_left_behind_is_no_other_piece_and_no_move():
    """Seed 9003: the pieces set up again after a goal; a piece's old track, not yet let go where the
    piece stood, still reads its number when the piece is found on its new square."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("appeared", 2, "red-7", "c9")  # named red 7 by its square
    tb.see("appeared", 3, "red-7", "c11")  # carried under a hand, found as a new track: the move,
    tb.see("appeared", 9, "ball", "c11", frames=45)  # once track 2 has been held for doubt_frames
    assert tb.ad.log[-1]["to"] == "c11" and tb.game.pos.to_play == "blue"
    n = len(tb.ad.log)
    tb.see("appeared", 4, "red-7", "c11")  # hidden and found again; track 2 still rests on c9
    assert len(tb.ad.log) == n and tb.game.violations == []


def test_a_move_seen_before_its_teams_card_waits_for_the_card_and_counts_after_it():
    tb, card = _blue_to_draw()
    n = len(tb.ad.log)
    assert tb.see("moved", 3, "blue-7", "k8", came_from="k12") == []  # the card under a hand, unseen yet
    assert len(tb.ad.log) == n and tb.game.violations == []
    tb.see("appeared", 4, card, BESIDE, frames=90)  # the card, seen 3 s late
    assert [(a["type"], a.get("card", a.get("to"))) for a in tb.ad.log[n:]] == [("draw", card), ("move", "k8")]
    assert tb.ad.log[-1]["from"] == "k12" and tb.game.violations == []
    assert tb.game.pos.squares[("blue", 7)] == BOARD.parse("k8")


def test_a_move_whose_card_never_comes_is_called_as_seen_after_card_wait_frames():
    tb, _ = _blue_to_draw()
    n = len(tb.ad.log)
    tb.see("moved", 3, "blue-7", "k8", came_from="k12")
    tb.see("appeared", 9, "ball", "k8", frames=tb.ad.card_wait_frames + 1)  # long after: no card came
    assert [a["type"] for a in tb.ad.log[n:]] == ["move"] and tb.ad.log[-1]["to"] == "k8"
    assert len(tb.game.violations) == 1  # moved without a card: the engine's call


def test_a_track_that_went_with_another_piece_is_named_again_when_the_piece_shows_where_it_was():
    """Seed 9017: blue 8 came to rest beside blue 2 and the tracker gave it blue 2's track; then blue 2
    was found again on its square. The track is blue 8 (the number read on it), and it moved."""
    tb, card = _blue_to_draw()
    game = tb.game
    scratch = FodboldGame(tb.setup, BOARD, DECKS)
    for a in tb.ad.log + [{"type": "draw", "team": "blue", "card": card, "t": 9.0}]:
        scratch.apply(ACTION_ADAPTER.validate_python(a))
    seven = game.pos.squares[("blue", 7)]
    blues = {sq: p for p, sq in game.pos.squares.items() if p[0] == "blue"}
    near = lambda a, b: max(abs(a[0] - b[0]), abs(a[1] - b[1]))  # noqa: E731
    to, other = next((d, blues[s]) for d in scratch.destinations(("blue", 7)) if d not in blues
                     and near(d, seven) >= 2 for s in blues if blues[s] != ("blue", 7) and near(s, d) == 1)
    there = square_name(game.pos.squares[other])
    tb.see("appeared", 20, piece_label(*other), there)  # named by its square: the other piece
    n = len(tb.ad.log)
    tb.see("moved", 20, piece_label("blue", 7), square_name(to), came_from=there)  # a square off: no call
    assert len(tb.ad.log) == n
    tb.see("appeared", 21, piece_label(*other), there)  # the other piece, found again where it stood
    tb.see("appeared", 4, card, BESIDE)
    assert [(a["type"], a.get("piece"), a.get("to")) for a in tb.ad.log[n:]] == [
        ("draw", None, None), ("move", 7, square_name(to))]
    assert tb.game.violations == [] and tb.game.pos.squares[other] == game.pos.squares[other]


def test_a_piece_put_back_after_a_refused_move_or_nudged_one_square_is_no_call():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("moved", 2, "red-7", "c20", came_from="c9")  # eleven rows: too far for a 7
    assert tb.kinds()[-1] == "too_far"
    tb.see("moved", 2, "red-7", "c9", came_from="c20")  # the table puts him back
    tb.see("moved", 3, "blue-5", "b16", came_from="b17")  # knocked one square, not blue's turn
    tb.see("moved", 4, "red-2", "b5", came_from="b4")  # knocked: red's turn, but 2 is not on the card
    assert len(tb.ad.log) == 2
    tb.see("moved", 2, "red-7", "c10", came_from="c9")  # the real move, one square: his to make
    assert tb.kinds()[-2:] == ["pass", "moved"]


def test_a_piece_seen_on_a_teammates_square_is_two_pieces_confused_not_a_move():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("appeared", 2, "red-7", "c9")
    tb.see("moved", 2, "red-7", "g6", came_from="c9")  # red 8 stands on g6
    assert len(tb.ad.log) == 1 and tb.game.violations == []
    tb.see("moved", 2, "red-7", "c11", came_from="g6")  # then where it really went
    assert tb.ad.log[-1]["piece"] == 7 and tb.kinds() == ["card_drawn", "pass", "moved"]


def test_a_clear_move_out_of_turn_is_called():
    tb = Table()
    tb.see("moved", 5, "blue-7", "k9", came_from="k12")
    assert tb.ad.log[-1]["team"] == "blue" and tb.kinds()[-1] == "out_of_turn"
    assert tb.game.pos.squares[("blue", 7)] == BOARD.parse("k12")  # ignored by the engine


def test_a_piece_stacked_on_an_opponent_marks_him():
    tb = Table(position="1g1,9g10*,7c12/1g20,4c14 blue 0-0")
    tb.see("appeared", 1, "B03", BESIDE)  # 4 or 9; blue 9 is not on the board
    tb.see("moved", 2, "blue-4", (SQ("c12")[0] + 3, SQ("c12")[1] - 4), came_from="c14")  # on top of red 7
    assert tb.ad.log[-1]["to"] == "c12"
    assert "marked" in tb.kinds() and tb.game.pos.markers == {("blue", 4): ("red", 7)}


def test_a_shot_card_is_a_shot_by_the_team_to_play():
    tb = Table(position="1g1,9g17*/1g20,4c14 red 0-0")
    tb.see("appeared", 1, "S01", BESIDE)
    assert tb.ad.log[-1]["type"] == "shot" and tb.ad.log[-1]["team"] == "red"
    assert [e.type for e in tb.events][:2] == ["shot", "goal"]
    undecided = Table(first=None)
    assert undecided.see("appeared", 1, "S02", BESIDE) == []  # nobody to play yet: no call


def test_a_player_who_stays_put_is_inferred_when_the_other_team_shows_its_card():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9; 9 has the ball on g10
    tb.see("moved", 2, "ball", "c9", came_from="g10")  # the ball goes to 7, who does not move
    tb.see("appeared", 3, "B03", (420, -300))
    assert [strip(a) for a in tb.ad.log[1:]] == [{"type": "move", "team": "red", "piece": 7, "to": "c9"},
                                                  {"type": "draw", "team": "blue", "card": "B03"}]
    assert tb.game.pos.holder == ("red", 7) and tb.game.violations == []
    tb2 = Table()
    tb2.see("appeared", 1, "R06", BESIDE)  # the ball stays on 9: he keeps it and stays
    tb2.see("appeared", 3, "B03", (420, -300))
    assert tb2.ad.log[1]["piece"] == 9 and tb2.game.violations == [] and tb2.game.pos.to_play == "blue"


def test_when_the_ball_token_is_seen_on_no_one_who_may_stay_the_nearest_stays():
    tb = Table()
    tb.see("appeared", 1, "R19", BESIDE)  # red 1 or 10; 9 (not on the card) has the ball on g10
    tb.see("moved", 2, "ball", "g2", came_from="g10")  # to the keeper on g1, read one square off
    tb.see("appeared", 3, "B03", (420, -300))
    assert [strip(a) for a in tb.ad.log[1:]] == [{"type": "move", "team": "red", "piece": 1, "to": "g1"},
                                                  {"type": "draw", "team": "blue", "card": "B03"}]
    assert tb.game.violations == [] and tb.game.pos.to_play == "blue"


def test_a_move_seen_after_the_guess_that_he_stayed_put_replaces_the_guess():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9; 7 runs to c11 with the ball, unseen (a hand over him)
    tb.see("appeared", 3, "B03", (420, -300))  # blue's card: the adapter guesses red 9 kept the ball and stayed
    assert strip(tb.ad.log[1]) == {"type": "move", "team": "red", "piece": 9, "to": "g10"}
    tb.see("moved", 4, "blue-4", "e15", came_from="e13")  # blue 4 or 9: 4 runs two squares
    out = tb.see("moved", 2, "red-7", "c11", came_from="c9")  # red 7 found at last, where he went
    assert len(out) == 1 and isinstance(out[0], Correction) and out[0].index == 1 and "late" in out[0].why
    assert [strip(a) for a in tb.ad.log] == [{"type": "draw", "team": "red", "card": "R06"},
                                             {"type": "move", "team": "red", "piece": 7, "to": "c11"},
                                             {"type": "draw", "team": "blue", "card": "B03"},
                                             {"type": "move", "team": "blue", "piece": 4, "to": "e15"}]
    assert tb.game.violations == [] and tb.game.pos.holder == ("red", 7) and tb.game.pos.to_play == "red"


def test_a_ball_token_far_from_everyone_who_may_stay_went_with_a_player_who_moved_unseen():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9 (9 on g10 has the ball)
    tb.see("moved", 2, "ball", "c11", came_from="g10")  # 7 takes the pass and runs to c11, unseen
    tb.see("appeared", 3, "B03", (420, -300))
    assert [strip(a) for a in tb.ad.log[1:]] == [{"type": "move", "team": "red", "piece": 7, "to": "c11"},
                                                  {"type": "draw", "team": "blue", "card": "B03"}]
    assert tb.game.violations == [] and tb.game.pos.holder == ("red", 7)
    tb.see("moved", 4, "blue-4", "e15", came_from="e13")
    out = tb.see("appeared", 5, "red-7", "d11")  # seen at last: a square beside where the token was read
    assert isinstance(out[0], Correction) and strip(tb.ad.log[1]) == {"type": "move", "team": "red", "piece": 7,
                                                                      "to": "d11"}
    assert tb.game.violations == [] and tb.game.pos.squares[("red", 7)] == BOARD.parse("d11")


def test_a_piece_seen_late_with_a_misread_number_may_be_the_guessed_player_himself():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9; 9 has the ball on g10 and runs to e8, unseen
    tb.see("appeared", 3, "B03", (420, -300))  # guessed: 9 kept the ball and stayed
    tb.see("moved", 4, "blue-4", "e16", came_from="e18")
    out = tb.see("appeared", 5, "red-5", "e8")  # 9 found at last, read as 5 (not on red's card)
    assert isinstance(out[0], Correction) and strip(tb.ad.log[1]) == {"type": "move", "team": "red", "piece": 9,
                                                                      "to": "e8"}
    assert tb.game.violations == [] and tb.game.pos.squares[("red", 9)] == BOARD.parse("e8")


def test_the_ball_token_is_not_taken_to_a_player_seen_still_on_his_square():
    tb = Table()
    tb.see("appeared", 9, "red-7", "c9")  # 7 is seen where he stands, and stays there
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9: 9 runs to c11 with the ball, unseen
    tb.see("moved", 2, "ball", "c11", came_from="g10")
    tb.see("appeared", 3, "B03", (420, -300))
    assert strip(tb.ad.log[1]) == {"type": "move", "team": "red", "piece": 9, "to": "c11"}
    assert tb.game.violations == [] and tb.game.pos.holder == ("red", 9)


def test_a_move_out_of_turn_that_no_guess_explains_is_still_called():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("moved", 2, "red-7", "c11", came_from="c9")  # seen: no guess made
    tb.see("appeared", 3, "B03", (420, -300))
    tb.see("moved", 4, "red-10", "j9", came_from="j7")  # red again, while blue is to move
    assert tb.kinds()[-1] == "out_of_turn" and len(tb.ad.log) == 4
    tb2 = Table()
    tb2.see("appeared", 1, "R06", BESIDE)
    tb2.see("appeared", 3, "B03", (420, -300))  # red 9 guessed to stay
    tb2.see("moved", 4, "red-10", "j9", came_from="j7")  # 10 is not on red's card: no guess explains it
    assert tb2.kinds()[-1] == "out_of_turn" and strip(tb2.ad.log[1])["piece"] == 9


def test_a_card_read_back_and_forth_between_two_labels_is_drawn_once():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("relabelled", 1, "R04", BESIDE, old="R06", frames=10)  # a correction: R04 (5 or 10)
    tb.see("moved", 2, "red-10", "j9", came_from="j7")
    tb.see("appeared", 3, "B03", (420, -300))
    tb.see("moved", 4, "blue-4", "e16", came_from="e18")  # red is to draw now
    tb.see("relabelled", 1, "R06", BESIDE, old="R04", frames=60)  # read as R06 again: not a new card
    assert [a.get("card") for a in tb.ad.log] == ["R04", None, "B03", None] and tb.game.violations == []


def test_a_draw_put_right_then_read_surely_as_its_first_card_again_is_that_card_where_the_move_bears_it_out():
    """Seed 9202: red's R11 read R24 at 0.60 for 0.4 s (put right to R24), then R11 at 0.76 again as red 5 moved;
    red 5 was called not on R24. Read back surely, and the move legal on it, the draw is the first card."""
    for sure, card in ((0.76, "R06"), (0.6, "R04")):
        tb = Table()
        tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9
        tb.see("relabelled", 1, "R04", BESIDE, old="R06", frames=10)  # put right: R04 (5 or 10)
        tb.see("moved", 2, "red-7", "c11", came_from="c9", frames=25)  # not on R04: called
        assert [v.type for v in tb.game.violations] == ["not_on_card"]
        tb.see("relabelled", 1, "R06", BESIDE, old="R04", frames=6, confidence=sure)
        assert tb.ad.log[0]["card"] == card and len(tb.game.violations) == (card == "R04")


def test_a_draw_put_right_then_read_more_surely_as_its_first_card_again_is_that_card_when_the_move_fits_both():
    """Seed 9215: blue's B12 read 0.76, put right to B24 at 0.69, then read B12 at 0.84 as blue 8 moved, a piece
    either card lets move: no violation decides, the surer reading does. Read back less surely, it stays."""
    other = next(c.id for c in DECKS.passes["red"].values() if 7 in c.players and c.id != "R06")
    for sure, card in ((0.84, "R06"), (0.65, other)):
        tb = Table()
        tb.see("appeared", 1, "R06", BESIDE, confidence=0.76)  # red 7 or 9
        tb.see("relabelled", 1, other, BESIDE, old="R06", frames=10, confidence=0.69)  # put right
        tb.see("moved", 2, "red-7", "c11", came_from="c9", frames=25)
        assert tb.ad.log[0]["card"] == other and tb.game.violations == []
        tb.see("relabelled", 1, "R06", BESIDE, old=other, frames=6, confidence=sure)
        assert tb.ad.log[0]["card"] == card and tb.game.violations == [], sure


def test_a_drawn_card_read_anew_when_no_card_may_be_drawn_is_a_misread():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)  # red 7 or 9
    tb.see("moved", 2, "red-7", "c11", came_from="c9")  # blue is to draw now
    tb.see("relabelled", 1, "R04", BESIDE, old="R06", frames=60)
    assert len(tb.ad.log) == 2 and tb.game.violations == []
    tb.see("appeared", 3, "R05", (420, 320))  # a red card shown now, not a re-read: out of turn
    assert tb.kinds()[-1] == "out_of_turn"
    tb2 = Table()
    tb2.see("appeared", 1, "R06", BESIDE)
    tb2.see("relabelled", 1, "R04", BESIDE, old="R06", frames=60)  # red's move for R06 is awaited
    assert len(tb2.ad.log) == 1 and tb2.game.violations == [] and tb2.game.pos.card == "R06"


def test_the_discard_pile_found_again_and_misread_is_no_draw_unless_that_team_may_draw():
    """Seed 9019: blue's B07, drawn long before, was found again on the discard pile (a new track) and
    read once as B04 while red's move was awaited: no draw, no staying move for red."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("moved", 2, "red-7", "c11", came_from="c9")
    blue = next(c.id for c in DECKS.passes["blue"].values() if 7 in c.players)
    tb.see("appeared", 3, blue, (420, -300))
    tb.see("moved", 4, "blue-7", "k8", came_from="k12")  # red is to draw now
    red = next(c.id for c in DECKS.passes["red"].values() if c.id != "R06" and 7 in c.players)
    tb.see("appeared", 5, red, BESIDE)  # red draws; red's move is awaited
    n = len(tb.ad.log)
    tb.see("appeared", 6, blue, (420, -300))  # the discard pile, found again after a hand
    other = next(c for c in DECKS.passes["blue"] if c != blue)
    # nudged and misread in one look: the tracker reports a move under the new label, then the relabel
    tb.see("moved", 6, other, (430, -290), came_from=(420, -300))
    tb.see("relabelled", 6, other, (430, -290), old=blue, frames=0)
    assert len(tb.ad.log) == n and tb.game.violations == [] and tb.game.pos.to_play == "red"
    # blue to draw: a card laid on the discard pile is read as a relabel of it, and is blue's draw
    tb.see("moved", 7, "red-7", "c13", came_from="c11")
    assert tb.game.phase == "turn" and tb.game.pos.to_play == "blue"
    tb.see("relabelled", 6, other, (430, -290), old=blue)
    assert tb.ad.log[-1]["type"] == "draw" and tb.ad.log[-1]["card"] == other


def test_a_teams_card_and_its_move_seen_in_one_look_are_draw_then_move():
    tb = Table()
    card = Observation("appeared", 1, "R06", *map(float, BESIDE), 30)
    move = Observation("moved", 2, "red-7", *map(float, SQ("c11")), 30, from_xy=SQ("c9"))
    assert tb.ad.order([move, card]) == [card, move]
    blue = Observation("appeared", 3, "B03", 420.0, -300.0, 30)
    assert tb.ad.order([blue, move]) == [move, blue], "red is to play: red's piece before blue's card"


def test_a_shot_card_after_the_other_team_stayed_put_is_the_shooters():
    tb = Table(position="1g1,9g17*/1g20,4c14 blue 0-0")  # blue to play, red has the ball in blue's zone
    tb.see("appeared", 1, "B03", BESIDE)  # blue 4 (9 is not on the board) ...
    tb.see("appeared", 2, "S01", BESIDE)  # ... stays put; red shoots
    assert [(a["type"], a["team"]) for a in tb.ad.log] == [("draw", "blue"), ("move", "blue"), ("shot", "red")]
    assert "goal" in tb.kinds() and tb.game.violations == []


def test_the_ball_and_other_things_make_no_action_and_the_die_is_the_operators():
    tb = Table(first=None)
    assert tb.see("appeared", 1, "ball", "g10") == [] and tb.ad.ball_square == "g10"
    assert tb.see("appeared", 2, "hand", BESIDE) == [] and tb.see("moved", 3, "red-5", (0, 700)) == []
    assert tb.see("vanished", 4, "red-9", "g10") == []
    a = tb.ad.operator("roll", "blue", 3, t=1.5)
    assert a == {"type": "roll", "team": "blue", "value": 3, "t": 1.5, "source": "operator"}
    assert tb.game.apply(ACTION_ADAPTER.validate_python(a))[0].data["result"] == "kicks_off"
    with pytest.raises(ValueError, match="roll TEAM VALUE"):
        tb.ad.operator("roll", "green", 3)


def test_labels():
    classes = fodbold_classes()
    assert len(classes) == len(set(classes)) == 22 + 1 + 48 + 16 + 1
    assert piece_label("red", 9) == "red-9" and parse_piece("blue-11") == ("blue", 11)
    assert parse_piece("blue-12") is None and parse_piece("R09") is None and parse_piece("ball") is None
    with pytest.raises(ValueError):
        piece_label("green", 1)


# ---- whole simulated games, as the camera would see them ------------------------------------------

def camera_replay(log, rng):
    """Feed a simulated game to the adapter as observations: cards shown beside the board, pieces
    carried square to square, the ball token moved to whoever has it, refused moves put back and
    the pieces set up again after a goal. A player who stays put is not seen at all."""
    setup = ACTION_ADAPTER.validate_python(log[0])
    game = FodboldGame(setup, BOARD, DECKS)
    ad = FodboldAdapter(game, LAYOUT)
    frame, tracks = [0], iter(range(1000, 10 ** 6))
    track = {p: i for i, p in enumerate(sorted(game.pos.squares))}
    phys = {p: game.pos.squares[p] for p in game.pos.squares}
    ball = [None]

    def see(kind, tid, label, sq, from_sq=None):
        frame[0] += rng.randint(10, 60)
        xy = SQ(sq) if isinstance(sq, str) else sq
        from_xy = SQ(from_sq) if from_sq else None
        out = ad.observe(Observation(kind, tid, label, xy[0], xy[1], frame[0], from_xy=from_xy), t=frame[0] / 30)
        for a in out:
            assert isinstance(a, dict)
            game.apply(ACTION_ADAPTER.validate_python(a))
        return out

    def tidy():
        """The table follows the referee: refused moves put back, pieces reset after a goal, the ball moved."""
        for p, sq in game.pos.squares.items():
            if phys[p] != sq:
                assert see("moved", track[p], piece_label(*p), square_name(sq), square_name(phys[p])) == []
                phys[p] = sq
        holder = game.pos.holder
        if holder is not None and ball[0] != game.pos.squares[holder]:
            assert see("moved", 999, "ball", square_name(game.pos.squares[holder])) == []
            ball[0] = game.pos.squares[holder]

    for a in log[1:]:
        if a["type"] == "roll":
            game.apply(ACTION_ADAPTER.validate_python(ad.operator("roll", a["team"], a["value"], t=frame[0] / 30)))
        elif a["type"] in ("draw", "shot"):
            see("appeared", next(tracks), a["card"], BESIDE)
        else:
            p = (a["team"], a["piece"])
            to = BOARD.parse(a["to"])
            if to == phys[p]:  # stays put: unseen, but the ball token goes to him if he receives it
                if game.ball_team() == a["team"] and not game.pos.turnover:
                    see("moved", 999, "ball", a["to"])
                    ball[0] = to
                continue
            see("moved", track[p], piece_label(*p), a["to"], square_name(phys[p]))
            phys[p] = to
        tidy()
    return ad, game


def strip(a):
    return {k: v for k, v in a.items() if k not in ("t", "frame", "source", "from")}


@pytest.mark.parametrize("seed,fouls", [(1, 0.0), (2, 0.2), (3, 0.3)])
def test_whole_simulated_games_seen_by_the_camera_score_the_same(seed, fouls):
    import random

    from referee.games.fodbold.simulate import random_game

    log = random_game(random.Random(seed), BOARD, DECKS, fouls=fouls, first=None)
    truth = FodboldGame(ACTION_ADAPTER.validate_python(log[0]), BOARD, DECKS)
    for a in log[1:]:
        truth.apply(ACTION_ADAPTER.validate_python(a))
    ad, game = camera_replay(log, random.Random(seed))
    want = [strip(a) for a in log[1:]]
    got = [strip(a) for a in ad.log]
    if want[-1]["type"] == "move" and len(got) == len(want) - 1:
        want = want[:-1]  # a last player who stayed put: no card after him shows it
    assert got == want
    assert [v.type for v in game.violations] == [v.type for v in truth.violations]
    if len(got) == len(log) - 1:
        assert game.scoresheet()["score"] == truth.scoresheet()["score"] and game.over == truth.over


def test_the_next_card_on_the_same_discard_spot_is_the_next_draw_not_a_correction():
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("moved", 2, "red-7", "c11", came_from="c9", frames=5)
    out = tb.see("relabelled", 1, "B03", BESIDE, old="R06", frames=5)  # blue's card lands on red's
    assert [a["card"] for a in out] == ["B03"] and [a["type"] for a in tb.ad.log] == ["draw", "move", "draw"]
    assert tb.game.violations == [] and tb.game.pos.card == "B03"


def test_a_draw_read_anew_as_a_card_drawn_before_is_withdrawn():
    """Seed 9053: blue's B24, drawn before, seen again on the discard pile when blue was to draw and
    read as B12 for a look: B12 was taken as a draw, then read right as B24. It was no draw at all,
    and no card_already_drawn call."""
    tb = Table()
    tb.see("appeared", 1, "R06", BESIDE)
    tb.see("moved", 2, "red-7", "c11", came_from="c9")
    blue = next(c.id for c in DECKS.passes["blue"].values() if 7 in c.players)
    tb.see("appeared", 3, blue, (420, -300))
    tb.see("moved", 4, "blue-7", "k8", came_from="k12")
    red = next(c.id for c in DECKS.passes["red"].values() if c.id != "R06" and 7 in c.players)
    tb.see("appeared", 5, red, BESIDE)
    tb.see("moved", 2, "red-7", "c13", came_from="c11")  # blue is to draw now
    n = len(tb.ad.log)
    other = next(c for c in DECKS.passes["blue"] if c != blue)
    tb.see("appeared", 6, other, (420, -300))  # blue's discard pile, found again and misread
    assert len(tb.ad.log) == n + 1 and tb.ad.log[-1]["card"] == other
    out = tb.see("relabelled", 6, blue, (420, -300), old=other, frames=5)
    assert out == [Correction(n, None, f"{blue} (was read as {other}): a card drawn before, seen again; no draw")]
    assert len(tb.ad.log) == n and tb.game.violations == [] and tb.game.pos.to_play == "blue"
    assert tb.game.phase == "turn"
    # blue's real draw, laid on the pile later, still counts
    third = next(c for c in DECKS.passes["blue"] if c not in (blue, other))
    tb.see("relabelled", 6, third, (420, -300), old=blue)
    assert tb.ad.log[-1]["type"] == "draw" and tb.ad.log[-1]["card"] == third and tb.game.violations == []


def test_the_shot_card_lying_where_it_was_laid_read_as_another_refused_shot_is_a_misread():
    """Seed 9065: blue's S12, lying where it was laid, was read as S02 now and then long after, and
    called a shot by red with no shot chance. A shot card of its own (a new card) is still called."""
    tb = Table(position="1g1,9g17*/1g20,4c14 red 0-0")
    tb.see("appeared", 1, "S01", BESIDE)
    assert tb.kinds() == ["shot", "goal", "kickoff"] and tb.game.pos.to_play == "blue"
    assert tb.see("relabelled", 1, "S02", BESIDE, old="S01", frames=60) == []
    assert len(tb.ad.log) == 1 and tb.game.violations == []
    other = Table(position="1g1,9g17*/1g20,4c14 red 0-0")
    other.see("appeared", 1, "S01", BESIDE)
    out = other.see("appeared", 2, "S02", (420, 250), frames=60)
    assert out[-1]["type"] == "shot" and [v.type for v in other.game.violations] == ["no_shot_chance"]


def test_a_face_read_on_a_deck_is_its_back_misread_and_a_card_shown_off_it_counts():
    """Seeds 9074, 9088: both face-down decks were read as S01 now and then, and called shots."""
    tb = Table(position="1g1,9g17*/1g20,4c14 red 0-0")   # red could shoot: a real shot would score
    deck = (420, 0)
    tb.see("appeared", 1, "back", deck, frames=3)
    tb.see("relabelled", 1, "S01", deck, old="back", frames=60)   # 2 s: a card turned over in place
    assert [a["type"] for a in tb.ad.log] == ["shot"]
    tb2 = Table(position="1g1,9g17*/1g20,4c14 red 0-0")
    tb2.see("appeared", 1, "back", deck, frames=3)
    assert tb2.see("relabelled", 1, "S01", deck, old="back", frames=120) == []   # a deck for 4 s
    assert tb2.see("relabelled", 1, "back", deck, old="S01") == []
    tb2.see("vanished", 1, "back", deck)
    assert tb2.see("appeared", 2, "S01", (deck[0] + 5, deck[1] - 8)) == []   # the deck's place stays one
    out = tb2.see("moved", 2, "S01", (420, -100), came_from=deck)          # taken off it and shown
    assert [a["type"] for a in tb2.ad.log] == ["shot"] and out[-1]["card"] == "S01"
    with pytest.raises(ValueError, match="deck_frames"):
        FodboldAdapter(tb.game, LAYOUT, deck_frames=-1)


def test_a_face_card_nudged_where_it_lay_through_a_turn_is_no_card_shown():
    """Seed 9207: red's pass deck was read S03 from the first look (never as a back, so no deck was known
    there); nudged 9 mm as red drew off it, after blue's turn, it was called blue's shot out of turn."""
    tb = Table(first=None)
    deck = (420, 0)
    assert tb.see("appeared", 1, "S03", deck, frames=9) == []   # before the kick-off: nobody to play
    tb.ad.operator("roll", "blue", 1, t=2.5)
    tb.game.apply(ACTION_ADAPTER.validate_python(tb.ad.log[-1]))
    tb.see("appeared", 2, "B03", BESIDE)                         # blue's card: blue may shoot now
    assert tb.see("moved", 1, "S03", (deck[0] - 9, deck[1] - 1), came_from=deck) == []
    assert [a["type"] for a in tb.ad.log] == ["roll", "draw"]
    tb.see("appeared", 4, "S03", (420, -100))                    # the same card shown off the deck counts
    assert [a["type"] for a in tb.ad.log] == ["roll", "draw", "shot"]
    # a shot card seen this turn and nudged before any action is still the card shown (it made its shot
    # when it appeared; a track first seen under a hand and moved is judged as any card shown)
    shot = Table(position="1g1,9g17*/1g20,4c14 red 0-0")
    assert shot.see("moved", 5, "S01", (deck[0] - 9, deck[1]), came_from=deck)[-1]["type"] == "shot"


def test_a_deck_nudged_as_cards_are_drawn_off_it_is_still_a_deck():
    """Seed 9146: the shot deck moved 8-10 mm three times (cards drawn off it), then read S02 at 0.56 for
    two looks: the move had restarted its time as a deck, and a false shot was called."""
    tb = Table()
    deck = (420, 0)
    tb.see("appeared", 1, "back", deck, frames=3)
    tb.see("moved", 1, "back", (deck[0] + 1, deck[1] - 9), frames=75)
    tb.see("moved", 1, "back", (deck[0] - 7, deck[1] - 6), frames=72)
    assert tb.see("relabelled", 1, "S02", deck, old="back", frames=12) == []
    # carried farther off it is a face-down card elsewhere, no deck yet
    tb2 = Table()
    tb2.see("appeared", 1, "back", deck, frames=3)
    tb2.see("moved", 1, "back", (deck[0], deck[1] - 100), frames=75)
    out = tb2.see("relabelled", 1, "S02", (deck[0], deck[1] - 100), old="back", frames=30)
    assert [a["type"] for a in out if isinstance(a, dict)] == ["shot"]


def test_a_deck_misread_again_and_again_is_kept_once():
    """Each time a deck's back is read as a face the deck's place is noted; in a long game the same
    deck must not pile up as hundreds of near-copies, while a second deck is a place of its own."""
    tb = Table(position="1g1,9g17*/1g20,4c14 red 0-0")
    for k in range(40):
        spot = (420 + (k % 3) - 1, (k % 2) * 1.5)   # the deck's centre, read a millimetre off each time
        tb.see("appeared" if k == 0 else "relabelled", 1, "back", spot, old="S01")
        tb.see("relabelled", 1, "S01", spot, old="back", frames=100)
    assert len(tb.ad._decks) == 1
    tb.see("appeared", 2, "back", (420, -120))
    tb.see("relabelled", 2, "S02", (420, -120), old="back", frames=100)
    assert len(tb.ad._decks) == 2 and [a["type"] for a in tb.ad.log] == []
