"""Observations (as the tracker emits them) to Crazy actions, through the real engine and layout."""
from dataclasses import replace
from types import SimpleNamespace

import pytest

from referee.calibration.layouts import crazy_layout
from referee.games.crazy.actions import ACTION_ADAPTER
from referee.games.crazy.adapter import Correction, CrazyAdapter
from referee.games.crazy.rules import CrazyGame
from referee.tracker import Glimpse, Observation

from .helpers import setup

# Seats of the default layout for 4: seat 1 (A) at the bottom, then clockwise: B left, C top, D right.
IN_FRONT = {"A": (0, 100), "B": (-100, 0), "C": (0, -100), "D": (100, 0)}


def on_top_of(xy):
    """Where a card laid on top of the card at ``xy`` is read: a hand puts it a few mm off (at the very
    spot, within ``CrazyAdapter.SAME_SPOT_MM``, a new label is that card read anew)."""
    return xy[0] + 6, xy[1] + 6


def make(rounds=("red",)):
    game = CrazyGame(setup(("A", "B", "C", "D"), dealer="A"))
    return game, CrazyAdapter(game, crazy_layout(4), rounds=list(rounds))


def seen(adapter, game, label, xy, kind="appeared", track=None, frame=0):
    track = track if track is not None else len(adapter.log) + 100
    out = adapter.observe(Observation(kind, track, label, xy[0], xy[1], frame), t=frame / 30)
    for a in out:
        if isinstance(a, dict):
            game.apply(ACTION_ADAPTER.validate_python(a))
    return out


def test_cards_in_the_trick_area_become_plays_in_turn_order():
    game, ad = make()
    out = seen(ad, game, "G7", IN_FRONT["B"], frame=30)
    assert [a["type"] for a in out] == ["choose", "play"]
    assert out[1] == {"type": "play", "player": "B", "card": "G7", "t": 1.0, "frame": 30, "source": "camera"}
    seen(ad, game, "G9", IN_FRONT["C"])
    seen(ad, game, "G2", (30, 30))  # between seats: whose turn it is (D)
    assert [(p, c.code("rook")) for p, c in game.round.current.cards] == [("B", "G7"), ("C", "G9"), ("D", "G2")]
    assert game.violations == []


def test_a_card_clearly_in_front_of_another_player_who_has_not_played_is_out_of_turn():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"])
    seen(ad, game, "G9", IN_FRONT["A"])  # C's turn, but the card lies squarely in front of A
    assert ad.log[-1]["player"] == "A"
    assert [v.type for v in game.violations] == ["out_of_turn"]


def test_a_card_in_front_of_a_player_who_already_played_goes_to_whose_turn_it_is():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"])
    seen(ad, game, "G9", IN_FRONT["B"])  # slid near B's card: still C's play
    assert ad.log[-1]["player"] == "C" and game.violations == []


def test_a_relabelled_card_corrects_its_play():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5)
    out = seen(ad, game, "G1", IN_FRONT["B"], kind="relabelled", track=5)
    assert out == [Correction(1, {**ad.log[1], "card": "G1"})] and ad.log[1]["card"] == "G1"


def test_things_that_are_not_cards_or_lie_outside_the_trick_are_ignored():
    game, ad = make()
    assert seen(ad, game, "hand", IN_FRONT["B"]) == []
    assert seen(ad, game, "G7", (0, 450)) == []  # in front of A, in their seat: not played
    assert ad.log == []


def test_without_a_known_round_the_play_waits_for_the_operator():
    game, ad = make(rounds=())
    seen(ad, game, "G7", IN_FRONT["B"])
    assert [v.type for v in game.violations] == ["no_round"]
    ad.choose_round("black13")
    game.apply(ACTION_ADAPTER.validate_python(ad.log[-1]))
    assert game.round.type == "black13"


def test_layout_and_players_must_agree():
    game = CrazyGame(setup(("A", "B", "C", "D", "E")))
    with pytest.raises(ValueError, match="4 seats for 5 players"):
        CrazyAdapter(game, crazy_layout(4))


def test_a_card_laid_right_on_top_of_an_earlier_one_is_a_new_play_not_a_correction():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=40)
    # much later, the camera sees another label where G7 lay: D's card covers it
    out = seen(ad, game, "G2", on_top_of(IN_FRONT["B"]), kind="relabelled", track=5, frame=80)
    assert [a["type"] for a in out] == ["play"] and out[0]["card"] == "G2"
    assert [a.get("card") for a in ad.log] == [None, "G7", "G9", "G2"]


def test_a_card_already_played_seen_again_is_no_play_and_no_foul():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=1)
    # the hand hid G7 for long; the tracker starts a new track for it: the same card, not C's play
    assert seen(ad, game, "G7", IN_FRONT["B"], track=2) == []
    assert len(game.round.current.cards) == 1 and game.violations == []
    # a misread of C's card as G7 that the tracker corrects a moment later: that is C's play
    assert seen(ad, game, "G7", IN_FRONT["C"], track=3) == []
    out = seen(ad, game, "G9", IN_FRONT["C"], kind="relabelled", track=3)
    assert [a["card"] for a in out] == ["G9"] and ad.log[-1]["player"] == "C"
    assert [(p, c.code("rook")) for p, c in game.round.current.cards] == [("B", "G7"), ("C", "G9")]
    assert game.violations == []


def test_a_resting_card_read_as_another_and_back_is_no_play():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=1, frame=30)
    seen(ad, game, "G9", IN_FRONT["C"], track=2, frame=60)
    # B's resting card flickers: read as G8 (taken as a card laid on top of it: D's play) ...
    out = seen(ad, game, "G8", on_top_of(IN_FRONT["B"]), kind="relabelled", track=1, frame=90)
    assert [a["card"] for a in out] == ["G8"] and len(game.round.current.cards) == 3
    # ... and back as G7, already on the table: that play is taken back, nobody fouled
    out = ad.observe(Observation("relabelled", 1, "G7", *IN_FRONT["B"], 95), t=95 / 30)
    assert out == [Correction(3, None)]
    assert [a.get("card") for a in ad.log] == [None, "G7", "G9"]
    game2 = CrazyGame(setup(("A", "B", "C", "D"), dealer="A"))
    for a in ad.log:
        game2.apply(ACTION_ADAPTER.validate_python(a))
    assert [(p, c.code("rook")) for p, c in game2.round.current.cards] == [("B", "G7"), ("C", "G9")]
    assert game2.violations == []
    # D's real card after that is D's play, in turn (the session re-scores the log into a new engine)
    ad.game = game2
    seen_after = ad.observe(Observation("appeared", 3, "G2", *IN_FRONT["D"], 120), t=4.0)
    assert seen_after[0]["player"] == "D"


def rescored(ad):
    """A new engine with the adapter's log applied, as the session re-scores it after a Correction."""
    game = CrazyGame(ad.game.setup)
    for a in ad.log:
        game.apply(ACTION_ADAPTER.validate_python(a))
    ad.game = game
    return game


def test_a_card_read_as_another_and_back_again_is_the_card_first_read_not_a_card_on_top():
    # seed 9020: C's B1 read as B4 for 0.3 s (a correction), then as B1 again 27 frames after the play,
    # was taken as D's card laid on top: every later card went to the wrong player
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    for a in ad.observe(Observation("appeared", 6, "G1", *IN_FRONT["C"], 40, confidence=0.6), t=40 / 30):
        game.apply(ACTION_ADAPTER.validate_python(a))
    out = ad.observe(Observation("relabelled", 6, "G4", *IN_FRONT["C"], 55, confidence=0.61), t=55 / 30)
    assert out == [Correction(2, {**ad.log[2], "card": "G4"})]
    game = rescored(ad)
    out = ad.observe(Observation("relabelled", 6, "G1", *IN_FRONT["C"], 70, confidence=0.83), t=70 / 30)
    assert out == [Correction(2, {**ad.log[2], "card": "G1"})]
    game = rescored(ad)
    assert [(p, c.code("rook")) for p, c in game.round.current.cards] == [("B", "G7"), ("C", "G1")]
    assert len(ad.log) == 3 and game.violations == []
    # read as G4 again (a label it had): the same flicker, corrected back and forth, never a new play
    out = ad.observe(Observation("relabelled", 6, "G4", *IN_FRONT["C"], 90, confidence=0.8), t=3.0)
    assert out == [Correction(2, {**ad.log[2], "card": "G4"})] and len(ad.log) == 3
    game = rescored(ad)
    assert seen(ad, game, "G2", IN_FRONT["D"], track=7, frame=100)[0]["player"] == "D"


