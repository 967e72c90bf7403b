"""Tracking: noisy per-frame detections (in table millimetres) -> stable objects -> state changes.

A card a hand covers for a second must not "leave" the table; a card misread in one frame must not
become another card; a card sliding into the trick must be reported once, where it comes to rest.
So every object has an explicit lifecycle, counted in frames (the settings are checked):

    tentative --(seen in `confirm_frames` frames in a row)--> confirmed --(unseen `hold_frames` frames)--> gone

and a confirmed object reports where it lies only once it has stayed within `still_mm` for
`still_frames` frames. Its label is the majority vote of its last `label_votes` detections.

Observations (what changed) come out of ``update``; the game adapters turn them into actions.
"""
from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment


GLIMPSES_KEPT = 256  # objects seen too briefly to report, the latest kept (``Tracker.glimpses``)
PATH_KEPT = 64  # an object's latest places read, kept to tell when it landed where it is reported (``since``)


@dataclass(frozen=True)
class TableDetection:
    """One detection in one frame, already mapped to the table (millimetres)."""

    label: str
    x: float
    y: float
    confidence: float = 1.0


@dataclass(frozen=True)
class TrackerSettings:
    confirm_frames: int = 3      # frames an object must be seen before it exists (warm-up)
    hold_frames: int = 45        # frames a confirmed object survives unseen (a hand over it: 1.5 s at 30 fps)
    max_distance_mm: float = 60  # how far an object may move between two frames and keep its identity
    still_mm: float = 4.0        # movement below this counts as lying still
    still_frames: int = 4        # frames it must lie still before its resting place is reported
    label_votes: int = 9         # label = majority of the last this-many detections
    reid_distance_mm: float = 400  # a hidden object seen again this near, same label: the same object
    rest_reid_mm: float | None = None  # an object that came to rest is matched only this near where it rests, seen or
                                  # found again after it was hidden (None: max_distance_mm and reid_distance_mm).
                                  # Crazy: a card in the trick is not slid along nor lifted and put down
                                  # elsewhere unseen; a card sliding in, misread with the label of one a hand
                                  # hid, took that one's track (bench_referee seed 9022)
    relabel_within_mm: float = 15  # another label this near is the same object misread (or a pile's new top);
                                   # farther off it is another object (a card played beside it)
    min_confidence: float = 0.5   # a card read with less is left out: better no call than a false one
    sighting_floor: float = 0.25  # a read under the floor but above this, of an object's own label right at its
                                  # place (within still_mm), keeps it in view: no vote, but not a miss either.
                                  # A tentative track that skipped a look was dropped as noise (Crazy 9030:
                                  # Cyd's R11 read 0.77, 0.49, 0.67 in three looks before the trick was
                                  # gathered, never confirmed; every later play was then out of turn)
    kind_floors: tuple[tuple[str, float], ...] = ()  # (kind, floor): kinds (``kind_of``) read with another
                                  # floor than min_confidence (fodbold: a face-down card from 0.1, as it makes no
                                  # call, and a deck the tracker holds tells a face read on it for a misread)
    relabel_share: float = 0.5    # an object already reported takes a new label only when that label holds
                                  # more than this share of its last label_votes reads (0.5: a majority, not a
                                  # plurality of one; 1: every read). Crazy asks for every read: a hand over a
                                  # card in the trick gave two unsure misreads in a row, taken as a card laid on top

    def __post_init__(self):
        checks = [
            (self.confirm_frames >= 1, "confirm_frames must be at least 1"),
            (self.hold_frames > self.confirm_frames, "hold_frames must be larger than confirm_frames"),
            (self.max_distance_mm > 0, "max_distance_mm must be positive"),
            (0 < self.still_mm < self.max_distance_mm, "still_mm must be positive and below max_distance_mm"),
            (self.still_frames >= 1, "still_frames must be at least 1"),
            (self.label_votes >= 1, "label_votes must be at least 1"),
            (self.reid_distance_mm >= self.max_distance_mm, "reid_distance_mm must be at least max_distance_mm"),
            (self.rest_reid_mm is None or 0 <= self.rest_reid_mm <= self.reid_distance_mm,
             "rest_reid_mm must be None or in [0, reid_distance_mm]"),
            (0 <= self.relabel_within_mm <= self.max_distance_mm, "relabel_within_mm must be in [0, max_distance_mm]"),
            (0 <= self.min_confidence < 1, "min_confidence must be in [0, 1)"),
            (0 <= self.sighting_floor <= self.min_confidence, "sighting_floor must be in [0, min_confidence]"),
            (_floor_pairs(self.kind_floors), "kind_floors must be (kind, floor) pairs with each floor in [0, 1)"),
            (0 <= self.relabel_share <= 1, "relabel_share must be in [0, 1]"),
        ]
        bad = [msg for ok, msg in checks if not ok]
        if bad:
            raise ValueError("invalid tracker settings: " + "; ".join(bad))


