"""Observations (as the tracker emits them) to Crazy Kick actions, through the real engine and layout."""
import pytest

from referee.calibration.layouts import crazy_kick_layout
from referee.games.crazy_kick.actions import ACTION_ADAPTER
from referee.games.crazy_kick.adapter import RETURN_FRAMES, Correction, CrazyKickAdapter
from referee.games.crazy_kick.rules import CrazyKickGame
from referee.tracker import Observation

TEAMS = {"red": ["Ann", "Bob"], "white": ["Cyd", "Dee"]}
# crazy_kick_layout(2, 2): red (side A) along the bottom edge, white (side B) along the top.
PILE = {"Ann": (-150, 300), "Bob": (150, 300), "Cyd": (-150, -300), "Dee": (150, -300)}
CENTRE = (0, 0)
GOAL_AREA = {"A": (-400, 0), "B": (400, 0)}


class Table:
    def __init__(self, options=None, teams=TEAMS, **kw):
        setup = {"type": "setup", "game": "crazy-kick", "teams": teams, "options": options or {}}
        self.game = CrazyKickGame(ACTION_ADAPTER.validate_python(setup))
        self.ad = CrazyKickAdapter(self.game, crazy_kick_layout(len(teams["red"]), len(teams["white"])), **kw)
        self.frame = 0
        self.events = []

    def see(self, kind, track, label, xy, from_xy=None, old=None, frames=30, reads=(), confidence=1.0,
            since_ago=None):
        """``since_ago``: first read where it lies that many frames before this report (the tracker's ``since``)."""
        self.frame += frames
        obs = Observation(kind, track, label, float(xy[0]), float(xy[1]), self.frame, from_xy=from_xy, old_label=old,
                          reads=tuple(reads), confidence=confidence,
                          since=None if since_ago is None else self.frame - since_ago)
        out = self.ad.observe(obs, t=self.frame / 30)
        for a in out:
            if isinstance(a, dict):
                self.events += self.game.apply(ACTION_ADAPTER.validate_python(a))
            else:  # a correction: re-score the corrected log, as the session does
                self.game = CrazyKickGame(self.game.setup)
                self.ad.game = self.game
                self.events = []
                for b in self.ad.log:
                    self.events += self.game.apply(ACTION_ADAPTER.validate_python(b))
        return out

    def plays(self):
        return [(a["card"], a.get("player")) for a in self.ad.log if a["type"] == "play"]

    def kinds(self):
        return [e.data.get("violation", e.type) for e in self.events if e.type != "table"]


def legal(game, team, keeper=False):
    """A card of ``team`` that may be laid now (and is not a goal card)."""
    return next(c for c in game.legal_cards() if game.catalog[c].team == team and not game.catalog[c].is_goal
                and game.catalog[c].is_keeper == keeper)


def illegal(game, team):
    return next(c.id for c in game.catalog if c.team == team and not c.is_goal and not game.is_legal(c.id)
                and game.in_play(c.id) is None)


def test_a_card_from_a_players_pile_to_the_centre_is_his_play():
    tb = Table()
    tb.see("appeared", 1, "R01", (PILE["Bob"][0] - 40, PILE["Bob"][1]))
    tb.see("appeared", 2, "R01", CENTRE)  # lifted off Bob's pile, slapped on the centre
    assert tb.ad.log[-1] == {"type": "play", "card": "R01", "player": "Bob", "t": 2.0, "frame": 60,
                             "source": "camera"}
    assert tb.kinds() == ["kickoff"] and tb.game.top.id == "R01"
    card = legal(tb.game, "red")
    tb.see("moved", 3, card, CENTRE, from_xy=PILE["Ann"])  # carried straight from Ann's pile: Ann's
    assert tb.plays()[-1] == (card, "Ann") and tb.kinds() == ["kickoff", "pass"]
    tb.see("moved", 4, "W05", CENTRE, from_xy=PILE["Bob"])  # a white card is never a red player's
    assert tb.plays()[-1] == ("W05", None)


def test_pile_tops_become_table_actions_padded_to_the_layout():
    tb = Table()
    tb.see("appeared", 1, "R10", (PILE["Ann"][0] - 40, 300))
    assert tb.ad.log[-1]["piles"] == {"Ann": ["R10", None, None]}  # two piles unseen, not missing
    tb.see("appeared", 2, "R20", (PILE["Ann"][0] + 40, 300))
    tb.see("appeared", 3, "W20", (PILE["Ann"][0], 330))  # a white card by Ann: left out
    assert tb.ad.log[-1]["piles"] == {"Ann": ["R10", "R20", None]}
    n = len(tb.ad.log)
    tb.see("appeared", 4, "R30", (PILE["Ann"][0] + 10, 280))  # four cards: something is not a pile top
    assert len(tb.ad.log) == n
    tb.see("vanished", 4, "R30", (PILE["Ann"][0] + 10, 280))
    tb.see("vanished", 3, "W20", (PILE["Ann"][0], 330))
    assert len(tb.ad.log) == n  # the tops in view did not change
    assert "layout" not in tb.kinds() and tb.game.tops["Ann"] == ["R10", "R20", None]
    assert tb.game.any_legal_visible() is False  # no keeper showing


def test_a_misread_card_is_corrected_a_later_change_is_a_new_play():
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    bad = illegal(tb.game, "red")
    tb.see("appeared", 2, bad, CENTRE)  # read wrongly as a card that does not fit
    assert tb.kinds() == ["kickoff", "not_on_card"]
    good = legal(tb.game, "red")
    out = tb.see("relabelled", 2, good, CENTRE, old=bad, frames=5)  # soon after: the misread is fixed
    assert out == [Correction(1, {**tb.ad.log[1], "card": good})]
    assert tb.kinds() == ["kickoff", "pass"] and tb.game.top.id == good
    nxt = legal(tb.game, "white") if any(tb.game.catalog[c].team == "white" and not tb.game.catalog[c].is_goal
                                         for c in tb.game.legal_cards()) else legal(tb.game, "red")
    tb.see("relabelled", 2, nxt, CENTRE, old=good, frames=60)  # a second later: a new card on top
    assert [c for c, _ in tb.plays()] == ["R01", good, nxt] and tb.game.top.id == nxt


