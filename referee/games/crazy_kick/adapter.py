"""From what the camera saw (tracker observations in table millimetres) to Crazy Kick actions.

What the camera sees, and what the adapter makes of it (labels are the catalogue's card ids):

- **The centre pile.** A card id the engine does not have on the pile that comes to rest in the
  ``centre`` zone (it appears there, is carried there from elsewhere, or the top card's track is
  relabelled because a card landed right on it) is a ``play``. A card that is already on the
  centre pile or set aside as a goal is never a new play: that is the card under an illegal card
  the player took back (the engine never put the illegal card on the pile), or a lower card of a
  pile knocked askew. Moves within the centre and cards leaving it (the pile gathered after a goal
  or a ball out) need no action.
- **A misread or a new card?** A relabel of the card this adapter played last (within
  ``correction_frames`` of that play, twice that when the engine refused the card first read)
  corrects that play, as in Crazy, unless the engine took the
  first card and the new one legally follows it: then it is a second card slapped straight on top.
  A later relabel of the last card played is a misread too when the new card does not follow it
  but follows the card under it (a new card there would be a foul; an unsure read settling late
  is likelier); when the engine took the play and the corrected one would be a foul (not on top
  of the player's piles), the late read is the misread, and nothing is called; so is a late read as a card
  on no pile that left none, where the card played had just left its player's pile (``_late_from_nowhere``;
  seen on a pile only as that card's own flicker counts as never seen there). A late read taken
  for a misread that the next card proves wrong (it follows the card first read, not the late one)
  was a card laid on it and taken back: a foul, put in the log after the first card
  (``_undo_late``). A card the engine refused, read for longer than ``correction_frames``, then
  relabelled to a card that follows it (not the engine's top) was a card: the next one was laid on
  it, and the table played on from it (below). A relabel of the last play back to a card it was
  read as before, read at least as surely as the card it has now, is the camera flickering between
  two readings: the play takes that card again. Other later relabels, and relabels of a card with
  another play after it, are new cards. A card taken for a misread that shows anew on its player's
  pile within ``RETURN_FRAMES``, or that had left his pile (a back read where it lay) before it was read
  on the centre and lies on no pile, was a card laid against the rules and taken back: its play is put
  back, a foul, when the log bears that out (``_foul_taken_back``). So was a card read surely on the top
  and taken for a misread there (``_top_misread``) that shows on a pile of its player's within
  ``RETURN_FRAMES`` (``_dismissed_taken_back``), and a play of a card nobody can be named for, taken back
  (the card under it shows again), when a card that left its pile just before it is back there
  (``_nobodys_play_taken_back``): that card, misread as it was laid. A card from a pile first read on the
  centre (the tracker's ``since``) before a refused card laid on it lay under that foul (``_under_a_foul``).
  A relabel on the centre to a card on no pile that left none is the one card of its reads that left a
  pile since the last play (``_read_left``): cards are laid from the piles. A refused card taken as played
  on whose centre track then shows the card under it again was taken back, and so was the card laid on it:
  both fouls (``_played_on_taken_back``). A late read taken for a misread of the play whose card then shows
  on its player's pile was laid on the play and taken back: the play keeps its first card, the other is a
  foul (``_late_read_taken_back``). A refused play by nobody whose card shows on a pile of its team soon
  after its track was taken back was that player's (``_named_when_back``).
- **Who laid it.** Each card belongs to one player for the whole game (returned cards go back to
  whoever laid them), so the player on whose pile the card was last seen resting laid it; a card
  carried straight from a pile names that pile, and so does a card that just left a pile (a back
  showed where it lay; a misread of another pile's top may have put it on that pile since).
  A card read on a pile while it lies on another player's pile is a misread there (a card lies on one
  pile only): it does not move where the card was last seen. A card read surely on a pile of its team for a
  look only (turned up and taken at once) names that pile. Otherwise the player of the card's team whose pile
  is nearest to where the card came from (or came to rest) when that is the only guess, else no
  player: the engine then judges the card without the checks that need a player (``wrong_team``,
  ``not_on_top``), which is better than a false foul on a guess. A card of the other team is
  never attributed to a player.
- **The player piles** (zones ``pileA1``.., team A = red along the bottom edge, team B = white):
  whenever the cards resting in a player's zone change, a ``table`` action gives that player's
  visible pile tops, left to right, padded with ``null`` to the number of piles he lays out (a pile
  covered by a hand is unseen, not missing: no false ``layout`` call). A zone showing more cards
  than the player lays out (a hand held low, a card on its way) is not reported; cards of the
  other team there are left out. The engine uses the tops to say whether a fitting card shows.
  A pile top that changes into another card may have gone to the centre (the card under it shows)
  or been covered (a card turned up onto it): until the old top is played, or for
  ``pile_wait_frames``, that pile is reported unseen, so a play whose pile change the camera
  reported first is never "not on top".
- **Not on top** (setting ``track_piles``) is called only on the camera's own evidence: the card
  was seen covered on that player's pile and not on top since. A card the camera never saw
  covered, played while its view of the player's piles shows other tops, means that view was out
  of date (a card turned up and laid within a moment, under a hand): the pile it was last seen on
  is reported unseen first, and no foul is called.
- **The table plays on from a card the engine refused.** A card that did not follow the top the
  engine knew (``no_keeper``, ``not_on_card``), stays on the pile, and has the next card laid on it
  that follows it (while that card does not follow the engine's top) shows that the camera missed
  a card before it: the table played on. Its play is corrected to ``missed_before`` (laid
  unchecked, the event ``play_on``), which withdraws the foul, and the new card is judged on it.
  Without this one missed card made every later card look illegal until the next goalkeeper
  (measured: three false ``no_keeper`` calls in a row, scripts/bench_referee.py seed 9001). A card
  taken back off the pile (it left the centre or vanished) was a foul the table agreed with.
- **A card the camera missed on the centre.** A card the engine would refuse on its top, when
  exactly one card left its owner's pile lately unseen on the centre, that card would follow the
  top, and the new card would follow it (a goal and the keeper's kick-off after it included): that
  card is played first, marked ``unseen`` (``_missed``), before any card the engine refused since it
  left (a foul taken back, laid on it: ``_missed_in_place``). The tracker lets a card on a pile go only
  after its hold time, so the card may leave its pile after the card laid on it was found played on
  (``missed_before``): if it fits under that card, it is put in the log before it then
  (``_missed_under``); so is a card glimpsed on the centre (read surely for a look) before the next card
  covered it, once it leaves its pile for good (``_glimpsed_under``), and a card the centre's track read
  before the card now refused there, once it leaves its pile within ``missed_frames`` and the refused card
  then fits (``_read_under_refused``, seed 9266: W19 read once at 0.38 under R46). A card played unseen under the top
  that is then read on top of it was laid on it: the top was a foul, and the two change places when the
  log bears that out (``_unseen_on_top``). A card that had left no pile, played on the unseen card in
  the same look and then read as that card, was that card misread as it slid in: its play goes
  (``_misread_unseen``).
- **Twin goal cards.** The goal cards come in twins whose faces differ only in a small printed id,
  and the recogniser names both the first twin (``Catalog.same_faces``). On the centre, a goal
  card already set aside is its twin when the twin follows the top (a scorer's second goal);
  otherwise it is the card itself seen again, and no play, unless a card of that face rests in a goal
  area meanwhile: then it is the twin, judged as laid. A face that left one player's pile lately
  while a card of it lies on another's is the first player's card: the one lying there is its twin.
- **Goal cards set aside.** A goal card coming to rest in a goal area that the engine has not
  counted and this adapter never played (the camera missed it on the pile: a hand covered it) is
  played then; one already played (counted, or refused) is not played twice.
- **Ball out** cannot be seen (it is the teams' agreement): the operator calls it,
  ``operator("ball_out")``, and the action carries the pile tops in view.

The adapter reads the engine but never changes it: it returns actions, and the caller applies them.
"""
from __future__ import annotations