def test_a_card_read_surely_when_played_is_not_corrected_by_a_less_sure_read():
    # seed 9041: Ann's B14 read at 0.91, then B4 at 0.68 as the hand gathered the trick: the correction
    # changed the trick's winner, and every later card went to the wrong player
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    for a in ad.observe(Observation("appeared", 6, "G14", *IN_FRONT["C"], 40, confidence=0.91), t=40 / 30):
        game.apply(ACTION_ADAPTER.validate_python(a))
    assert ad.observe(Observation("relabelled", 6, "G4", *IN_FRONT["C"], 55, confidence=0.68), t=55 / 30) == []
    assert ad.log[-1]["card"] == "G14"
    # read about as surely, the new label is the correction
    out = ad.observe(Observation("relabelled", 6, "G4", *IN_FRONT["C"], 58, confidence=0.85), t=58 / 30)
    assert out == [Correction(2, {**ad.log[2], "card": "G4"})]


def play_trick(ad, game, cards, first_track=1, frame=10):
    for k, (who, card) in enumerate(cards):
        seen(ad, game, card, IN_FRONT[who], track=first_track + k, frame=frame + 30 * k)


def test_a_card_of_a_complete_trick_read_anew_while_it_is_gathered_is_no_play():
    # bench_referee seed 9003: the hand gathering a trick half hid A's R13, read three times as R3
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])
    assert game.round.current.cards == [] and game.round.current.leader == "A"
    assert seen(ad, game, "G3", IN_FRONT["A"], kind="relabelled", track=4, frame=300) == []
    assert len(ad.log) == 5 and game.violations == []
    # the same relabel while the trick is still open is a card laid on top (the next player's)
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9")])
    out = seen(ad, game, "G3", on_top_of(IN_FRONT["C"]), kind="relabelled", track=2, frame=300)
    assert [(a["player"], a["card"]) for a in out] == [("D", "G3")]


def test_a_card_known_outside_the_trick_that_comes_to_rest_in_it_is_played():
    # bench_referee seed 9003: a misread "G14" at rest beside the table; the real G14, played later, was
    # re-found as that object (same label) and only "moved" into the trick
    game, ad = make()
    assert seen(ad, game, "G14", (100, 220), track=7, frame=10) == []
    out = seen(ad, game, "G14", IN_FRONT["B"], kind="moved", track=7, frame=60)
    assert [(a["type"], a.get("player"), a.get("card")) for a in out] == [("choose", "B", None), ("play", "B", "G14")]
    # a played card nudged inside the trick is no second play
    assert seen(ad, game, "G14", (-90, 10), kind="moved", track=7, frame=90) == []
    assert len(game.round.current.cards) == 1


def test_a_card_held_back_as_impossible_and_read_right_after_a_later_play_goes_in_its_place():
    # seed 9022: Dee's Y9 came to rest read as Y4 (already played); Ann's Y1 came next, then Dee's card
    # was read as Y9. In the order read, Ann played out of turn, and so did every card after
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=1, frame=10)
    seen(ad, game, "G9", IN_FRONT["C"], track=2, frame=40)
    assert seen(ad, game, "G7", IN_FRONT["D"], track=3, frame=70) == []  # D's card misread as B's G7
    out = seen(ad, game, "G2", (5, 5), track=4, frame=90)  # A's card, by the centre: whose turn (D) it seems
    assert [(a["player"], a["card"]) for a in out] == [("D", "G2")]
    out = ad.observe(Observation("relabelled", 3, "G12", *IN_FRONT["D"], 95, old_label="G7"), t=95 / 30)
    assert out == [Correction(3, ad.log[3], why="G12 came to rest before the 1 card(s) played after it")]
    assert [(a.get("player"), a.get("card"), a.get("frame")) for a in ad.log[1:]] == [
        ("B", "G7", 10), ("C", "G9", 40), ("D", "G12", 70), ("A", "G2", 90)]
    game = rescored(ad)
    assert game.violations == [] and game.round.current.cards == [] and game.round.current.leader == "D"  # G12 won
    # the indices moved with the log: A's card read anew a moment later corrects A's play
    out = ad.observe(Observation("relabelled", 4, "G3", 5, 5, 100, old_label="G2"), t=100 / 30)
    assert out == [Correction(4, ad.log[4])] and ad.log[4]["card"] == "G3" and len(ad.log) == 5


def test_a_card_held_back_is_not_moved_back_into_a_trick_already_complete():
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=1, frame=10)
    assert seen(ad, game, "G7", IN_FRONT["C"], track=3, frame=20) == []  # C's card misread as B's G7
    play_trick(ad, game, [("C", "G9"), ("D", "G2"), ("A", "G13")], first_track=10, frame=40)
    assert game.round.current.cards == []
    gather(ad, [1, 10, 11, 12], frame=150)
    out = ad.observe(Observation("relabelled", 3, "G12", *IN_FRONT["C"], 200, old_label="G7"), t=200 / 30)
    assert [a["card"] for a in out if isinstance(a, dict)] == ["G12"] and ad.log[-1]["card"] == "G12"


def gather(ad, tracks, frame):
    """The trick is gathered: its cards vanish from the table."""
    for tr in tracks:
        assert ad.observe(Observation("vanished", tr, "G1", 0, 0, frame), t=frame / 30) == []


class Held:
    """What the adapter may ask of the tracker after a look."""

    def __init__(self, seen=lambda track: True, glimpses=(), tracks=()):
        self.seen_now, self.glimpses, self.tracks = seen, list(glimpses), list(tracks)


def look(ad, game, frame, seen=lambda track: True, glimpses=()):
    out = ad.look(frame, frame / 30, Held(seen, glimpses))
    for a in out:
        if isinstance(a, dict):
            game.apply(ACTION_ADAPTER.validate_python(a))
    return out


def test_a_card_turning_up_while_a_complete_trick_still_lies_there_waits_for_its_gathering():
    # seed 9052: as the hand gathered the trick, Ann's G12 was read G4 16 mm off, twice: a phantom lead
    # (called out of turn). A card turning up on a complete trick waits; unseen once the trick is gone,
    # it was one of the trick's cards misread, and it leaves with them.
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])
    assert seen(ad, game, "G4", (0, 40), track=9, frame=200) == [] and look(ad, game, 203) == []
    gather(ad, [1, 2, 3], frame=215)
    assert look(ad, game, 215) == []  # A's card still lies there
    gather(ad, [4], frame=220)
    assert look(ad, game, 220, seen=lambda track: False) == []  # gone with the trick: only held, unseen
    assert look(ad, game, 240, seen=lambda track: False) == []
    assert ad.observe(Observation("vanished", 9, "G4", 0, 40, 250), t=250 / 30) == []
    assert look(ad, game, 253) == [] and len(ad.log) == 5 and game.violations == []


class Track:
    def __init__(self, id, label):
        self.id, self.label = id, label