def test_a_refused_card_relabelled_a_little_later_is_still_a_misread():
    """Seed 9024: R20 read R17 for a look (refused: not on top), then R20 nine frames later."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    bad = illegal(tb.game, "red")
    tb.see("appeared", 2, bad, CENTRE)
    good = legal(tb.game, "red")
    out = tb.see("relabelled", 2, good, CENTRE, old=bad, frames=tb.ad.correction_frames + 4)
    assert [type(o) for o in out] == [Correction] and tb.kinds() == ["kickoff", "pass"]
    assert [c for c, _ in tb.plays()] == ["R01", good]


def test_a_late_relabel_to_a_card_that_follows_the_one_under_but_not_the_one_read_is_a_misread():
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    first = legal(tb.game, "red")
    tb.see("appeared", 2, first, CENTRE)  # read first (unsurely) as this card
    other = next(c.id for c in tb.game.catalog if not c.is_goal and c.id != first and tb.game.in_play(c.id) is None
                 and tb.game.follows("R01", c.id) and not tb.game.is_legal(c.id))
    out = tb.see("relabelled", 2, other, CENTRE, old=first, frames=60)  # the read settles a second later
    assert [type(a) for a in out] == [Correction] and [c for c, _ in tb.plays()] == ["R01", other]
    assert not any(e.type == "violation" for e in tb.events) and tb.game.top.id == other


def test_a_late_unsure_relabel_of_a_card_read_surely_is_no_misread_put_right():
    """Seed 9153: W50 read at 0.86 and played; 0.4 s later, as W43 slid over it, read W52 at 0.42-0.46 (W52
    follows the card under W50 as W50 does): it was put right to W52, laid by nobody. Read surely, or as
    surely as the play, a late relabel still puts it right (the test above)."""
    def table_with(confidence):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        first = legal(tb.game, "red")
        tb.see("appeared", 2, first, CENTRE, confidence=0.86)
        other = next(c.id for c in tb.game.catalog if not c.is_goal and c.id != first
                     and tb.game.in_play(c.id) is None and tb.game.follows("R01", c.id)
                     and not tb.game.is_legal(c.id))
        return tb, first, other, tb.see("relabelled", 2, other, CENTRE, old=first, frames=12, confidence=confidence)

    tb, first, other, out = table_with(0.44)
    assert [c for c, _ in tb.plays()] == ["R01", first] and tb.game.top.id == first
    assert not any(isinstance(o, Correction) for o in out)
    tb, first, other, out = table_with(0.6)  # read surely: the first read was the misread
    assert [type(a) for a in out] == [Correction] and [c for c, _ in tb.plays()] == ["R01", other]


def test_a_late_misread_the_next_card_proves_was_a_card_laid_on_it_is_a_foul_taken_back():
    # seed 9061 (fouls 0.2): W35 on W52, then W47 read on it for 0.8 s (a foul, taken back) was taken
    # for a late misread of W35; R32, laid on W35 next, was then called not_on_card
    tb = Table()
    g = tb.game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    # R01, then a (legal), first on it; other (follows a, not first) read on first late; nxt follows first only
    a, first, other, nxt = next(
        (a, f, o, n) for a in ids if g.follows("R01", a) for f in ids if f != a and g.follows(a, f)
        for o in ids if o not in (a, f) and g.follows(a, o) and not g.follows(f, o)
        for n in ids if n not in (a, f, o) and g.catalog[n].team == "red" and g.follows(f, n)
        and not g.follows(o, n) and not g.follows(a, n))
    owner = "Ann" if g.catalog[other].team == "red" else "Cyd"
    for seen_on_pile in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("appeared", 2, a, CENTRE)
        tb.see("relabelled", 2, first, CENTRE, old=a, frames=30)
        if seen_on_pile:  # it lay on its owner's pile and left it
            tb.see("appeared", 6, other, (PILE[owner][0] - 40, PILE[owner][1]))
        tb.see("relabelled", 2, other, CENTRE, old=first, frames=60)  # taken for the first read settling late
        assert [c for c, _ in tb.plays()] == ["R01", a, other]
        tb.see("appeared", 5, nxt, PILE["Bob"])
        out = tb.see("relabelled", 2, nxt, CENTRE, old=other, frames=10)
        assert [type(x) for x in out][:1] == [Correction] and tb.game.top.id == nxt
        if seen_on_pile:
            assert [c for c, _ in tb.plays()] == ["R01", a, first, other, nxt] and tb.plays()[-1] == (nxt, "Bob")
            assert [e.data.get("violation") for e in tb.events if e.type == "violation"] == ["not_on_card"]
        else:
            # seed 9082: W28 read W30 at 0.53, then W38 laid on it; W30 was never seen on a pile and
            # nobody could be named for it: a misread, not a card laid and taken back (no not_on_card)
            assert [c for c, _ in tb.plays()] == ["R01", a, first, nxt] and tb.game.violations == []
    # seed 9062: a card read in turn as itself and as another (W50, W52, W50, W52 late): the camera
    # flickering, not a card laid on it; the next card restores it, and nobody fouled
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 2, a, CENTRE)
    tb.see("relabelled", 2, first, CENTRE, old=a, frames=30)
    tb.see("relabelled", 2, other, CENTRE, old=first, frames=5)   # soon: a correction
    tb.see("relabelled", 2, first, CENTRE, old=other, frames=5)   # and back
    tb.see("relabelled", 2, other, CENTRE, old=first, frames=60)  # late: taken for a misread
    tb.see("appeared", 5, nxt, PILE["Bob"])
    out = tb.see("relabelled", 2, nxt, CENTRE, old=other, frames=10)
    assert [type(x) for x in out][:1] == [Correction]
    assert [c for c, _ in tb.plays()] == ["R01", a, first, nxt] and "violation" not in [e.type for e in tb.events]


def test_a_quick_second_card_that_follows_legally_is_not_taken_for_a_misread():
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    follow = legal(tb.game, "red")
    out = tb.see("relabelled", 1, follow, CENTRE, old="R01", frames=5)
    assert [type(a) for a in out] == [dict] and [c for c, _ in tb.plays()] == ["R01", follow]
    assert tb.kinds() == ["kickoff", "pass"]


def test_the_card_under_an_illegal_card_taken_back_is_no_play():
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    bad = illegal(tb.game, "white")
    tb.see("appeared", 2, bad, (5, 5))
    tb.see("relabelled", 2, "R01", (5, 5), old=bad)   # taken back: the keeper's card shows again
    tb.see("moved", 1, "R01", (20, 0), from_xy=CENTRE)  # the pile pushed askew
    assert tb.plays() == [("R01", None), (bad, None)]
    assert tb.kinds() == ["kickoff", "not_on_card"]  # one call, not three


def _missed_keeper_then(tb):
    """The keeper R01 laid under a hand (never seen), a pass on it seen: (that card, one that follows it)."""
    cat, game = tb.game.catalog, tb.game
    a = next(c.id for c in cat if c.team == "red" and not (c.is_goal or c.is_keeper) and game.follows("R01", c.id))
    z = next(c.id for c in cat if not (c.is_goal or c.is_keeper) and game.follows(a, c.id))
    return a, z


def test_a_card_the_table_plays_on_from_counts_when_the_camera_missed_the_one_before():
    tb = Table()
    a, z = _missed_keeper_then(tb)
    tb.see("appeared", 1, a, CENTRE)
    assert tb.kinds() == ["no_keeper"]  # called: the camera knows of no keeper
    out = tb.see("relabelled", 1, z, CENTRE, old=a)  # the next card laid on it a second later
    assert [type(o) for o in out] == [Correction] and "missed" in out[0].why
    assert tb.ad.log[0]["missed_before"] is True and tb.game.violations == []  # the call is withdrawn
    same = tb.game.catalog[z].team == "red"
    assert tb.kinds() == ["play_on", "pass" if same else "tackle"] and tb.game.top.id == z
    assert [c.id for c in tb.game.pile] == [a, z] and tb.game.attacks == 1


def test_a_refused_card_read_for_longer_than_a_misread_with_a_card_laid_on_it_that_follows_it_was_played_on():
    """Seed 9092: after a goal the keeper's W03 was missed; W23 was refused (no keeper) and read 0.5 s, then
    W11, which follows W23, was taken as a misread of it: W23 lost. Within ``correction_frames`` a relabel of
    a refused card is still a misread."""
    for gap, plays in ((None, 2), (0, 1)):
        tb = Table()
        a, z = _missed_keeper_then(tb)
        tb.see("appeared", 1, a, CENTRE)
        gap = tb.ad.correction_frames + 4 if gap is None else tb.ad.correction_frames
        out = tb.see("relabelled", 1, z, CENTRE, old=a, frames=gap)
        if plays == 2:
            assert [c for c, _ in tb.plays()] == [a, z] and tb.ad.log[0]["missed_before"] is True
            assert [type(o) for o in out] == [Correction] and tb.game.violations == []
        else:
            assert [c for c, _ in tb.plays()] == [z] and tb.kinds() == ["no_keeper"]


def test_the_card_missed_under_a_card_played_on_is_named_when_it_leaves_its_pile_late():
    """Seed 9092: W2's keeper W03 was covered on the centre by W23 within 0.5 s; the tracker let W03's track
    on his pile go 1.3 s later, after W23 was played on (``missed_before``): W03 was that missed card."""
    tb = Table()
    a, z = _missed_keeper_then(tb)
    tb.see("appeared", 7, "R01", PILE["Ann"])
    tb.see("appeared", 1, a, CENTRE)
    tb.see("relabelled", 1, z, CENTRE, old=a)  # played on: a card before a was missed
    out = tb.see("vanished", 7, "R01", PILE["Ann"])
    assert [type(o) for o in out if not isinstance(o, dict)] == [Correction]
    assert tb.plays() == [("R01", "Ann"), (a, tb.plays()[1][1]), (z, tb.plays()[2][1])]
    plays = [a for a in tb.ad.log if a["type"] == "play"]
    assert plays[0]["unseen"] is True and "missed_before" not in plays[1]
    assert tb.game.violations == [] and tb.kinds()[:2] == ["kickoff", "pass"]
    # a card that would not fit there (another pass, no keeper) is no missed card
    tb = Table()
    a, z = _missed_keeper_then(tb)
    other = next(c.id for c in tb.game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
                 and c.id not in (a, z))
    tb.see("appeared", 7, other, PILE["Ann"])
    tb.see("appeared", 1, a, CENTRE)
    tb.see("relabelled", 1, z, CENTRE, old=a)
    tb.see("vanished", 7, other, PILE["Ann"])
    assert [c for c, _ in tb.plays()] == [a, z]
    assert [a.get("missed_before") for a in tb.ad.log if a["type"] == "play"] == [True, None]


def _gone_unseen_then(tb):
    """After the kick-off R01: a red card that follows it (on Bob's pile) and a card that follows that
    one but not R01."""
    tb.see("appeared", 1, "R01", CENTRE)
    cat, game = tb.game.catalog, tb.game
    pairs = ((a.id, z.id) for a in cat for z in cat
             if a.team == "red" and not (a.is_goal or a.is_keeper or z.is_goal or z.is_keeper)
             and game.is_legal(a.id) and game.follows(a.id, z.id) and not game.is_legal(z.id))
    return next(pairs)


def test_a_card_that_left_its_pile_unseen_on_the_centre_is_played_before_the_one_on_it():
    tb = Table()
    a, z = _gone_unseen_then(tb)
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("vanished", 5, a, PILE["Bob"])  # taken off Bob's pile; a hand hid it on the centre
    out = tb.see("relabelled", 1, z, CENTRE, old="R01")  # the next card, seen on the top
    assert [p["card"] for p in out if p.get("type") == "play"] == [a, z]
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.plays()[1] == (a, "Bob")
    assert tb.ad.log[-2]["unseen"] is True and "unseen" not in tb.ad.log[-1]
    assert tb.game.violations == [] and [c.id for c in tb.game.pile] == ["R01", a, z]
    tb = Table()  # the same when the card under it on his pile is a back (seed 9008)
    a, z = _gone_unseen_then(tb)
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("relabelled", 5, "back", PILE["Bob"], old=a)
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.game.violations == []


def test_with_tracked_piles_the_unseen_card_is_no_foul_for_not_being_on_top():
    """Seed 9017: R29 left R1's pile (a back showed under it) and a card showed in its place, so all
    of R1's tops were in view without it; its inferred play must not be called not_on_top."""
    tb = Table(options={"track_piles": True})
    a, z = _gone_unseen_then(tb)
    xs = [110, 150, 190]
    others = [c.id for c in tb.game.catalog if c.team == "red" and c.id not in ("R01", a, z)
              and not c.is_goal][:3]
    tb.see("appeared", 10, a, (xs[0], 300))
    tb.see("appeared", 11, others[0], (xs[1], 300))
    tb.see("appeared", 12, others[1], (xs[2], 300))
    assert tb.game.tops["Bob"] == [a, others[0], others[1]]
    tb.see("relabelled", 10, "back", (xs[0], 300), old=a)  # taken off; the face-down card under it
    tb.see("appeared", 13, others[2], (xs[0], 300))  # a card turned up there
    assert None not in tb.game.tops["Bob"] and a not in tb.game.tops["Bob"]
    out = tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [x["type"] for x in out if isinstance(x, dict)][:2] == ["table", "play"]
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.game.violations == []


def _from_its_pile(tb, card, track=9):
    """``card`` seen on a pile of its team, then taken off it (to be laid on the centre)."""
    owner = "Ann" if tb.game.catalog[card].team == "red" else "Cyd"
    tb.see("appeared", track, card, PILE[owner])
    tb.see("vanished", track, card, PILE[owner])


def _two_gone_unseen_then(tb):
    """Two cards that would each fit before z left Bob's and Ann's piles unseen; z is seen on its pile.
    Returns (Ann's card, z)."""
    a, z = _gone_unseen_then(tb)
    b = next(c.id for c in tb.game.catalog if c.team == "red" and c.id != a and not (c.is_goal or c.is_keeper)
             and tb.game.is_legal(c.id) and tb.game.follows(c.id, z))
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("appeared", 6, b, PILE["Ann"])
    tb.see("vanished", 5, a, PILE["Bob"])
    tb.see("vanished", 6, b, PILE["Ann"])
    _from_its_pile(tb, z)
    return b, z


def test_no_card_is_made_up_when_none_or_two_could_have_gone_unseen():
    tb = Table()  # nothing left a pile: the foul stands
    a, z = _gone_unseen_then(tb)
    tb.see("appeared", 5, a, PILE["Bob"])  # still on Bob's pile
    _from_its_pile(tb, z)
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01", z] and tb.kinds()[-1] == "not_on_card"
    tb = Table()  # two cards that each fit left their piles: no telling which
    _, z = _two_gone_unseen_then(tb)
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01", z] and tb.kinds()[-1] == "not_on_card"
    tb = Table()  # it left too long ago (missed_frames)
    a, z = _gone_unseen_then(tb)
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("vanished", 5, a, PILE["Bob"])
    _from_its_pile(tb, z)
    tb.see("relabelled", 1, z, CENTRE, old="R01", frames=151)
    assert [c for c, _ in tb.plays()] == ["R01", z] and tb.kinds()[-1] == "not_on_card"


def test_of_two_cards_that_could_have_gone_unseen_the_one_read_on_the_centre_went():
    # seed 9059 (fouls 0.2): W27 read for one look on the centre before R34 covered it; other cards had
    # just changed on the players' piles, so which one went to the centre was left open: two false calls
    tb = Table()
    b, z = _two_gone_unseen_then(tb)
    tb.see("relabelled", 1, z, CENTRE, old="R01", reads=(b, z, z))
    assert [c for c, _ in tb.plays()] == ["R01", b, z] and "not_on_card" not in tb.kinds()
    assert [a.get("unseen") for a in tb.ad.log if a["type"] == "play"] == [None, True, None]


def test_the_top_read_anew_as_a_card_nobody_had_in_view_is_a_misread_not_a_foul():
    """Seed 9057: R39 on the centre was read R35 for a while, 1.5 s after it was laid; R35 lay on
    nobody's pile in view, and was called not_on_card."""
    tb = Table()
    a, z = _gone_unseen_then(tb)          # z would be refused on R01
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01"] and tb.game.violations == []
    tb = Table()                          # the same card, seen on its pile first: a foul
    a, z = _gone_unseen_then(tb)
    _from_its_pile(tb, z)
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01", z] and tb.kinds()[-1] == "not_on_card"


def test_of_two_cards_that_would_fit_the_one_that_left_before_the_top_was_laid_went_elsewhere():
    tb = Table()
    probe = Table()
    a, z = _gone_unseen_then(probe)
    b = next(c.id for c in probe.game.catalog if c.team == "red" and c.id != a and not (c.is_goal or c.is_keeper)
             and probe.game.is_legal(c.id) and probe.game.follows(c.id, z))
    tb.see("appeared", 6, b, PILE["Ann"])
    tb.see("vanished", 6, b, PILE["Ann"])  # left Ann's pile before the kick-off was laid
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("vanished", 5, a, PILE["Bob"])
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.game.violations == []


def test_a_pile_top_misread_for_a_look_is_no_card_that_left_its_pile():
    """Seed 9027: W52 on W2's pile read W50 for a look and back; W50 was then taken as a card that had
    left the pile, and played unseen in place of W52."""
    tb = Table()
    probe = Table()
    a, z = _gone_unseen_then(probe)
    b = next(c.id for c in probe.game.catalog if c.team == "red" and c.id != a and not (c.is_goal or c.is_keeper)
             and probe.game.is_legal(c.id) and probe.game.follows(c.id, z))
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("relabelled", 5, b, PILE["Bob"], old=a, frames=9)  # misread for a look ...
    tb.see("relabelled", 5, a, PILE["Bob"], old=b, frames=9)  # ... and read back
    tb.see("relabelled", 5, "back", PILE["Bob"], old=a, frames=9)  # then taken off
    tb.see("relabelled", 1, z, CENTRE, old="R01")
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.game.violations == []


def test_a_card_turned_up_on_a_pile_top_for_a_while_and_gone_again_left_the_pile():
    """Seed 9059 (fouls 0.2): W27 turned up on W53 lay there 1 s, then went to the centre, read there for
    one look before R34 covered it. Taken for a misread of W53 read back, it was never awaited."""
    tb = Table()
    probe = Table()
    a, z = _gone_unseen_then(probe)
    b = next(c.id for c in probe.game.catalog if c.team == "red" and c.id != a and not (c.is_goal or c.is_keeper)
             and probe.game.in_play(c.id) is None and c.id != z)
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 5, b, PILE["Bob"])
    tb.see("relabelled", 5, a, PILE["Bob"], old=b, frames=9)   # a turned up onto b ...
    tb.see("relabelled", 5, b, PILE["Bob"], old=a, frames=30)  # ... and gone a second later: b shows again
    _from_its_pile(tb, z)
    tb.see("relabelled", 1, z, CENTRE, old="R01", frames=9)
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.game.violations == []


def _chain():
    """Cards u (the kick-off R01), l, m, n: l follows u, m follows l, n follows m and u but not l."""
    game = Table().game
    cat = [c for c in game.catalog if not c.is_goal and not c.is_keeper]
    for lc in cat:
        if not game.follows("R01", lc.id):
            continue
        for mc in cat:
            if mc.id == lc.id or not game.follows(lc.id, mc.id):
                continue
            for nc in cat:
                if nc.id not in (lc.id, mc.id) and game.follows(mc.id, nc.id) and game.follows("R01", nc.id) \
                        and not game.follows(lc.id, nc.id):
                    return lc.id, mc.id, nc.id
    raise AssertionError("no such cards in the catalogue")


def test_a_late_relabel_explained_by_a_card_that_left_its_pile_is_a_new_card_on_a_missed_one():
    """Seed 9027: W44 on top, W50 laid unseen, W60 on it read as a relabel of W44's track: not a misread
    of W44 (which was right) but W50 missed and W60 laid."""
    l, m, n = _chain()
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("relabelled", 1, l, CENTRE, old="R01", frames=60)  # a card slapped on: a new play
    owner = "Ann" if tb.game.catalog[m].team == "red" else "Cyd"
    tb.see("appeared", 5, m, PILE[owner])
    tb.see("vanished", 5, m, PILE[owner])
    tb.see("relabelled", 1, n, CENTRE, old=l, frames=60)
    assert [c for c, _ in tb.plays()] == ["R01", l, m, n] and tb.game.violations == []


def test_a_late_relabel_back_to_what_the_card_was_read_as_is_a_misread_even_when_a_card_left_its_pile():
    """Seed 9078: W12 on the centre read W13, W12, W13, W12 (0.49-0.79); W16, covered on its pile meanwhile,
    was taken as laid unseen under a second W12 (two plays made up)."""
    l, m, n = _chain()
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("relabelled", 1, n, CENTRE, old="R01", frames=60, confidence=0.6)  # laid on R01
    tb.see("relabelled", 1, l, CENTRE, old=n, frames=5, confidence=0.6)       # soon: taken for a misread
    owner = "Ann" if tb.game.catalog[m].team == "red" else "Cyd"
    tb.see("appeared", 5, m, PILE[owner])
    tb.see("vanished", 5, m, PILE[owner])  # m leaves its pile (or is covered there)
    out = tb.see("relabelled", 1, n, CENTRE, old=l, frames=60, confidence=0.5)  # read back late, less surely
    assert [type(o) for o in out] == [Correction]
    assert [c for c, _ in tb.plays()] == ["R01", n] and tb.game.violations == []


def _kick_off_and_pass_to_a_scorer(tb):
    """R01 kicks off and a red pass to a player with a goal card follows: (that pass, his goal card)."""
    tb.see("appeared", 1, "R01", CENTRE)
    game = tb.game
    passer = next(c for c in game.legal_cards() if game.catalog[c].team == "red" and not game.catalog[c].is_goal
                  and any(g.is_goal and g.team == "red" and g.player in game.catalog[c].passes
                          for g in game.catalog))
    tb.see("relabelled", 1, passer, CENTRE, old="R01")
    goal = next(g.id for g in game.catalog if g.is_goal and g.team == "red"
                and g.player in game.catalog[passer].passes)
    return passer, goal


def test_a_goal_the_camera_missed_is_played_before_the_keepers_kick_off_after_it():
    tb = Table()
    game = tb.game
    passer, goal = _kick_off_and_pass_to_a_scorer(tb)
    tb.see("appeared", 5, goal, PILE["Ann"])
    tb.see("vanished", 5, goal, PILE["Ann"])  # laid on the centre under a hand, the pile gathered at once
    keeper = next(c.id for c in game.catalog if c.team == "white" and c.is_keeper)
    tb.see("relabelled", 1, keeper, CENTRE, old=passer)  # white's keeper kicks off where the pile lay
    assert [c for c, _ in tb.plays()] == ["R01", passer, goal, keeper]
    assert tb.game.score == {"red": 1, "white": 0} and tb.game.violations == []