def _floor_pairs(pairs) -> bool:
    try:
        return all(isinstance(k, str) and 0 <= float(f) < 1 for k, f in pairs)
    except (TypeError, ValueError):
        return False


@dataclass
class Track:
    id: int
    x: float
    y: float
    reads: deque = field(default_factory=deque)  # (label, confidence) of the last label_votes detections
    hits: int = 0
    misses: int = 0
    confirmed: bool = False
    rest: tuple[float, float] | None = None  # last reported resting place
    recent: deque = field(default_factory=deque)  # recent positions, for the stillness test
    reported_label: str | None = None
    seen: int = -1  # the last frame it was read in
    path: deque = field(default_factory=lambda: deque(maxlen=PATH_KEPT))  # (frame, x, y) of its latest reads

    @property
    def label(self) -> str:
        return Counter(lab for lab, _ in self.reads).most_common(1)[0][0]

    def votes(self, label: str) -> int:
        return sum(lab == label for lab, _ in self.reads)

    def confidence(self, label: str) -> float:
        """Mean confidence of the recent reads that gave ``label``."""
        mine = [c for lab, c in self.reads if lab == label]
        return sum(mine) / len(mine) if mine else 0.0

    def glimpse(self) -> "Glimpse":
        """What was seen of it, as it goes without a report."""
        return Glimpse(self.label, self.x, self.y, self.seen, self.confidence(self.label))


@dataclass(frozen=True)
class Glimpse:
    """A read that made no report: an object read in fewer looks than ``confirm_frames`` (or never at rest)
    and then gone, or a read of another label on a known object. Too little to report, but a game may
    know a card must have been there (Crazy: a trick gathered one card short)."""

    label: str
    x: float
    y: float
    frame: int  # the last frame it was read in
    confidence: float


@dataclass(frozen=True)
class Observation:
    """A stable change: ``appeared`` (came to rest for the first time), ``moved`` (came to rest
    somewhere else), ``relabelled`` (its majority label changed), ``vanished`` (gone for good).
    ``confidence``: the mean confidence of the recent reads that gave the label (a card half hidden by
    another is read less surely than one in full view)."""

    kind: str
    track_id: int
    label: str
    x: float
    y: float
    frame: int
    from_xy: tuple[float, float] | None = None
    old_label: str | None = None
    confidence: float = 1.0
    reads: tuple[str, ...] = ()  # a relabel's recent reads, oldest first: a card seen there for a look
                                 # before another covered it may show in them (Crazy Kick: ``_missed``)
    since: int | None = None  # appeared or moved: the frame it was first read where it now lies (within
                              # relabel_within_mm, unbroken by a read elsewhere). A card glimpsed as it landed and
                              # covered at once by a hand or the next card is reported only when it shows again:
                              # it lay there first (Crazy Kick: ``_under_a_foul``)