def test_a_card_of_a_complete_trick_the_tracker_now_reads_as_a_back_is_being_gathered():
    # seed 9126: the trick picked up face down was read `back` where A's card had lain; that track lived on
    # 1.5 s (the tracker's hold) and the next lead waited a whole second for the trick to go
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])
    gather(ad, [1, 2, 3], frame=200)
    assert seen(ad, game, "G5", IN_FRONT["A"], track=9, frame=210) == []  # A's G13 may still lie there
    held = Held(tracks=[Track(4, "G13"), Track(9, "G5")])
    assert ad.look(212, 212 / 30, held) == []  # read as itself: it does, and the lead waits
    held = Held(tracks=[Track(4, "back"), Track(9, "G5")])
    out = ad.look(213, 213 / 30, held)  # read as a back: the trick is being gathered; the lead is played
    assert [(a["player"], a["card"]) for a in out] == [("A", "G5")]


def test_cards_waiting_for_a_gathering_are_played_one_a_look_in_the_order_they_came():
    # seed 9081: two cards let go in one look were both given to the first one's player (out of turn)
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])
    seen(ad, game, "G5", IN_FRONT["A"], track=9, frame=200)  # A won and leads at once ...
    seen(ad, game, "G8", (-40, -20), track=10, frame=210)    # ... and B follows
    gather(ad, [1, 2, 3, 4], frame=240)
    assert [(a["player"], a["card"]) for a in look(ad, game, 243)] == [("A", "G5")]
    assert [(a["player"], a["card"]) for a in look(ad, game, 246)] == [("B", "G8")]
    assert game.violations == []


def test_a_waiting_card_read_as_one_already_played_is_held_back_until_it_is_read_right():
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])
    seen(ad, game, "G5", IN_FRONT["A"], track=9, frame=200)
    ad.observe(Observation("relabelled", 9, "G9", *IN_FRONT["A"], 220, old_label="G5"), t=220 / 30)
    gather(ad, [1, 2, 3, 4], frame=240)
    assert look(ad, game, 243) == [] and len(ad.log) == 5  # G9 was played: a misread, no play
    out = ad.observe(Observation("relabelled", 9, "G5", *IN_FRONT["A"], 250, old_label="G9"), t=250 / 30)
    assert [(a["player"], a["card"]) for a in out] == [("A", "G5")]


def test_a_trick_gathered_one_card_short_had_its_last_card_laid_as_glimpsed():
    # seed 9072: Ann's Y13, the trick's last card, read once at 0.79 as it slid in; then the trick was
    # swept up. Her next lead went to the old trick, and every card after it astray.
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
    ann = Glimpse("G13", *IN_FRONT["A"], frame=100, confidence=0.79)
    unsure = Glimpse("G12", *IN_FRONT["A"], frame=101, confidence=0.5)
    misread = Glimpse("G11", IN_FRONT["C"][0] + 5, IN_FRONT["C"][1], frame=102, confidence=0.9)  # on C's G9
    before = Glimpse("G10", *IN_FRONT["A"], frame=60, confidence=0.95)  # before D's card: not the last one
    assert look(ad, game, 110, glimpses=[ann, unsure, misread, before]) == []  # the trick still lies there
    gather(ad, [1, 2], frame=120)
    assert look(ad, game, 120, glimpses=[ann]) == []
    gather(ad, [3], frame=150)
    out = look(ad, game, 150, glimpses=[before, ann, unsure, misread])
    assert out == [{"type": "play", "player": "A", "card": "G13", "t": 5.0, "frame": 150, "source": "camera"}]
    assert game.round.current.cards == [] and game.round.current.leader == "A"
    assert look(ad, game, 163, glimpses=[ann]) == []  # judged once
    # A leads at once onto an empty table: no trick lies there, nothing waits
    assert [a["player"] for a in seen(ad, game, "G5", IN_FRONT["A"], track=9, frame=200)] == ["A"]


def test_a_card_glimpsed_as_it_slid_in_is_the_one_read_most_there():
    """Seed 9170, standard cards: Cyd's KS read at 0.68 and 0.60 as it slid in, then KC at 0.88 as the trick
    was swept; the surest single read, KC, was played. Reads one look apart at one spot are one card, named
    by the label read most (confidence summed); a read a second later is another card."""
    a = IN_FRONT["A"]
    for reads, card in (([("G12", 0.68, 100), ("G12", 0.60, 103), ("G13", 0.88, 106)], "G12"),
                        ([("G12", 0.68, 100), ("G13", 0.88, 103)], "G13"),
                        ([("G12", 0.72, 80), ("G12", 0.71, 83), ("G13", 0.88, 106)], "G13")):
        game, ad = make()
        play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
        gather(ad, [1, 2, 3], frame=150)
        glimpses = [Glimpse(label, a[0] + k, a[1], frame=f, confidence=c) for k, (label, c, f) in enumerate(reads)]
        assert [(p["player"], p["card"]) for p in look(ad, game, 150, glimpses=glimpses)] == [("A", card)]


def test_a_trick_gathered_short_takes_a_card_read_on_one_of_its_cards_when_none_lies_apart():
    # seed 9075, six players: Ann's G13 laid on Bob's G12 was read on it at 0.89, then the trick swept up
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
    gather(ad, [1, 2, 3], frame=150)
    on_b = Glimpse("G13", IN_FRONT["B"][0] + 4, IN_FRONT["B"][1] + 3, frame=100, confidence=0.89)
    assert [(a["player"], a["card"]) for a in look(ad, game, 150, glimpses=[on_b])] == [("A", "G13")]


def test_a_trick_swept_up_with_its_last_card_read_only_while_it_slid_in_is_played_before_its_tracks_go():
    # seed 9130: Ann's Y2, the trick's last card, read twice (0.81, 0.90) while it still slid 8 mm, then the
    # trick was swept up 0.25 s after it landed; played only when the tracker let the tracks go, 2.2 s later
    from collections import deque

    from referee.tracker import Track

    def held(frame, misses, sliding=True):
        tracks = [Track(k, *IN_FRONT[w], misses=misses, confirmed=True, rest=IN_FRONT[w], seen=frame - 3 * misses,
                        reads=deque([(c, 0.9)])) for k, (w, c) in enumerate([("B", "G7"), ("C", "G9"), ("D", "G2")], 1)]
        if sliding:
            tracks.append(Track(7, *IN_FRONT["A"], reads=deque([("G13", 0.81), ("G13", 0.9)]), hits=2, misses=misses,
                                confirmed=True, seen=frame - 3 * misses))
        return Held(glimpses=[], tracks=tracks)

    for sliding in (True, False):
        game, ad = make()
        play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
        assert ad.look(110, 110 / 30, held(110, misses=1, sliding=sliding)) == [], "covered a moment: not gone"
        # out of view two looks, 0.2 s: swept up (seed 9139: Dee's R3 read once as it slid in, the trick swept
        # up at once; played when the trick had been out of view 0.5 s, 1.03 s after it was laid; 0.73 s now)
        out = ad.look(130, 130 / 30, held(130, misses=2, sliding=sliding))
        if not sliding:
            assert out == [] and len(ad.log) == 4, "nothing read there: nothing made up, and judged later"
            gather(ad, [1, 2, 3], frame=175)
            ann = Glimpse("G13", *IN_FRONT["A"], frame=100, confidence=0.79)
            assert [(a["player"], a["card"]) for a in look(ad, game, 175, glimpses=[ann])] == [("A", "G13")]
            continue
        assert [(a["player"], a["card"], a["frame"]) for a in out] == [("A", "G13", 130)]
        for a in out:
            game.apply(ACTION_ADAPTER.validate_python(a))
        assert game.round.current.cards == [] and game.round.current.leader == "A"
        gather(ad, [1, 2, 3], frame=175)
        assert look(ad, game, 175) == [], "judged once"