def test_with_tracked_piles_tops_that_change_about_a_goal_are_laid_out_anew_not_covered():
    # seed 9070: a goal, the piles laid out anew (R42 now on another pile); R42 was taken as covered under
    # the card now showing where it lay, and called not_on_top when played
    tb = Table(options={"track_piles": True})
    game = tb.game
    passer, goal = _kick_off_and_pass_to_a_scorer(tb)
    keeper = next(c.id for c in game.catalog if c.team == "white" and c.is_keeper)
    spare = [c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
             and game.in_play(c.id) is None and c.id != passer]
    spare = [next(c for c in spare if game.follows(keeper, c))] + [c for c in spare if not game.follows(keeper, c)][:1]
    others = [c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
              and game.in_play(c.id) is None and c.id not in (passer, *spare)][:2]
    for i, c in enumerate([spare[0], *others]):  # Ann's three pile tops
        tb.see("appeared", 10 + i, c, (-190 + 40 * i, 300))
    tb.see("relabelled", 1, goal, CENTRE, old=passer)  # the goal
    tb.see("relabelled", 10, spare[1], (-190, 300), old=spare[0], frames=3)  # laid out anew
    tb.see("relabelled", 1, keeper, CENTRE, old=goal, frames=40)  # the kick-off, the wait long over
    assert tb.game.score == {"red": 1, "white": 0}
    tb.see("relabelled", 1, spare[0], CENTRE, old=keeper)  # from the pile it lies on now
    assert "not_on_top" not in tb.kinds()


def test_a_refused_card_taken_back_stays_a_foul_whatever_comes_next():
    tb = Table()
    a, z = _missed_keeper_then(tb)
    tb.see("appeared", 1, a, CENTRE)
    tb.see("moved", 1, a, PILE["Ann"], from_xy=CENTRE)  # taken back: the table agreed with the call
    tb.see("appeared", 2, z, CENTRE)
    assert tb.kinds() == ["no_keeper", "no_keeper"] and not any(a.get("missed_before") for a in tb.ad.log)
    tb2 = Table()
    tb2.see("appeared", 1, a, CENTRE)
    other = next(c.id for c in tb2.game.catalog if not (c.is_goal or c.is_keeper)
                 and not tb2.game.follows(a, c.id) and c.id != a)
    tb2.see("appeared", 2, other, CENTRE)  # does not follow it either: no sign of a missed card
    assert tb2.kinds() == ["no_keeper", "no_keeper"]


def test_who_laid_it_is_left_open_rather_than_guessed():
    tb = Table()
    tb.see("appeared", 1, "R01", (0, 80))  # nearer Ann and Bob alike: no guess
    assert tb.plays() == [("R01", None)]
    solo = Table(teams={"red": ["Ann"], "white": ["Cyd"]})
    solo.see("appeared", 1, "W01", CENTRE)  # a team of one: his card
    assert solo.plays() == [("W01", "Cyd")]
    tb2 = Table()
    tb2.see("moved", 1, "W01", (-50, -60), from_xy=(-140, -180))  # came from nearer Cyd's pile than Dee's
    assert tb2.plays() == [("W01", "Cyd")]


def test_goal_cards_count_once_even_when_the_camera_missed_them_on_the_pile():
    tb = Table()
    tb.see("appeared", 1, "R40", (PILE["Bob"][0], 300))  # Mario (9), passes to 10 and 11
    tb.see("appeared", 2, "R01", CENTRE)
    # a pass reaching a player whose goal card exists: find the chain keeper -> ... -> goal
    game = tb.game
    passer = next(c for c in game.legal_cards() if game.catalog[c].team == "red" and not game.catalog[c].is_goal
                  and any(g.is_goal and g.team == "red" and g.player in game.catalog[c].passes
                          for g in game.catalog))
    tb.see("appeared", 3, passer, CENTRE)
    goal = next(g.id for g in game.catalog if g.is_goal and g.team == "red"
                and g.player in game.catalog[passer].passes)
    tb.see("appeared", 4, goal, GOAL_AREA["A"])  # never seen on the pile: a hand covered it
    assert tb.game.score == {"red": 1, "white": 0} and tb.kinds()[-1] == "goal"
    n = len(tb.ad.log)
    tb.see("moved", 4, goal, (GOAL_AREA["A"][0] + 30, 0), from_xy=GOAL_AREA["A"])
    tb.see("appeared", 9, goal, GOAL_AREA["B"])
    assert len(tb.ad.log) == n and tb.game.score == {"red": 1, "white": 0}


def test_a_refused_goal_card_set_aside_anyway_is_not_called_twice():
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    goal = next(g.id for g in tb.game.catalog if g.is_goal and g.team == "red" and not tb.game.is_legal(g.id))
    tb.see("appeared", 2, goal, CENTRE)
    tb.see("moved", 2, goal, GOAL_AREA["A"], from_xy=CENTRE)
    assert tb.kinds() == ["kickoff", "not_on_card"] and tb.game.score["red"] == 0


def test_ball_out_is_the_operators_call_with_the_tops_in_view():
    tb = Table(options={"ball_out": "agreed"})
    tb.see("appeared", 1, "R01", CENTRE)
    fits = legal(tb.game, "red")
    tb.see("appeared", 2, fits, PILE["Bob"])
    a = tb.ad.operator("ball_out", t=9.0)
    assert a == {"type": "ball_out", "visible": [fits], "t": 9.0, "source": "operator"}
    tb.events += tb.game.apply(ACTION_ADAPTER.validate_python(a))
    assert tb.kinds()[-2:] == ["bad_ball_out", "ball_out"]  # a fitting card showed
    with pytest.raises(ValueError, match="ball_out"):
        tb.ad.operator("goal")


def test_with_tracked_piles_a_top_replaced_before_its_play_is_seen_is_no_foul():
    tb = Table(options={"track_piles": True})
    xs = [-190, -150, -110]
    for i, c in enumerate(["R01", "R10", "R20"]):
        tb.see("appeared", 10 + i, c, (xs[i], 300))
    assert tb.game.tops["Ann"] == ["R01", "R10", "R20"]
    # the card under R01 shows before R01 is seen on the centre pile
    tb.see("relabelled", 10, "R30", (xs[0], 300), old="R01", frames=3)
    assert tb.game.tops["Ann"][0] is None
    out = tb.see("appeared", 20, "R01", CENTRE, frames=3)
    assert [a["type"] for a in out] == ["play", "table"] and out[0]["player"] == "Ann"
    assert tb.kinds() == ["kickoff"] and tb.game.tops["Ann"] == ["R30", "R10", "R20"]

    # a card the camera never saw on Ann's piles, played with all three of her tops in view: the
    # view was out of date (turned up and laid under a hand); that pile is unseen, no foul
    fresh = next(c for c in tb.game.legal_cards() if tb.game.catalog[c].team == "red"
                 and c not in ("R30", "R10", "R20"))
    out = tb.see("moved", 21, fresh, CENTRE, from_xy=(PILE["Ann"][0], 240))
    assert [a["type"] for a in out] == ["table", "play"] and out[1]["player"] == "Ann"
    assert "not_on_top" not in tb.kinds() and None in tb.game.tops["Ann"]


def test_with_tracked_piles_a_card_seen_covered_and_then_played_is_not_on_top():
    tb = Table(options={"track_piles": True})
    for i, c in enumerate(["R01", "R10", "R20"]):
        tb.see("appeared", 10 + i, c, (-190 + 40 * i, 300))
    tb.see("relabelled", 10, "R30", (-190, 300), old="R01", frames=3)  # R30 turned up onto R01
    tb.see("appeared", 30, "W20", PILE["Dee"], frames=40)  # R01 never reached the centre: covered
    assert tb.game.tops["Ann"] == ["R30", "R10", "R20"]
    tb.see("appeared", 20, "R01", CENTRE)  # slid out from under R30
    assert tb.kinds()[-1] == "not_on_top" and tb.game.top is None


def test_with_tracked_piles_a_top_read_anew_unsurely_is_no_evidence_the_old_one_is_covered():
    """Seed 9074: W1's W42 read W38 at 0.53 for a second, then played and called not_on_top."""
    for sure, foul in ((0.53, False), (0.8, True)):
        tb = Table(options={"track_piles": True})
        for i, c in enumerate(["R01", "R10", "R20"]):
            tb.see("appeared", 10 + i, c, (-190 + 40 * i, 300))
        tb.see("relabelled", 10, "R30", (-190, 300), old="R01", frames=3, confidence=sure)
        tb.see("appeared", 30, "W20", PILE["Dee"], frames=40)
        tb.see("appeared", 20, "R01", CENTRE)
        assert ("not_on_top" in tb.kinds()) == foul


def test_with_tracked_piles_a_top_the_camera_flickers_on_is_not_seen_covered():
    # seed 9063 (fouls 0.2): W30 on W2's pile read W28 now and then; W28 outlasted the wait once, W30
    # was taken as covered under it, and called not_on_top when played
    tb = Table(options={"track_piles": True})
    for i, c in enumerate(["R01", "R10", "R20"]):
        tb.see("appeared", 10 + i, c, (-190 + 40 * i, 300))
    tb.see("relabelled", 10, "R30", (-190, 300), old="R01", frames=3)  # misread ...
    tb.see("relabelled", 10, "R01", (-190, 300), old="R30", frames=9)  # ... and read back
    tb.see("relabelled", 10, "R30", (-190, 300), old="R01", frames=9)  # and misread again, for long
    tb.see("appeared", 30, "W20", PILE["Dee"], frames=40)
    tb.see("appeared", 20, "R01", CENTRE)
    assert "not_on_top" not in tb.kinds() and tb.game.top.id == "R01"


def test_a_card_turned_up_onto_a_pile_counts_as_its_top_after_a_wait():
    tb = Table(options={"track_piles": True}, pile_wait_frames=30)
    tb.see("appeared", 1, "R10", (-150, 300))
    tb.see("relabelled", 1, "R20", (-150, 300), old="R10", frames=3)  # R10 gone to the centre, or covered?
    assert tb.game.tops["Ann"] == [None, None, None]
    tb.see("appeared", 2, "W20", PILE["Dee"], frames=40)  # R10 never reached the centre: it was covered
    assert tb.game.tops["Ann"] == ["R20", None, None] and tb.ad.log[-1]["piles"]["Ann"] == ["R20", None, None]


def test_a_relabel_after_the_operator_undid_the_play_is_a_new_play():
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.ad.log.pop()  # the operator's undo, as the session does it
    tb.game = CrazyKickGame(tb.game.setup)
    tb.ad.game = tb.game
    out = tb.see("relabelled", 1, "R05", CENTRE, old="R01", frames=3)
    assert [a["card"] for a in out] == ["R05"] and tb.game.top.id == "R05"


def test_things_that_are_not_cards_are_ignored_and_setups_are_checked():
    tb = Table()
    assert tb.see("appeared", 1, "hand", CENTRE) == [] and tb.see("appeared", 2, "back", PILE["Ann"]) == []
    assert tb.ad.log == []
    with pytest.raises(ValueError, match="no pile zone for Bob"):
        CrazyKickAdapter(tb.game, crazy_kick_layout(1, 2))
    with pytest.raises(ValueError, match="sides"):
        CrazyKickAdapter(tb.game, crazy_kick_layout(2, 2), sides={"A": "red", "B": "red"})


# ---- whole simulated games, as the camera would see them ------------------------------------------

def camera_replay(log, rng):
    """Feed a simulated game (pile tops logged after every change) to the adapter as observations:
    pile tops appearing, changing and going; each card reaching the centre in one of three ways
    (carried from its pile, a new track, or the top card's track relabelled); illegal cards taken
    back; goal cards set aside; the centre cleared after a goal or a ball out."""
    setup = ACTION_ADAPTER.validate_python(log[0])
    game = CrazyKickGame(setup)
    teams = log[0]["teams"]
    layout = crazy_kick_layout(len(teams["red"]), len(teams["white"]))
    ad = CrazyKickAdapter(game, layout)
    zone = {p: layout.zone(f"pile{side}{i + 1}") for side, team in (("A", "red"), ("B", "white"))
            for i, p in enumerate(teams[team])}
    frame, tracks = [0], iter(range(1, 10 ** 6))
    piles = {}    # (player, i) -> [track, label]
    centre = []   # [track, label] of cards lying on the centre pile, top last

    def pile_xy(p, i):
        k = game.layout[p]
        x, y = zone[p].centre
        return (x + (i - (k - 1) / 2) * 30, y)

    def see(kind, tid, label, xy, from_xy=None, old=None, gap=None):
        frame[0] += gap or rng.randint(20, 40)
        out = ad.observe(Observation(kind, tid, label, float(xy[0]), float(xy[1]), frame[0], from_xy=from_xy,
                                     old_label=old), t=frame[0] / 30)
        for a in out:
            assert isinstance(a, dict)
            game.apply(ACTION_ADAPTER.validate_python(a))

    def clear_centre():
        for tid, label in centre:
            see("vanished", tid, label, (0, 0))
        centre.clear()

    for k, a in enumerate(log):
        if a["type"] == "table":
            for p, tops in a["piles"].items():
                for i, c in enumerate(tops):
                    prev = piles.get((p, i))
                    if (prev[1] if prev is not None else None) == c:
                        continue
                    if c is None:
                        see("vanished", prev[0], prev[1], pile_xy(p, i))
                        del piles[(p, i)]
                    elif prev is None:
                        piles[(p, i)] = [next(tracks), c]
                        see("appeared", piles[(p, i)][0], c, pile_xy(p, i))
                    else:
                        see("relabelled", prev[0], c, pile_xy(p, i), old=prev[1])
                        prev[1] = c
        elif a["type"] == "ball_out":
            game.apply(ACTION_ADAPTER.validate_python(ad.operator("ball_out", t=frame[0] / 30)))
            centre[:-1] and [see("vanished", tid, label, (0, 0)) for tid, label in centre[:-1]]
            del centre[:-1]
        elif a["type"] == "play":
            card, p = a["card"], a["player"]
            i = next(i for (q, i), (_, c) in piles.items() if q == p and c == card)
            how = rng.choice(["carry", "new", "relabel"] if centre else ["carry", "new"])
            spot = (rng.uniform(-8, 8), rng.uniform(-8, 8))
            nxt = log[k + 1] if k + 1 < len(log) else {}
            under = nxt.get("piles", {}).get(p, [card] * (i + 1))[i] if nxt.get("type") == "table" else card
            if how != "carry" and under not in (card, None) and rng.random() < 0.5:
                # the card under it shows before the card is seen on the centre pile
                see("relabelled", piles[(p, i)][0], under, pile_xy(p, i), old=card, gap=3)
                piles[(p, i)][1] = under
            if how == "carry":
                tid = piles.pop((p, i))[0]
                see("moved", tid, card, spot, from_xy=pile_xy(p, i))
            elif how == "new":
                tid = next(tracks)
                see("appeared", tid, card, spot)
            else:
                tid, below = centre[-1]
                see("relabelled", tid, card, spot, old=below)
            accepted = game.in_play(card) is not None
            if not accepted:  # taken back
                if how == "carry":
                    piles[(p, i)] = [tid, card]
                    see("moved", tid, card, pile_xy(p, i), from_xy=spot)
                elif how == "new":
                    see("vanished", tid, card, spot)
                else:
                    see("relabelled", tid, below, spot, old=card)
            elif game.catalog[card].is_goal:
                if how == "relabel":
                    centre.pop()
                see("moved", tid, card, (-400, 0), from_xy=spot)  # set aside
                clear_centre()
            elif how == "relabel":
                centre[-1] = [tid, card]
            else:
                centre.append([tid, card])
    return ad, game