import math

from ..adapters import Correction, camera_action, replayed
from .actions import ACTION_ADAPTER
from .catalogue import TEAMS
from .missed import GLIMPSE_SURE, MissedCards
from .rules import CrazyKickGame
from .taken_back import RETURN_FRAMES, TakenBack

COVER_SURE = 0.6  # a pile top read anew less surely than this is no evidence the old top lies covered
LATE_SURE = 0.5  # a late relabel of the last card played, read less surely than this and than the play, is no
                 # misread put right: the card half under the next one laid on it (seed 9153)
SIDES = {"A": "red", "B": "white"}  # layout side -> team: team A sits along the bottom edge

__all__ = ["CrazyKickAdapter", "Correction", "GLIMPSE_SURE", "RETURN_FRAMES", "SIDES"]


class CrazyKickAdapter(MissedCards, TakenBack):
    """The observations of one Crazy Kick table to its actions (see the module text). The cards the camera
    missed on the centre are found in ``missed.py``, the fouls taken back in ``taken_back.py``."""

    def __init__(self, game: CrazyKickGame, layout, correction_frames: int = 8, pile_wait_frames: int = 30,
                 sides: dict[str, str] | None = None, missed_frames: int = 150):
        """``layout``: ``crazy_kick_layout(len(red), len(white))``. ``correction_frames``: how soon
        after a play a relabel of its card is taken as a misread of that card (about the tracker's
        ``label_votes``: a misread is outvoted within that many frames, while a new card needs
        time to land and lie still). ``pile_wait_frames``:
        how long a pile top replaced by another card is awaited on the centre pile before the new
        card counts as the top (it was turned up onto the pile, not uncovered). ``sides``: which
        team sits on layout side A and B (default A red, B white). ``missed_frames``: how long a card
        that left a player's pile may have gone to the centre unseen (see ``_missed``)."""
        if correction_frames < 0 or pile_wait_frames < 0 or missed_frames < 0:
            raise ValueError(f"correction_frames, pile_wait_frames and missed_frames must not be negative, "
                             f"got {correction_frames}, {pile_wait_frames} and {missed_frames}")
        self.missed_frames = missed_frames
        self.pile_wait_frames = pile_wait_frames
        self.game = game
        self.correction_frames = correction_frames
        sides = dict(sides or SIDES)
        if sorted(sides.values()) != sorted(TEAMS) or set(sides) != {"A", "B"}:
            raise ValueError(f"sides must map A and B to red and white, got {sides}")
        self.centre = layout.zone("centre")
        self.goal_zones = layout.zones_in("goal")
        self.pile_zones: dict[str, object] = {}  # player -> zone
        for z in layout.zones_in("pile"):
            side, k = z.owner[0], int(z.owner[1:])
            team = game.teams[sides[side]]
            if k <= len(team):
                self.pile_zones[team[k - 1]] = z
        missing = [p for p in game.players if p not in self.pile_zones]
        if missing:
            raise ValueError(f"the layout has no pile zone for {', '.join(missing)}")
        self._faces = game.catalog.same_faces()
        self._twins: dict[str, list[str]] = {}               # first twin -> every card of that face
        for c, first in self._faces.items():
            self._twins.setdefault(first, []).append(c)
        self.log: list[dict] = []
        self.seen_on: dict[str, str] = {}                   # card id -> player whose pile it last lay on
        # player -> track id -> (label, x, y, masked: (the unplayed card it replaced, frame, read as this
        # card before: a flicker) or None)
        self.zone_cards: dict[str, dict[int, tuple]] = {p: {} for p in self.pile_zones}
        self._plays: dict[int, tuple[dict, int]] = {}       # track id -> (its play action, frame)
        self._dirty: set[str] = set()                       # players whose tops changed since the last table
        self._covered: dict[str, str] = {}                  # card id -> player on whose pile it was covered
        self._last_xy: dict[str, tuple[float, float]] = {}  # card id -> where it last lay on a pile
        self._taken_back: set[int] = set()                  # tracks that left the centre (or vanished)
        self._left: dict[str, tuple[str, int]] = {}          # card id -> (player, frame) it left his pile
        self._twin_left: dict[str, dict] = {}  # face of twins -> player -> (removed, frame) it left his pile
        self._late: tuple | None = None  # (track, first play, its late correction, frame, flicker): _undo_late
        self._read_as: dict[int, set[str]] = {}  # track id -> every card its last play has been read as
        self._pile_reads: dict[int, set[str]] = {}  # track id -> every card it was read as on a pile
        self._sure: dict[int, float] = {}  # track id -> how surely the card its last play has now was read
        self._goal_frames: list[int] = []  # frames of the goals played
        self._play_reads: dict[int, tuple] = {}  # track id -> the centre's reads when its last play was made
        self._landed: dict[int, int | None] = {}  # track id -> the frame its last play's card was first read where it
                                                  # lies (None: unknown)
        # face of a play's card corrected away as a misread -> (its track, the play, its correction, frame,
        # the correction was read on the track before the play): ``_foul_taken_back``
        self._corrected: dict[str, tuple] = {}
        self._put_back: list[dict] = []  # the fouls ``_foul_taken_back`` put back in the log
        self._gone: dict[str, int] = {}  # card id -> the frame a back was last read where it lay on a pile
        self._play_gone: dict[int, int | None] = {}  # track id -> that frame for the card of its last play
        # track id -> whether the card of its last play had left a player's pile (``_left``) or came carried
        self._from_a_pile: dict[int, bool] = {}
        self._left_flicker: set[str] = set()  # cards whose leaving (``_left``) was a flicker of the camera's
        self._in_goal: dict[int, str] = {}  # track id -> the face of the card resting in a goal area
        # face -> (card id, frame, time, the play it lay on) of a sure read on the top that ``_top_misread``
        # dismissed: ``_dismissed_taken_back``
        self._dismissed: dict[str, tuple] = {}
        self._glimpsed: dict[str, tuple[int, float]] = {}  # card id -> (frame, confidence) of its latest sure
                                                           # glimpse on the centre (``look``)
        self._pile_glimpsed: dict[str, tuple[str, int]] = {}  # card id -> (player, frame) of its latest sure
                                                              # glimpse on a pile of his (``look``)
        # a pile track's last relabel (old, new, frame), and the pairs of cards a pile top was read as in turn,
        # there and back within ``2 * pile_wait_frames``: one card the camera flickers on (``_top_misread``)
        self._pile_relabel: dict[int, tuple[str, str, int]] = {}
        # card id -> the pile top it replaced before it was taken off its pile in turn (``_piles``, ``_missed``)
        self._turned_onto: dict[str, str] = {}
        self._pile_flickers: set[frozenset] = set()
        self._t = 0.0

    # ---- operator calls ----------------------------------------------------------------------

    def operator(self, call: str, t: float | None = None) -> dict:
        """A call the camera cannot see: ``"ball_out"`` (both teams agreed)."""
        if call != "ball_out":
            raise ValueError(f"Crazy Kick operator calls: ball_out; got {call!r}")
        visible = [c for p in self.game.players for c in self._tops(p) or [] if c is not None]
        self._covered.clear()  # everyone picks up and lays out again
        action = self._emit({"type": "ball_out", "visible": visible}, t, None)
        action["source"] = "operator"  # the teams' agreement, entered by a person
        return action

    # ---- observations ------------------------------------------------------------------------

    def observe(self, obs, t: float | None = None) -> list:
        """Actions (dicts, already appended to ``self.log``) and Corrections for one observation."""
        if t is not None:
            self._t = float(t)
        card = self.game.catalog.cards.get(obs.label)
        if card is None and obs.kind != "relabelled":
            return []
        out: list = []
        here = (obs.x, obs.y)
        if card is None or obs.kind == "vanished" or not any(z.contains(here) for z in self.goal_zones):
            self._in_goal.pop(obs.track_id, None)
        else:
            self._in_goal[obs.track_id] = self._face(card.id)
        if card is not None and obs.kind != "vanished" and self.centre.contains(here):
            card = self._read_left(self._free_twin(card, obs), obs)
        if obs.kind == "vanished" or (obs.kind == "moved" and obs.from_xy is not None
                                      and self.centre.contains(obs.from_xy) and not self.centre.contains(here)):
            self._taken_back.add(obs.track_id)
        elif (obs.kind == "relabelled" and card is not None and self.game.in_play(card.id) == "pile"
              and self.centre.contains(here)):
            self._taken_back.add(obs.track_id)  # the card under it shows again
            out += self._played_on_taken_back(obs, card)
        if out:
            pass  # the log was put right: the card showing again is no play of its own
        elif card is None or obs.kind == "vanished":
            pass
        elif self.centre.contains(here):
            out += self._centre(obs, card, t)
        elif card.is_goal and obs.kind in ("appeared", "moved") and any(z.contains(here) for z in self.goal_zones):
            if self.game.in_play(card.id) is None and not self._ever_played(card.id):
                out += self._play(obs, card, t)
        # the play first: a pile change reported before it would make its card look not on top
        out += self._piles(obs, t)
        fixes = [o for o in out if not isinstance(o, dict)]
        # a Correction re-scores the whole log, where every new action already is: given as well, an action
        # would be applied (and written) twice
        return fixes or out

    def _centre(self, obs, card, t) -> list:
        came_from = obs.from_xy
        if obs.kind == "moved" and came_from is not None and self.centre.contains(came_from):
            return []  # nudged within the pile
        if obs.kind not in ("appeared", "moved", "relabelled"):
            return []
        if self.game.in_play(card.id) is not None:
            return self._misread_unseen(obs, card) or self._unseen_on_top(obs, card)
        again = self._first_read_again(obs, card)
        if again is not None:
            return [again]
        first, frame = self._plays.get(obs.track_id, (None, None))
        i = self._index_of(first)  # None: undone meanwhile
        # a foul put back after it (``_foul_taken_back``) was taken back: no card lies on this one
        later = i is not None and any(a.get("type") == "play" and not any(a is b for b in self._put_back)
                                      for a in self.log[i + 1:])
        if obs.kind == "relabelled" and i is not None and not later:
            if (min(self._gone.get(card.id, -1), self._left.get(card.id, (None, -1))[1]) >= frame
                    and card.id not in self._read_as.get(obs.track_id, ())):
                # taken off its pile (a back read where it lay, and not read on a pile since) no sooner than the
                # last play was made, so after that card was read here: a card laid on it, not it misread (a twin
                # read on another pile is no sign it is back: seed 9205's W55). Seed 9190, fouls 0.2: R32 laid
                # against the rules, its pile track held meanwhile; W26 left its pile as R32 was played and was
                # read on it 0.5 s later: R32's foul was put right to W26 and went uncalled. Seed 9205: W55 left
                # its pile 0.4 s after R14 was played and was laid on it against the rules; taken for R14 misread
                # late, a goal was called, then taken back as R14 showed again, and the foul went uncalled.
                # Not a card this play was read as before: the camera flickering, whatever a pile showed (seed
                # 9171: W19 read W18 for a look, a card on a pile read W19 then a back meanwhile)
                return self._play(obs, card, t)
            if (card.id != first["card"] and card.id in self._read_as.get(obs.track_id, ())
                    and obs.confidence >= self._sure.get(obs.track_id, 0.0)):
                return [self._read_back(obs, card, i, first, frame)]
            refused = self.game.in_play(first["card"]) is None  # the engine never laid the first read
            soon = obs.frame - frame <= self.correction_frames * (2 if refused else 1) and not (
                self.game.in_play(first["card"]) == "pile" and self.game.top is not None
                and self.game.top.id == first["card"] and self.game.is_legal(card.id))
            if (soon and refused and obs.frame - frame > self.correction_frames
                    and card.id not in self._read_as.get(obs.track_id, ()) and self._played_on(card) is not None):
                # read for longer than a misread lasts, the refused card was a card, and this one was laid on
                # it (it follows it, not the engine's top): the table played on (seed 9092: W23 read 0.5 s
                # after a goal whose keeper's card the camera missed, then W11 laid on it)
                return self._play(obs, card, t)
            if soon or self._misread_late(first, card, obs):
                fixed = self._read_as_card(first, card, obs)
                # the cheap check first: ``_fouls_with`` replays the whole log on a scratch engine
                if not soon and (self._late_from_nowhere(first, card, obs) or self._fouls_with(i, fixed)):
                    # a late read (``_misread_late``: the engine took the play, its card is the top)
                    # that would make a foul of it: a misread either way (as a new card it would not
                    # follow the top), so no call (seed 9036: W42 read
                    # W38 at 0.55 for a look, 1.2 s after it was laid; W38 lay covered on the
                    # player's pile, and the correction was called not_on_top); or a card from nowhere read
                    # on one that had just left its pile (``_late_from_nowhere``)
                    return []
                self.log[i] = fixed
                table = self._unseen_tops(card.id, fixed.get("player"), i)
                if table is not None:
                    # as for a new play (``_unseen_first``): the card the camera never saw covered on his piles
                    # came from one it saw out of date, not from under another top (seed 9145, fouls 0.2:
                    # R41, read W29 for a look, put right and called not_on_top; six false calls followed)
                    self.log.insert(i, camera_action(table, fixed.get("t", self._t), fixed.get("frame")))
                    i += 1
                self._plays[obs.track_id] = (fixed, frame)
                # a late read taken for a misread may yet prove a card laid on it (``_undo_late``), unless
                # the play was read as that card before (the camera flickering between two readings)
                self._sure[obs.track_id] = obs.confidence
                seen = self._read_as.setdefault(obs.track_id, {first["card"]})
                self._late = None if soon else (obs.track_id, first, fixed, frame, card.id in seen)
                seen.add(card.id)
                self._corrected[self._face(first["card"])] = (
                    obs.track_id, first, fixed, obs.frame, card.id in self._play_reads.get(obs.track_id, ()))
                out = [Correction(i, fixed)]
                gone = self._play_gone.get(obs.track_id)
                if (gone is not None and first.get("player") is not None and not self._showing(first["card"])
                        and self._face(first["card"]) != self._face(card.id)):
                    # the first card had left its player's pile, a back read where it lay, before it was read here,
                    # and lies on no pile: it was a card too, laid and taken back into the hand (seed 9140, fouls
                    # 0.2: R2's R42 read 0.3 s at 0.91, then R1's R06 as R42 went back to R2's hand)
                    out += self._foul_taken_back(first["card"], first["player"], obs.frame)
                return out
        if self._top_misread(obs, card):
            if obs.confidence >= GLIMPSE_SURE:  # read surely: if it shows on a pile soon, it was a foul taken back
                on = next((a for a in reversed(self.log) if a.get("type") == "play"), None)
                self._dismissed[self._face(card.id)] = (card.id, obs.frame, self._t, on)
            return []
        return self._play(obs, card, t)

    def _first_read_again(self, obs, card) -> Correction | None:
        """The centre track shows ``card`` again as a foul laid on it is taken back, where a play was first read
        as ``card`` and corrected late to another card (``_misread_late``, kept in ``_corrected``), now the
        engine's top: the camera flickered between two readings of one card, and the reading it settles on
        once uncovered is the one it played first. The play is put back to ``card``; the foul stays, on it.
        Seed 9204, fouls 0.2: W15 read W16, W15, W16 in turn and put right to W16 late; R13 laid on it against
        the rules and taken back; W15, showing again, was played anew and called not_on_card on W16."""
        entry = self._corrected.get(self._face(card.id))
        game = self.game
        if obs.kind != "relabelled" or entry is None or obs.confidence < LATE_SURE:
            return None
        track, first, fixed, at, _ = entry
        i = self._index_of(fixed)
        later = [a for a in self.log[i + 1:] if a.get("type") == "play"] if i is not None else []
        if (track != obs.track_id or first["card"] != card.id or i is None or obs.frame - at > RETURN_FRAMES
                or game.top is None or game.top.id != fixed["card"] or not later
                or later[-1]["card"] != obs.old_label or any(game.in_play(a["card"]) is not None for a in later)
                or self._showing(card.id)):
            return None
        del self._corrected[self._face(card.id)]
        self.log[i] = first
        self._plays[track] = (first, first.get("frame", obs.frame))
        self._read_as[track] = {card.id, fixed["card"]}
        self._sure[track] = obs.confidence
        self._late = None
        return Correction(i, first, why=f"{card.id} again under {obs.old_label}: {fixed['card']} was a misread")

    def _read_back(self, obs, card, i: int, first: dict, frame: int) -> Correction:
        """The last play (log index ``i``, made at ``frame`` as ``first``) read back, at least as surely, as
        ``card``, a card it was read as before: the camera flickers between two readings of one card,
        whenever it comes (seed 9057: R39, then R35 at 0.52 for 0.6 s under a hand, then R39 at 0.78
        again; R35 was called not_on_card and R39 played anew). Read back less surely, the next card
        tells (``_undo_late``; seed 9062, fouls 0.2: W50 and W52 in turn at 0.42-0.55)."""
        fixed = self._read_as_card(first, card, obs)
        self.log[i] = fixed
        table = self._unseen_tops(card.id, fixed.get("player"), i)
        if table is not None:  # as in ``_centre``'s corrections
            self.log.insert(i, camera_action(table, fixed.get("t", self._t), fixed.get("frame")))
            i += 1
        self._plays[obs.track_id] = (fixed, frame)
        self._late = (obs.track_id, first, fixed, frame, True)  # the next card may still tell (a flicker)
        self._sure[obs.track_id] = obs.confidence
        return Correction(i, fixed, why=f"{card.id} again: {first['card']} was a misread")

    def _read_as_card(self, play: dict, card, obs) -> dict:
        """``play`` with its card read as ``card`` instead, and who laid that card (none when no telling)."""
        fixed = {**play, "card": card.id}
        player = self._who(obs, card)
        if player is None:
            fixed.pop("player", None)
        else:
            fixed["player"] = player
        return fixed

    def _top_misread(self, obs, card) -> bool:
        """The top of the centre pile read anew as a card the engine would refuse there, that was never
        seen on a player's pile and that no player can be named for: the top misread, not a foul (seed
        9057: R39 read R35 for a while, 1.5 s after it was laid; R35 was in nobody's view). Cards are
        laid from the players' piles, which the camera watches: a card laid straight on the top is read
        as a relabel of it, but it was seen on its pile before. Not when a card the camera missed, or a
        refused card the table played on, explains it (``_missed``, ``_played_on``)."""
        game = self.game
        if not (obs.kind == "relabelled" and game.top is not None and obs.old_label == game.top.id
                and not game.is_legal(card.id) and card.id not in self._left):
            return False
        # seen on a pile only as the top's own card misread there, read as the two in turn: no sign it is a
        # card of its own (seed 9179, fouls 0.2: R2's R30 read R28 now and then on his pile, then on the
        # centre for a look at a time, three times; each R28 was called not_on_card)
        flicker = frozenset((card.id, game.top.id)) in self._pile_flickers and not self._on_a_pile(card.id)
        return ((flicker or (card.id not in self.seen_on and self._who(obs, card) is None))
                and self._played_on(card) is None and self._missed(card, obs) is None)

    def _free_twin(self, card, obs):
        """The recogniser names a goal card and its twin alike, as the first twin (``same_faces``: the
        faces differ only in a small printed id). On the centre, that card already set aside as a
        goal is its twin when the twin would follow the top: the same scorer's second goal. Not when
        the twin would not follow (the goal card itself lingering on the centre after its goal, seen
        again after a hand: the pile is empty then, and a goal card never starts one): no call, unless
        a card of that face rests in a goal area meanwhile (``_in_goal``): the card set aside lies there,
        so this one is the twin, laid against the rules (seed 9165, fouls 0.2: W1's W56 laid for 0.3 s
        after a goal while W2's W55 lay in the goal area since its goal; read W55, it went uncalled)."""
        if self.game.in_play(card.id) != "aside":
            return card
        free = [c for c in self._twins.get(self._face(card.id), ()) if c != card.id and self.game.in_play(c) is None]
        twin = next((c for c in free if self.game.is_legal(c)), None)
        if twin is None and free and any(face == self._face(card.id) for tid, face in self._in_goal.items()
                                         if tid != obs.track_id):
            twin = free[0]
        return card if twin is None else self.game.catalog[twin]

    def _read_left(self, card, obs):
        """A relabel on the centre to a card on no pile, that left none, is the one card among its
        recent reads that left a player's pile since the last play and lies on none now: cards are laid from
        the piles, so that card went somewhere, and the other came from nowhere the camera saw (seed 9248,
        fouls 0.2: R1's R28 left his pile and was laid on W47 against the rules, read R28, R30, R30, R28;
        R30, on no pile (once R28 misread there), was called not_on_card and R28's foul went uncalled)."""
        if (obs.kind != "relabelled" or card.id in self._left or card.id in self._gone or self._on_a_pile(card.id)
                or self.game.in_play(card.id) is not None):
            return card
        last = next((a.get("frame", 0) for a in reversed(self.log) if a.get("type") == "play"), 0)
        since = max(last - self.correction_frames, obs.frame - self.missed_frames)
        left = {c for c in obs.reads if c != card.id and c in self.game.catalog.cards and c in self._left
                and c not in self._left_flicker and self._left[c][1] >= since
                and not self._on_a_pile(c) and self.game.in_play(c) is None}
        return self.game.catalog[left.pop()] if len(left) == 1 else card

    def _misread_late(self, first: dict, card, obs) -> bool:
        """A relabel of the last card played, later than ``correction_frames``, is a misread after all
        when, as a new card, it would be refused (it does not follow that card) but it follows the card
        under it, as the card first read did: the label settled late on an unsure read. A foul on the
        new card would be false (seed 9008: R43 read first as R47, 1.1 s later as R43, called
        not_on_card). Not when a card that left its pile unseen explains it as a new card laid on a
        missed one (``_missed``; seed 9027: W44, then W50 missed, then W60 on it)."""
        game = self.game
        if game.top is None or game.top.id != first["card"] or len(game.pile) < 2 or game.is_legal(card.id):
            return False
        if obs.confidence < min(LATE_SURE, self._sure.get(obs.track_id, 0.0)):
            # read unsurely, and less surely than the play was: the next card sliding over it (seed 9153, new
            # detector: W50 read at 0.86 and played; 0.4 s later, as W43 slid on, read W52 at 0.42-0.46 and
            # put right to W52, laid by nobody)
            return False
        # read as this card before: the camera flickers between two readings, and no card laid since can
        # explain it (seed 9078: W12 read W13, W12, W13, W12 at 0.49-0.79; W16, covered on its pile meanwhile,
        # was taken as laid unseen under a second W12)
        flicker = card.id in self._read_as.get(obs.track_id, ())
        return (game.in_play(card.id) is None and game.follows(game.pile[-2].id, card.id)
                and (flicker or self._missed(card, obs) is None))

    def _late_from_nowhere(self, first: dict, card, obs) -> bool:
        """A late read of the last play (``_misread_late``) as a card that lies on no pile and left none the
        camera saw, where the card played had left its player's pile (a back read where it lay) just before it
        was read here: that card is the one laid, the late read the misread (cards are laid from the piles).
        Seen on a pile only as the played card's own reading there, the two read in turn, counts as never seen
        on one. Seed 9269, fouls 0.2: W2's W52 read W50 and W52 in turn on his pile, left it as W52 and was
        read W52 at 0.47-0.82 for 0.9 s, then W50 at 0.72-0.76 as the next card came: the play was put right
        to W50."""
        never_on = card.id not in self.seen_on or (
            frozenset((card.id, first["card"])) in self._pile_flickers and self.seen_on[card.id] == first.get("player"))
        return (never_on and self._play_gone.get(obs.track_id) is not None
                and self._from_a_pile.get(obs.track_id, False) and card.id not in self._left
                and card.id not in self._gone and not self._on_a_pile(card.id))

    def _play(self, obs, card, t) -> list:
        self._from_a_pile[obs.track_id] = ((card.id in self._left and card.id not in self._left_flicker)
                                           or obs.kind != "relabelled")
        undone = self._undo_late(card)
        played_on = self._played_on(card) if undone is None else None
        action = {"type": "play", "card": card.id}
        player = self._who(obs, card)
        out = []
        under = self._under_a_foul(obs, card)
        missed = self._missed(card, obs) if played_on is None and undone is None else None
        if missed is not None:  # the card before it, unseen on the centre: its play first
            left = self._left[missed[0]][1]
            out += self._unseen_first(missed[0], missed[1], t, obs.frame)
            out.append(self._emit({"type": "play", "card": missed[0], "player": missed[1], "unseen": True},
                                  t, obs.frame))
            self._played(missed[0], obs.frame)
        block = list(out)  # the missed card's play, after its pile's tops
        tops = self._unseen_first(card.id, player, t, obs.frame)
        out += tops
        if player is not None:
            action["player"] = player
        if undone is not None:
            out = [undone]  # the session re-scores the whole log, this play in it
        elif played_on is None:
            out.append(action)
        else:
            # the refused card counts after all; the session re-scores the whole log, this play in it
            i, tid = played_on
            fixed = {**self.log[i], "missed_before": True}
            self.log[i] = fixed
            self._plays[tid] = (fixed, self._plays[tid][1])
            out = [Correction(i, fixed, why=f"{card.id} was laid on {fixed['card']}: a card before it was missed")]
        self._emit(action, t, obs.frame)
        if missed is not None and undone is None and played_on is None:
            moved = self._missed_in_place(block, left)
            out = out if moved is None else [moved]
        elif under is not None and undone is None and played_on is None:
            moved = self._missed_in_place([*tops, action], *under)
            out = out if moved is None else [moved]
        self._plays[obs.track_id] = (action, obs.frame)
        self._read_as[obs.track_id] = {card.id}
        self._play_reads[obs.track_id] = tuple(obs.reads)
        self._landed[obs.track_id] = getattr(obs, "since", None)  # the tracker's; a relabel's new card has none
        gone = self._gone.get(card.id)  # it left its pile lately, a back read where it lay
        self._play_gone[obs.track_id] = gone if gone is not None and obs.frame - gone <= self.missed_frames else None
        self._sure[obs.track_id] = obs.confidence
        self._played(card.id, obs.frame)
        return out

    def _index_of(self, action: dict | None) -> int | None:
        """Where this very action (not an equal one) stands in the log; None when it is gone."""
        return next((k for k, a in enumerate(self.log) if a is action), None)

    def _played(self, card_id: str, frame: int) -> None:
        """What a play settles: the card is no longer covered on a pile or awaited from one."""
        self._covered.pop(card_id, None)
        self._left.pop(card_id, None)
        self._twin_left.pop(self._face(card_id), None)
        if self.game.catalog[card_id].is_goal:
            self._covered.clear()  # everyone picks up and lays out again
            self._goal_frames.append(frame)
        for p, cards in self.zone_cards.items():  # the card under it may be reported now
            for tid, (label, x, y, masked) in list(cards.items()):
                if masked is not None and masked[0] == card_id:
                    cards[tid] = (label, x, y, None)
                    self._dirty.add(p)

    def _scratch(self, actions: list[dict]) -> CrazyKickGame:
        """A scratch engine that has taken ``actions`` (the adapter never changes its own game)."""
        return replayed(CrazyKickGame(self.game.setup, self.game.catalog), actions, ACTION_ADAPTER.validate_python)

    def _fouls_with(self, i: int, fixed: dict) -> bool:
        """Whether the log with action ``i`` replaced by ``fixed`` has more violations than the game now."""
        scratch = self._scratch([fixed if k == i else a for k, a in enumerate(self.log)])
        return len(scratch.violations) > len(self.game.violations)

    def _last_play(self) -> tuple[int, int | None] | None:
        """(log index, centre track or None) of the last play in the log; None when there is none."""
        i = next((k for k in range(len(self.log) - 1, -1, -1) if self.log[k].get("type") == "play"), None)
        if i is None:
            return None
        return i, next((k for k, (a, _) in self._plays.items() if a is self.log[i]), None)

    def _by_nobody(self, play: dict) -> bool:
        """A play of a card nobody can be named for: no player, never seen on a pile, not one that left a pile."""
        return "player" not in play and play["card"] not in self.seen_on and play["card"] not in self._left

    def _who(self, obs, card) -> str | None:
        """Who laid ``card``: the pile it came from, the pile it last lay on, the pile it was glimpsed on
        lately (read surely for a look: ``look``), else the one nearest pile of its team; None when there
        is no telling."""
        team = self.game.teams[card.team]
        if obs.from_xy is not None:
            for p in team:
                if self.pile_zones[p].contains(obs.from_xy):
                    return p
        gone = {q: how for q, how in self._twin_left.get(self._face(card.id), {}).items()
                if q in team and obs.frame - how[1] <= self.missed_frames}
        if gone:
            # a face of twins is on two piles: the one that left a pile lately (and is not read there since)
            # came, whatever was read on the other (seed 9113: R2's R53 left his pile as the piles were laid
            # out anew after a goal; R1's twin R54, read alike, showed on his in the same look). Of two, the
            # one a back showed under, then the later (seed 9122: W1's W58 left, a back under it; W2's
            # W57 had W48 laid on it in the new layout as W58 came to rest)
            return max(gone, key=lambda q: gone[q])
        left = self._left.get(card.id)
        if left is not None and left[0] in team and obs.frame - left[1] <= self.missed_frames:
            # it just left that pile (a back showed under it): a misread of another pile's top as
            # this card may have moved ``seen_on`` (seed 9041: R30 on R2's pile read R28 now and then)
            return left[0]
        if self.seen_on.get(card.id) in team:
            return self.seen_on[card.id]
        glimpse = self._pile_glimpsed.get(card.id)
        if glimpse is not None and obs.frame - glimpse[1] <= self.missed_frames:
            # read surely on his pile for a look only, as the hand took it (seed 9062, fouls 0.2: R2's R60
            # turned up and picked up at once, read once there at 0.89, then laid on the centre)
            return glimpse[0]
        if len(team) == 1:
            return team[0]
        x, y = obs.from_xy if obs.from_xy is not None else (obs.x, obs.y)
        dist = sorted((math.dist((x, y), self.pile_zones[p].centre), p) for p in team)
        if dist[1][0] - dist[0][0] > 0.25 * dist[1][0]:
            return dist[0][1]  # clearly nearer one pile than any other of the team
        return None

    @staticmethod
    def undoable(action: dict) -> bool:
        """What the operator's undo takes back: a play or a ball out, never the pile tops."""
        return action.get("type") != "table"

    def _ever_played(self, card_id: str, left: int | None = None) -> bool:
        """Whether the log plays ``card_id`` since the centre was last gathered up: after a goal (its card
        set aside) or a ball out every card on the centre goes back to its team (rule 12; "If the Ball Goes
        Out"), to be laid again (seed 9180, fouls 0.2: W1's keeper W02, played in the first attack, kicked
        off the second and was covered within 0.3 s; taken for played, it was not looked for, and seven
        plays after it were called ``no_keeper``). ``left``: the frame the card last left its pile; a play
        the engine refused, read before then, went back to that pile and does not count (seed 9228, fouls
        0.2: R1's R30 refused, taken back, laid again and covered by R55 within 0.2 s; R55 was called)."""
        for a in reversed(self.log):
            if a.get("type") == "ball_out":
                return False
            if a.get("type") == "play":
                if a.get("card") == card_id:
                    return not (left is not None and a.get("frame", left) < left
                                and self.game.in_play(card_id) is None)
                if self.game.in_play(a["card"]) == "aside":
                    return False  # a goal: the cards under it went back
        return False

    # ---- the player piles --------------------------------------------------------------------

    def _piles(self, obs, t) -> list:
        """Keep the cards resting in each pile zone; a ``table`` action for the players whose
        visible tops changed."""
        changed, self._dirty = self._dirty, set()
        for p, cards in self.zone_cards.items():  # a replaced top not played in time was covered
            for tid, (label, x, y, masked) in list(cards.items()):
                if masked is not None and obs.frame - masked[1] > self.pile_wait_frames:
                    cards[tid] = (label, x, y, None)
                    # it never reached the centre: it lies under this card; not when the tops changed
                    # about a goal, as everyone lays out again (seed 9070: R42 laid on another pile as
                    # the piles were laid out anew, then called not_on_top)
                    if not masked[2] and not self._about_goal(masked[1]):
                        self._covered[masked[0]] = p
                    changed.add(p)
        before, back = None, []
        for p, cards in self.zone_cards.items():
            if obs.track_id in cards:
                before = cards.pop(obs.track_id)
                changed.add(p)
                # a top read anew as the piles were laid out about a goal hides no card on its way: it
                # leaves like any other (seed 9180, fouls 0.2: W02 laid out, kicked off 0.4 s later)
                if ((before[3] is None or self._about_goal(before[3][1])) and before[0] in self.game.catalog.cards
                        and self.game.catalog[before[0]].team == self.game.team_of[p]
                        and (obs.kind == "vanished" or obs.label not in self.game.catalog.cards)):
                    # gone from his pile (a back shows under it, seed 9008): maybe to the centre
                    self._leaves(before[0], p, obs.frame, removed=True)
                    if obs.kind == "relabelled":  # read there as a back: taken off, not hidden by a hand
                        self._gone[before[0]] = obs.frame
                elif (before[3] is not None and obs.kind == "relabelled" and obs.label not in self.game.catalog.cards
                        and before[0] in self.game.catalog.cards and self.game.in_play(before[3][0]) is None):
                    # a top that replaced another (``masked``: that one maybe on its way to the centre) taken off in
                    # turn, a back read where it lay, before that one was played: if it shows on the centre, it had
                    # been turned up onto the other, which is no card missed under it (``_missed``)
                    self._turned_onto[before[0]] = before[3][0]
                    # and it left this pile all the same: a twin of its face read on another pile meanwhile
                    # is no sign it came from there (seed 9258, fouls 0.2: W1's W56, turned up onto W04, read
                    # W55, laid for a goal as the piles were dealt anew; W2's new top W55 was read in that look,
                    # and the goal went to W2)
                    if len(self._twins.get(self._face(before[0]), ())) > 1:
                        self._leaves(before[0], p, obs.frame, removed=True)
        if obs.kind != "vanished":
            for p, z in self.pile_zones.items():
                if z.contains((obs.x, obs.y)):
                    if obs.label in self.game.catalog.cards:
                        # A top replaced by the card under it while the top is on its way to the
                        # centre: unseen until it is played, else it would look not on top.
                        masked = before[3] if before is not None else None
                        old = obs.old_label if obs.kind == "relabelled" else None
                        if (masked is not None and masked[0] == obs.label
                                and obs.frame - masked[1] <= 2 * self.correction_frames):
                            # read back soon: the top never left, and what was read meanwhile was a misread
                            # (seed 9027: W52 read W50 for a look; W50 was then taken as gone unseen). Read
                            # for longer, it was a card turned up on the top that left again (seed 9059,
                            # fouls 0.2: W27 on W53 for 1 s, then on the centre for a look under R34)
                            masked = None
                            if old is not None:
                                self._left.pop(old, None)
                        elif (old in self.game.catalog.cards and self.game.in_play(old) is None
                                and self.seen_on.get(old) == p):
                            # read as this card before, then as the old top again: the two may be one
                            # card the camera flickers on, so it is no evidence the old top lies covered
                            # (seed 9063, fouls 0.2: W30 read W28 now and then; played, it was called
                            # not_on_top)
                            # read unsurely, the new top may be the old one misread (seed 9074: W1's W42
                            # read W38 at 0.53 for a second, then played and called not_on_top): no
                            # evidence either
                            flicker = (obs.label in self._pile_reads.get(obs.track_id, ())
                                       or obs.confidence < COVER_SURE)
                            masked = (old, obs.frame, flicker)
                            self._leaves(old, p, obs.frame, removed=False, flicker=flicker)
                        # shows anew on his pile, where nothing or a back lay: not the top read anew after
                        # a misread of it as another card (that was no card leaving)
                        anew = before is None or before[0] not in self.game.catalog.cards
                        late = (self._late_read_taken_back(obs.label, p, obs.frame)
                                or self._named_when_back(obs.label, p, obs.frame)) if anew else []
                        if late:
                            back += late
                        elif anew and self._face(obs.label) in self._corrected:
                            back += self._foul_taken_back(obs.label, p, obs.frame)
                        elif anew and self._face(obs.label) in self._dismissed:
                            back += self._dismissed_taken_back(obs.label, p, obs.frame)
                        elif anew:
                            back += self._nobodys_play_taken_back(obs.label, p, obs.frame)
                        self.zone_cards[p][obs.track_id] = (obs.label, obs.x, obs.y, masked)
                        self._pile_reads.setdefault(obs.track_id, set()).add(obs.label)
                        self._note_pile_flicker(obs)
                        self._covered.pop(obs.label, None)
                        self._left.pop(obs.label, None)
                        self._twin_left.get(self._face(obs.label), {}).pop(p, None)
                        self._last_xy[obs.label] = (obs.x, obs.y)
                        if (self.game.catalog[obs.label].team == self.game.team_of[p]
                                and not self._showing_elsewhere(obs.label, p)):
                            self.seen_on[obs.label] = p
                    changed.add(p)
                    break
        fixes = back
        left = self._left.get(before[0]) if before is not None else None
        if left is not None and left[1] == obs.frame:
            fixes += self._missed_under(before[0], left[0], obs.frame)
            if not fixes and obs.kind == "vanished":
                fixes += self._glimpsed_under(before[0], left[0], obs.frame)
            if not fixes:
                fixes += self._read_under_refused(before[0], left[0], obs.frame)
        piles = {}
        for p in sorted(changed, key=self.game.players.index):
            tops = self._tops(p)
            if tops is not None and tops != self.game.tops.get(p):
                piles[p] = tops
        return ([self._emit({"type": "table", "piles": piles}, t, obs.frame)] if piles else []) + fixes

    def _note_pile_flicker(self, obs) -> None:
        """A pile top relabelled back to what it was read as just before: the two are one card flickering."""
        if obs.kind != "relabelled" or obs.old_label is None:
            return
        last = self._pile_relabel.get(obs.track_id)
        if (last is not None and last[:2] == (obs.label, obs.old_label)
                and obs.frame - last[2] <= 2 * self.pile_wait_frames):
            self._pile_flickers.add(frozenset((obs.label, obs.old_label)))
        self._pile_relabel[obs.track_id] = (obs.old_label, obs.label, obs.frame)

    def _about_goal(self, frame: int) -> bool:
        """Whether ``frame`` is within ``pile_wait_frames`` of a goal: everyone picks up and lays out again."""
        return any(abs(frame - g) <= self.pile_wait_frames for g in self._goal_frames)

    def look(self, frame: int, t, tracker) -> list:
        """After each look: keep the cards the tracker glimpsed (read for too few looks to be an object, or
        read on a card there as another label) at least ``GLIMPSE_SURE``: on the centre, for
        ``_glimpsed_under``; on a pile of a player of the card's team, for ``_who``. Makes no action itself."""
        for g in tracker.glimpses:
            if (g.confidence < GLIMPSE_SURE or g.label not in self.game.catalog.cards
                    or frame - g.frame > self.missed_frames):
                continue
            if self.centre.contains((g.x, g.y)):
                was = self._glimpsed.get(g.label)
                if was is None or g.frame > was[0]:
                    self._glimpsed[g.label] = (g.frame, g.confidence)
                continue
            team = self.game.teams[self.game.catalog[g.label].team]
            p = next((q for q in team if self.pile_zones[q].contains((g.x, g.y))), None)
            was = self._pile_glimpsed.get(g.label)
            if p is not None and (was is None or g.frame > was[1]):
                self._pile_glimpsed[g.label] = (p, g.frame)
        return []

    def _face(self, card_id: str) -> str:
        """The first id of the cards with ``card_id``'s face (the recogniser's name for twins)."""
        return self._faces.get(card_id, card_id)

    def _leaves(self, card_id: str, p: str, frame: int, removed: bool, flicker: bool = False) -> None:
        """``card_id`` left ``p``'s pile (maybe to the centre): ``removed`` when nothing or a back shows
        where it lay, else another card showed on it (a top replaced: maybe covered); ``flicker`` when that
        card was read there before, or unsurely (no evidence either way, ``_piles``). A face with a twin
        is also kept per player (``_twin_left``): the twins lie on two piles and may leave both."""
        self._left[card_id] = (p, frame)
        if flicker:
            self._left_flicker.add(card_id)
        else:
            self._left_flicker.discard(card_id)
        face = self._face(card_id)
        if len(self._twins.get(face, ())) > 1:
            self._twin_left.setdefault(face, {})[p] = (removed, frame)

    def _on_a_pile(self, card_id: str) -> bool:
        """Whether ``card_id`` is read on a player's pile now (awaited on the centre or not)."""
        return any(c[0] == card_id for cards in self.zone_cards.values() for c in cards.values())

    def _showing(self, card_id: str) -> bool:
        """Whether ``card_id`` lies on a player's pile now (read there, not awaited on the centre)."""
        return any(c[0] == card_id and c[3] is None for cards in self.zone_cards.values() for c in cards.values())

    def _showing_elsewhere(self, card_id: str, p: str) -> bool:
        """Whether ``card_id`` lies on top of another player's pile: a card is on one pile only, and each
        belongs to one player all game, so a read of it on ``p``'s pile meanwhile is a misread there (seed
        9054: R1's R47 read R51 now and then while R51 lay on R2's pile; R2's play of it went to R1). A top
        just read anew there (``masked``: it replaced another) counts too (seed 9087: W2's W12 read W13 on
        his pile, then W1's W09 read W13 for 0.4 s: W13 went to W1, and W2's play of W12, read W13, was
        called not_on_top on W1)."""
        return any(q != p and any(c[0] == card_id for c in cards.values())  # a new top there too (9087)
                   for q, cards in self.zone_cards.items())

    def _tops(self, p: str) -> list[str | None] | None:
        """``p``'s visible pile tops, left to right, padded to his pile count; None when his zone
        shows more cards than he lays out (something there is not a pile top)."""
        team = self.game.team_of[p]
        cards = sorted(self.zone_cards[p].values(), key=lambda c: c[1])
        k = self.game.layout[p]
        if len(cards) > k:
            return None
        mine = [c[0] if c[3] is None else None for c in cards if self.game.catalog[c[0]].team == team]
        return mine + [None] * (k - len(mine))

    def _emit(self, action: dict, t: float | None, frame: int | None) -> dict:
        # the engine requires a time
        self.log.append(camera_action(action, t if t is not None else self._t, frame))
        return action