def test_a_trick_gathered_short_with_nothing_surely_glimpsed_gets_its_last_card_unread():
    # seed 9176, standard cards: Bob's QS read 5C, 5S, QC under 0.7 as trick 2 was swept; nothing was
    # played for it, and Bob's next lead 4H was taken as that trick's last card, every trick after astray
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
    gather(ad, [1, 2, 3], frame=150)
    glimpses = [Glimpse("G12", *IN_FRONT["A"], frame=100, confidence=0.6),
                Glimpse("G9", *IN_FRONT["A"], frame=101, confidence=0.9)]  # G9 is already played
    out = look(ad, game, 150, glimpses=glimpses)
    assert [(a["player"], a["card"]) for a in out] == [("A", "?")]  # no card made up
    assert look(ad, game, 151) == [] and len(ad.log) == 5  # judged once
    assert game.may_lead == ["C", "A"]  # C's G9 is the best read, A's card unread
    # the next lead lies towards C: C won the trick and leads
    seen(ad, game, "Y5", IN_FRONT["C"], track=7, frame=200)
    assert ad.log[-1]["player"] == "C" and game.to_play == "D" and game.violations == []
    assert game.round.tricks[0].winner == "C"


def test_a_card_laid_before_the_trick_under_it_was_gathered_is_played_when_it_is_gone():
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])
    seen(ad, game, "G5", IN_FRONT["A"], track=9, frame=200)  # A won and leads at once
    assert look(ad, game, 210) == []
    gather(ad, [1, 2, 3, 4], frame=240)
    out = look(ad, game, 243)
    assert out == [{"type": "play", "player": "A", "card": "G5", "t": 243 / 30, "frame": 243, "source": "camera"}]
    assert game.violations == [] and look(ad, game, 246) == []
    # a trick that never seems to leave (a track held on) holds a card back only WAIT_FRAMES
    play_trick(ad, game, [("B", "G8"), ("C", "G10"), ("D", "G3")], first_track=20, frame=300)
    assert game.round.current.cards == []
    seen(ad, game, "G6", IN_FRONT["A"], track=30, frame=500)
    assert look(ad, game, 500 + CrazyAdapter.WAIT_FRAMES - 1) == []
    assert [a["card"] for a in look(ad, game, 500 + CrazyAdapter.WAIT_FRAMES)] == ["G6"]


def test_a_card_first_read_as_a_back_is_played_when_its_face_is_read():
    # seed 9035: Ann's B14 came to rest read as a back, then as B14: no play was made
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=1)
    assert seen(ad, game, "back", IN_FRONT["C"], track=2) == []
    out = ad.observe(Observation("relabelled", 2, "G9", *IN_FRONT["C"], 40, old_label="back"), t=40 / 30)
    assert [(a["player"], a["card"]) for a in out] == [("C", "G9")]
    # a card read anew from one card to another is no such first sight (one laid on top, judged as before)
    out = ad.observe(Observation("relabelled", 1, "G2", *IN_FRONT["B"], 200, old_label="G7", confidence=0.5))
    assert out == [] and len(ad.log) == 3


def test_a_card_near_the_centre_is_whoevers_turn_it_is_not_an_out_of_turn_play():
    # bench_referee seed 9007: C's card 18 mm right of the centre was taken as D's, out of turn
    game, ad = make()
    seen(ad, game, "Y11", IN_FRONT["B"])
    seen(ad, game, "Y1", (17, -7))  # in D's direction, but about on the centre
    assert ad.log[-1]["player"] == "C" and game.violations == []
    seen(ad, game, "Y3", (0, 100))  # squarely in front of A, well off the centre: A out of turn
    assert ad.log[-1]["player"] == "A" and [v.type for v in game.violations] == ["out_of_turn"]


def test_a_card_on_top_must_be_read_surely():
    # seeds 9006 and 9008: a card partly covered by the next one, misread at 0.53 and 0.66 mean confidence
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=40)
    unsure = ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 80, confidence=0.66), t=80 / 30)
    assert unsure == [] and len(ad.log) == 3
    # seed 9017: Y8, with Dee's Y4 after it, read Y6 at 0.73 for 0.4 s: no card on top
    nearly = ad.observe(Observation("relabelled", 5, "G4", *on_top_of(IN_FRONT["B"]), 85, confidence=0.73), t=85 / 30)
    assert nearly == [] and len(ad.log) == 3
    sure = ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 90, confidence=0.78), t=3.0)
    assert [(a["player"], a["card"]) for a in sure] == [("D", "G2")]


def test_the_card_below_a_card_on_top_read_again_takes_that_play_back():
    # seed 9061: Dee's B3 read B4 at 0.81, taken as Cyd's card on top, then B3 again at 0.59: nothing
    # was laid on it (Cyd's real card then came as a fifth card onto a full trick)
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=40)
    on_top = ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 80, confidence=0.81), t=80 / 30)
    assert [a["card"] for a in on_top] == ["G2"] and len(ad.log) == 4
    back = ad.observe(Observation("relabelled", 5, "G7", *IN_FRONT["B"], 95, confidence=0.59), t=95 / 30)
    assert back == [Correction(3, None)] and [a["card"] for a in ad.log[1:]] == ["G7", "G9"]
    game = ad._scratch(ad.log)  # the session re-scores the log
    ad.game = game
    assert [a["player"] for a in seen(ad, game, "G3", IN_FRONT["D"], track=7, frame=120)] == ["D"]
    assert game.violations == []


def test_a_card_arriving_just_after_a_card_taken_as_laid_on_top_shows_that_was_a_misread():
    # seed 9077: Bob's Y3 read Y5 at 0.82 as Cyd's Y13 slid in beside it; in the same look Y13 appeared.
    # The Y5 was taken as Cyd's card on top and Y13 as Dee's: two false out_of_turn calls later
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    on_top = ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 80, confidence=0.82), t=80 / 30)
    assert [(a["player"], a["card"]) for a in on_top] == [("C", "G2")]
    out = ad.observe(Observation("appeared", 6, "G13", *IN_FRONT["C"], 80), t=80 / 30)
    assert [type(o) for o in out] == [Correction] and out[0].action is None
    assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "G7"), ("C", "G13")]
    # and a card read anew just after another card came is that card's hand over it (seed 9082)
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    seen(ad, game, "G13", IN_FRONT["C"], track=6, frame=80)
    assert ad.observe(Observation("relabelled", 5, "G2", *IN_FRONT["B"], 83, confidence=0.82), t=83 / 30) == []
    assert len(ad.log) == 3
    # a card arriving later than DISTURBED_FRAMES after a card on top is just the next card
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    seen(ad, game, "G2", on_top_of(IN_FRONT["B"]), kind="relabelled", track=5, frame=80)
    later = seen(ad, game, "G13", IN_FRONT["D"], track=6, frame=80 + CrazyAdapter.DISTURBED_FRAMES + 1)
    assert [(a["player"], a["card"]) for a in later] == [("D", "G13")]


def test_a_card_arriving_just_after_a_card_taken_as_laid_on_top_that_completed_the_trick_shows_a_misread():
    """Seed 9184: Cyd's Y6 read Y9 as Ann's Y7 came and taken for Ann's card on top, the trick's fourth; Y7
    came 3 frames later and was held as a lead onto the complete trick, then gathered with it: never played."""
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")], first_track=5)
    on_top = seen(ad, game, "G11", on_top_of(IN_FRONT["C"]), kind="relabelled", track=6, frame=80)
    assert [(a["player"], a["card"]) for a in on_top] == [("A", "G11")] and game.round.current.cards == []
    out = seen(ad, game, "G13", IN_FRONT["A"], track=8, frame=83)
    assert [type(o) for o in out] == [Correction] and out[0].action is None
    assert [(a["player"], a["card"]) for a in ad.log if a["type"] == "play"] == [
        ("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")]