@pytest.mark.parametrize("seed,players,fouls", [(1, 4, 0.0), (2, 4, 0.3), (3, 3, 0.2), (4, 6, 0.1)])
def test_whole_simulated_games_seen_by_the_camera_score_the_same(seed, players, fouls):
    import random

    from referee.games.crazy_kick.simulate import random_game

    log = random_game(random.Random(seed), n_players=players, fouls=fouls, tables="all", stuck_after=3,
                      options={"goals_to_win": 2})
    truth = CrazyKickGame(ACTION_ADAPTER.validate_python(log[0]))
    for a in log[1:]:
        truth.apply(ACTION_ADAPTER.validate_python(a))
    ad, game = camera_replay(log, random.Random(seed))
    plays = [(a["card"], a["player"]) for a in log if a["type"] == "play"]
    assert [(a["card"], a.get("player")) for a in ad.log if a["type"] == "play"] == plays
    assert sum(a["type"] == "ball_out" for a in ad.log) == sum(a["type"] == "ball_out" for a in log)
    assert [v.type for v in game.violations] == [v.type for v in truth.violations]
    assert game.goals and [g["card"] for g in game.goals] == [g["card"] for g in truth.goals]
    assert game.over and game.score == truth.score


def test_a_late_relabel_that_would_make_a_foul_of_a_clean_play_is_no_call():
    """Seed 9036: W42 laid from W1's pile and taken; 1.2 s later read for a look as W38, which follows
    the card under it too but lay covered on W1's pile. Corrected, it was called not_on_top."""
    tb = Table(options={"track_piles": True})
    tb.see("appeared", 1, "R01", CENTRE)
    first = legal(tb.game, "red")
    other = next(c.id for c in tb.game.catalog if c.team == "red" and not c.is_goal and c.id != first
                 and tb.game.in_play(c.id) is None and tb.game.follows("R01", c.id) and not tb.game.follows(first, c.id))
    x, y = PILE["Bob"]
    onto, third = [c.id for c in tb.game.catalog if c.team == "red" and c.id not in (first, other, "R01")][:2]
    tb.see("appeared", 5, other, (x - 30, y))                # Bob's three piles: other on one,
    tb.see("appeared", 6, first, (x + 60, y))                # first on the next,
    tb.see("appeared", 7, third, (x + 150, y))               # and a third card
    tb.see("relabelled", 5, onto, (x - 30, y), old=other)    # a card turned up onto other: other is covered
    tb.see("moved", 7, third, (x + 152, y), from_xy=(x + 150, y), frames=31)  # a second later
    assert tb.ad._covered == {other: "Bob"} and tb.game.tops["Bob"] == [onto, first, third]
    tb.see("moved", 6, first, CENTRE, from_xy=(x + 60, y))  # Bob plays first
    assert tb.plays()[-1] == (first, "Bob") and "not_on_top" not in tb.kinds()
    n = len(tb.ad.log)
    out = tb.see("relabelled", 6, other, CENTRE, old=first, frames=36)  # read as other for a look, late
    assert out == [] and len(tb.ad.log) == n and tb.plays()[-1] == (first, "Bob")
    assert not any(e.type == "violation" for e in tb.events)
    # read back: no second play of the same card
    assert tb.see("relabelled", 6, first, CENTRE, old=other, frames=3) == [] and len(tb.ad.log) == n


def test_a_scorers_second_goal_read_as_the_twin_set_aside_is_the_twin():
    """R55 and R56 (Leon, 10) share a face; the recogniser names both R55."""
    tb = Table()
    game = tb.game

    def attack_to_leon(first_track):
        """Kick-off and passes until a red card passing to 10 lies on top; returns the next track id."""
        track = first_track
        while not game.is_legal("R55") and not game.is_legal("R56"):
            card = next((c for c in game.legal_cards() if game.catalog[c].team == "red" and 10 in
                         game.catalog[c].passes), None) or legal(game, "red", keeper=game.top is None)
            tb.see("appeared", track, card, CENTRE)
            track += 1
        return track

    track = attack_to_leon(1)
    tb.see("appeared", track, "R55", CENTRE)
    assert game.score["red"] == 1
    tb.see("appeared", track + 1, "R55", CENTRE)      # lingering after its goal, seen again: no play
    tb.see("moved", track + 1, "R55", GOAL_AREA["A"], from_xy=CENTRE)
    assert game.score["red"] == 1 and tb.kinds()[-1] == "goal" and tb.plays()[-1][0] == "R55"
    track = attack_to_leon(track + 2)
    tb.see("appeared", track, "R55", CENTRE)          # the twin, R56, read as R55
    assert game.score["red"] == 2 and tb.plays()[-1][0] == "R56"
    assert [g["card"] for g in game.goals] == ["R55", "R56"] and "not_on_card" not in tb.kinds()


def _attack_to_mario(tb, track=20):
    """Red kicks off and passes until a card passing to Mario (9, whose goal cards are the twins R53 and R54)
    lies on top: (that card, the next free track id)."""
    game = tb.game
    while not game.is_legal("R53"):
        card = next((c for c in game.legal_cards() if game.catalog[c].team == "red" and 9 in game.catalog[c].passes
                     and not game.catalog[c].is_goal), None) or legal(game, "red", keeper=game.top is None)
        tb.see("appeared", track, card, CENTRE)
        track += 1
        assert track < 40, "no attack to Mario"
    return game.top.id, track


def test_a_goal_card_that_left_one_pile_is_that_players_while_its_twin_shows_on_another():
    """Seed 9113: R2's R53 left his pile as the piles were laid out anew after a goal, and R1's twin R54 (read
    R53: the faces are alike) showed on R1's pile in the same look; R53 on the centre went to R1."""
    tb = Table()
    game, goal = tb.game, "R53"  # R53 and R54 (Mario, 9) share a face; the recogniser names both R53
    assert game.catalog.same_faces()["R54"] == goal
    passer, track = _attack_to_mario(tb)
    tb.see("appeared", 5, goal, PILE["Bob"])
    tb.see("relabelled", 5, "back", PILE["Bob"], old=goal, frames=3)  # it left Bob's pile
    tb.see("appeared", 6, goal, PILE["Ann"], frames=0)                # Ann's twin laid out, read alike
    out = tb.see("relabelled", track - 1, goal, CENTRE, old=passer, frames=0)
    assert [(a["card"], a.get("player")) for a in out if a.get("type") == "play"] == [(goal, "Bob")]
    assert tb.game.score["red"] == 1 and tb.game.violations == []


def test_of_two_twins_that_left_their_piles_the_one_a_back_showed_under_came():
    """Seed 9122: W1's W58 left his pile (a back showed under it); W2's twin W57 had W48 laid on it as the piles
    were laid out anew, in the look W58 came to rest on the centre: W58 went to W2."""
    for replaced_first in (False, True):
        tb = Table()
        game = tb.game
        passer, track = _attack_to_mario(tb)
        tb.see("appeared", 6, "R53", PILE["Bob"])
        tb.see("appeared", 5, "R53", PILE["Ann"], frames=0)       # the twins, one on each pile
        other = next(c.id for c in game.catalog if c.team == "red" and not c.is_goal and game.in_play(c.id) is None
                     and c.id != passer)
        if replaced_first:  # which came first does not matter: a card laid on a top is no sign it went
            tb.see("relabelled", 6, other, PILE["Bob"], old="R53", frames=3)
            tb.see("relabelled", 5, "back", PILE["Ann"], old="R53", frames=3)
        else:
            tb.see("relabelled", 5, "back", PILE["Ann"], old="R53", frames=3)
            tb.see("relabelled", 6, other, PILE["Bob"], old="R53", frames=3)
        out = tb.see("relabelled", track - 1, "R53", CENTRE, old=passer, frames=0)
        assert [(a["card"], a.get("player")) for a in out if a.get("type") == "play"] == [("R53", "Ann")]


def test_a_card_that_just_left_a_pile_was_laid_by_that_player_whatever_a_misread_elsewhere_said():
    """Seed 9041: R30 on R2's pile was read R28 now and then; R28 left R1's pile and was played, and
    was laid by R2 and called not on top. The pile a card just left is who laid it."""
    tb = Table(options={"track_piles": True})
    tb.see("appeared", 1, "R01", CENTRE)
    x = legal(tb.game, "red")
    y = next(c.id for c in tb.game.catalog if c.team == "red" and c.id not in ("R01", x)
             and not (c.is_goal or c.is_keeper))
    tb.see("appeared", 10, x, (-190, 300))                     # x on Ann's pile
    tb.see("appeared", 20, x, (110, 300))                      # Bob's top y, misread as x ...
    tb.see("relabelled", 20, y, (110, 300), old=x, frames=3)   # ... then read right for long:
    tb.see("appeared", 30, "W20", PILE["Dee"], frames=40)      # x taken for covered on Bob's pile
    tb.see("relabelled", 10, "back", (-190, 300), old=x, frames=3)  # x leaves Ann's pile
    out = tb.see("relabelled", 1, x, CENTRE, old="R01", frames=3)
    assert [a for a in out if a["type"] == "play"][0]["player"] == "Ann"
    assert "not_on_top" not in tb.kinds() and tb.game.top.id == x


def test_a_play_read_back_as_surely_as_its_first_card_is_that_card_again():
    """Seed 9057: R39 laid at 0.64, read R35 at 0.52 for 0.6 s under a hand (a soon correction: R35 called
    not_on_card), then R39 at 0.78 again: the camera flickered, and R39 was not laid anew."""
    for back_at, restored in ((0.8, True), (0.45, False)):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        good, bad = legal(tb.game, "red"), illegal(tb.game, "red")
        tb.see("appeared", 2, good, CENTRE, confidence=0.64)
        tb.see("relabelled", 2, bad, CENTRE, old=good, frames=5, confidence=0.52)
        assert [c for c, _ in tb.plays()] == ["R01", bad] and "not_on_card" in tb.kinds()
        out = tb.see("relabelled", 2, good, CENTRE, old=bad, frames=30, confidence=back_at)
        if restored:
            assert [type(o) for o in out] == [Correction] and [c for c, _ in tb.plays()] == ["R01", good]
            assert tb.kinds() == ["kickoff", "pass"]
        else:  # less sure than the read it would undo: no flicker taken on that
            assert not any(isinstance(o, Correction) for o in out)


def test_a_card_lying_on_one_pile_read_on_another_now_and_then_is_still_the_first_ones():
    """Seed 9054: R1's R47 was read R51 now and then while R51 lay on R2's pile; R2's play of R51 went to R1."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    x = legal(tb.game, "red")
    y = next(c.id for c in tb.game.catalog if c.team == "red" and c.id not in ("R01", x)
             and not (c.is_goal or c.is_keeper))
    tb.see("appeared", 10, x, (110, 300))                        # x on Bob's pile
    tb.see("appeared", 20, y, (-190, 300))                       # Ann's top y ...
    tb.see("relabelled", 20, x, (-190, 300), old=y, frames=3)   # ... read as x for a look
    tb.see("relabelled", 20, y, (-190, 300), old=x, frames=3)
    out = tb.see("relabelled", 1, x, CENTRE, old="R01", frames=3)
    assert [a for a in out if a["type"] == "play"][0]["player"] == "Bob"
    # seed 9087: the same when x is a top just read anew on Bob's pile (it replaced the card read there)
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    z = next(c.id for c in tb.game.catalog if c.team == "red" and c.id not in ("R01", x, y)
             and not (c.is_goal or c.is_keeper))
    tb.see("appeared", 20, y, (-190, 300))
    tb.see("appeared", 10, z, (110, 300))
    tb.see("relabelled", 10, x, (110, 300), old=z, frames=3)     # Bob's top read anew as x
    tb.see("relabelled", 20, x, (-190, 300), old=y, frames=3)   # Ann's y read as x for a look
    tb.see("relabelled", 20, y, (-190, 300), old=x, frames=3)
    assert tb.ad.seen_on[x] == "Bob"


def _foul_then_a_card(tb, after_y=True):
    """After the kick-off R01: x, a red card that follows neither R01 nor y (a foul either way), and y, a red
    card that follows R01; x lies on Bob's pile and is picked up."""
    tb.see("appeared", 1, "R01", CENTRE)
    g = tb.game
    y = legal(g, "red")
    x = next(c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id != y
             and not g.is_legal(c.id) and not g.follows(y, c.id))
    tb.see("appeared", 5, x, PILE["Bob"])
    tb.see("vanished", 5, x, PILE["Bob"])
    return x, y