class Tracker:
    """``update(frame, detections) -> [Observation]``, one call per frame, frames in order.

    ``kind_of(label)`` says which labels are the same kind of object (default: each label its own
    kind). A detection of the same kind may keep a moving object's track even when the label
    differs: fodbold's pieces are told apart by a small number the classifier often misreads, but a
    red piece is never a blue one. The label is still the majority vote. Re-identifying a hidden
    object still needs its label: by kind alone, with eleven pieces of a colour, a piece seen again
    after a hand passed over the board took the name of a neighbour the hand still hid (measured:
    23 false calls in one 20 s fodbold video, scripts/bench_referee.py seed 9002)."""

    def __init__(self, settings: TrackerSettings = TrackerSettings(), kind_of: Callable[[str], str] | None = None):
        self.settings = settings
        self.kind_of = kind_of or (lambda label: label)
        self._floors = dict(settings.kind_floors)  # kind -> its floor, where it is not min_confidence
        self.tracks: list[Track] = []
        self.glimpses: deque[Glimpse] = deque(maxlen=GLIMPSES_KEPT)  # the latest, oldest first
        self._ids = itertools.count(1)  # per tracker, not global: two trackers never share state
        self.frame = -1

    @property
    def confirmed(self) -> list[Track]:
        return [t for t in self.tracks if t.confirmed]

    def seen_now(self, track_id: int) -> bool:
        """Was the object seen in the last look (read, or sighted under the floor at its place)? An adapter
        that holds a play back asks this before it lets it go: a track only held while a hand covers it
        may be a misread that is already gone."""
        return any(t.id == track_id and t.misses == 0 for t in self.tracks)

    def update(self, frame: int, detections: Sequence[TableDetection]) -> list[Observation]:
        if frame <= self.frame:
            raise ValueError(f"frames must come in order: got {frame} after {self.frame}")
        self.frame = frame
        s = self.settings
        floor = lambda d: self._floors.get(self.kind_of(d.label), s.min_confidence)  # noqa: E731
        dets = [d for d in detections if d.confidence >= floor(d)]
        faint = [d for d in detections if min(s.sighting_floor, floor(d)) <= d.confidence < floor(d)]
        matches, unmatched_tracks, unmatched_dets = self._associate(dets)
        out: list[Observation] = []
        for ti, di in matches:
            t, d = self.tracks[ti], dets[di]
            if t.confirmed and d.label != t.label:
                # a read of another label on a known object: a misread, or a card laid on it that the
                # vote has not taken yet (Crazy 9075: Ann's G13 laid on Bob's G12, then swept up)
                self.glimpses.append(Glimpse(d.label, d.x, d.y, frame, d.confidence))
            t.x, t.y = d.x, d.y
            t.hits += 1
            t.misses = 0
            t.seen = frame
            t.path.append((frame, d.x, d.y))
            t.reads.append((d.label, d.confidence))
            while len(t.reads) > s.label_votes:
                t.reads.popleft()
            self._note_place(t, d.x, d.y)
            if not t.confirmed and t.hits >= s.confirm_frames:
                t.confirmed = True
            if t.confirmed:
                out += self._rest_and_label(t)
        for ti in unmatched_tracks:
            t = self.tracks[ti]
            seen = self._sighting(t, faint)
            if seen is not None:  # read unsurely, but as itself and where it lay: still in view
                faint.remove(seen)
                t.misses = 0
                self._note_place(t, seen.x, seen.y)
                if t.confirmed:
                    out += self._rest_and_label(t)
                continue
            t.misses += 1
            t.recent.clear()  # unseen: not known to lie still
        for di in unmatched_dets:
            d = dets[di]
            t = Track(next(self._ids), d.x, d.y, deque([(d.label, d.confidence)]), hits=1,
                      recent=deque([(d.x, d.y)]), seen=frame)
            t.path.append((frame, d.x, d.y))
            if s.confirm_frames == 1:
                t.confirmed = True
                out += self._rest_and_label(t)
            self.tracks.append(t)
        keep, gone = [], []
        for t in self.tracks:
            if t.confirmed and t.misses >= s.hold_frames:
                if t.rest is not None:
                    gone.append(Observation("vanished", t.id, t.reported_label or t.label, t.rest[0], t.rest[1], frame))
                else:  # never lay still: it was only passing
                    self.glimpses.append(t.glimpse())
            elif not t.confirmed and t.misses > 0:
                # a tentative object that skipped a frame is no object, but it may have been one
                self.glimpses.append(t.glimpse())
            else:
                keep.append(t)
        self.tracks = keep
        # what vanished went before anything this frame shows (it has been unseen for hold_frames):
        # an adapter hears that a card left its pile before it judges the card laid over it
        return gone + out

    def _note_place(self, t: Track, x: float, y: float) -> None:
        """Where ``t`` was seen this look, kept for the stillness test (the last ``still_frames``)."""
        t.recent.append((x, y))
        while len(t.recent) > self.settings.still_frames:
            t.recent.popleft()

    def _sighting(self, t: Track, faint: list[TableDetection]) -> TableDetection | None:
        """The nearest read under the floor that gives ``t``'s own label within ``still_mm`` of it, if any."""
        near = [d for d in faint if d.label == t.label and np.hypot(d.x - t.x, d.y - t.y) <= self.settings.still_mm]
        return min(near, key=lambda d: np.hypot(d.x - t.x, d.y - t.y)) if near else None

    def _rest_and_label(self, t: Track) -> list[Observation]:
        s = self.settings
        if len(t.recent) < s.still_frames:
            return []
        pts = np.array(t.recent)
        if np.max(np.linalg.norm(pts - pts.mean(axis=0), axis=1)) > s.still_mm:
            return []
        x, y = map(float, pts.mean(axis=0))
        out = []
        if t.rest is None:
            t.rest, t.reported_label = (x, y), t.label
            out.append(Observation("appeared", t.id, t.label, x, y, self.frame, confidence=t.confidence(t.label),
                                   since=self._since(t, x, y)))
            return out
        relabel = t.label != t.reported_label and self._relabel_agreed(t)
        label = t.label if relabel else t.reported_label
        if np.hypot(x - t.rest[0], y - t.rest[1]) > 2 * s.still_mm:
            out.append(Observation("moved", t.id, label, x, y, self.frame, from_xy=t.rest,
                                   confidence=t.confidence(label), since=self._since(t, x, y)))
            t.rest = (x, y)
        if relabel:
            out.append(Observation("relabelled", t.id, t.label, x, y, self.frame, old_label=t.reported_label,
                                   confidence=t.confidence(t.label), reads=tuple(lab for lab, _ in t.reads)))
            t.reported_label = t.label
        return out

    def _since(self, t: Track, x: float, y: float) -> int:
        """The first frame of ``t``'s latest unbroken run of reads within ``relabel_within_mm`` of (x, y)."""
        since = self.frame
        for frame, px, py in reversed(t.path):
            if np.hypot(px - x, py - y) > self.settings.relabel_within_mm:
                break
            since = frame
        return since

    def _relabel_agreed(self, t: Track) -> bool:
        """Does the new label hold enough of the last ``label_votes`` reads (a young track's missing reads
        count against it) to replace the one already reported?"""
        s = self.settings
        needed = min(s.label_votes, int(s.relabel_share * s.label_votes) + 1)
        return t.votes(t.label) >= needed

    def _associate(self, dets: Sequence[TableDetection]):
        """Hungarian assignment on distance. A detection with another label is the same object only
        very near it (a misread, or a new card on top of a pile); a little farther off it is another
        object, like a card played beside one already in the trick."""
        if not self.tracks or not dets:
            return [], list(range(len(self.tracks))), list(range(len(dets)))
        s = self.settings
        tx = np.array([[t.x, t.y] for t in self.tracks])
        dx = np.array([[d.x, d.y] for d in dets])
        dist = np.linalg.norm(tx[:, None, :] - dx[None, :, :], axis=2)
        labels = [t.label for t in self.tracks]  # a majority vote each: counted once per look, not per pair
        tl, dl = np.array(labels, dtype=object), np.array([d.label for d in dets], dtype=object)
        kinds = {lab: self.kind_of(lab) for lab in {*labels, *dl}}
        tk, dk = np.array([kinds[lab] for lab in tl], dtype=object), np.array([kinds[lab] for lab in dl], dtype=object)
        other = tk[:, None] != dk[None, :]
        # another label may only take over an object lying at rest, at its resting place: a card
        # sliding over another on its way into the trick must not drag that one along
        rest = np.array([t.rest if t.rest is not None else (np.inf, np.inf) for t in self.tracks])
        from_rest = np.linalg.norm(rest[:, None, :] - dx[None, :, :], axis=2)
        near_rest = from_rest <= s.relabel_within_mm
        allowed = (dist <= s.max_distance_mm) & (~other | near_rest)
        if s.rest_reid_mm is not None:
            # an object that came to rest stays where it lies: a read farther from its resting place is
            # another object (Crazy 9075, six players: Bob's G12, misread G14 under a hand, was dragged
            # along by Fay's real G14 sliding over it to rest 52 mm away; her play was lost and every
            # later card went astray)
            pinned = np.array([t.rest is not None for t in self.tracks])
            allowed &= ~pinned[:, None] | (from_rest <= s.rest_reid_mm)
        misread = tl[:, None] != dl[None, :]  # same kind, other label
        cost = np.where(allowed, dist + other * s.relabel_within_mm + (misread & ~other) * s.still_mm, 1e9)
        rows, cols = linear_sum_assignment(cost)
        matches = [(r, c) for r, c in zip(rows, cols) if cost[r, c] < 1e9]
        mt = {r for r, _ in matches}
        md = {c for _, c in matches}
        # Re-identification: an object lifted and put down elsewhere (a piece moved two squares)
        # comes back as the same object if its label matches one that is hidden now.
        for c in range(len(dets)):
            if c in md:
                continue
            hidden = [r for r in range(len(self.tracks)) if r not in mt and self.tracks[r].confirmed
                      and self.tracks[r].misses > 0 and labels[r] == dets[c].label
                      and np.hypot(*(tx[r] - dx[c])) <= self._reid_reach(self.tracks[r])]
            if hidden:
                r = min(hidden, key=lambda r: np.hypot(*(tx[r] - dx[c])))
                matches.append((r, c))
                mt.add(r)
                md.add(c)
        return (matches, [i for i in range(len(self.tracks)) if i not in mt],
                [j for j in range(len(dets)) if j not in md])

    def _reid_reach(self, t: Track) -> float:
        """How far from where it was last seen a hidden object may be found again."""
        s = self.settings
        at_rest = t.rest is not None and np.hypot(t.x - t.rest[0], t.y - t.rest[1]) <= 2 * s.still_mm
        return s.rest_reid_mm if at_rest and s.rest_reid_mm is not None else s.reid_distance_mm