def test_a_card_read_unsurely_as_another_card_comes_is_played_only_once_its_reads_firm_up():
    """Seed 9223, standard cards: a 3S read 0.37-0.56 30 mm from Dee's 4C, in the look the 4C came, was played as
    Ann's; her AC, 1.4 s later, was held as a lead onto the complete trick, and four false calls followed."""
    for first, later, played in ((0.51, 0.55, "G13"), (0.51, 0.8, "G5"), (0.8, None, "G5")):
        game, ad = make()
        play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")], first_track=5)  # D's at frame 70
        out = ad.observe(Observation("appeared", 9, "G5", *IN_FRONT["A"], 70, confidence=first), t=70 / 30)
        for a in out:
            game.apply(ACTION_ADAPTER.validate_python(a))
        if later is not None:
            assert out == []
            out = ad.look(76, 76 / 30, Held(tracks=[FirmingTrack(9, "G5", later)]))
            for a in out:
                game.apply(ACTION_ADAPTER.validate_python(a))
        if played == "G13":
            assert out == [] and len(game.round.current.cards) == 3
            seen(ad, game, "G13", IN_FRONT["A"], track=10, frame=110)
        assert [(a["player"], a["card"]) for a in ad.log if a["type"] == "play"][-1] == ("A", played)
        assert game.round.current.cards == [] and game.violations == []


def test_a_label_taken_for_a_hands_misread_that_the_track_keeps_was_the_card_read_right():
    """Seed 9150: Bob's B5 read B8 at 0.74 for 0.7 s, then B5 at 0.86 3.3 mm off as Cyd's B6 came; B5 was taken
    for Cyd's card on top, then back as a misread under Cyd's hand (``_disturbed``), and read on for 1.4 s; Bob's
    B8 stood. Kept ``SETTLED_FRAMES`` after the hand came and read surer than the card below, it corrects it."""
    settled = 80 + CrazyAdapter.SETTLED_FRAMES
    for label, sure, frame, fixed in (("G2", 0.86, settled, True), ("G7", 0.86, settled, False),
                                      ("G2", 0.80, settled, False), ("G2", 0.86, settled - 3, False)):
        game, ad = make()
        ad.observe(Observation("appeared", 5, "G7", *IN_FRONT["B"], 10, confidence=0.74), t=10 / 30)
        game = rescored(ad)
        ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 80, confidence=0.86), t=80 / 30)
        game = rescored(ad)
        out = ad.observe(Observation("appeared", 6, "G13", *IN_FRONT["C"], 80), t=80 / 30)
        assert [type(o) for o in out] == [Correction] and [a["card"] for a in ad.log[1:]] == ["G7", "G13"]
        out = ad.look(frame, frame / 30, Held(tracks=[FirmingTrack(5, label, sure)]))
        assert out == ([Correction(1, {**ad.log[1], "card": "G2"})] if fixed else [])
        assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "G2" if fixed else "G7"), ("C", "G13")]


def test_adapter_settings_are_checked():
    game = CrazyGame(setup(("A", "B", "C", "D")))
    with pytest.raises(ValueError, match="on_top_confidence"):
        CrazyAdapter(game, crazy_layout(4), on_top_confidence=2)


def make_standard(rounds=("black13",)):
    game = CrazyGame(setup(("A", "B", "C", "D"), deck="standard", dealer="A"))
    return game, CrazyAdapter(game, crazy_layout(4), rounds=list(rounds))


def test_a_played_card_read_soon_after_as_a_card_lying_apart_in_the_trick_is_misread_not_taken_back():
    # seed 9179, standard cards: Dee's KS (0.77 when played) read QS at 0.71 for three looks 0.5 s later,
    # 35 mm from Cyd's QS lying in view; taken back as a flicker, every card after went to the player before
    game, ad = make_standard()
    for track, (seat, card) in enumerate([("B", "7S"), ("C", "QS"), ("D", "KS")], start=1):
        ad.observe(Observation("appeared", track, card, *IN_FRONT[seat], 30 * track, confidence=0.77), t=track)
        game = rescored(ad)
    d = IN_FRONT["D"]
    assert ad.observe(Observation("relabelled", 3, "QS", d[0] + 2, d[1], 105, confidence=0.71), t=3.5) == []
    game = rescored(ad)
    seen(ad, game, "2S", IN_FRONT["A"], track=4, frame=120)
    assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "7S"), ("C", "QS"), ("D", "KS"), ("A", "2S")]
    assert game.violations == []
    # a card read beside the QS (within GLIMPSE_APART_MM) and then as QS is a second reading of it: taken back
    game, ad = make_standard()
    for track, (xy, card) in enumerate([(IN_FRONT["B"], "7S"), (IN_FRONT["C"], "QS"), ((12, -92), "KS")], start=1):
        ad.observe(Observation("appeared", track, card, *xy, 30 * track, confidence=0.77), t=track)
        game = rescored(ad)
    out = ad.observe(Observation("relabelled", 3, "QS", 12, -92, 105, confidence=0.71), t=3.5)
    assert out == [Correction(3, None)] and [a["card"] for a in ad.log[1:]] == ["7S", "QS"]


def test_a_new_label_at_the_very_spot_a_played_card_lies_is_that_card_read_anew_not_one_on_top():
    # seed 9115, standard cards: Bob's lead KC read KS when played and KC 0.9 mm from there 21 frames
    # later; taken as Cyd's KC laid on top, every card after went to the next player and the "KS" won
    # by Bob ended the round (nine false no_round calls)
    game, ad = make_standard()
    b = IN_FRONT["B"]
    ad.observe(Observation("appeared", 5, "KS", *b, 45, confidence=0.75), t=1.5)
    game = rescored(ad)
    out = ad.observe(Observation("relabelled", 5, "KC", b[0] + 0.9, b[1], 66, confidence=0.78), t=2.2)
    assert out == [Correction(1, {**ad.log[1], "card": "KC"})] and len(ad.log) == 2
    # with cards played after it, too: the card of the play is corrected, nobody's turn moves
    game = rescored(ad)
    ad.observe(Observation("appeared", 6, "7C", *IN_FRONT["C"], 87, confidence=0.85), t=2.9)
    game = rescored(ad)
    seen(ad, game, "2C", IN_FRONT["D"], track=7, frame=117)
    less_sure = Observation("relabelled", 6, "6C", IN_FRONT["C"][0] + 2, IN_FRONT["C"][1], 140, confidence=0.7)
    assert ad.observe(less_sure, t=140 / 30) == []  # read less surely than when played: not put right
    out = ad.observe(replace(less_sure, frame=150, confidence=0.9), t=150 / 30)
    assert out == [Correction(2, {**ad.log[2], "card": "6C"})]
    assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "KC"), ("C", "6C"), ("D", "2C")]
    # a few mm farther off it is a card laid on top (the next player's)
    game = rescored(ad)
    out = seen(ad, game, "QC", on_top_of(IN_FRONT["C"]), kind="relabelled", track=6, frame=200)
    assert [(a["player"], a["card"]) for a in out] == [("A", "QC")]


def test_a_lead_read_two_ways_is_the_reading_the_cards_played_to_it_follow():
    # seed 9106, standard cards: Bob's lead KC read KS (0.68), KC (0.66, unsure: no card on top) and KS
    # again; Cyd, Dee and Ann all played clubs. A KS nobody followed would take three players void in spades
    game, ad = make_standard(rounds=("first_last",))
    b = IN_FRONT["B"]
    ad.observe(Observation("appeared", 5, "KS", *b, 57, confidence=0.68), t=1.9)
    game = rescored(ad)
    seen(ad, game, "7C", IN_FRONT["C"], track=6, frame=84)
    assert ad.observe(Observation("relabelled", 5, "KC", b[0] + 5, b[1], 87, confidence=0.66), t=2.9) == []
    assert ad.observe(Observation("relabelled", 5, "KS", b[0] + 1, b[1], 111, confidence=0.58), t=3.7) == []
    assert ad.log[1]["card"] == "KS"  # one follower in clubs so far: no more than a void in spades
    out = ad.observe(Observation("appeared", 7, "5C", *IN_FRONT["D"], 111, confidence=0.85), t=3.7)
    assert [type(o) for o in out] == [Correction] and out[0].index == 1
    assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "KC"), ("C", "7C"), ("D", "5C")]
    # read back as KS: the trick's cards say KC, so the flicker changes nothing
    game = rescored(ad)
    assert ad.observe(Observation("relabelled", 5, "KS", *b, 140, confidence=0.8), t=140 / 30) == []
    assert ad.log[1]["card"] == "KC"