def test_a_card_taken_for_a_misread_that_comes_back_to_its_pile_was_a_foul_taken_back():
    """Seed 9062 (fouls 0.2): W19 laid on W40 against the rules, read for 0.3 s, then W49 laid on W40 as
    W19 was taken back: W19 was taken for a misread of W49, and the foul lost; W19 showed on W2's pile
    again 0.3 s later."""
    for back_after in (10, RETURN_FRAMES + 10, None):
        tb = Table()
        x, y = _foul_then_a_card(tb)
        tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10)
        assert tb.kinds()[-1] == "not_on_card"
        tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)  # soon: taken for a misread
        assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []
        if back_after is None:  # x stays away: a misread it was
            tb.see("appeared", 7, "R02", PILE["Ann"], frames=10)
            assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []
            continue
        out = tb.see("appeared", 6, x, PILE["Bob"], frames=back_after)  # back on Bob's pile
        if back_after > RETURN_FRAMES:  # too late to be the same card taken back: no call on it
            assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []
            continue
        assert [type(o) for o in out if not isinstance(o, dict)] == [Correction]
        assert tb.plays() == [("R01", None), (x, "Bob"), (y, None)] and tb.game.top.id == y
        assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_foul_taken_back_and_laid_again_unseen_is_missed_under_the_next_card():
    """Seed 9228 (fouls 0.2): R1's R30 laid against the rules and taken back; R42 laid; R30 laid again (legal
    now) and covered by R55 within 0.2 s. R30's refused play kept it from being looked for, and R55 was
    called not_on_card on R42. A refused card that left its pile again since is laid anew."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    g = tb.game
    red = [c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)]
    y = legal(g, "red")
    x, w, z = next((x, w, z) for x in red if not g.is_legal(x) and not g.follows(y, x) for w in red
                   if g.follows(y, w) and g.follows(w, x) for z in red
                   if len({x, y, w, z}) == 4 and g.follows(x, z) and not g.follows(w, z))
    for track, card, who in ((5, x, "Bob"), (7, w, "Ann")):
        tb.see("appeared", track, card, PILE[who])
    tb.see("vanished", 5, x, PILE["Bob"])
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10)  # a foul
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)
    tb.see("appeared", 6, x, PILE["Bob"], frames=10)  # taken back
    assert tb.plays() == [("R01", None), (x, "Bob"), (y, None)]
    tb.see("vanished", 7, w, PILE["Ann"], frames=3)
    tb.see("relabelled", 1, w, CENTRE, old=y, frames=12)
    tb.see("appeared", 8, z, PILE["Ann"], frames=3)
    tb.see("relabelled", 6, "back", PILE["Bob"], old=x, frames=12)  # x off Bob's pile again ...
    tb.see("vanished", 8, z, PILE["Ann"], frames=3)
    tb.see("relabelled", 1, z, CENTRE, old=w, frames=6)  # ... and covered by z unseen
    assert [c for c, _ in tb.plays()] == ["R01", x, y, w, x, z]
    assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_foul_taken_back_comes_after_the_card_read_under_it_first():
    """Seed 9060: W37 laid, R54 on it for 0.3 s (read R53, its twin's name; a foul) and taken back; the
    centre read W37, R53, W37."""
    tb = Table()
    x, y = _foul_then_a_card(tb)
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10, reads=("R01", y, x))  # y read there first
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)
    tb.see("appeared", 6, x, PILE["Bob"], frames=10)
    assert tb.plays() == [("R01", None), (y, None), (x, "Bob")] and tb.game.top.id == y
    assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_foul_taken_back_that_was_no_foul_before_the_other_card_goes_after_it():
    """Seed 9151 (fouls 0.2): R28 laid and read for one look, R32 laid on it (a foul on R28, none on the
    card before) and read for 0.4 s, then taken back; R28 read again was taken for R32 misread. The reads
    kept at the play no longer held R28; R32 back on R1's pile: R28, then R32 the foul."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    g = tb.game
    red = [c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)]
    y, x = next((y, x) for y in red if g.is_legal(y) for x in red
                if x != y and g.is_legal(x) and not g.follows(y, x))
    tb.see("appeared", 5, x, PILE["Bob"])
    tb.see("vanished", 5, x, PILE["Bob"])
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10, reads=("back", x, x))  # y's one read is older
    assert [c for c, _ in tb.plays()] == ["R01", x] and tb.game.violations == []
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)  # taken for a misread
    assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []
    tb.see("appeared", 6, x, PILE["Bob"], frames=10)  # back on Bob's pile
    assert tb.plays() == [("R01", None), (y, None), (x, "Bob")] and tb.game.top.id == y
    assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_card_glimpsed_on_the_centre_that_leaves_its_pile_for_good_was_covered_at_once():
    """Seed 9062 (fouls 0.2): W14 laid on W05, read for one look at 0.91, covered at once by R34 (which
    followed W05 as well); W14's pile track was let go 1 s after R34 was played: W14 goes before R34."""
    from types import SimpleNamespace

    from referee.tracker import Glimpse

    for sure, leaves in ((0.91, True), (0.6, True), (0.91, False)):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        g = tb.game
        red = [c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)]
        x, y = next((x, y) for x in red if g.is_legal(x) for y in red
                    if y != x and g.is_legal(y) and g.follows(x, y))
        tb.see("appeared", 5, x, PILE["Ann"])
        tb.ad.look(tb.frame + 3, None, SimpleNamespace(glimpses=[Glimpse(x, 2.0, 1.0, tb.frame + 3, sure)]))
        tb.see("relabelled", 1, y, CENTRE, old="R01", frames=10)  # y on it: x never seen there long enough
        assert [c for c, _ in tb.plays()] == ["R01", y]
        if leaves:
            tb.see("vanished", 5, x, PILE["Ann"], frames=20)  # x's pile track let go
        expected = ["R01", x, y] if sure >= 0.8 and leaves else ["R01", y]
        assert [c for c, _ in tb.plays()] == expected, (sure, leaves)
        assert tb.game.violations == []
        if expected[1] == x:
            assert tb.plays()[1] == (x, "Ann") and tb.ad.log[[a.get("card") for a in tb.ad.log].index(x)]["unseen"]


def _missed_foul_next(tb):
    """After the kick-off R01: m, a red card that follows it; f, a red card that follows neither R01 nor m
    (a foul on either); z, a red card that follows m but not R01."""
    tb.see("appeared", 1, "R01", CENTRE)
    g = tb.game
    red = [c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)]
    return next((m, f, z) for m in red if g.is_legal(m) for z in red if z != m and g.follows(m, z)
                and not g.is_legal(z) for f in red if f not in (m, z) and not g.is_legal(f) and not g.follows(m, f))


def test_a_foul_taken_back_goes_on_the_card_missed_under_it_when_that_alone_explains_both():
    """Seed 9060 (fouls 0.2): W1's W40 laid under hands (it left his pile, never seen on the centre), W2's
    W16 on it (a foul) for 0.3 s, taken back as W2's W46 came on W40. W16 was taken for a misread of W46,
    which did not follow the top the camera knew either; W16 back on W2's pile: W40, W16 (foul), W46."""
    tb = Table()
    m, x, y = _missed_foul_next(tb)
    tb.see("appeared", 4, m, PILE["Ann"])
    tb.see("relabelled", 4, "back", PILE["Ann"], old=m)  # taken off Ann's pile, a back under it
    tb.see("appeared", 5, x, PILE["Bob"])
    tb.see("vanished", 5, x, PILE["Bob"])
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10)
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)
    assert [c for c, _ in tb.plays()] == ["R01", y] and tb.kinds()[-1] == "not_on_card"  # y on R01
    tb.see("appeared", 6, x, PILE["Bob"], frames=10)
    assert tb.plays() == [("R01", None), (m, "Ann"), (x, "Bob"), (y, None)] and tb.game.top.id == y
    assert [a.get("unseen") for a in tb.ad.log if a["type"] == "play"] == [None, True, None, None]
    assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_pile_top_read_back_after_a_misread_is_no_card_taken_back():
    """The card read on the centre lay on its player's pile all along (the centre misread another card as
    it) and the pile's reading of it flickered to another card and back: it never left, no foul."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    g = tb.game
    y = legal(g, "red")
    x = next(c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id != y
             and not g.is_legal(c.id) and not g.follows(y, c.id))
    z = next(c.id for c in g.catalog if c.team == "red" and not c.is_goal and c.id not in (x, y, "R01"))
    tb.see("appeared", 5, x, PILE["Bob"])
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10)  # Ann's y misread as x
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=4)
    tb.see("relabelled", 5, z, PILE["Bob"], old=x, frames=5)  # Bob's x misread for a look
    tb.see("relabelled", 5, x, PILE["Bob"], old=z, frames=5)
    assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []


def test_a_foul_put_back_after_a_card_leaves_that_card_a_late_misread():
    """A foul put back after the card under it is no card laid on that card: a late read of it as a card
    that follows the card below, not it, is still a misread (no not_on_card on whoever holds that card)."""
    tb = Table()
    x, y = _foul_then_a_card(tb)
    g = tb.game
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10, reads=("R01", y, x))
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)
    z = next(c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id not in (x, y)
             and g.in_play(c.id) is None and g.follows("R01", c.id) and not g.follows(y, c.id))
    tb.see("appeared", 8, z, PILE["Ann"], frames=3)
    tb.see("appeared", 6, x, PILE["Bob"], frames=10)  # x back: a foul after y
    assert tb.plays()[1:] == [(y, None), (x, "Bob")]
    tb.see("relabelled", 1, z, CENTRE, old=y, frames=20, confidence=0.5)  # y read late as z
    assert [c for c, _ in tb.plays()] == ["R01", z, x]
    assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_correction_and_new_pile_tops_in_one_look_are_applied_and_written_once(tmp_path):
    """A centre card put right in the same look as a pile top awaited on the centre times out: the table
    action is in the log the Correction re-scores, so it is not given (applied, written) a second time."""
    import json

    from referee.session import GameSession

    s = GameSession("crazy-kick", {"type": "setup", "game": "crazy-kick", "teams": TEAMS, "options": {}},
                    out_dir=tmp_path)
    frame = 0

    def see(kind, track, label, xy, old=None, frames=30):
        nonlocal frame
        frame += frames
        out = s.adapter.observe(Observation(kind, track, label, float(xy[0]), float(xy[1]), frame, old_label=old),
                                t=frame / 30)
        s._take(out, frame / 30, "test")
        return out

    see("appeared", 1, "R01", CENTRE)
    g = s.engine
    y = legal(g, "red")
    x = next(c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id != y
             and not g.is_legal(c.id))
    a, b = [c.id for c in g.catalog if c.team == "white" and not c.is_goal and c.id not in (x, y)][:2]
    see("appeared", 5, x, PILE["Bob"])
    see("vanished", 5, x, PILE["Bob"])
    see("appeared", 7, a, PILE["Cyd"])
    see("relabelled", 7, b, PILE["Cyd"], old=a, frames=5)  # Cyd's top replaced: awaited on the centre
    see("relabelled", 1, x, CENTRE, old="R01", frames=20)
    out = see("relabelled", 1, y, CENTRE, old=x, frames=12)  # put right soon; Cyd's wait runs out now
    assert [type(o) for o in out] == [Correction] and s.adapter.log[-1]["type"] == "table"
    lines = [json.loads(line) for line in (tmp_path / "actions.jsonl").read_text().splitlines()]
    assert lines[1:] == s.adapter.log
    assert sum(e.type == "table" for e in s.events) == sum(a["type"] == "table" for a in s.adapter.log)


def test_a_card_missed_on_the_centre_before_a_foul_taken_back_is_found_and_put_before_it():
    """Seed 9136 (fouls 0.2): W1's W51 laid under hands (it left his pile), R1's R43 laid on it for a look
    (a foul, refused on the top the camera knew) and taken back, then W39 on W51. W51 was sought only
    after the refused R43, so it was not found, and W39 was called not_on_card; found, it goes before R43.
    Seed 9143: W01 left its pile in the very look R25 was read (laid 0.5 s after it): it stays after it."""
    for gap, before in ((10, True), (4, False)):  # frames from m's leaving to f's read on the centre
        tb = Table()
        m, f, z = _missed_foul_next(tb)
        tb.see("appeared", 4, m, (PILE["Ann"][0] - 40, PILE["Ann"][1]))
        tb.see("appeared", 5, f, PILE["Bob"])
        tb.see("appeared", 6, z, (PILE["Ann"][0] + 40, PILE["Ann"][1]))
        tb.see("relabelled", 4, "back", (PILE["Ann"][0] - 40, PILE["Ann"][1]), old=m, frames=5)  # m left Ann's pile
        tb.see("relabelled", 1, f, CENTRE, old="R01", frames=gap)  # f seen on the centre: refused
        assert tb.plays()[-1] == (f, "Bob") and tb.kinds()[-1] == "not_on_card"
        out = tb.see("relabelled", 1, z, CENTRE, old=f, frames=20)  # z on m, f taken back
        order = [(m, "Ann"), (f, "Bob")] if before else [(f, "Bob"), (m, "Ann")]
        assert tb.plays() == [("R01", None), *order, (z, "Ann")] and tb.game.top.id == z
        assert [type(o) for o in out] == ([Correction] if before else [dict, dict])
        assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_card_put_under_a_foul_that_is_then_read_on_top_of_it_was_laid_on_it():
    """Seed 9155 (fouls 0.2): Bob's W33 laid against the rules on W40 and read there; Ann's W45, picked up
    meanwhile (it left her pile), was put under W33 as the card the camera missed; 0.3 s later W45 is read
    on top of W33: it was laid on it, and W33 was a foul."""
    for sure in (0.9, 0.7):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        g = tb.game
        red = [c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)]
        z, f = next((z, f) for z in red if g.is_legal(z) for f in red
                    if f != z and not g.is_legal(f) and g.follows(z, f) and not g.follows(f, z))
        tb.see("appeared", 5, f, PILE["Bob"])
        tb.see("appeared", 6, z, PILE["Ann"])
        tb.see("vanished", 5, f, PILE["Bob"], frames=5)                 # f taken off Bob's pile
        tb.see("relabelled", 6, "back", PILE["Ann"], old=z, frames=5)   # z taken off Ann's pile
        tb.see("relabelled", 1, f, CENTRE, old="R01", frames=5)         # f on the centre: z put under it
        assert tb.plays() == [("R01", None), (z, "Ann"), (f, "Bob")] and tb.game.violations == []
        tb.see("relabelled", 1, z, CENTRE, old=f, frames=9, confidence=sure)  # z read on top of f
        if sure < 0.8:  # read unsurely: the top misread, nothing changes
            assert tb.plays() == [("R01", None), (z, "Ann"), (f, "Bob")] and tb.game.violations == []
            continue
        assert tb.plays() == [("R01", None), (f, "Bob"), (z, "Ann")] and tb.game.top.id == z
        assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]


def test_a_card_taken_off_its_pile_and_taken_for_a_misread_on_the_centre_was_a_foul_taken_into_the_hand():
    """Seed 9140 (fouls 0.2): R2's R42 left his pile (a back read where it lay), was read 0.3 s on the centre
    at 0.91 (a foul), and went back into R2's hand as R1's R06 came: R42 was taken for a misread of R06.
    Where only a hand hid the pile (the track let go), nothing is known of the card until it shows again."""
    for taken_off in (True, False):
        tb = Table()
        x, y = _foul_then_a_card(tb)  # x seen on Bob's pile and let go (a hand over it)
        tb.see("appeared", 7, x, (PILE["Bob"][0] + 40, PILE["Bob"][1]))
        if taken_off:
            tb.see("relabelled", 7, "back", (PILE["Bob"][0] + 40, PILE["Bob"][1]), old=x, frames=5)
        tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10)
        tb.see("relabelled", 1, y, CENTRE, old=x, frames=6)
        if taken_off:
            assert tb.plays() == [("R01", None), (x, "Bob"), (y, None)] and tb.game.top.id == y
            assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]
        else:
            assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []


def test_with_tracked_piles_a_card_put_right_from_a_misread_is_no_foul_for_not_being_on_top():
    """Seed 9145 (fouls 0.2): R1's R41 left his pile (the card under it showed), was read W29 for a look on
    the centre, then R41: put right, it was judged on his tops in view without it and called not_on_top,
    and six false calls followed. Put right, it is judged as a new play is: its pile is reported unseen."""
    tb = Table(options={"track_piles": True})
    tb.see("appeared", 1, "R01", CENTRE)
    g = tb.game
    y = legal(g, "red")
    x = next(c.id for c in g.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id != y
             and not g.is_legal(c.id))
    tb.see("appeared", 20, x, PILE["Ann"])  # x lies on Ann's pile: a read of it on the centre is no top misread
    tb.see("vanished", 20, x, PILE["Ann"])
    xs = [110, 150, 190]
    others = [c.id for c in g.catalog if c.team == "red" and c.id not in ("R01", x, y) and not c.is_goal][:3]
    for k, (x_mm, card) in enumerate(zip(xs, [y, *others[1:]])):
        tb.see("appeared", 10 + k, card, (x_mm, 300))
    tb.see("relabelled", 10, "back", (xs[0], 300), old=y, frames=5)  # y taken off Bob's pile ...
    tb.see("relabelled", 10, others[0], (xs[0], 300), old="back", frames=5)  # ... and the card under it shows
    assert None not in tb.game.tops["Bob"] and y not in tb.game.tops["Bob"]
    tb.see("relabelled", 1, x, CENTRE, old="R01", frames=4)
    tb.see("relabelled", 1, y, CENTRE, old=x, frames=6, reads=(x, y, y))  # put right soon
    assert tb.plays()[-1] == (y, "Bob") and tb.game.violations == []


def test_a_card_never_on_a_pile_read_as_the_unseen_card_slid_in_and_then_read_as_it_was_that_card_misread():
    """Seed 9158: W1's W36 left his pile and, as it slid onto the centre, was read W50 (a card on nobody's
    pile): W36 was put in unseen and W50 played on it. 0.4 s later the top was read W36, surer: W50 was W36
    misread (W50 had been read on W2's pile for a while, for W52, and read right again). Read less surely,
    nothing changes; when the card read first left a pile, it was a card."""
    for case in ("misread", "unsure", "on_a_pile"):
        tb = Table()
        a, z = _gone_unseen_then(tb)
        owner = "Cyd" if tb.game.catalog[z].team == "white" else "Ann"
        if case == "on_a_pile":
            tb.see("appeared", 8, z, PILE[owner])
            tb.see("vanished", 8, z, PILE[owner])
        else:  # another card of that player's read as z a while, then read right again: no sign z lay there
            y = next(c.id for c in tb.game.catalog if c.team == tb.game.catalog[z].team and c.id != z
                     and not (c.is_goal or c.is_keeper))
            tb.see("appeared", 8, y, PILE[owner])
            tb.see("relabelled", 8, z, PILE[owner], old=y, frames=3)
            tb.see("relabelled", 8, y, PILE[owner], old=z, frames=40)
        tb.see("appeared", 5, a, PILE["Bob"])
        tb.see("relabelled", 5, "back", PILE["Bob"], old=a, frames=5)   # a taken off Bob's pile
        tb.see("relabelled", 1, z, CENTRE, old="R01", frames=5, confidence=0.63)  # a sliding in, read z
        assert [c for c, _ in tb.plays()] == ["R01", a, z] and tb.ad.log[-2]["unseen"] is True
        out = tb.see("relabelled", 1, a, CENTRE, old=z, frames=12, confidence=0.5 if case == "unsure" else 0.8)
        if case == "unsure":
            assert [c for c, _ in tb.plays()] == ["R01", a, z]
            continue
        if case == "on_a_pile":  # z is a card of its own, laid against the rules (``_unseen_on_top``)
            assert [c for c, _ in tb.plays()] == ["R01", z, a]
            continue
        assert [type(o) for o in out] == [Correction] and out[0].action is None
        assert tb.plays() == [("R01", None), (a, "Bob")] and "unseen" not in tb.ad.log[-1]
        assert tb.game.top.id == a and tb.game.violations == [] and tb.game.in_play(z) is None
        b = next(c for c in tb.game.legal_cards() if tb.game.catalog[c].team == "red"
                 and not (tb.game.catalog[c].is_goal or tb.game.catalog[c].is_keeper))
        tb.see("appeared", 9, b, PILE["Ann"])
        tb.see("relabelled", 1, b, CENTRE, old=a, frames=20)              # the next card is a play of its own
        assert [c for c, _ in tb.plays()] == ["R01", a, b] and tb.game.violations == []


def test_a_card_glimpsed_on_a_players_pile_as_he_took_it_was_laid_by_him():
    """Seed 9062 (fouls 0.2): R2's R60 turned up on his pile and picked up at once (read there for one look at
    0.89, on the track of the card it lay on), then laid on the centre: R2 laid it. Not when read unsurely,
    on a pile of the other team, or long before."""
    from types import SimpleNamespace

    from referee.tracker import Glimpse

    for sure, where, ago, who in ((0.89, "Bob", 10, "Bob"), (0.6, "Bob", 10, None), (0.89, "Cyd", 10, None),
                                  (0.89, "Bob", 400, None)):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        x = legal(tb.game, "red")
        pile = PILE[where]
        tb.ad.look(tb.frame + 3, None, SimpleNamespace(glimpses=[Glimpse(x, pile[0], pile[1], tb.frame + 3, sure)]))
        tb.see("relabelled", 1, x, CENTRE, old="R01", frames=ago)  # x laid on the centre, no track carried it
        assert tb.plays() == [("R01", None), (x, who)], (sure, where, ago)


def test_the_twin_of_a_goal_card_resting_in_the_goal_area_laid_against_the_rules_is_called():
    """Seed 9165 (fouls 0.2): W2's W55 scored and lay in the goal area; later W1's twin W56 was laid on the
    centre against the rules for 0.3 s, read W55 (the recogniser names twins alike): the goal card lies in
    the goal area, so this is the twin, and a foul. With the goal area's card gone from view, the card on
    the centre may be the goal card itself moved there: no call."""
    for resting in (True, False):
        tb = Table()
        game = tb.game
        track = 1
        while not game.is_legal("R55") and not game.is_legal("R56"):
            card = next((c for c in game.legal_cards() if game.catalog[c].team == "red" and 10 in
                         game.catalog[c].passes), None) or legal(game, "red", keeper=game.top is None)
            tb.see("appeared", track, card, CENTRE)
            track += 1
        tb.see("appeared", track, "R55", CENTRE)
        tb.see("moved", track, "R55", GOAL_AREA["A"], from_xy=CENTRE)   # set aside in the goal area
        assert game.score["red"] == 1 and not game.is_legal("R56")
        if not resting:
            tb.see("vanished", track, "R55", GOAL_AREA["A"])
        n = len(game.violations)
        tb.see("appeared", track + 1, "R55", CENTRE)                     # R56 laid, read R55
        if resting:
            assert tb.plays()[-1][0] == "R56" and len(game.violations) == n + 1 and game.score["red"] == 1
        else:
            assert tb.plays()[-1][0] == "R55" and len(game.violations) == n


def test_a_card_read_surely_on_the_top_taken_for_a_misread_then_back_on_a_pile_was_a_foul_taken_back():
    """Seed 9166 (fouls 0.2): W1's W05, turned up from the hand and laid on R02 for 0.4 s (read at 0.89; never
    seen on a pile, nobody to name: taken for the top misread), then put on W1's pile: a foul taken back.
    Not when it was read unsurely there, or shows on the pile only long after."""
    for sure, later, called in ((0.89, 25, True), (0.6, 25, False), (0.89, 200, False)):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        x = illegal(tb.game, "white")
        tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10, confidence=sure)   # x laid on R01
        tb.see("relabelled", 1, "R01", CENTRE, old=x, frames=10)                   # taken back: R01 shows
        assert [c for c, _ in tb.plays()] == ["R01"] and tb.game.violations == []
        tb.see("appeared", 8, x, PILE["Cyd"], frames=later)                         # x on Cyd's pile
        if called:
            assert tb.plays() == [("R01", None), (x, "Cyd")] and tb.game.top.id == "R01"
            assert [v.player for v in tb.game.violations] == ["Cyd"]
        else:
            assert [c for c, _ in tb.plays()] == ["R01"] and tb.game.violations == []


def test_a_keeper_laid_out_again_after_a_goal_and_covered_at_once_is_played_unseen_not_a_foul_after_it():
    """Seed 9180 (fouls 0.2): W1's keeper W02 kicked off the first attack; after a goal the cards went back and
    the piles were laid out anew, W02 on top of one; 0.4 s later it kicked off again and was covered within
    0.3 s. Taken as played for good (the first attack's play) and its leave ignored (its top was read anew as
    the piles were laid out), it was never looked for: seven plays after it were called ``no_keeper``."""
    tb = Table(options={"track_piles": True})
    game = tb.game
    tb.see("appeared", 10, "R20", PILE["Ann"])
    passer, goal = _kick_off_and_pass_to_a_scorer(tb)               # R01 kicks off the first attack
    tb.see("relabelled", 1, goal, CENTRE, old=passer)               # red scores: every card goes back
    assert game.score["red"] == 1 and game.top is None
    tb.see("relabelled", 10, "R01", PILE["Ann"], old="R20", frames=3)  # laid out anew, R01 on top
    tb.see("relabelled", 10, "back", PILE["Ann"], old="R01", frames=12)  # R01 taken off at once
    nxt = next(c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
               and c.id != passer and game.follows("R01", c.id))
    tb.see("relabelled", 1, nxt, CENTRE, old=goal, frames=12)       # laid on R01 before it was read
    assert [c for c, _ in tb.plays()][-2:] == ["R01", nxt]
    assert tb.game.violations == [] and tb.kinds().count("no_keeper") == 0


def _flicker_on_bobs_pile(tb, x, z, track=9):
    """Bob's pile top ``x`` read as ``z`` for a moment, then as ``x`` again: one card the camera flickers on."""
    tb.see("appeared", track, x, PILE["Bob"])
    tb.see("relabelled", track, z, PILE["Bob"], old=x, frames=6)
    tb.see("relabelled", track, x, PILE["Bob"], old=z, frames=6)


