"""From what the camera saw (tracker observations in table millimetres) to Crazy actions.

- A card that comes to rest in the trick area is a play. Who played it: the player whose turn it is,
  unless the card lies clearly in front of another player (well inside that seat's direction, and far
  enough from the centre for a direction to mean something) who has not played to this trick yet;
  then that player played out of turn, and the engine says so. (Cards of true plays lay 8-75 mm from
  the centre in bench_referee's videos; one 18 mm off was taken as the next seat's, out of turn.)
- A card whose label the tracker corrects soon after it was played (it was misread while it slid in)
  corrects that play: the pipeline re-scores the log with the corrected action and drops stale
  announcements. A relabel back to a card the play was already read as is the camera flickering
  between two readings of one card (B1, then B4 for 0.3 s, then B1 again: seed 9020), whenever it
  comes: the play takes that card again. Any other later relabel, or one of a card with plays after
  it, is another card laid right on top of it, if it is read surely (a card partly covered by the
  next one is misread less surely:
  0.53 and 0.66 mean confidence against 0.78 and 0.86 for true cards on top, seeds 9001-9008; 0.73 for
  Y8 read Y6 in seed 9017 against 0.90 and 0.90 for the true ones in 9017-9032 and 9051-9054), and
  unless the card below belongs to a trick already complete: nobody leads onto a trick
  still lying there, so that is the trick being gathered, a card half hidden by the hand (an R13 read
  three times as R3 while it was picked up, bench_referee seed 9003), and no play.
- A card that cannot be on the table is no play: one already played this round as often as the deck(s)
  hold it (the same card seen again after a hand hid it for long, or a misread), or one taken out of
  the deck for this deal. The camera made a mistake there, not the player; calling a foul would be
  false. If the tracker later reads that card as one that can be on the table, that is the play, made
  when the card came to rest: when other cards were played to the trick meanwhile, it goes before them
  and who played each of those is judged again in that order. A
  play just made by a resting card read anew (taken as a card laid on top) that is then read back as
  a card already on the table was the camera flickering: the play is taken back; read back as the card
  below it, however unsurely and whenever (no play after it), too (seed 9061: B3 read B4 at 0.81, then B3
  at 0.59).
- A new label read more surely than the play at the very spot the card lies (``SAME_SPOT_MM``) puts that
  play right, whenever it comes: a card laid on top lands where a hand puts it, a few mm off at least
  (seed 9115, standard cards: Bob's KC read KS, then KC 0.9 mm from there 21 frames on, was taken as
  Cyd's card on top; every card after went to the next player). Not when the play was read surely
  (``COVERED_SURE``) and hidden since: a card was laid on it (seed 9179: Bob's 8H 0.4 mm on Ann's QH).
  A relabel soon after a play to a card that lies in this trick apart from it (played by another) is
  that play misread, not the camera flickering back (seed 9179: Dee's KS read QS 35 mm from Cyd's QS).
- A card read as one already played whose track reads, in two looks or more, one other card that can
  be on the table (once at least ``GLIMPSE_SURE``) is that card (``_read_possible``; seed 9182: QS/QC);
  failing that, the one card of its number in another suit it reads as once at least ``SLIP_SURE`` that
  follows the open trick's lead (``_slipped_suit``; seed 9219: Ann's KS read KC, then QS and KS in turn).
- A card of the trick just completed (nothing played since) read in its last three reads as the card of
  its number in the colour its trick agrees with (``_fits``), once at least ``GLIMPSE_SURE``, is that card
  (``_read_as_followed``; seed 9188: Cyd's KS read KC when laid, KS before the sweep; it ended the round).
- A lead laid clearly in front of a player the engine says lost the trick just completed, when exactly one
  card of that trick read as its number in the followed colour makes that player the winner, puts that card
  right (``_led_by_its_winner``; seed 9203: Bob's KS read KC throughout, his next lead QD called out of turn).
- A card read two ways (a club or a spade, say) is the reading the other cards of its trick agree with
  (``_fits``): a lead is what its followers followed, a follower what follows the lead. Most plays follow
  suit, so that reading is the likely one; a card read one way only is never changed so.
- A card first read as a back (slid in face down, its face under the hand) is played when its face is
  first read.
- A card the tracker already knew elsewhere (seen at rest outside the trick) that comes to rest in the
  trick area is played there, like a card that appears there.
- A card that appears in the trick just after (``DISTURBED_FRAMES``) a card taken as laid on top of another,
  or read less surely than it and played right beside a card of the trick, as the last play (though it
  completed the trick: seed 9184), shows that was this card arriving: the other one misread under its hand
  (seed 9077: Bob's Y3 read Y5 at 0.82 as Cyd's Y13 slid in, in the same look; seed 9107: Ann's 2S read AC
  18 mm off as Bob's AS came). The play on top is taken back; a card
  read anew that soon after another card came is no card on top (seed 9082: Y1 read Y3 just after Y11 came),
  nor one read too unsurely for a card on top when another card came with it, in that look or just after,
  however surely it reads as it firms up (``_came_with_another``; seed 9214: Bob's 6C read 7C as Cyd's 8C came).
  A card come to rest read less surely than ``GLIMPSE_SURE`` as another card came is played only once its
  reads firm up to that within ``correction_frames`` (``_firmed_up_new``; seed 9223: a 3S read 0.51 beside
  Dee's 4C as it came, a ghost of the hand, was played as Ann's and her AC after it held as a lead).
- Nobody leads onto a complete trick still lying there: a card turning up while one does waits (``look``,
  after every look) until the trick's cards are gone, and is played then only if it is still in view; a
  card of the trick misread under the gathering hand leaves with them (seed 9052: G12 read G4 16 mm off,
  a phantom lead called out of turn). A true lead laid that early is played late, not lost.
- A trick gathered one card short (every card of the open trick gone, one card missing) had its last card
  laid too briefly in view: a glimpse of a card in the trick area since the trick's last play
  (``Tracker.glimpses``, read at least ``GLIMPSE_SURE``; one away from the trick's cards first, then the
  surest) is that play (seed
  9072: Ann's Y13 read once at 0.79 before the sweep; her next lead was taken for the old trick's last
  card and every card after went astray). With no such glimpse the play is made unread (``UNREAD``, seed
  9176: Bob's QS read 5C, 5S, QC, never at 0.7): the engine then takes whoever leads next as the trick's
  winner (of those who can have won it; the lead is theirs whose seat the card lies towards) and works
  the card out at the end of the round. Not when the engine refused a play made to that trick
  (``_refused_here``): its cards were seen, one judged wrongly. At the end of a
  recording (``finish``) a trick whose cards have all been out of view for ``END_GONE_FRAMES`` counts as gone;
  so it does at once, in play, when a card the tracker still holds that never lay still (read as it slid in,
  then covered) can be its last card: it is played then, not when the tracker lets the tracks go (9130).
- Cards leaving the trick area (a trick gathered) need no action: the engine closes a trick on its
  last card. The round choice is spoken, not seen: it comes from the operator (a key, a flag).

The adapter reads the engine but never changes it: it returns actions, and the caller applies them.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ...tracker import Observation
from ..adapters import Correction, camera_action, replayed
from .actions import ACTION_ADAPTER, UNREAD
from .cards import Card, CardError, parse_card
from .rules import CrazyGame, trick_winner

__all__ = ["CrazyAdapter", "Correction"]

SURER_BY = 0.1  # a soon relabel corrects a play only when read at least about as surely as the card it replaces


class CrazyAdapter:
    DISTURBED_FRAMES = 9  # a card arriving this soon before or after a card read anew shows that was a misread
    BESIDE_UNSURE_FRAMES = 15  # the same for a card read beside a trick card less surely than GLIMPSE_SURE
    WAIT_FRAMES = 30  # a card waits at most this long (1 s at 30 fps) for the trick under it to be gathered:
                      # a track of it kept alive by other reads there must not hold the next lead for long (9081)
    SLIP_SURE = 0.5  # a card read as one already played is the card of its number in another suit read once so surely
    GLIMPSE_SURE = 0.7  # a card glimpsed as a trick one card short was gathered is its last one if read so surely
    GLIMPSE_APART_MM = 20.0  # ... and this far from every card of the trick (nearer, one of them misread)
    END_GONE_FRAMES = 15  # at the end of a recording, a card unread this long (0.5 s at 30 fps) ...
    END_GONE_LOOKS = 2    # ... and not even sighted faintly in this many looks is gone
    SWEPT_GONE_FRAMES = 6  # in play, with its last card glimpsed as it slid in: a trick unread this long (0.2 s)
    SAME_SPOT_MM = 3.0  # a new label this near where a played card lay is that card read anew (about the
                        # position noise of a resting card: a card laid on top lands farther off)
    ON_TOP_APART_MM = 10.0  # a new label read this far from where the played card lay: a card laid on top
    SETTLED_FRAMES = 18  # a hand's misread of a card lasts while the hand is there: a label kept this long after is not one
    COVERED_SURE = 0.8  # a play read this surely, then hidden a look or more, then read as another card at its very
                        # spot: a card laid right on top of it, not the play read right at last (``_covered``)

    def __init__(self, game: CrazyGame, layout, rounds: list[str] | None = None, seat_margin: float = 0.5,
                 correction_frames: int = 20, seat_radius_mm: float = 30.0, on_top_confidence: float = 0.75):
        """``layout``: the Crazy layout for this many players (seat k = the k-th player in the setup).
        ``rounds``: the round types in the order the table will choose them, when known in advance
        (a recording's notes); otherwise the operator chooses live with ``choose_round``.
        ``seat_margin``: how deep inside another seat's direction (fraction of half its wedge) a card must
        lie before it is taken as that player's out-of-turn play; ``seat_radius_mm``: how far from the
        trick's centre it must lie for that (nearer, it is whoever's turn it is).
        ``on_top_confidence``: the mean read confidence a new label of a resting card needs to be taken
        as a card laid on top of it (``GLIMPSE_SURE`` when its last three reads agree and it lies
        ``ON_TOP_APART_MM`` from where the card was played: ``_on_top_bar``)."""
        if not 0 < seat_margin <= 1:
            raise ValueError(f"seat_margin must be in (0, 1], got {seat_margin}")
        if seat_radius_mm < 0 or not 0 <= on_top_confidence <= 1:
            raise ValueError(f"seat_radius_mm must be >= 0 and on_top_confidence in [0, 1], got "
                             f"{seat_radius_mm} and {on_top_confidence}")
        self.seat_radius_mm, self.on_top_confidence = seat_radius_mm, on_top_confidence
        self.game = game
        self.trick = layout.zone("trick")
        seats = sorted(layout.zones_in("seat"), key=lambda z: z.owner)
        if len(seats) != game.n:
            raise ValueError(f"the layout has {len(seats)} seats for {game.n} players")
        cx, cy = self.trick.centre
        self._seat_angles = [math.atan2(z.anchor[1] - cy, z.anchor[0] - cx) for z in seats]
        self.seat_margin = seat_margin
        self.correction_frames = correction_frames  # a relabel this soon after a play corrects a misread
        self.rounds = list(rounds or [])
        self.log: list[dict] = []           # every action this adapter produced, in order
        self._play_index: dict[int, int] = {}  # track id -> index in log of its play
        # tracks read as a card that cannot be on the table -> (frame, t, trick) where they came to rest
        self._impossible: dict[int, tuple[int, float | None, tuple[int, int]]] = {}
        self._reads_while_impossible: dict[int, dict[str, list[float]]] = {}  # track -> label -> confidences
        self._xy: dict[int, tuple[float, float]] = {}  # track id -> where its card lay when it was played
        self._plays_of: dict[int, list[int]] = {}  # track id -> log indices of every play it made
        self._trick_of: dict[int, tuple[int, int]] = {}  # track id -> (round, trick) its last play went to
        self._read_as: dict[int, set[str]] = {}  # track id -> every card its last play has been read as
        self._seen_as: dict[int, set[str]] = {}  # track id -> every label reported for it since its last play
        self._sure: dict[int, float] = {}  # track id -> how surely its card was read when it was played
        self._lying: dict[int, tuple[int, int]] = {}  # track id -> trick, for played cards still in the trick area
        self._waiting: dict[int, tuple] = {}  # track id -> (observation, frame): cards waiting for a trick's gathering
        self._short: set[tuple[int, int]] = set()  # tricks seen gathered one card short (``_glimpsed_last``)
        self._on_top: tuple | None = None  # (track, card below, frame, log index) of a play made as a card on
                                           # top, or (card below None) made right beside a card of the trick
        self._ghosts: set[int] = set()  # tracks whose play was taken back as a misread of another card there
        self._before: dict[int, list[tuple]] = {}  # track id -> (spot, sureness, trick) of its earlier plays
        self._where: tuple = (None, {})  # (the log's plays, log index -> trick) last worked out (``_trick_plays``)
        self._tracker = None  # what the tracker held at the last look (``finish``)
        # track id -> (observation, frame first seen) of a new label of a played card read too unsurely to be a
        # card laid on top (``_on_top_bar``): judged again as its reads firm up, for ``correction_frames``
        self._unsure_on_top: dict[int, tuple] = {}
        # track id -> (observation, frame) of a card come to rest read unsurely as another card came: played once
        # its reads firm up to ``GLIMPSE_SURE`` within ``correction_frames`` (``_firmed_up_new``), else never
        self._unsure_new: dict[int, tuple] = {}
        # track id -> (label, frame) of a card taken as laid on top and then taken back as a hand's misread of
        # the card below (``_disturbed``): the card below read right at last if the track keeps that label
        self._taken_for_hand: dict[int, tuple[str, int]] = {}
        # played tracks unread in a look (a hand over them) since they were last read as the card they played
        self._covered: set[int] = set()

    def choose_round(self, round_type: str, t: float | None = None) -> dict:
        action = self._emit({"type": "choose", "player": self.game.chooser, "round": round_type}, t, None)
        action["source"] = "operator"  # spoken at the table, entered by a person, not seen
        return action

    def seat_of(self, x: float, y: float) -> tuple[int, float]:
        """Seat index whose direction the point lies in, and how central (0 = on the seat's line, 1 = edge)."""
        cx, cy = self.trick.centre
        a = math.atan2(y - cy, x - cx)
        half = math.pi / self.game.n
        diffs = [abs((a - s + math.pi) % (2 * math.pi) - math.pi) for s in self._seat_angles]
        k = min(range(len(diffs)), key=diffs.__getitem__)
        return k, diffs[k] / half

    def observe(self, obs, t: float | None = None) -> list:
        """Actions (dicts, already appended to ``self.log``) and Corrections for one observation."""
        if self._note(obs) or not self._is_card(obs.label) or obs.track_id in self._ghosts:
            return []
        if obs.kind == "moved" and obs.track_id not in self._plays_of and obs.track_id not in self._impossible:
            # a card first at rest outside the trick (or a misread there, re-found by its label when the
            # real card came) now lies in it: that is its play (bench_referee seed 9003 lost Cyd's G14 so)
            obs = replace(obs, kind="appeared")
        if (obs.kind == "relabelled" and obs.track_id not in self._plays_of and obs.track_id not in self._impossible
                and not self._is_card(obs.old_label or "")):
            # first read as a back (it slid in face down, or the hand covered its face) and now as a card:
            # the first time its face is seen, its play (seed 9035: Ann's B14, the round's last card)
            obs = replace(obs, kind="appeared")
        held = None
        if obs.kind == "relabelled" and obs.track_id in self._impossible:
            held = self._impossible.pop(obs.track_id)
            obs = replace(obs, kind="appeared")  # read again as a card that can be there: now it is a play
        if obs.kind == "relabelled" and obs.track_id in self._play_index:
            i = self._play_index[obs.track_id]
            self._seen_as.setdefault(obs.track_id, set()).add(obs.label)
            if obs.label in self._read_as.get(obs.track_id, ()):
                # read back as what this play was taken for before: the camera flickers between two
                # readings of one card (B1, B4 for 0.3 s, B1 again: seed 9020), no card came on top;
                # the trick's other cards say which reading it is when they tell them apart (``_fits``)
                if (obs.label == self.log[i]["card"] or not self._can_be_on_table(obs.label)
                        or self._fits(i, obs.label) < self._fits(i, self.log[i]["card"])):
                    return []
                return [self._correct(i, obs.track_id, obs.label, obs.confidence)]
            last = max(self._play_index.values())
            plays = self._plays_of[obs.track_id]
            if i == last and len(plays) > 1 and obs.label == self.log[plays[-2]]["card"]:
                # the card below a card taken as laid on top shows again, however unsurely: nothing was
                # laid on it, the camera misread it (seed 9061: Dee's B3 read B4 at 0.81, taken as Cyd's
                # card on top, then B3 again at 0.59; Cyd's real B12 was then held as a lead onto a full trick)
                self._read_as[obs.track_id] = {obs.label}
                return [self._take_back(obs.track_id, i)]
            soon = i == last and obs.frame - self.log[i].get("frame", obs.frame) <= self.correction_frames
            latest = next((a.get("frame") for a in reversed(self.log) if a.get("type") == "play"), None)
            # just after another card came, a new label may be that card's hand over this one (seed 9082):
            # taken then only when the trick's other cards agree with it better (seed 9118: Cyd's JC read JS,
            # then JC 6 frames after Dee's 3C came, on Bob's lead KC)
            hand_over = (i != last and latest is not None and obs.frame - latest <= self.DISTURBED_FRAMES
                         and self._fits(i, obs.label) <= self._fits(i, self.log[i]["card"]))
            laid_over = obs.track_id in self._covered and self._sure.get(obs.track_id, 0.0) >= self.COVERED_SURE
            if soon or (self._same_spot(obs) and obs.confidence > self._sure.get(obs.track_id, 1.0) and not hand_over
                        and not laid_over):
                # a new label soon after the play, or read more surely than the play at the very spot the card
                # lay (a card laid on top lands where a hand puts it, not on the millimetre: seed 9115, Bob's
                # KC read KS at 0.75 when played and KC at 0.78 0.9 mm from there 21 frames on, was taken as
                # Cyd's KC laid on top; less surely, it may be a card sliding over it: seed 9091, Dee's Y8
                # read at 0.82 on Cyd's Y6, read 0.87 when played, on its way to rest 30 mm off). Not a card read
                # surely when played and hidden since (``laid_over``): a hand laid one on it (seed 9179,
                # standard cards: Bob's 8H laid 0.4 mm from Ann's QH, read 0.875 when played, 0.879 after)
                if obs.confidence < self._sure.get(obs.track_id, 0.0) - SURER_BY:
                    # read less surely than the card was read when played: a hand over it (gathering the
                    # trick), not a misread put right (seed 9041: Ann's B14 at 0.91, then B4 at 0.68 as the
                    # trick was picked up: the trick's winner changed and every later card went astray)
                    return []
                if not self._can_be_on_table(obs.label):
                    if self._lies_apart(obs):
                        return []  # that card lies elsewhere in the trick: this one misread under a hand
                    # read back as a card already on the table: the play was the camera flickering
                    # between two readings of one resting card, not a card laid on top
                    return [self._take_back(obs.track_id, i)] if soon else []
                if self._fits(i, obs.label) < self._fits(i, self.log[i]["card"]):
                    return []
                return [self._correct(i, obs.track_id, obs.label, obs.confidence)]
            # a card at rest for a while, or with plays after it, was not misread: this is another card
            # laid right on top of it (the camera cannot see the one below any more), unless its trick is
            # complete (it is being gathered: the hand hides part of the card) or the new label is unsure
            # (the card is partly covered by the next one)
            if self._trick_of.get(obs.track_id) != self._trick_now():
                return []
            if obs.confidence < self._on_top_bar(obs):
                # judged again at each look while the track keeps this label, as its reads firm up (``look``)
                self._unsure_on_top.setdefault(obs.track_id, (obs, obs.frame))
                return []
            if latest is not None and obs.frame - latest <= self.DISTURBED_FRAMES:
                # just after another card came: its hand over this one, not a card on top (seed 9082: Ann's
                # Y1 read Y3 at 0.79 three frames after Dee's Y11 appeared; her real Y7 was then dropped)
                return []
            obs = replace(obs, kind="appeared")
            on_top = (obs.track_id, self.log[i]["card"], obs.frame)
        else:
            on_top = None
        if obs.kind == "appeared" and self.trick.contains((obs.x, obs.y)):
            undo = self._disturbed(obs, t) if on_top is None else None
            if undo is not None:
                return [undo]
            if not self._can_be_on_table(obs.label):
                self._impossible[obs.track_id] = (obs.frame, t, self._trick_now())
                return []
            if (on_top is None and held is None and obs.confidence < self.GLIMPSE_SURE
                    and self._came_with_another(obs.track_id, obs.frame)):
                # read unsurely as another card came: a ghost of that card's hand, unless its reads firm up
                # (``_firmed_up_new``; seed 9223, standard cards: a 3S read 0.37-0.56 30 mm from Dee's 4C as it
                # came, played as Ann's; her AC, 1.4 s later, was held as a lead onto the complete trick)
                self._unsure_new[obs.track_id] = (obs, obs.frame)
                return []
            k = self._played_since(held) if held is not None else None
            if k is not None:
                return [self._put_in_place(obs, held, k)]
            if self._trick_lying():
                # nobody leads onto a complete trick still lying there: a card turning up now is most likely
                # one of the trick misread under the gathering hand (seed 9052: G12 read G4 16 mm off, a
                # phantom lead called out of turn). It waits until the trick is gone (``look``).
                self._waiting[obs.track_id] = (obs, obs.frame)
                return []
            out = self._arrive(obs, t)
            if on_top is None and self._beside_another(obs):
                on_top = (obs.track_id, None, obs.frame)
            self._on_top = None if on_top is None else (*on_top, self._play_index[obs.track_id])
            return out
        return []

    def _disturbed(self, obs, t: float | None) -> Correction | None:
        """A card that appears in the trick within ``DISTURBED_FRAMES`` of a card taken as laid on top of
        another, as the last play, shows what that was: this card arriving, its hand over the other one
        misread (seed 9077: Bob's Y3 read Y5 at 0.82 as Cyd's Y13 slid in beside it, in the same look; the
        Y5 was taken as Cyd's and Y13 as Dee's, two false calls). So does a card read more surely than one
        just played beside a card of the trick (``_beside_another``): that one was the trick's card read
        anew, a little off, under this card's hand (seed 9107, standard cards: Ann's 2S read AC 18 mm off
        at 0.63 as Bob's AS slid in, then AS at 0.88; every card after went to the next player). The
        play is taken back and this card played, by whose turn it is then (in the log the Correction
        re-scores)."""
        last, self._on_top = self._on_top, None
        if last is None:
            return None
        track, below, frame, i = last
        # a card beside the trick's read unsurely may be that card misread under a hand that takes longer to
        # lay its own (seed 9139, standard cards at 1080p: Ann's 6S read AS at 0.55 17 mm off, Cyd's 4S came
        # 15 frames later; the AS was Cyd's, and three out_of_turn calls followed)
        unsure = below is None and self._sure.get(track, 1.0) < self.GLIMPSE_SURE
        # the last play, whether or not it completed its trick (seed 9184: Cyd's Y6 read Y9 as Ann's Y7 came,
        # taken as Ann's card on top, completing the trick; Y7 came 3 frames later and was held as a lead)
        if (obs.frame - frame > (self.BESIDE_UNSURE_FRAMES if unsure else self.DISTURBED_FRAMES)
                or i != len(self.log) - 1 or self._play_index.get(track) != i):
            return None
        if below is None and obs.confidence <= self._sure.get(track, 1.0):
            return None  # the card beside the trick's was read at least as surely as this one: two cards
        gone = self.log[i]["card"]
        if not self._can_be_on_table(obs.label, -int(obs.label == gone)):
            return None  # a card that cannot be on the table is itself a misread: it takes nothing back
        self._take_back(track, i)
        if below is None:
            self._ghosts.add(track)  # a second reading of a card lying there: never a play of its own
        else:
            self._read_as[track] = {below}
            self._taken_for_hand[track] = (gone, obs.frame)
        self.game = self._scratch(self.log)  # the session re-scores from the log; judge this card on that
        self._arrive(obs, t)
        what = "a card of the trick was read anew beside it" if below is None else f"{below} was read as another card laid on it"
        return Correction(i, None, why=f"{obs.label} came as {what} ({gone})")

    def _lies_apart(self, obs) -> bool:
        """Does the card ``obs`` is read as lie in this trick, played by another track that lies more than
        ``GLIMPSE_APART_MM`` from ``obs``? Then ``obs`` is not a second reading of that card (a ghost, read
        beside it) but another card misread (seed 9179, standard cards: Dee's KS, read 0.77 when played, read
        QS at 0.71 for three looks 0.5 s later as Ann's hand came, 35 mm from Cyd's QS lying in view; the KS
        was taken back as a flicker and every card after it went to the player before)."""
        now = self._trick_now()
        return any(trick == now and tr != obs.track_id and tr in self._xy and tr in self._play_index
                   and self.log[self._play_index[tr]].get("card") == obs.label
                   and math.dist(self._xy[tr], (obs.x, obs.y)) > self.GLIMPSE_APART_MM
                   for tr, trick in self._lying.items())

    def _on_top_bar(self, obs) -> float:
        """How surely a new label of a resting card must be read to be a card laid on top: ``on_top_confidence``,
        or ``GLIMPSE_SURE`` when every one of the last three reads says it and it lies ``ON_TOP_APART_MM`` or
        more from where the played card lay (a card laid on top lands where a hand puts it; seed 9139,
        standard cards at 720p: Bob's JS laid on Ann's 6S 11 mm off, read JS three times at 0.73 mean; it
        was lost, and two out_of_turn calls followed)."""
        lay = self._xy.get(obs.track_id)
        if (lay is not None and math.dist(lay, (obs.x, obs.y)) >= self.ON_TOP_APART_MM
                and len(obs.reads) >= 3 and all(r == obs.label for r in obs.reads[-3:])):
            return min(self.on_top_confidence, self.GLIMPSE_SURE)
        return self.on_top_confidence

    def _beside_another(self, obs) -> bool:
        """Does the card just played lie within ``GLIMPSE_APART_MM`` of a card of this trick lying there?
        Then it may be that card read anew under the hand of a card arriving beside it (``_disturbed``)."""
        now = self._trick_now()
        return any(math.dist(self._xy[tr], (obs.x, obs.y)) <= self.GLIMPSE_APART_MM
                   for tr, trick in self._lying.items() if tr != obs.track_id and trick == now and tr in self._xy)

    def look(self, frame: int, t: float | None, tracker) -> list:
        """After each look (``tracker``: what the tracker holds now): a card waiting for the complete trick
        under it to be gathered is played once the trick is gone (or after ``WAIT_FRAMES``), if it is still
        in view then (``tracker.seen_now``): a misread of a card of the trick is held, unseen, until it
        vanishes with it. And a trick gathered one card short had its last card laid unseen
        (``_glimpsed_last``). Plays made here are dated now, when the referee could know them."""
        self._tracker = tracker  # for ``finish``
        held = self._held(tracker)
        self._note_covered(held)
        out = (self._firmed_up(frame, t, held) or self._firmed_up_new(frame, t, held)
               or self._read_right_at_last(frame, held)
               or self._read_possible(frame, t, held) or self._read_as_followed(frame, held))
        if out:
            return out
        out = self._glimpsed_last(frame, t, tracker.glimpses)
        if not out:
            # swept up before the tracker lets its cards go (1.5 s): every card of the trick out of view for
            # SWEPT_GONE_FRAMES, and the last card read in a look or two as it slid in, its track
            # still held (seed 9130: Ann's Y2 read twice while it slid 8 mm, the trick swept up 0.25 s
            # after it landed; played 2.2 s later). Judged only when such a card is there to be played. Out of
            # view 0.5 s as at the end of a recording was too long (seed 9139: Dee's R3 played 1.03 s after it
            # was laid; 0.73 s at 0.2 s)
            out = self._glimpsed_last(frame, t, [*tracker.glimpses, *self._sliding(tracker)],
                                      gone=self._out_of_view(frame, tracker, let_go=False,
                                                             frames=self.SWEPT_GONE_FRAMES), final=False)
        if not self._waiting:
            return out
        lying = self._trick_lying(tracker)
        for track, (obs, since) in list(self._waiting.items()):
            if (lying and frame - since < self.WAIT_FRAMES) or not tracker.seen_now(track):
                continue
            del self._waiting[track]
            if self._can_be_on_table(obs.label):
                # one play a look: who laid the next is judged once the engine has taken this one
                # (seed 9081: two cards let go together both went to the first one's player)
                return out + self._arrive(replace(obs, frame=frame), t)
            self._impossible[track] = (frame, t, self._trick_now())  # read as a card already played
        return out

    def _note_covered(self, held: dict) -> None:
        """Keep ``_covered``: a played track unread in this look (``misses``) is covered until it is read
        again as the card it played."""
        for track, i in self._play_index.items():
            tr = held.get(track)
            if tr is None:
                continue
            reads = getattr(tr, "reads", ())
            if getattr(tr, "misses", 0) > 0:
                self._covered.add(track)
            elif reads and reads[-1][0] == self.log[i].get("card"):
                self._covered.discard(track)

    def _firmed_up(self, frame: int, t: float | None, held: dict) -> list:
        """A new label of a played card, read too unsurely to be a card laid on top (``_on_top_bar``) when the
        tracker reported it, judged again with the track's reads now, while it keeps that label, for up to
        ``correction_frames``: the card laid on top is read surely once the hand has left it (seed 9167,
        standard cards: Dee's KH laid 9 mm off Bob's 6H, reported at 0.685 against 0.7, read 0.74-0.88 after;
        it was never played, and Ann's next card was called out of turn). ``held``: ``_held``."""
        # another card arrived in the trick with the new label: its hand over this one (``observe``'s
        # ``DISTURBED_FRAMES``), however surely it reads later (seed 9214, standard cards: Bob's 6C read 7C at 0.74
        # in the look Cyd's 8C came, then 0.79-0.87; taken 0.5 s later as Dee's 7C laid on top, so Dee's QC went
        # to Ann)
        return self._judged_again(self._unsure_on_top, frame, t, held, lambda track, obs, since, sure: (
            None if self._play_index.get(track) is None or self._came_with_another(track, since)
            else sure > obs.confidence))

    def _firmed_up_new(self, frame: int, t: float | None, held: dict) -> list:
        """A card come to rest read unsurely as another card came (``_unsure_new``) is played, dated now, once the
        track keeps its label read at least ``GLIMPSE_SURE`` within ``correction_frames``; else it was a ghost."""
        return self._judged_again(self._unsure_new, frame, t, held,
                                  lambda track, obs, since, sure: sure >= self.GLIMPSE_SURE)

    def _judged_again(self, pending: dict, frame: int, t: float | None, held: dict, ready) -> list:
        """Observe again, dated now and as surely as the track reads it now, a report held in ``pending`` (track ->
        (observation, frame reported)) once ``ready(track, obs, since, sure)`` says so (None: drop it), while the
        tracker holds the track with that label, for up to ``correction_frames``."""
        for track, (obs, since) in list(pending.items()):
            tr = held.get(track)
            sure = None if tr is None else tr.confidence(obs.label)
            now = (None if tr is None or frame - since > self.correction_frames or tr.label != obs.label
                   else ready(track, obs, since, sure))
            if now is None:
                del pending[track]
            if not now:
                continue
            del pending[track]
            out = self.observe(replace(obs, frame=frame, confidence=sure), t)
            if out:
                return out
        return []

    def _came_with_another(self, track: int, frame: int) -> bool:
        """Was a card other than ``track``'s played within ``DISTURBED_FRAMES`` of ``frame``, either side?"""
        mine = self._play_index.get(track)
        return any(a.get("type") == "play" and k != mine and a.get("frame") is not None
                   and abs(a["frame"] - frame) <= self.DISTURBED_FRAMES for k, a in enumerate(self.log))

    def _read_possible(self, frame: int, t: float | None, held: dict) -> list:
        """A card come into the open trick read as one already played (``_impossible``), whose track the
        tracker still holds, is the card it reads as otherwise in its recent reads, when that is one card
        that can be on the table, read in two looks or more, once at least ``GLIMPSE_SURE``: the camera flickers
        between two readings and the vote keeps the impossible one (seed 9182, standard cards: Cyd's QS read
        QC, QC, QS 0.75, QC, QS 0.72, QC, QC with Ann's QC played in trick 1; never played, Dee's 10S after
        it was called out of turn). Failing that, the card of its number in another suit (``_slipped_suit``)."""
        for track in [k for k in self._reads_while_impossible if k not in self._impossible]:
            del self._reads_while_impossible[track]
        for track, (_, _, trick) in list(self._impossible.items()):
            tr = held.get(track)
            reads = getattr(tr, "reads", ())
            if tr is None or trick != self._trick_now() or getattr(tr, "seen", None) != frame or not reads:
                continue
            lab, c = reads[-1]  # this look's read (the tracker keeps only label_votes of them)
            tally = self._reads_while_impossible.setdefault(track, {})
            tally.setdefault(lab, []).append(c)
            other = [k for k in tally if k != tr.label and self._is_card(k) and self._can_be_on_table(k)]
            if len(other) == 1 and len(tally[other[0]]) >= 2 and max(tally[other[0]]) >= self.GLIMPSE_SURE:
                label = other[0]
            else:
                label = self._slipped_suit(tr.label, other, tally)
            if label is None:
                continue
            sure = tally[label]
            out = self.observe(Observation("relabelled", track, label, tr.x, tr.y, frame, old_label=tr.label,
                                           confidence=sum(sure) / len(sure)), t)
            if out:
                return out
        return []

    def _slipped_suit(self, read: str, other: list[str], tally: dict) -> str | None:
        """Of the cards ``other`` that a track read as ``read``, a card already played, reads as otherwise
        (``tally``: label -> the confidences of its reads), the one of ``read``'s number that follows the open
        trick's lead (any, for a lead), read once at least ``SLIP_SURE``: the reader's usual slip is the suit of
        one rank (seed 9219, standard cards: Ann's KS read KC, KC played in trick 1, then QS 0.51, KS 0.58, QS
        0.56, QS 0.41; never played, and Bob's 5S after it was called out of turn). None when not one card."""
        deck = self.game.deck
        trick = self.game.round.current if self.game.round is not None else None
        cards = trick.cards if trick is not None else []
        if cards and cards[0][1] is None:
            return None  # an unread lead: nothing to follow
        number = parse_card(read, deck).number
        same = [k for k in other if parse_card(k, deck).number == number and max(tally[k]) >= self.SLIP_SURE
                and (not cards or parse_card(k, deck).colour == cards[0][1].colour)]
        return same[0] if len(same) == 1 else None

    def _read_as_followed(self, frame: int, held: dict) -> list:
        """A card of the trick just completed, no card played since, that the tracker now reads in its last three
        reads (once at least ``GLIMPSE_SURE``) as the card of the same number in the colour the
        trick's other cards agree with (``_fits``) is that card: the reader's usual slip is a club for a spade of
        one rank, and a gathering hand hides a corner, not the suit (seed 9188, standard cards: Cyd's KS read KC
        up to 0.82 as it was laid on Bob's 3S lead, then KS 0.51, 0.61, 0.70 before the trick was swept; the
        KS that ended the black 13 round was missed, and five out-of-turn calls followed)."""
        last = next((j for j in range(len(self.log) - 1, -1, -1) if self.log[j].get("type") == "play"), None)
        now = self._trick_now()
        if last is None or not any(trick != now for trick in self._lying.values()):
            return []
        closed = set(self._trick_plays(last))  # the trick of the last play: the one just completed, if any
        for track, trick in self._lying.items():
            i, tr = self._play_index.get(track), held.get(track)
            if trick == now or i not in closed or tr is None or getattr(tr, "seen", None) != frame:
                continue
            reads = list(getattr(tr, "reads", ()))[-3:]
            labels = {lab for lab, _ in reads}
            card = self.log[i]["card"]
            if len(reads) < 3 or len(labels) != 1:
                continue
            label, sure = labels.pop(), max(c for _, c in reads)
            if (label == card or not self._is_card(label) or sure < self.GLIMPSE_SURE
                    or parse_card(label, self.game.deck).number != parse_card(card, self.game.deck).number
                    or not self._can_be_on_table(label) or self._fits(i, label) <= self._fits(i, card)):
                continue
            return [self._correct(i, track, label, sure)]
        return []

    def finish(self, frame: int, t: float | None = None) -> list:
        """The recording ended at ``frame``: the open trick, one card short, whose cards all left view at
        least ``END_GONE_FRAMES`` before the end was gathered, though the tracker had not let them go yet;
        its last card is judged as when it does (``_glimpsed_last``; seed 9132, standard cards: Ann's JC lay
        in view three looks before the trick was swept up 1.3 s before the end)."""
        tracker = self._tracker
        if tracker is None:
            return []
        # out of view: not read for END_GONE_FRAMES and not even sighted (a faint read of its own label at
        # its place, which keeps a track in view without a read) in the last looks
        # nothing played unread here: the trick may only be hidden by a hand as the recording stops
        return self._glimpsed_last(frame, t, tracker.glimpses, gone=self._out_of_view(frame, tracker), unread=False)

    def _out_of_view(self, frame: int, tracker, let_go: bool = True, frames: int | None = None):
        """track id -> out of view now: not read for ``frames`` (default ``END_GONE_FRAMES``) and not even
        sighted faintly (which keeps a track in view without a read) in the last ``END_GONE_LOOKS`` looks; or
        let go (``let_go``: in play a track let go makes its own vanished observation)."""
        held = self._held(tracker)
        return lambda track: let_go if track not in held else (
            held[track].misses >= self.END_GONE_LOOKS
            and frame - held[track].seen >= (self.END_GONE_FRAMES if frames is None else frames))

    @staticmethod
    def _held(tracker) -> dict:
        """The tracks the tracker holds now, by id."""
        return {tr.id: tr for tr in getattr(tracker, "tracks", ())}

    @staticmethod
    def _sliding(tracker) -> list:
        """What the tracker read of the objects it holds that never lay still and are out of view now (a
        card read in a look or two as it slid in, then covered), as glimpses."""
        return [tr.glimpse() for tr in getattr(tracker, "tracks", ())
                if getattr(tr, "confirmed", False) and getattr(tr, "rest", 0) is None and getattr(tr, "misses", 0) > 0]

    def _glimpsed_last(self, frame: int, t: float | None, glimpses, gone=None, final: bool = True,
                       unread: bool = True) -> list:
        """The open trick, one card short, is gone from the table (every card of it vanished): it was
        gathered, so its last card was laid, too briefly in view for the tracker (seed 9072: Ann's Y13 read
        once at 0.79 as it slid in, then the trick was swept up; her next lead went to the old trick and
        every card after it astray; 9075, six players: Ann's G13 laid on Bob's G12, read on it at 0.89 for
        a few looks). That card is a glimpse (``Tracker.glimpses``) in the trick area since the trick's last
        play, read at least ``GLIMPSE_SURE``, of a card that can be on the table: one away from the trick's
        cards (not one of them misread) if any, the surest. With none, when ``final`` and ``unread``, the
        play is made unread (``UNREAD``): a card was laid there, the camera could not say which (seed 9176:
        Bob's QS read 5C, 5S, QC under 0.7; Bob's next lead was taken for that trick's last card)."""
        r = self.game.round
        now = self._trick_now()
        if r is None or r.over or now in self._short or len(r.current.cards) != self.game.n - 1:
            return []
        mine = [tr for tr, trick in self._trick_of.items() if trick == now and tr in self._plays_of]
        if not mine or any(self._lying.get(tr) == now and not (gone and gone(tr)) for tr in mine) or self._waiting:
            return []
        since = max(self.log[self._play_index[tr]].get("frame", -1) for tr in mine)
        spots = [self._xy[tr] for tr in mine]
        fits = [g for g, surest in self._one_per_card(
                    [g for g in glimpses if g.frame > since and self.trick.contains((g.x, g.y))
                     and self._is_card(g.label) and self._can_be_on_table(g.label)])
                if surest >= self.GLIMPSE_SURE]
        if final or fits:
            self._short.add(now)  # judged once (not yet when out of view but nothing to play: it may come back)
        if fits:
            # one read apart from the trick's cards first (near one, it may be that one misread), then the surest
            g = max(fits, key=lambda g: (all(math.dist((g.x, g.y), xy) > self.GLIMPSE_APART_MM for xy in spots),
                                         g.confidence))
        elif final and unread and not self._refused_here():
            g = Observation("appeared", 0, UNREAD, *self.trick.centre, frame, confidence=0.0)
        else:
            return []
        track = -1 - len(self._short)  # no track of its own any more
        out = self._arrive(Observation("appeared", track, g.label, g.x, g.y, frame, confidence=g.confidence), t)
        self._lying.pop(track, None)  # gone with the trick
        return out

    def _refused_here(self) -> bool:
        """Did the engine refuse a play made to the open trick (out of turn, say)? Then its cards were seen,
        one of them judged wrongly, and a trick gathered one short is no sign of a card laid unseen (seed
        9203, before ``_led_by_its_winner``: Bob's lead QD called out of turn, the trick swept with three
        cards in the engine; an unread card was made up for it)."""
        last = next((j for j in range(len(self.log) - 1, -1, -1) if self.log[j].get("type") == "play"), None)
        r = self.game.round
        return last is not None and r is not None and len(self._trick_plays(last)) > len(r.current.cards)

    def _one_per_card(self, glimpses) -> list[tuple]:
        """Glimpses read one after another (within ``DISTURBED_FRAMES``) at about one spot (within half
        ``GLIMPSE_APART_MM``) are reads of one card as it slid in: (its label, the one read most, confidence
        summed, at its last read; how surely the surest read of the card went) for each card. Seed 9170,
        standard cards: Cyd's KS read KS at 0.68 and 0.60 as it slid in, then KC at 0.88 as the trick was
        swept; the KC was played."""
        cards: list[list] = []
        for g in sorted(glimpses, key=lambda g: g.frame):
            card = next((c for c in cards if g.frame - c[-1].frame <= self.DISTURBED_FRAMES
                         and math.dist((c[-1].x, c[-1].y), (g.x, g.y)) <= self.GLIMPSE_APART_MM / 2), None)
            if card is None:
                cards.append([g])
            else:
                card.append(g)
        out = []
        for card in cards:
            votes: dict[str, float] = {}
            for g in card:
                votes[g.label] = votes.get(g.label, 0.0) + g.confidence
            label = max(votes, key=votes.get)
            read = [g for g in card if g.label == label]
            out.append((replace(read[-1], confidence=max(g.confidence for g in read)),
                        max(g.confidence for g in card)))
        return out

    def _trick_lying(self, tracker=None) -> bool:
        """Does a card of a complete trick still lie in the trick area (not yet gathered)? With ``tracker``
        (after a look): a card of a complete trick whose track the tracker now reads as a back does not: the
        trick is being picked up, face down (seed 9126: the gathered stack, read `back` where Ann's Y6 had
        lain, kept the Y6 track 1.5 s longer, moving, so never reported relabelled; Cyd's lead waited 1 s)."""
        now = self._trick_now()
        backs = {t.id for t in getattr(tracker, "tracks", ()) if t.id in self._lying and not self._is_card(t.label)}
        return any(trick != now for track, trick in self._lying.items() if track not in backs)

    def _note(self, obs) -> bool:
        """Keep track of which played cards still lie in the trick and of the cards waiting to be played;
        True when the observation was about a waiting card (nothing else to do with it)."""
        track = obs.track_id
        inside = self.trick.contains((obs.x, obs.y))
        if obs.kind == "vanished" or (obs.kind == "moved" and not inside):
            self._lying.pop(track, None)
            if obs.kind == "vanished":
                self._ghosts.discard(track)  # gone for good: its id never comes again
            return self._waiting.pop(track, None) is not None
        if track in self._waiting:
            if obs.kind in ("moved", "relabelled") and self._is_card(obs.label):
                self._waiting[track] = (replace(obs, kind="appeared"), self._waiting[track][1])
            return True
        return False

    def _arrive(self, obs, t: float | None) -> list:
        """The card ``obs`` came to rest in the trick area: its play (the round chosen first when due)."""
        out = []
        r = self.game.round
        if (r is None or r.over) and self.rounds:
            out.append(self.choose_round(self.rounds.pop(0), t))
        player = self._who_played(obs.x, obs.y)
        won = self._led_by_its_winner(player)  # the trick before misread: this lead shows who won it
        track = obs.track_id
        if self._plays_of.get(track):  # a card laid on top: what its earlier play was comes back if this one goes
            self._before.setdefault(track, []).append((self._xy[track], self._sure[track], self._trick_of[track]))
        self._trick_of[track] = self._trick_now()
        self._xy[track] = (obs.x, obs.y)
        out.append(self._emit({"type": "play", "player": player, "card": obs.label}, t, obs.frame))
        self._play_index[track] = len(self.log) - 1
        self._plays_of.setdefault(track, []).append(len(self.log) - 1)
        self._read_as[track] = {obs.label}
        self._seen_as[track] = {obs.label}
        self._sure[track] = obs.confidence
        self._lying[track] = self._trick_of[track]
        fixed = won or self._reread_lead()
        if fixed is not None:
            return [fixed]  # the session re-scores the whole log, this play with it: nothing else to apply
        return out

    def _led_by_its_winner(self, player: str) -> Correction | None:
        """A lead laid clearly in front of ``player`` (``_who_played``), who by the engine did not win the trick
        just completed: when exactly one card of that trick, read as the card of its number in the colour the
        trick followed (one that can be on the table), makes ``player`` its winner, that card was misread, and
        the table shows it by who leads (seed 9203, standard cards: Bob's KS on Ann's 8S read KC at once and
        throughout; Dee's 10S won by the engine, Bob's next lead QD was called out of turn and every card after
        went to the next player). The play is put right; the lead is then in turn."""
        game = self.game
        r = game.round
        expected = game.to_play
        if (r is None or r.over or r.current.cards or len(r.tricks) < 2 or expected is None or player == expected
                or player not in game.players):
            return None
        cards = list(r.tricks[-2].cards)
        led = cards[0][1]
        if led is None or any(c is None for _, c in cards):
            return None
        fits = []
        for k, (p, c) in enumerate(cards[1:], start=1):
            alt = Card(led.colour, c.number).code(game.deck)
            if c.colour == led.colour or not self._can_be_on_table(alt):
                continue
            read = [x for _, x in cards]
            read[k] = parse_card(alt, game.deck)
            if cards[trick_winner(read, game.rank)][0] == player:
                fits.append((p, game.code(c), alt))
        if len(fits) != 1:
            return None
        p, code, alt = fits[0]
        i = next((j for j in range(len(self.log) - 1, -1, -1) if self.log[j].get("type") == "play"
                  and self.log[j].get("player") == p and self.log[j].get("card") == code), None)
        track = next((tr for tr, plays in self._plays_of.items() if i in plays), None)
        if i is None or track is None:
            return None
        fixed = [dict(a, card=alt) if j == i else a for j, a in enumerate(self.log)]
        if self._scratch(fixed).to_play != player:
            return None  # the round would have ended on it (the black 13), say: no lead is due
        return replace(self._correct(i, track, alt, self._sure.get(track, 0.0)),
                       why=f"{p}'s {code} read as {alt}: {player}, who leads, won the trick with it")

    def _played_since(self, held) -> int | None:
        """The log index of the first play made after a card held back came to rest (``held``: its frame,
        time and trick), when every action from there on is a play to that same trick, still open."""
        frame, _, trick = held
        if trick != self._trick_now():
            return None
        k = next((j for j, a in enumerate(self.log) if a.get("type") == "play" and a.get("frame", -1) > frame), None)
        if k is None:
            return None
        owner = {j: tr for tr, js in self._plays_of.items() for j in js}
        later = range(k, len(self.log))
        if not all(self.log[j].get("type") == "play" and self._trick_of.get(owner.get(j)) == trick for j in later):
            return None
        return k

    def _put_in_place(self, obs, held, k: int) -> Correction:
        """A card held back (read as one that cannot be on the table) is read as one that can, after other
        cards were played to its trick: it was played when it came to rest, before them (seed 9022: Dee's
        Y9, read Y4 until after Ann's Y1 came; taken in the order seen, Ann's card was out of turn and so
        was every card after). It goes in at log index ``k`` (``_played_since``); who played each later
        card is judged again in the new order."""
        frame, t, trick = held
        owner = {j: tr for tr, js in self._plays_of.items() for j in js}
        scratch = self._scratch(self.log[:k])
        new = camera_action({"type": "play", "player": self._who_played(obs.x, obs.y, scratch),
                             "card": obs.label}, t, frame)
        scratch.apply(ACTION_ADAPTER.validate_python(new))
        moved = []
        for j in range(k, len(self.log)):
            a = {**self.log[j], "player": self._who_played(*self._xy[owner[j]], scratch)}
            scratch.apply(ACTION_ADAPTER.validate_python(a))
            moved.append(a)
        self.log[k:] = [new, *moved]
        for plays in self._plays_of.values():
            plays[:] = [j + 1 if j >= k else j for j in plays]
        self._plays_of[obs.track_id] = [k]
        self._play_index = {tr: plays[-1] for tr, plays in self._plays_of.items()}
        self._trick_of[obs.track_id], self._xy[obs.track_id] = trick, (obs.x, obs.y)
        self._lying[obs.track_id] = trick
        self._read_as[obs.track_id], self._sure[obs.track_id] = {obs.label}, obs.confidence
        self._seen_as[obs.track_id] = {obs.label}
        return Correction(k, new, why=f"{obs.label} came to rest before the {len(moved)} card(s) played after it")

    def _trick_plays(self, i: int) -> list[int]:
        """Log indices of the plays of the trick the play at ``i`` went to, in order (the log re-scored:
        a track's plays may lie in two tricks, and the engine may not have taken the newest play yet)."""
        key = tuple((a.get("type"), a.get("player"), a.get("card"), a.get("round")) for a in self.log)
        if self._where[0] != key:  # re-scored only when the log changed (a few ms a game)
            game, where = CrazyGame(self.game.setup), {}
            for j, a in enumerate(self.log):
                if a.get("type") == "play":
                    where[j] = self._trick_now(game)
                game.apply(ACTION_ADAPTER.validate_python(a))
            self._where = (key, where)
        where = self._where[1]
        return [j for j, trick in where.items() if trick == where.get(i)]

    def _fits(self, i: int, label: str) -> int:
        """How many of the other cards of its trick agree with reading the play at ``i`` as ``label``:
        for the lead, the cards that followed its colour; for a later card, 1 when it follows the lead's.
        Most plays follow (a player who can must), so a card the camera reads two ways is most likely
        the reading the trick's other cards agree with (seed 9115, standard cards: Bob's lead KC read KS,
        KC, KS again; 7C, 2C and QC followed, and a KS would have ended the round)."""
        js = self._trick_plays(i)
        colour = self._colour(label)
        if not js or i == js[0]:
            return sum(self._colour(self.log[j]["card"]) == colour for j in js[1:])
        return int(self._colour(self.log[js[0]]["card"]) == colour)

    def _colour(self, label: str) -> str | None:
        """The colour of a card played (None for one played unread: it agrees with nothing)."""
        return None if label == UNREAD else parse_card(label, self.game.deck).colour

    def _reread_lead(self) -> Correction | None:
        """The open trick's lead, read two ways (``_seen_as``), taken as the reading more of the cards
        played to it since followed (``_fits``), when that is not the one it was taken for."""
        if len(self.log) < 2 or self.log[-1].get("type") != "play":
            return None
        js = self._trick_plays(len(self.log) - 1)
        if len(js) < 2:
            return None
        lead = js[0]
        track = next((tr for tr, plays in self._plays_of.items() if lead in plays), None)
        if track is None or self._play_index.get(track) != lead:
            return None
        now = self.log[lead]["card"]
        best = max(sorted(self._seen_as.get(track, set()) - {now}), key=lambda lab: self._fits(lead, lab),
                   default=None)
        just = int(best == self.log[-1]["card"])  # the play just made, not in the engine yet
        if best is None or self._fits(lead, best) <= self._fits(lead, now) or not self._can_be_on_table(best, just):
            return None
        fixed = self._correct(lead, track, best, self._sure.get(track, 0.0))
        return replace(fixed, why=f"the lead {now} read as {best}: the cards played to it followed that")

    def _same_spot(self, obs) -> bool:
        """Is a new label of a played card read at the very spot the card lay when played (within
        ``SAME_SPOT_MM``), in the trick still open? A card laid on top lands where a hand puts it."""
        track = obs.track_id
        return (track in self._xy and self._trick_of.get(track) == self._trick_now()
                and math.dist(self._xy[track], (obs.x, obs.y)) <= self.SAME_SPOT_MM)

    def _scratch(self, actions: list[dict]) -> CrazyGame:
        """A fresh engine that has taken ``actions`` (the adapter never changes its own game)."""
        return replayed(CrazyGame(self.game.setup), actions, ACTION_ADAPTER.validate_python)

    def _read_right_at_last(self, frame: int, held: dict) -> list:
        """A label taken for a card laid on top, then taken back as the hand of an arriving card misreading
        the card below (``_disturbed``), that the track keeps for ``SETTLED_FRAMES`` after, read more surely
        than the card below was when played, is that card read right once the hand has gone: its play is
        corrected (seed 9150: Bob's B5 read B8 at 0.74 for 0.7 s, then B5 at 0.86 3.3 mm off as Cyd's B6
        came; B5 was taken back as a misread under Cyd's hand, read on for 1.4 s, and Bob's B8 stood).
        ``held``: ``_held``."""
        for track, (label, since) in list(self._taken_for_hand.items()):
            tr, i = held.get(track), self._play_index.get(track)
            if tr is None or tr.label != label or i is None or frame - since > 3 * self.correction_frames:
                del self._taken_for_hand[track]
                continue
            sure = tr.confidence(label)
            if frame - since < self.SETTLED_FRAMES or sure < self._sure.get(track, 1.0) + SURER_BY:
                continue
            del self._taken_for_hand[track]
            if self._can_be_on_table(label) and self._fits(i, label) >= self._fits(i, self.log[i]["card"]):
                return [self._correct(i, track, label, sure)]
        return []

    def _correct(self, i: int, track: int, label: str, confidence: float) -> Correction:
        """The play at log index ``i`` (``track``'s last) was this card (read so surely), misread at first."""
        fixed = {**self.log[i], "card": label}
        self.log[i] = fixed
        self._read_as.setdefault(track, set()).add(label)
        self._sure[track] = confidence
        return Correction(i, fixed)

    def _take_back(self, track: int, i: int) -> Correction:
        """Remove the play at log index ``i`` (the last play, made by ``track``)."""
        self.log.pop(i)
        self.forget(i)
        return Correction(i, None)

    def forget(self, i: int) -> None:
        """The action at log index ``i`` is gone from the log (taken back here, or undone by the operator:
        ``GameSession.undo``): what is known of each track's plays follows the log."""
        for k, plays in list(self._plays_of.items()):
            was_last = bool(plays) and plays[-1] == i
            plays[:] = [j if j < i else j - 1 for j in plays if j != i]
            if plays:
                self._play_index[k] = plays[-1]
                if was_last and self._before.get(k):  # a card on top taken back: the one below is back
                    self._xy[k], self._sure[k], self._trick_of[k] = self._before[k].pop()
            else:
                del self._plays_of[k]
                self._play_index.pop(k, None)
                self._lying.pop(k, None)  # no play of its own: a second reading of a card lying there

    def _trick_now(self, game: CrazyGame | None = None) -> tuple[int, int]:
        """(round number, trick number) the next play goes to in ``game`` (default this adapter's; between
        rounds: the next round's first)."""
        game = game or self.game
        r = game.round
        return (len(game.rounds) + 1, 1) if r is None or r.over else (r.number, len(r.tricks))

    def _who_played(self, x: float, y: float, game: CrazyGame | None = None) -> str:
        game = game or self.game
        expected = game.to_play
        if expected is None and len(game.may_lead) > 1:
            # the trick before holds an unread card: its winner leads, one of a few; the card lies towards them
            cx, cy = self.trick.centre
            a = math.atan2(y - cy, x - cx)
            return min(game.may_lead, key=lambda p: abs((a - self._seat_angles[game.players.index(p)] + math.pi)
                                                          % (2 * math.pi) - math.pi))
        if expected is None:
            return game.chooser  # between rounds: the engine will say no round is on
        k, off = self.seat_of(x, y)
        seat_player = game.players[k]
        cx, cy = self.trick.centre
        if seat_player == expected or off > self.seat_margin or math.hypot(x - cx, y - cy) < self.seat_radius_mm:
            return expected
        played = {p for p, _ in game.round.current.cards}
        return expected if seat_player in played else seat_player

    def _can_be_on_table(self, label: str, more: int = 0) -> bool:
        """False for a card the round has used up (played as often as the decks hold it) or that was taken
        out of the deck for this deal: no player can lay it, so the camera misread or saw it again.
        ``more``: plays of it the engine has not taken yet (or, negative, plays about to be taken back)."""
        r = self.game.round
        if r is None or r.over:
            return True
        card = parse_card(label, self.game.deck)
        return r.played[card] + more < self.game.in_play[card]

    def _is_card(self, label: str) -> bool:
        try:
            parse_card(label, self.game.deck)
            return True
        except CardError:
            return False

    def _emit(self, action: dict, t: float | None, frame: int | None) -> dict:
        self.log.append(camera_action(action, t, frame))
        return action