def test_a_lead_read_one_way_only_is_never_changed_by_the_cards_that_follow_it():
    game, ad = make_standard(rounds=("first_last",))
    play_trick(ad, game, [("B", "KS"), ("C", "7C"), ("D", "5C"), ("A", "6C")])
    assert [a["card"] for a in ad.log[1:]] == ["KS", "7C", "5C", "6C"]  # three voids: legal, not re-read


def beside_then_surer(beside_confidence, later=3):
    """2S played; "AC" comes to rest 18 mm from it read ``beside_confidence``; AS ``later`` frames on at 0.88."""
    game, ad = make_standard(rounds=("first_last",))
    seen(ad, game, "2S", (4, 39), track=11, frame=243)
    for a in ad.observe(Observation("appeared", 13, "AC", 12, 55, 273, confidence=beside_confidence), t=9.1):
        game.apply(ACTION_ADAPTER.validate_python(a))
    return ad, ad.observe(Observation("appeared", 14, "AS", -9, 9, 273 + later, confidence=0.88), t=9.2)


def test_a_card_read_unsurely_beside_a_card_of_the_trick_is_taken_back_by_a_surer_card_half_a_second_on():
    # seed 9139, standard cards at 1080p: Ann's 6S read AS at 0.55 17 mm off under the hand of Cyd's 4S, which
    # came to rest 15 frames later (past DISTURBED_FRAMES); three out_of_turn calls followed
    ad, out = beside_then_surer(beside_confidence=0.55, later=CrazyAdapter.BESIDE_UNSURE_FRAMES)
    assert [type(o) for o in out] == [Correction] and out[0].action is None
    assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "2S"), ("C", "AS")]
    # read at least GLIMPSE_SURE, the wait is DISTURBED_FRAMES: a surer card later is a card of its own
    ad, out = beside_then_surer(beside_confidence=0.72, later=CrazyAdapter.DISTURBED_FRAMES + 3)
    assert not any(isinstance(o, Correction) for o in out)
    assert [a["card"] for a in ad.log[1:]] == ["2S", "AC", "AS"]


def test_a_card_read_anew_beside_a_card_of_the_trick_just_before_a_surer_card_came_is_no_play():
    # seed 9107, standard cards: Ann's 2S, at (4, 39), read AC at (12, 55) 0.63 under the hand of Bob's AS,
    # which came to rest 3 frames later read 0.88. The AC was taken as Bob's and the AS as Cyd's: every
    # card after went to the next player
    ad, out = beside_then_surer(beside_confidence=0.63)
    assert [type(o) for o in out] == [Correction] and out[0].action is None
    assert [(a["player"], a["card"]) for a in ad.log[1:]] == [("B", "2S"), ("C", "AS")]
    # the misread's track is no play of its own whatever it is read as later
    game = rescored(ad)
    assert ad.observe(Observation("moved", 13, "AC", 30, 60, 300, confidence=0.7), t=10.0) == []
    assert ad.observe(Observation("relabelled", 13, "QC", 30, 60, 310, confidence=0.9), t=10.3) == []
    assert len(ad.log) == 3


def test_two_cards_lying_close_read_as_surely_as_each_other_are_both_plays():
    ad, out = beside_then_surer(beside_confidence=0.9)
    assert [(a["player"], a["card"]) for a in out] == [("C", "AS")]
    assert [a["card"] for a in ad.log[1:]] == ["2S", "AC", "AS"]


def test_a_card_sliding_over_a_played_card_read_less_surely_there_does_not_correct_it():
    # seed 9091: Cyd's Y6, read 0.87 when played, read Y8 at 0.82 2.2 mm from there as Dee's Y8 slid over it
    # to rest 30 mm off: the Y6 was no misread
    game, ad = make()
    seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
    ad.observe(Observation("appeared", 6, "Y6", *IN_FRONT["C"], 40, confidence=0.87), t=40 / 30)
    game = rescored(ad)
    c = IN_FRONT["C"]
    out = ad.observe(Observation("relabelled", 6, "Y8", c[0] + 2.2, c[1], 77, confidence=0.82), t=77 / 30)
    assert not any(isinstance(o, Correction) for o in out) and ad.log[2]["card"] == "Y6"


def test_a_lead_is_never_re_read_as_the_card_just_played():
    # B leads KS, once read KC (unsure); C follows in clubs, then D plays the real KC: the lead cannot be KC
    game, ad = make_standard(rounds=("first_last",))
    b = IN_FRONT["B"]
    ad.observe(Observation("appeared", 5, "KS", *b, 57, confidence=0.8), t=1.9)
    game = rescored(ad)
    ad.observe(Observation("appeared", 6, "7C", *IN_FRONT["C"], 84, confidence=0.85), t=2.8)
    game = rescored(ad)
    assert ad.observe(Observation("relabelled", 5, "KC", b[0] + 5, b[1], 87, confidence=0.66), t=2.9) == []
    out = ad.observe(Observation("appeared", 7, "KC", *IN_FRONT["D"], 130, confidence=0.9), t=130 / 30)
    assert [(a["player"], a["card"]) for a in out] == [("D", "KC")]
    assert rescored(ad).violations == [] and ad.log[1]["card"] == "KS"


def test_a_card_on_top_taken_back_leaves_the_card_below_as_it_was_played():
    game, ad = make()
    b = IN_FRONT["B"]
    ad.observe(Observation("appeared", 5, "G7", *b, 10, confidence=0.7), t=10 / 30)
    game = rescored(ad)
    seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=40)
    seen(ad, game, "G2", on_top_of(b), kind="relabelled", track=5, frame=80)  # taken as D's card on top
    assert [type(o) for o in ad.observe(Observation("relabelled", 5, "G7", *b, 95, confidence=0.59), t=3.2)] == [Correction]
    game = rescored(ad)
    # the G7 read anew more surely at its own spot puts its play right (the on-top card's spot is forgotten)
    out = ad.observe(Observation("relabelled", 5, "G8", b[0] + 1, b[1], 200, confidence=0.85), t=200 / 30)
    assert out == [Correction(1, {**ad.log[1], "card": "G8"})] and len(ad.log) == 3


def test_plays_undone_by_the_operator_are_forgotten_by_the_adapter():
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
    for _ in range(2):  # GameSession.undo: the last action out of the log, then forget(i)
        ad.log.pop()
        ad.forget(len(ad.log))
    game = rescored(ad)
    assert ad.observe(Observation("relabelled", 3, "G4", *IN_FRONT["D"], 200, confidence=0.9, old_label="G2"),
                      t=6.7) == []
    assert [(a["player"], a["card"]) for a in seen(ad, game, "G11", IN_FRONT["C"], track=9, frame=220)] == [("C", "G11")]


def test_a_card_read_surely_then_hidden_then_read_as_another_at_its_very_spot_has_one_laid_on_it():
    # seed 9179, standard cards: Ann's lead QH read 0.875 when played; a hand hid it for two looks and Bob's
    # 8H lay 0.4 mm from it, read 0.879: taken as the QH read right at last, Bob's card was lost and every
    # card after went to the player before (here B leads and C lays the 8H)
    for hidden in (True, False):
        game, ad = make_standard()
        a = IN_FRONT["B"]
        ad.observe(Observation("appeared", 5, "QH", *a, 60, confidence=0.875), t=2.0)
        game = rescored(ad)
        track = SimpleNamespace(id=5, misses=1 if hidden else 0, reads=[("QH", 0.87)], confirmed=True, rest=a)
        ad.look(90, 3.0, Held(tracks=[track]))
        track.misses, track.reads = 0, [("8H", 0.88)]   # read again, as the card laid on it
        ad.look(96, 3.2, Held(tracks=[track]))
        out = ad.observe(Observation("relabelled", 5, "8H", a[0] + 0.4, a[1], 99, confidence=0.879), t=3.3)
        if hidden:
            assert [(x["player"], x["card"]) for x in out] == [("C", "8H")]
        else:  # never hidden: the play read more surely at its very spot is put right (seed 9115)
            assert out == [Correction(1, {**ad.log[1], "card": "8H"})]