def test_the_top_read_as_the_card_its_pile_read_it_as_in_turn_is_a_misread_not_a_foul():
    """Seed 9179 (fouls 0.2): R2's R30 was read R28 now and then on his pile, and after it was played, on the
    centre for a look at a time, three times: each R28 was called not_on_card. A card seen on a pile as a card
    of its own (not in turn with the top's) is a foul there, as before."""
    for flicker in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        game = tb.game
        y = legal(game, "red")
        x = next(c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
                 and c.id not in ("R01", y) and not game.follows(y, c.id) and not game.is_legal(c.id))
        if flicker:
            _flicker_on_bobs_pile(tb, y, x)
        else:
            _from_its_pile(tb, x, track=8)
            tb.see("appeared", 9, y, PILE["Bob"])
        tb.see("vanished", 9, y, PILE["Bob"])
        tb.see("relabelled", 1, y, CENTRE, old="R01")
        tb.see("relabelled", 1, x, CENTRE, old=y, frames=60)        # the top read anew as x
        if flicker:
            assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []
        else:
            assert [c for c, _ in tb.plays()] == ["R01", y, x] and tb.kinds()[-1] == "not_on_card"


def test_a_foul_taken_back_read_for_a_moment_as_the_card_its_pile_read_it_as_in_turn_is_one_foul():
    """Seed 9177 (fouls 0.2): R2's R30 (read R28 now and then on his pile) laid against the rules, read R28
    on the centre for a look, then taken back to his pile: R30's foul was put back, and R28 kept as a
    second foul. Read so on no pile, the other card stays a card of its own."""
    for flicker in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        game = tb.game
        x, z = [c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
                and not game.is_legal(c.id) and game.in_play(c.id) is None][:2]
        if flicker:
            _flicker_on_bobs_pile(tb, x, z)
        else:
            tb.see("appeared", 9, x, PILE["Bob"])
        tb.see("vanished", 9, x, PILE["Bob"])
        tb.see("relabelled", 1, x, CENTRE, old="R01", frames=10)      # laid against the rules
        tb.see("relabelled", 1, z, CENTRE, old=x, frames=6)           # read z for a look: taken for a misread
        tb.see("appeared", 6, x, PILE["Bob"], frames=10)              # back on Bob's pile
        if flicker:
            assert tb.plays() == [("R01", None), (x, "Bob")]
            assert [(v.type, v.player) for v in tb.game.violations] == [("not_on_card", "Bob")]
        else:
            assert [c for c, _ in tb.plays()] == ["R01", x, z] and len(tb.game.violations) == 2


def test_a_card_read_under_a_foul_that_shows_when_the_foul_is_taken_back_was_laid_before_it():
    """Seed 9178 (fouls 0.2): R17 laid on W47, read once, covered by W02 within 0.3 s; W02 refused and taken
    back, then R17 showed: R17 came first, and W02 fouled R17, not W47. Not read there before the foul
    covered it, the card may as well have been laid after the foul went: it stays after it."""
    for read_under in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        game = tb.game
        y = legal(game, "red")
        x = next(c.id for c in game.catalog if c.team == "white" and not (c.is_goal or c.is_keeper)
                 and not game.is_legal(c.id) and not game.follows(y, c.id))
        _from_its_pile(tb, x)
        tb.see("relabelled", 1, x, CENTRE, old="R01", reads=(y, x, x) if read_under else ("R01", x, x))
        assert tb.kinds()[-1] == "not_on_card"
        tb.see("relabelled", 1, y, CENTRE, old=x, frames=18, reads=(x, y, y))  # x taken back: y under it
        if read_under:
            assert [c for c, _ in tb.plays()] == ["R01", y, x]
        else:
            assert [c for c, _ in tb.plays()] == ["R01", x, y]
        assert len(tb.game.violations) == 1 and tb.game.top.id == y


def test_a_foul_taken_back_from_a_card_that_left_its_pile_before_it_lay_on_that_card():
    """Seed 9181 (fouls 0.2): keeper W03 kicked off and R32 was laid on it at once, read first, then taken back
    as W03 showed: R32 was put first and called no_keeper. W03 had left its pile before R32 was laid: it lay
    under R32, which fouled it (not_on_card). Not seen leaving a pile, the order stays as read."""
    for left_first in (True, False):
        tb = Table()
        game = tb.game
        keeper = next(c.id for c in game.catalog if c.team == "white" and c.is_keeper)
        x = next(c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper)
                 and not game.follows(keeper, c.id))
        if left_first:
            _from_its_pile(tb, keeper, track=7)                       # the keeper leaves Cyd's pile
        _from_its_pile(tb, x)                                         # x leaves Ann's pile
        tb.see("appeared", 1, x, CENTRE, frames=10)                  # read first on the centre
        tb.see("relabelled", 1, keeper, CENTRE, old=x, frames=6)     # the keeper shows: taken for a misread
        tb.see("appeared", 6, x, PILE["Ann"], frames=10)             # x back on Ann's pile
        kinds = [v.type for v in tb.game.violations]
        if left_first:
            assert [c for c, _ in tb.plays()] == [keeper, x] and kinds == ["not_on_card"]
        else:
            assert [c for c, _ in tb.plays()] == [x, keeper] and kinds == ["no_keeper"]


def test_a_card_that_left_its_pile_read_as_a_card_nobody_had_then_taken_back_is_its_foul():
    """Seed 9196 (fouls 0.2): R2's R09 left his pile (a back read where it lay) and was laid on R16 against the
    rules, read R12 (a card nobody had in view, which would follow R16) for 0.6 s, and taken back: R16 showed
    again and R09 lay on R2's pile once more. R12 stood as a pass by nobody, and the next two plays were
    called not_on_card. Not when the card comes back only long after, when the centre never showed the card
    under it again, or when the card read there had a player of its own."""
    for back_after, taken_back, seen_elsewhere, called in ((20, True, False, True), (RETURN_FRAMES + 30, True, False, False),
                                                           (20, False, False, False), (20, True, True, False)):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        x = illegal(tb.game, "red")
        y = next(c for c in tb.game.legal_cards() if tb.game.catalog[c].team == "red" and c != x
                 and not tb.game.catalog[c].is_goal)
        if seen_elsewhere:
            tb.see("appeared", 7, y, PILE["Ann"])
            tb.see("relabelled", 7, "back", PILE["Ann"], old=y, frames=3)
        tb.see("appeared", 9, x, PILE["Bob"])
        tb.see("relabelled", 9, "back", PILE["Bob"], old=x, frames=10)      # x taken off Bob's pile
        tb.see("relabelled", 1, y, CENTRE, old="R01", frames=5, confidence=0.53)  # x laid on R01, read y
        assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []
        if taken_back:
            tb.see("relabelled", 1, "R01", CENTRE, old=y, frames=18)           # x taken back: R01 shows
        tb.see("relabelled", 9, x, PILE["Bob"], old="back", frames=back_after)  # x back on Bob's pile
        if called:
            assert tb.plays() == [("R01", None), (x, "Bob")] and tb.game.top.id == "R01"
            assert [(v.player, v.type) for v in tb.game.violations] == [("Bob", "not_on_card")]
        else:
            assert [c for c, _ in tb.plays()] == ["R01", y] and tb.game.violations == []


def test_a_card_read_once_on_the_centre_then_covered_by_a_foul_is_played_before_it():
    """Seed 9194 (fouls 0.2): R1's R11 left his pile and was read once on the centre; W2's W19 was laid on it
    against the rules within 0.3 s. W19 follows neither R11 nor the card before, so no card was taken as
    missed under it: W19 was called on the card before, and R11 said only once W19 was taken back, 1.1 s
    after it was laid. Not when the card was never read on the centre."""
    for read_there in (True, False):
        tb = Table()
        game = tb.game
        tb.see("appeared", 1, "R01", CENTRE)
        a = legal(game, "red")
        w = next(c.id for c in game.catalog if c.team == "white" and not c.is_goal and not game.is_legal(c.id)
                 and not game.follows(a, c.id))
        tb.see("appeared", 8, a, PILE["Ann"])
        tb.see("appeared", 9, w, PILE["Dee"], frames=3)
        tb.see("relabelled", 8, "back", PILE["Ann"], old=a, frames=10)      # a taken off Ann's pile
        tb.see("relabelled", 9, "back", PILE["Dee"], old=w, frames=3)       # w taken off Dee's pile
        reads = ("R01", a, w, w) if read_there else ("R01", w, w)
        tb.see("relabelled", 1, w, CENTRE, old="R01", frames=9, reads=reads)  # w on a, a read once
        if read_there:
            assert tb.plays() == [("R01", None), (a, "Ann"), (w, "Dee")] and game.top.id == a
        else:
            assert tb.plays() == [("R01", None), (w, "Dee")] and game.top.id == "R01"
        assert [v.player for v in game.violations] == ["Dee"]
        if read_there:  # w taken back: a shows again, surely; it lay under w, not laid on it
            tb.see("relabelled", 1, a, CENTRE, old=w, frames=15, confidence=0.85)
            assert tb.plays() == [("R01", None), (a, "Ann"), (w, "Dee")] and tb.game.top.id == a
            assert [v.player for v in tb.game.violations] == ["Dee"]


def test_the_first_read_showing_again_as_a_foul_on_its_late_correction_is_taken_back_puts_it_back():
    """Seed 9204 (fouls 0.2): W15 read W16, W15, W16 in turn and put right to W16 late; R13 laid on it against
    the rules and taken back; W15, showing again under it, was played anew (a made-up card) and called
    not_on_card. The play is put back to the card first read, and only the foul laid on it is called."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    first, other, foul = next(
        (f, o, x) for f in ids if g.follows("R01", f) for o in ids if o != f and g.follows("R01", o)
        and not g.follows(f, o) for x in ids if x not in (f, o) and not g.follows(f, x) and not g.follows(o, x)
        and not g.follows("R01", x))
    for again in (first, other):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("relabelled", 1, first, CENTRE, old="R01", frames=60, confidence=0.6)
        out = tb.see("relabelled", 1, other, CENTRE, old=first, frames=15, confidence=0.65)  # put right, late
        assert [type(o) for o in out] == [Correction] and tb.game.top.id == other
        owner = "Ann" if tb.game.catalog[foul].team == "red" else "Cyd"
        tb.see("appeared", 8, foul, PILE[owner], frames=1)
        tb.see("relabelled", 8, "back", PILE[owner], old=foul, frames=3)  # taken off its pile
        tb.see("relabelled", 1, foul, CENTRE, old=other, frames=3)  # and laid on the centre: a foul
        assert [c for c, _ in tb.plays()] == ["R01", other, foul] and len(tb.game.violations) == 1
        tb.see("relabelled", 1, again, CENTRE, old=foul, frames=18, confidence=0.63)  # taken back
        if again == first:  # the first read shows again: it was that card
            assert [c for c, _ in tb.plays()] == ["R01", first, foul] and tb.game.top.id == first
        else:  # the correction shows again: it stands
            assert [c for c, _ in tb.plays()] == ["R01", other, foul] and tb.game.top.id == other
        assert len(tb.game.violations) == 1


def test_a_card_never_read_showing_as_a_foul_is_taken_back_lay_under_it_when_it_left_its_pile_first():
    """Seed 9200 (fouls 0.2): keeper R04 and then R23 left their piles and were laid within 0.3 s; R04 was
    covered at once, and showed only when R23, a foul on it, was taken back. Put after R23, R23 was called
    on the card before R04. Cards are laid in the order they leave the piles: R04 lay under R23. Not when
    it left its pile after the foul's card did (laid once the foul was taken back)."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    under, foul = next((c, f) for c in ids if g.follows("R01", c) and g.catalog[c].team == "red" for f in ids
                       if g.catalog[f].team == "white" and not g.follows("R01", f) and not g.follows(c, f))
    for under_first in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("appeared", 8, under, PILE["Ann"], frames=1)
        tb.see("appeared", 9, foul, PILE["Cyd"], frames=1)
        order = [(8, under, "Ann"), (9, foul, "Cyd")]
        for track, card, p in order if under_first else order[::-1]:
            tb.see("relabelled", track, "back", PILE[p], old=card, frames=3)  # taken off its pile
        tb.see("relabelled", 1, foul, CENTRE, old="R01", frames=6)
        assert tb.plays() == [("R01", None), (foul, "Cyd")]
        tb.see("relabelled", 1, under, CENTRE, old=foul, frames=30)  # the foul taken back
        if under_first:
            assert tb.plays() == [("R01", None), (under, "Ann"), (foul, "Cyd")] and tb.game.top.id == under
        else:
            assert tb.plays() == [("R01", None), (foul, "Cyd"), (under, "Ann")]
        assert [v.player for v in tb.game.violations] == ["Cyd"]


def test_a_refused_card_relabelled_soon_is_no_misread_when_the_new_card_left_its_pile_after_it_was_played():
    """Seed 9190 (fouls 0.2): R32 laid against the rules (its pile track held meanwhile); W26 left its pile as
    R32 was played and was read on it 0.5 s later. Taken for R32 misread, R32's foul went uncalled. A card
    taken off its pile before the refused card was read may have been it, misread: then it still is."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    foul, nxt = next((f, n) for f in ids if g.catalog[f].team == "red" and not g.follows("R01", f) for n in ids
                     if g.catalog[n].team == "white" and g.follows("R01", n) and not g.follows(f, n))
    for left_after in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("appeared", 8, foul, PILE["Ann"], frames=1)
        tb.see("appeared", 9, nxt, PILE["Cyd"], frames=1)
        if not left_after:
            tb.see("relabelled", 9, "back", PILE["Cyd"], old=nxt, frames=3)
        tb.see("relabelled", 1, foul, CENTRE, old="R01", frames=30)
        if left_after:
            tb.see("relabelled", 9, "back", PILE["Cyd"], old=nxt, frames=0)  # in the same look
        tb.see("relabelled", 1, nxt, CENTRE, old=foul, frames=12)
        if left_after:
            assert tb.plays() == [("R01", None), (foul, "Ann"), (nxt, "Cyd")]
            assert [v.player for v in tb.game.violations] == ["Ann"]
        else:
            assert tb.plays() == [("R01", None), (nxt, "Cyd")] and tb.game.violations == []


def test_a_late_relabel_to_a_card_taken_off_its_pile_after_the_play_is_a_card_laid_on_it():
    """Seed 9205 (fouls 0.2): W55 left its pile 0.4 s after R14 was played and was laid on R14 against the
    rules. W55 follows the card under R14, so it was taken for R14 misread late: a goal was called, then
    taken back when R14 showed again, and the foul went uncalled. Taken off its pile before the play, it may
    be the play's card misread (``test_a_late_relabel_to_a_card_that_follows_the_one_under_...``)."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    first, other = next((f, o) for f in ids if g.catalog[f].team == "red" and g.follows("R01", f) for o in ids
                        if g.catalog[o].team == "white" and g.follows("R01", o) and not g.follows(f, o))
    for left_after in (True, False):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("appeared", 9, other, PILE["Cyd"], frames=1)
        if not left_after:
            tb.see("relabelled", 9, "back", PILE["Cyd"], old=other, frames=3)
        tb.see("relabelled", 1, first, CENTRE, old="R01", frames=30)
        if left_after:
            tb.see("relabelled", 9, "back", PILE["Cyd"], old=other, frames=12)
        tb.see("relabelled", 1, other, CENTRE, old=first, frames=15)
        if left_after:
            assert tb.plays() == [("R01", None), (first, None), (other, "Cyd")] and len(tb.game.violations) == 1
        else:
            assert [c for c, _ in tb.plays()] == ["R01", other] and tb.game.violations == []


def test_a_foul_laid_again_after_it_was_taken_back_comes_after_the_first():
    """Seed 9216 (fouls 0.2): W24 laid against the rules, taken back, and laid again 1.6 s later; it had been
    read on the centre as the first W24 covered the top, so it was taken for a card lying under that foul
    and put before it. A card does not lie under itself."""
    tb = Table()
    g = tb.game
    tb.see("appeared", 1, "R01", CENTRE)
    foul = next(c.id for c in g.catalog if c.team == "white" and not c.is_goal and not g.follows("R01", c.id))
    tb.see("appeared", 9, foul, PILE["Cyd"], frames=1)
    tb.see("relabelled", 9, "back", PILE["Cyd"], old=foul, frames=3)
    tb.see("relabelled", 1, foul, CENTRE, old="R01", frames=30, reads=("R01", foul, foul))
    tb.see("relabelled", 1, "R01", CENTRE, old=foul, frames=15)  # taken back: R01 shows again
    tb.see("relabelled", 9, foul, PILE["Cyd"], old="back", frames=3)
    tb.see("relabelled", 9, "back", PILE["Cyd"], old=foul, frames=20)
    tb.see("relabelled", 1, foul, CENTRE, old="R01", frames=6)  # and laid again
    assert tb.plays() == [("R01", None), (foul, "Cyd"), (foul, "Cyd")] and len(tb.game.violations) == 2
    frames = [a["frame"] for a in tb.ad.log if a["type"] == "play"]
    assert frames == sorted(frames)


def test_a_play_read_back_as_its_first_card_is_a_flicker_whatever_a_pile_showed_meanwhile():
    """Seed 9171: W19 played, read W18 for a look (put right to W18), then W19 again; meanwhile a card on a
    pile, read W19, turned to a back. Taken for W19 leaving its pile after the play, W19 was played anew on
    the W18 (a made-up card) and five false calls followed. A card the play was read as before is the camera
    flickering between two readings."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    first, other = next((f, o) for f in ids if g.catalog[f].team == "white" and g.follows("R01", f) for o in ids
                        if o != f and g.follows("R01", o) and not g.follows(f, o) and not g.follows(o, f))
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 9, first, (PILE["Dee"][0], PILE["Dee"][1] - 40))  # a card on a pile misread as it
    tb.see("relabelled", 1, first, CENTRE, old="R01", frames=30, confidence=0.8)
    tb.see("relabelled", 1, other, CENTRE, old=first, frames=6, confidence=0.77)  # soon: put right
    assert [c for c, _ in tb.plays()] == ["R01", other]
    tb.see("relabelled", 9, "back", (PILE["Dee"][0], PILE["Dee"][1] - 40), old=first, frames=3)  # then a back
    tb.see("relabelled", 1, first, CENTRE, old=other, frames=3, confidence=0.81)
    assert [c for c, _ in tb.plays()] == ["R01", first] and tb.game.violations == []


def test_a_card_turned_up_onto_a_pile_top_and_taken_off_leaves_that_top_covered_not_gone():
    """Seed 9223 (fouls 0.2): W1's W54 turned up onto his W28 and laid on the centre at once, against the rules.
    The pile track read W28, then W54, then a back: W28 was taken for a card that left unseen, put in before
    W54 (a pass made up) to make W54 legal, and a goal counted. A top that replaced another and is taken off
    in turn, when it shows on the centre, was turned up onto the other: no card missed under it."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01" and c.team == "red"]
    under, top = next((u, t) for u in ids if g.follows("R01", u) for t in ids
                      if t != u and not g.follows("R01", t) and g.follows(u, t))
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 8, under, PILE["Ann"], frames=30)
    tb.see("relabelled", 8, top, PILE["Ann"], old=under, frames=30)  # turned up onto it
    tb.see("relabelled", 8, "back", PILE["Ann"], old=top, frames=9)  # and taken off
    tb.see("relabelled", 1, top, CENTRE, old="R01", frames=9)
    assert tb.plays() == [("R01", None), (top, "Ann")] and [v.player for v in tb.game.violations] == ["Ann"]