def test_a_card_read_anew_at_its_spot_just_after_another_card_came_is_that_hand_over_it():
    # seed 9082's case with the card below read at 0.75 when played: a surer read at its very spot,
    # 3 frames after C's card came, is C's hand over it, not the play put right
    game, ad = make()
    ad.observe(Observation("appeared", 5, "G7", *IN_FRONT["B"], 10, confidence=0.75), t=10 / 30)
    game = rescored(ad)
    seen(ad, game, "G13", IN_FRONT["C"], track=6, frame=80)
    assert ad.observe(Observation("relabelled", 5, "G2", *IN_FRONT["B"], 83, confidence=0.82), t=83 / 30) == []
    assert [a["card"] for a in ad.log[1:]] == ["G7", "G13"]


def test_just_after_another_card_came_a_surer_read_at_a_cards_spot_is_taken_when_the_trick_agrees():
    # seed 9118, standard cards: Cyd's JC read JS when played on Bob's lead KC, then JC (surer, at its spot)
    # 6 frames after Dee's 3C came: the trick agrees with JC, so this is no hand over it
    game, ad = make_standard(rounds=("first_last",))
    seen(ad, game, "KC", IN_FRONT["B"], track=5, frame=60)
    ad.observe(Observation("appeared", 6, "JS", *IN_FRONT["C"], 96, confidence=0.75), t=3.2)
    game = rescored(ad)
    seen(ad, game, "3C", IN_FRONT["D"], track=7, frame=129)
    c = IN_FRONT["C"]
    out = ad.observe(Observation("relabelled", 6, "JC", c[0] + 1, c[1], 135, confidence=0.85), t=4.5)
    assert out == [Correction(2, {**ad.log[2], "card": "JC"})]


def test_at_the_end_of_a_recording_a_trick_one_card_short_whose_cards_left_view_was_gathered():
    # seed 9132, standard cards: Ann's last card lay in view three looks before the trick was swept up, 1.3 s
    # before the end; the tracker still held the trick's cards when the recording ended
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])  # tracks 1-3
    ann = Glimpse("G13", *IN_FRONT["A"], frame=100, confidence=0.88)
    tracks = [SimpleNamespace(id=k, seen=105, misses=0) for k in (1, 2, 3)]
    assert ad.look(110, 110 / 30, Held(glimpses=[ann], tracks=tracks)) == []  # the trick lies there for the tracker
    end = 105 + CrazyAdapter.END_GONE_FRAMES
    assert ad.finish(end, 4.1) == []  # sighted faintly in the last look (glare, a shadow): still in view
    for tr in tracks:
        tr.misses = CrazyAdapter.END_GONE_LOOKS
    assert ad.finish(end - 1, 4.0) == []  # unread so briefly: a hand over it
    out = ad.finish(end, 4.1)
    assert [(a["player"], a["card"]) for a in out] == [("A", "G13")]
    # a finish with no look before it (nothing seen) judges nothing
    assert make()[1].finish(200, 6.7) == []


def test_at_the_end_of_a_recording_a_trick_one_card_short_with_nothing_glimpsed_gets_no_unread_card():
    # the trick may be under a hand as the recording stops: only a trick the tracker let go was gathered
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2")])
    tracks = [SimpleNamespace(id=k, seen=105, misses=CrazyAdapter.END_GONE_LOOKS) for k in (1, 2, 3)]
    assert ad.look(110, 110 / 30, Held(tracks=tracks)) == []
    assert ad.finish(105 + CrazyAdapter.END_GONE_FRAMES, 4.1) == [] and len(ad.log) == 4


def test_a_card_on_top_read_the_same_three_times_well_off_the_card_below_needs_less_sureness():
    """Seed 9139, standard cards at 720p: Bob's JS laid on Ann's 6S 11 mm off, read JS three times at 0.73
    mean (under ``on_top_confidence``): it was lost, and two out_of_turn calls followed."""
    apart = CrazyAdapter.ON_TOP_APART_MM + 1
    for xy, reads, conf, played in (((apart, 0), ("G2",) * 3, 0.73, True),   # far off, read alike: laid on top
                                    ((apart, 0), ("G2",) * 3, 0.66, False),  # too unsure all the same
                                    ((apart, 0), ("G4", "G2", "G2"), 0.73, False),  # the reads disagree
                                    ((6, 6), ("G2",) * 3, 0.73, False)):  # a few mm off: maybe the card misread
        game, ad = make()
        seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
        seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=40)
        at = (IN_FRONT["B"][0] + xy[0], IN_FRONT["B"][1] + xy[1])
        out = ad.observe(Observation("relabelled", 5, "G2", *at, 80, confidence=conf, reads=reads), t=80 / 30)
        assert [(a["player"], a["card"]) for a in out] == ([("D", "G2")] if played else [])


class FirmingTrack:
    """A tracker's track as ``CrazyAdapter.look`` reads it: its label and the mean confidence of its reads."""

    def __init__(self, id, label, sure):
        self.id, self.label, self.sure = id, label, sure

    def confidence(self, label):
        return self.sure if label == self.label else 0.0


def test_a_card_on_top_read_too_unsurely_when_reported_is_played_once_its_reads_firm_up():
    """Seed 9167, standard cards: Dee's KH laid 9 mm off Bob's 6H was reported at 0.685 against the 0.7 asked
    (``_on_top_bar``) and read 0.74-0.88 after; it was never played, and Ann's next card was called out of
    turn. Judged again while the track keeps the label, for ``correction_frames``."""
    for later, label, frame in ((0.78, "G2", 86), (0.66, "G2", 86), (0.78, "G4", 86), (0.78, "G2", 120)):
        game, ad = make()
        seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
        seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=40)
        unsure = ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 80, confidence=0.66),
                            t=80 / 30)
        assert unsure == []
        out = ad.look(frame, frame / 30, Held(tracks=[FirmingTrack(5, label, later)]))
        firmed = later > 0.75 and label == "G2" and frame - 80 <= ad.correction_frames
        assert [(a["player"], a["card"]) for a in out if isinstance(a, dict)] == ([("D", "G2")] if firmed else [])


def test_a_card_read_unsurely_anew_as_another_card_arrives_is_no_card_on_top_however_it_firms_up():
    """Seed 9214, standard cards: Bob's 6C read 7C at 0.74 in the look Cyd's 8C came (under the 0.75 a card on
    top needs), then 0.79-0.87: it was played 0.5 s later as Dee's 7C laid on top, and Dee's QC went to Ann.
    A new label that came with another card's arrival is that card's hand over this one (``DISTURBED_FRAMES``),
    judged when it was reported, not when its reads firm up."""
    for arrives_at in (80, 75, 60):
        game, ad = make()
        seen(ad, game, "G7", IN_FRONT["B"], track=5, frame=10)
        unsure = ad.observe(Observation("relabelled", 5, "G2", *on_top_of(IN_FRONT["B"]), 80, confidence=0.66),
                            t=80 / 30)
        assert unsure == []
        seen(ad, game, "G9", IN_FRONT["C"], track=6, frame=arrives_at)
        out = ad.look(86, 86 / 30, Held(tracks=[FirmingTrack(5, "G2", 0.85)]))
        on_top = 80 - arrives_at > ad.DISTURBED_FRAMES
        assert [(a["player"], a["card"]) for a in out if isinstance(a, dict)] == ([("D", "G2")] if on_top else [])
        assert [a["card"] for a in ad.log if a["type"] == "play"] == ["G7", "G9", *(["G2"] if on_top else [])]