def test_a_play_put_right_is_judged_on_the_tops_as_they_were_at_the_play():
    """Seed 9218 (fouls 0.2): keeper W03, turned up on W2's pile and laid at once, read W01 on the centre and
    put right to W03 0.2 s later. A slot of W2's had emptied meanwhile, so the tops then (with a gap) hid
    that those at the play were out of date (W03 was never seen on top of them), and W03 was called
    not_on_top."""
    tb = Table(options={"track_piles": True})
    g = tb.game
    red = [c.id for c in g.catalog if c.team == "red" and not c.is_goal and c.id != "R01"]
    x = next(c for c in red if g.follows("R01", c))
    wrong = next(c for c in red if c != x and g.follows("R01", c))
    c0, c1, c2 = [c for c in red if c not in (x, wrong)][:3]
    tb.see("appeared", 1, "R01", CENTRE)
    xs = [110, 150, 190]
    for track, card, x0 in ((10, c0, xs[0]), (11, c1, xs[1]), (12, c2, xs[2])):
        tb.see("appeared", track, card, (x0, 300), frames=1)
    tb.see("relabelled", 11, x, (xs[1], 300), old=c1, frames=30)    # x turned up onto c1 ...
    tb.see("relabelled", 11, "back", (xs[1], 300), old=x, frames=9)  # ... and taken off
    tb.see("relabelled", 11, c1, (xs[1], 300), old="back", frames=3)  # c1 shows again
    assert tb.game.tops["Bob"] == [c0, c1, c2]
    tb.see("relabelled", 1, wrong, CENTRE, old="R01", frames=3)       # x read as another card
    tb.see("relabelled", 12, "back", (xs[2], 300), old=c2, frames=2)  # a slot empties meanwhile
    out = tb.see("relabelled", 1, x, CENTRE, old=wrong, frames=4)     # put right soon
    assert any(isinstance(o, Correction) for o in out)
    assert tb.plays()[-1] == (x, "Bob") and tb.game.violations == []


def test_a_foul_put_back_goes_before_a_card_that_left_its_pile_after_the_foul_did():
    """Seed 9205 (fouls 0.2, under a first form of ``_turned_onto``): R31 left its pile 0.3 s before W41 and was
    read on the centre 0.4 s after it landed; W41 read over it was taken for R31 misread, and when R31 showed
    on its pile again its foul went back in the log after W41: against R31's late read, W41 seemed to have
    left first. The two left their piles in the order they were laid."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01"]
    foul, other = next((f, o) for f in ids if g.catalog[f].team == "red" and not g.follows("R01", f) for o in ids
                       if g.catalog[o].team == "white" and g.follows("R01", o) and not g.follows(o, f))
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    tb.see("appeared", 8, foul, PILE["Ann"], frames=1)
    tb.see("appeared", 9, other, PILE["Cyd"], frames=1)
    tb.see("relabelled", 8, "back", PILE["Ann"], old=foul, frames=28)   # the foul's card leaves first ...
    tb.see("relabelled", 9, "back", PILE["Cyd"], old=other, frames=6)   # ... then the other
    tb.see("relabelled", 1, foul, CENTRE, old="R01", frames=9)          # the foul read late
    tb.see("relabelled", 1, other, CENTRE, old=foul, frames=12)         # the other over it: taken for a misread
    tb.see("relabelled", 8, foul, PILE["Ann"], old="back", frames=12)   # the foul back on its pile
    assert [c for c, _ in tb.plays()] == ["R01", foul, other]
    assert [v.player for v in tb.game.violations] == ["Ann"]


def test_a_card_from_a_pile_first_read_on_the_centre_before_a_foul_laid_on_it_lay_under_that_foul():
    """Seed 9247 (fouls 0.2): keeper R04 left its pile, was read once on the centre, and W29 was laid on it
    against the rules 0.4 s later; R04 was reported (moved from its pile) only when W29 was taken back. Put
    after W29, W29 was called no_keeper on an empty centre. The tracker's ``since`` says R04 lay there first.
    Not when it was first read there after the foul's card."""
    g = Table().game
    keeper = next(c.id for c in g.catalog if c.team == "red" and c.is_keeper and not c.is_goal)
    foul = next(c.id for c in g.catalog if c.team == "white" and not c.is_keeper and not c.is_goal
                and not g.follows(keeper, c.id))
    for under_first in (True, False):
        tb = Table()
        tb.see("appeared", 8, keeper, PILE["Ann"], frames=1)
        tb.see("appeared", 9, foul, PILE["Cyd"], frames=1)
        tb.see("relabelled", 9, "back", PILE["Cyd"], old=foul, frames=3)
        tb.see("appeared", 20, foul, CENTRE, frames=12, since_ago=3)
        assert tb.plays() == [(foul, "Cyd")] and tb.kinds() == ["no_keeper"]
        tb.see("moved", 8, keeper, CENTRE, from_xy=PILE["Ann"], frames=15, since_ago=30 if under_first else 3)
        if under_first:
            assert tb.plays() == [(keeper, "Ann"), (foul, "Cyd")] and tb.game.top.id == keeper
            assert [v.type for v in tb.game.violations] != ["no_keeper"]
        else:
            assert tb.plays() == [(foul, "Cyd"), (keeper, "Ann")]
            assert [v.type for v in tb.game.violations] == ["no_keeper"]
        assert [v.player for v in tb.game.violations] == ["Cyd"]


def test_a_card_read_on_the_centre_that_lies_on_no_pile_and_left_none_is_the_one_in_its_reads_that_left():
    """Seed 9248 (fouls 0.2): R1's R28 left his pile and was laid on W47, read R28, R30, R30: R30, on no pile
    and never taken off one, was called not_on_card, and R28's foul went uncalled. Cards are laid from the
    piles: the one that left is the card. Not when the other card left a pile too: the reads decide."""
    g = Table().game
    left = next(c.id for c in g.catalog if c.team == "red" and not c.is_goal and g.follows("R01", c.id))
    other = next(c.id for c in g.catalog if c.team == "red" and not c.is_goal and c.id not in (left, "R01")
                 and not g.follows("R01", c.id))
    for other_left in (False, True):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("appeared", 8, left, PILE["Ann"], frames=1)
        if other_left:
            tb.see("appeared", 7, other, PILE["Bob"], frames=1)
        tb.see("relabelled", 8, "back", PILE["Ann"], old=left, frames=3)
        if other_left:
            tb.see("relabelled", 7, "back", PILE["Bob"], old=other, frames=1)
        tb.see("relabelled", 1, other, CENTRE, old="R01", frames=30, reads=(left, other, other))
        if other_left:
            assert tb.plays()[-1] == (other, "Bob")  # (the card that left Ann's pile taken for one missed under it)
        else:
            assert tb.plays() == [("R01", None), (left, "Ann")] and tb.game.violations == []


def test_a_refused_card_taken_as_played_on_when_the_card_under_both_shows_again_was_a_foul_and_so_was_the_next():
    """Seed 9259, fouls 0.2: R2's R09 laid on W10 against the rules (called); R30 laid in its place, read on the
    same track, so R09 was taken as played on (``missed_before``) and R30 as a pass from it; then W10 showed
    again, and R1's next card, legal on W10, was called not_on_card."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    game = tb.game
    a = illegal(game, "red")
    z = next(c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id != a
             and game.follows(a, c.id) and not game.is_legal(c.id))
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("relabelled", 5, "back", PILE["Bob"], old=a)  # taken off Bob's pile
    tb.see("relabelled", 1, a, CENTRE, old="R01", frames=10)
    assert tb.kinds() == ["kickoff", "not_on_card"] and tb.plays()[1] == (a, "Bob")
    tb.see("relabelled", 1, z, CENTRE, old=a, frames=tb.ad.correction_frames + 4)
    played = lambda: [x for x in tb.ad.log if x["type"] == "play"]
    assert played()[1].get("missed_before") is True and len(tb.game.violations) == 0  # taken as played on
    out = tb.see("relabelled", 1, "R01", CENTRE, old=z, frames=20)  # the keeper shows again: both taken back
    assert [type(o) for o in out] == [Correction] and "both" in out[0].why
    assert [c for c, _ in tb.plays()] == ["R01", a, z] and "missed_before" not in played()[1]
    assert tb.kinds() == ["kickoff", "not_on_card", "not_on_card"] and tb.game.top.id == "R01"
    nxt = legal(tb.game, "red")
    tb.see("appeared", 2, nxt, CENTRE)  # the next card, legal on the keeper, is no foul
    assert tb.kinds()[-1] == "pass" and len(tb.game.violations) == 2
    # z, laid by nobody the camera could name, shows on Ann's pile: it was hers
    assert tb.plays()[2] == (z, None)
    out = tb.see("appeared", 8, z, PILE["Ann"], frames=10)
    assert any(isinstance(o, Correction) and "Ann's" in o.why for o in out) and tb.plays()[2] == (z, "Ann")
    assert [v.player for v in tb.game.violations] == ["Bob", "Ann"]


def test_a_late_read_taken_for_a_misread_that_shows_on_its_players_pile_was_a_foul_laid_on_the_play():
    """Seed 9260, fouls 0.2: R1's R52 (Oskar) tackled; R2's R48 (Oskar too) laid on it against the rules, read
    on the centre 0.6 s later and taken for R52 misread (it follows the card under it); R48 then showed on
    R2's pile: a card lies in one place only. R52 stands, and R48 is a foul by R2."""
    tb = Table()
    tb.see("appeared", 1, "R01", CENTRE)
    game = tb.game
    a = next(c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and game.is_legal(c.id))
    tb.see("appeared", 5, a, PILE["Bob"])
    tb.see("moved", 5, a, CENTRE, from_xy=PILE["Bob"])
    assert tb.plays()[-1] == (a, "Bob") and tb.kinds()[-1] == "pass"
    game = tb.game
    b = next(c.id for c in game.catalog if c.team == "red" and not (c.is_goal or c.is_keeper) and c.id != a
             and game.follows("R01", c.id) and not game.is_legal(c.id))
    tb.see("relabelled", 5, b, CENTRE, old=a, frames=tb.ad.correction_frames + 10, confidence=0.9)
    assert [c for c, _ in tb.plays()] == ["R01", b] and tb.game.violations == []  # taken for a misread
    out = tb.see("appeared", 7, b, PILE["Ann"], frames=10)
    assert any(isinstance(o, Correction) and "back on Ann's pile" in o.why for o in out)
    assert tb.plays() == [("R01", None), (a, "Bob"), (b, "Ann")]
    assert tb.kinds()[-1] == "not_on_card" and tb.game.top.id == a


def test_a_goal_card_turned_up_onto_a_top_and_taken_off_is_that_players_while_its_twin_shows_on_another():
    """Seed 9258, fouls 0.2: W1's W56 was turned up onto W04 on his pile, read W55 (the twins look alike), then
    taken off and laid for a goal as the piles were dealt anew; W2's new top W55 was read in that look, and
    the goal went to W2."""
    tb = Table()
    game, goal = tb.game, "R53"
    passer, track = _attack_to_mario(tb)
    under = next(c.id for c in game.catalog if c.team == "red" and not c.is_goal and game.in_play(c.id) is None
                 and c.id != passer)
    tb.see("appeared", 5, under, PILE["Bob"])
    tb.see("relabelled", 5, goal, PILE["Bob"], old=under, frames=3)  # turned up onto it
    tb.see("relabelled", 5, "back", PILE["Bob"], old=goal, frames=3)  # taken off
    tb.see("appeared", 6, goal, PILE["Ann"], frames=0)                # Ann's twin laid out, read alike
    out = tb.see("relabelled", track - 1, goal, CENTRE, old=passer, frames=0)
    assert [(a["card"], a.get("player")) for a in out if a.get("type") == "play"] == [(goal, "Bob")]
    assert tb.game.score["red"] == 1 and tb.game.violations == []


def test_a_card_read_on_the_centre_before_a_refused_card_covered_it_was_laid_first_when_it_leaves_its_pile():
    """Seed 9266 (fouls 0.2): W1's W19 read once at 0.38 as R46 tackled it 0.3 s later; W19's pile showed a
    back a look after R46 was played, and R46 was called not_on_card on the card before: W19 goes before R46."""
    for read_first, late in ((True, False), (False, False), (True, True)):
        tb = Table()
        m, _, z = _missed_foul_next(tb)
        tb.see("appeared", 5, m, PILE["Ann"])
        tb.see("appeared", 6, z, PILE["Bob"])
        tb.see("vanished", 6, z, PILE["Bob"])
        reads = (m, z, z) if read_first else ("R01", z, z)
        tb.see("relabelled", 1, z, CENTRE, old="R01", frames=10, reads=reads)
        assert tb.plays() == [("R01", None), (z, "Bob")] and tb.kinds()[-1] == "not_on_card"
        tb.see("relabelled", 5, "back", PILE["Ann"], old=m, frames=tb.ad.missed_frames + 5 if late else 3)
        if read_first and not late:
            assert [c for c, _ in tb.plays()] == ["R01", m, z]
            assert tb.plays()[1] == (m, "Ann") and tb.ad.log[[a.get("card") for a in tb.ad.log].index(m)]["unseen"]
            assert tb.game.violations == []
        else:
            assert [c for c, _ in tb.plays()] == ["R01", z], (read_first, late)
            assert [v.type for v in tb.game.violations] == ["not_on_card"]


def test_a_late_read_as_a_card_from_nowhere_of_a_card_that_had_just_left_its_pile_keeps_the_play():
    """Seed 9269 (fouls 0.2): W2's W52 was read W50 and W52 in turn on his pile, left it as W52 and was read
    W52 on the centre for 0.9 s, then W50 as the next card came; W50 follows the card under W52 as W52 does,
    so the play was put right to W50 (``_misread_late``), a card on no pile that left none. Cards are laid
    from the piles: the card that left one is the card laid. A card that left a pile the camera saw is
    still a late misread put right (``test_a_late_relabel_to_a_card_taken_off_its_pile_...``)."""
    g = Table().game
    ids = [c.id for c in g.catalog if not c.is_goal and c.id != "R01" and c.team == "red"]
    first, other = next((f, o) for f in ids if g.follows("R01", f) for o in ids
                        if o != f and g.follows("R01", o) and not g.follows(f, o))
    for flicker, left_too in ((True, False), (False, False), (True, True)):
        tb = Table()
        tb.see("appeared", 1, "R01", CENTRE)
        tb.see("appeared", 9, first, PILE["Ann"], frames=1)
        if flicker:  # the pile top read as the two in turn
            tb.see("relabelled", 9, other, PILE["Ann"], old=first, frames=10)
            tb.see("relabelled", 9, first, PILE["Ann"], old=other, frames=10)
        if left_too:  # the other card showed on Bob's pile and left it too
            tb.see("appeared", 8, other, PILE["Bob"], frames=1)
            tb.see("relabelled", 8, "back", PILE["Bob"], old=other, frames=3)
        tb.see("relabelled", 9, "back", PILE["Ann"], old=first, frames=3)  # taken off
        tb.see("relabelled", 1, first, CENTRE, old="R01", frames=6)
        assert tb.plays() == [("R01", None), (first, "Ann")]
        tb.see("relabelled", 1, other, CENTRE, old=first, frames=27)  # read as the other as the next card comes
        if left_too:
            assert [c for c, _ in tb.plays()] == ["R01", other]
        else:
            assert tb.plays() == [("R01", None), (first, "Ann")] and tb.game.violations == []