def read_in_looks(ad, track_id, label, xy, reads, first_frame):
    """A track the tracker keeps labelled ``label`` (the vote keeps it) read as ``reads`` in turn, one per look
    3 frames apart from ``first_frame``: the (player, card) of the plays the adapter makes meanwhile."""
    track = SimpleNamespace(id=track_id, label=label, misses=0, seen=0, reads=[], x=xy[0], y=xy[1])
    out = []
    for k, read in enumerate(reads):
        track.seen, track.reads = first_frame + 3 * k, [*track.reads, read][-3:]
        out += ad.look(track.seen, track.seen / 30, Held(tracks=[track]))
    return [(a["player"], a["card"]) for a in out if isinstance(a, dict)]


def test_a_card_read_as_one_already_played_and_now_and_then_as_one_that_can_be_there_is_that_card():
    # seed 9182, standard cards: Cyd's QS read QC, QC, QS 0.75, QC, QS 0.72, QC with Ann's QC played in trick 1:
    # the vote kept QC, the play was never made, and Dee's 10S after it was called out of turn
    for reads, played in (([("G9", 0.8), ("G11", 0.75), ("G9", 0.8), ("G11", 0.72)], True),
                          ([("G9", 0.8), ("G11", 0.75), ("G9", 0.8), ("G9", 0.8)], False),   # one look only
                          ([("G9", 0.8), ("G11", 0.65), ("G9", 0.8), ("G11", 0.62)], False)):  # never sure
        game, ad = make()
        play_trick(ad, game, [("B", "G7"), ("C", "G9"), ("D", "G2"), ("A", "G13")])  # A leads next
        for k, seat in enumerate("BCDA", start=1):  # gathered
            seen(ad, game, "G7", IN_FRONT[seat], kind="vanished", track=k, frame=150)
        seen(ad, game, "G5", IN_FRONT["A"], track=5, frame=200)
        assert seen(ad, game, "G9", IN_FRONT["B"], track=6, frame=230) == []  # G9 is in trick 1
        out = read_in_looks(ad, 6, "G9", IN_FRONT["B"], reads, first_frame=233)
        assert out == ([("B", "G11")] if played else [])


def test_a_card_read_as_one_already_played_is_its_rank_in_another_suit_read_once_that_follows_the_lead():
    """Seed 9219, standard cards: Ann's KS read KC with KC played in trick 1, then QS 0.51, KS 0.58, QS 0.56,
    QS 0.41: two cards that can be there, neither read twice at 0.7 (``_read_possible``), so it was never
    played and Bob's 5S after it was called out of turn. The reader's usual slip is the suit of one rank."""
    for lead, reads, played in (("5S", [("JS", 0.51), ("QS", 0.58), ("JS", 0.56)], True),
                                ("5S", [("JS", 0.51), ("QS", 0.45), ("JS", 0.56)], False),  # never read so
                                ("5H", [("JS", 0.51), ("QS", 0.58), ("JS", 0.56)], False),  # does not follow
                                ("5S", [("JS", 0.51), ("JS", 0.56), ("JS", 0.6)], False)):  # another rank
        game, ad = make_standard(rounds=("red",))
        play_trick(ad, game, [("B", "2C"), ("C", "QC"), ("D", "3C"), ("A", "4C")])
        assert game.round.current.leader == "C"
        for k, seat in enumerate("BCDA", start=1):  # gathered
            seen(ad, game, "2C", IN_FRONT[seat], kind="vanished", track=k, frame=150)
        seen(ad, game, lead, IN_FRONT["C"], track=5, frame=200)
        assert seen(ad, game, "QC", IN_FRONT["D"], track=6, frame=230) == []  # QC is in trick 1
        out = read_in_looks(ad, 6, "QC", IN_FRONT["D"], reads, first_frame=233)
        assert out == ([("D", "QS")] if played else [])


def test_a_card_of_the_trick_just_completed_read_anew_as_its_rank_in_the_led_suit_is_that_card():
    # seed 9188, standard cards: Cyd's KS read KC up to 0.82 on Bob's 3S lead, then KS 0.51, 0.61, 0.70 before
    # the trick was swept; the KS that ends the black 13 round was missed and five out-of-turn calls followed
    for reads, fixed in (([("KS", 0.51), ("KS", 0.61), ("KS", 0.70)], True),
                         ([("KS", 0.51), ("KS", 0.61), ("KS", 0.65)], False),  # never read surely
                         ([("KC", 0.80), ("KS", 0.61), ("KS", 0.70)], False),  # not every read
                         ([("QS", 0.80), ("QS", 0.81), ("QS", 0.82)], False)):  # another rank: a hand over it
        game, ad = make_standard()
        for track, (seat, card) in enumerate([("B", "3S"), ("C", "KC"), ("D", "7S"), ("A", "4S")], start=1):
            seen(ad, game, card, IN_FRONT[seat], track=track, frame=30 * track)
        assert game.round.current.cards == [] and not game.round.over  # KC: the trick went to Dee
        track = SimpleNamespace(id=2, label=reads[-1][0], misses=0, seen=150, reads=reads)
        out = ad.look(150, 5.0, Held(tracks=[track]))
        if fixed:
            assert out == [Correction(2, {**ad.log[2], "card": "KS"})]
            assert rescored(ad).round.over  # the black 13 won: the round ends
        else:
            assert out == []


def test_a_lead_by_the_player_the_engine_says_lost_the_trick_shows_the_card_that_won_it_misread():
    # seed 9203, standard cards: Bob's KS on Ann's 8S read KC at once and throughout; Dee's 10S won it by the
    # engine, so Bob's next lead QD was called out of turn and every card after went to the next player
    game, ad = make_standard(rounds=("red",))
    for track, (seat, card) in enumerate([("B", "8S"), ("C", "KC"), ("D", "4S"), ("A", "10S")], start=1):
        seen(ad, game, card, IN_FRONT[seat], track=track, frame=30 * track)
    assert game.round.tricks[0].winner == "A"
    gather(ad, [1, 2, 3, 4], frame=200)
    out = seen(ad, game, "QD", IN_FRONT["C"], track=9, frame=230)  # C leads: C won it
    assert [type(o) for o in out] == [Correction] and "C's KC read as KS" in out[0].why
    game = rescored(ad)
    assert [a["card"] for a in ad.log if a["type"] == "play"] == ["8S", "KS", "4S", "10S", "QD"]
    assert game.round.tricks[0].winner == "C" and game.violations == [] and game.to_play == "D"


def test_a_lead_out_of_turn_that_no_one_card_misread_explains_stays_out_of_turn():
    game, ad = make_standard(rounds=("red",))
    for track, (seat, card) in enumerate([("B", "8S"), ("C", "KC"), ("D", "4S"), ("A", "10S")], start=1):
        seen(ad, game, card, IN_FRONT[seat], track=track, frame=30 * track)
    gather(ad, [1, 2, 3, 4], frame=200)
    seen(ad, game, "QD", IN_FRONT["D"], track=9, frame=230)  # D's 4S read as 4C would not make D win
    assert [v.type for v in game.violations] == ["out_of_turn"] and "KS" not in [a.get("card") for a in ad.log]


def test_a_trick_gathered_one_short_after_a_play_to_it_was_refused_gets_no_unread_card():
    # seed 9203 (before _led_by_its_winner): a lead called out of turn, the trick swept with three cards in the
    # engine; the refused card was seen, so no card was laid unseen
    game, ad = make()
    play_trick(ad, game, [("B", "G7"), ("C", "G9")])
    seen(ad, game, "G1", IN_FRONT["A"], track=3, frame=100)  # A's card, out of turn (D's turn)
    assert [v.type for v in game.violations] == ["out_of_turn"]
    seen(ad, game, "G2", IN_FRONT["D"], track=4, frame=130)
    gather(ad, [1, 2, 3, 4], frame=200)
    assert look(ad, game, 200) == [] and ad.log[-1]["card"] == "G2"
