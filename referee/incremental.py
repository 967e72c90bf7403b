"""Re-read only what changed: the recogniser on the parts of the table view that differ from what it last read.

A table seen from above is mostly still. Between two looks a tenth of a second apart a hand moves in one
place, or nothing moves at all (measured on the simulated 20 s reviews: the part that changed was empty
in 20 % of Crazy's looks, 30 % of Crazy Kick's and 82 % of fodbold's, and under a tenth of the view in
half of them). ``IncrementalRecognizer`` keeps the view as it was when each part was last read (colour
means over ``CELL`` px cells) and on each look:

- a cell has changed when it differs by more than ``threshold`` levels from its reference cell and from
  each of that cell's neighbours within ``shake_px`` (a camera that shakes a few px moves every edge, but
  each cell still matches a neighbour), and only patches of at least 3x3 cells count (noise, one odd
  cell). Neighbours one cell away were too few: the simulated camera shakes up to 8 px, and the board's
  lines then changed in scattered patches whose windows, merged, covered most of the view;
- no patch: what was found last time is kept;
- patches: the recogniser reads only a window around each, at the detector's pixels per mm for the whole
  view. Windows that overlap are merged when one read of both costs less than two (``_cost``): merged,
  grown round the objects they touch and squared, two windows that barely touch became one over most of
  the view, read whole (Crazy Kick seed 9193, fouls 0.2: 52 of 200 looks read whole, 20 since; its review
  2.0-2.1x real time from 1.7-1.8x, reviewed both ways on an idle machine: docs/benchmarks.md, session 28).
  A window is grown by ``margin`` px, to ``min_side``, and
  until every object known from before lies wholly inside it or wholly outside, so an object is either
  read afresh whole or kept; a new find that the window's edge cuts (an object never found before,
  lying across it) is dropped, and its place is read again on the next look in a window grown around it;
- windows over more than ``max_share`` of the view (a hand and arm reaching over the table) may be left
  unread for up to ``busy_looks`` looks in a row (fodbold): what was found before is kept, and once the
  hand has gone the change left behind (the piece moved) is read in its own small window. Reading the
  whole view under the hand found nothing new and cost most of fodbold's time (seed 9003: 36 of 200
  looks). But a view far from the last read in which nothing moved since the look before is read whole
  at once: a hand that stayed longer was read with the view, and it has gone (or rests);
- a card found before and not found again by a read (a read under the hand laying a card can miss the
  whole pile, and the reference then holds the pile as it lies) has its place read again for up to
  ``lost_looks`` looks, until something is found there;
- a card kept from before that its naming on the old corners gives much less surely than before (by
  ``doubt_drop``), and under ``unsure_below``, is read afresh on the next look: found under the hand that
  laid it, it may have settled by less than the shake the change map forgives, and its old box no longer
  lies on it;
- objects found with a detector confidence under ``unsure_below`` are read again every ``unsure_every``
  looks, as if they had changed: a find kept unchanged keeps its low confidence, which the tracker may
  ignore until the next whole read;
- a change over too much of the view that lasts longer, another view size, or ``refresh_every`` looks
  since the last whole read (a safety net): the whole view is read.

Cards kept from before are named again every ``rename_every`` looks (stage 2 only, on their known
corners; every look but in Crazy Kick, every second look): a card's face can change in place (a card
turned up onto a pile) where the forgiving change map does not see it. All objects are then named
together (``CardRecognizer.name``), so fodbold's one-of-a-kind pieces are still named jointly. The
reference is updated only where a read happened, so a change that builds up slowly is re-read once it
adds up to the threshold.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .recognize import CardRecognizer, Reading, RecognizedCard

# Kinds named again on every look, also where nothing seemed to change: a card's face can change in place.
# A piece or the ball keeps its name until its part of the view changes.
RENAMED_KINDS = frozenset({"card"})
CELL = 4  # px of the view per cell of the change map (the view is about 1 mm a px: 4 mm cells)


@dataclass(frozen=True)
class IncrementalSettings:
    threshold: float = 12.0     # levels (0-255) a cell must change by in one colour channel to count
    shake_px: int = 8           # px the camera may shake between looks and nothing counts as changed
    margin: int = 24            # px the window reaches beyond the change and beyond a known object in it
    min_side: int = 160         # px: the least window side (a detector sees an object better with context)
    max_share: float = 0.5      # a change over more of the view than this: read it all
    refresh_every: int = 30     # looks between whole reads (3 s at 10 looks a second)
    unsure_below: float = 0.6   # a find with less detector confidence is read again ...
    unsure_every: int = 5       # ... every this many looks
    busy_looks: int = 0         # a change over more than max_share is left unread for up to this many looks
                                # in a row (a hand and arm over the table: nothing to read under them yet;
                                # fodbold only, see GAME_SETTINGS)
    rename_every: int = 1       # looks between namings of the cards kept from before (1: every look)
    lost_looks: int = 3         # a place where a card was found and then not is read again for this many looks
    doubt_drop: float = 0.1     # a kept card whose name falls by more than this, named again on its old corners,
                                # to under unsure_below, is read afresh on the next look (see ``recognize``)

    def __post_init__(self):
        if not 0 < self.threshold < 255:
            raise ValueError(f"threshold must be in (0, 255) levels, got {self.threshold}")
        if self.shake_px < 0:
            raise ValueError(f"shake_px must be >= 0, got {self.shake_px}")
        if self.margin < 0 or self.min_side < 32:
            raise ValueError(f"margin must be >= 0 px and min_side >= 32 px, got {self.margin}, {self.min_side}")
        if not 0 < self.max_share <= 1:
            raise ValueError(f"max_share must be in (0, 1], got {self.max_share}")
        if self.refresh_every < 1:
            raise ValueError(f"refresh_every must be >= 1 look, got {self.refresh_every}")
        if not 0 <= self.unsure_below <= 1 or self.unsure_every < 1:
            raise ValueError(f"unsure_below must be in [0, 1] and unsure_every >= 1 look, got {self.unsure_below}, "
                             f"{self.unsure_every}")
        if self.busy_looks < 0:
            raise ValueError(f"busy_looks must be >= 0, got {self.busy_looks}")
        if self.rename_every < 1:
            raise ValueError(f"rename_every must be >= 1 look, got {self.rename_every}")
        if self.lost_looks < 0:
            raise ValueError(f"lost_looks must be >= 0, got {self.lost_looks}")
        if not 0 <= self.doubt_drop <= 1:
            raise ValueError(f"doubt_drop must be in [0, 1], got {self.doubt_drop}")


# Games that need other settings. Only fodbold waits a hand out (busy_looks): its board is crowded, and
# reading the whole view under every hand cost most of its time (1.4x -> 2.2x real time, as accurate). Cards
# played in quick succession are covered by the next one before the hand has gone: waiting missed them
# (scripts/bench_referee.py crazy-kick seeds 9003-9008: 53 of 60 plays, 4 false calls waiting, 57 and 2
# not; crazy 9009-9016: 87 of 99, 5 false calls waiting, 97 and none not).
# Crazy Kick names its kept cards again every second look, not every look: its piles keep 12-14 cards in
# view, each read both ways up, and renaming them was a fifth of its time. Measured (session 25, the same
# videos, scripts/bench_referee.py crazy-kick --fouls 0.2 9149-9156 and 9059-9062, 9077-9080): every
# action, foul and latency the same on 16 videos, review 1.7x -> 1.9x real time. Waiting a hand out there
# (busy_looks=2, with the still-view read) lost 3 of 57 actions (9149-9152) and slowed the median call.
GAME_SETTINGS = {"fodbold": IncrementalSettings(busy_looks=5), "crazy-kick": IncrementalSettings(rename_every=2)}


def settings_for(game: str) -> IncrementalSettings:
    return GAME_SETTINGS.get(game, IncrementalSettings())


def _cells(view) -> np.ndarray:
    """The view averaged over CELL x CELL px blocks, in colour (a card and a cloth of one grey still differ
    in colour); a partial block at the edge is left out. A view made a part at a time (``RectifiedView``)
    gives its block means from the camera image, without being made whole."""
    if hasattr(view, "cell_means"):
        return view.cell_means(CELL).astype(np.int16)
    h, w = (view.shape[0] // CELL) * CELL, (view.shape[1] // CELL) * CELL
    return cv2.resize(view[:h, :w], (w // CELL, h // CELL), interpolation=cv2.INTER_AREA).astype(np.int16)


def _box(corners: np.ndarray, shape) -> tuple[float, float, float, float]:
    """An object's upright bounding box, clipped to the view (what of it the detector can see)."""
    h, w = shape[:2]
    return max(0.0, float(corners[:, 0].min())), max(0.0, float(corners[:, 1].min())), \
        min(float(w), float(corners[:, 0].max())), min(float(h), float(corners[:, 1].max()))


def _cell_slice(corners: np.ndarray, cells: np.ndarray) -> tuple[slice, slice]:
    """The cells of the change map ``cells`` that an object's box covers, partial cells included."""
    x0, y0, x1, y1 = _box(corners, (cells.shape[0] * CELL, cells.shape[1] * CELL))
    return (slice(int(y0) // CELL, -(-int(np.ceil(y1)) // CELL)),
            slice(int(x0) // CELL, -(-int(np.ceil(x1)) // CELL)))


def _clip(box, w: int, h: int) -> list[float]:
    return [max(0.0, box[0]), max(0.0, box[1]), min(float(w), box[2]), min(float(h), box[3])]


def _cost(window, overhead: int) -> int:
    """What reading a window costs, roughly: the detector's input is square on the window's longer side, and
    each read costs as much again as a window ``overhead`` px longer (the calls, the objects named)."""
    return (max(window[2] - window[0], window[3] - window[1]) + overhead) ** 2


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a, b) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


class IncrementalRecognizer:
    """``IncrementalRecognizer(CardRecognizer(...)).recognize(view)``: what ``CardRecognizer.recognize``
    gives, reading only the part of the view that changed since it was last read. ``stats`` counts the
    looks that were read whole, in part, or not at all."""

    def __init__(self, recognizer: CardRecognizer, settings: IncrementalSettings = IncrementalSettings()):
        self.recognizer, self.settings = recognizer, settings
        # a detector exported for one input size cannot read a window at another: it reads every view whole
        self.partial = not getattr(getattr(recognizer.detector, "engine", None), "fixed_size", False)
        self.reset()

    def reset(self) -> None:
        self._ref: np.ndarray | None = None
        self._readings: list[Reading] = []
        self._named: list[RecognizedCard] = []
        self._since_whole = 0
        self._busy = 0  # looks in a row left unread for a change over too much of the view
        self._prev: np.ndarray | None = None  # the last look's cells
        self._lost: list[tuple[np.ndarray, int]] = []  # (corners, looks left) of cards found, then not
        self.stats = {"whole": 0, "part": 0, "none": 0}

    def recognize(self, view: np.ndarray) -> list[RecognizedCard]:
        cells = _cells(view)
        s = self.settings
        # the last look's cells: a fresh array each look, never written (a part read writes only the
        # reference, which is the cells of a look before this one's)
        prev, self._prev = self._prev, cells
        if not self.partial or self._ref is None or self._ref.shape != cells.shape \
                or self._since_whole + 1 >= s.refresh_every:
            return self._read_whole(view, cells)
        self._since_whole += 1
        changed = self._changed(cells)
        if self._since_whole % s.unsure_every == 0:
            self._mark_unsure(changed)
        for corners, _ in self._lost:
            changed[_cell_slice(corners, changed)] = 1
        before = self._readings
        windows = self._windows(changed, view.shape)
        if self._too_much(windows, view.shape):
            if s.busy_looks and prev is not None and prev.shape == cells.shape \
                    and not self._changed(cells, prev).any():
                # far from the last read, but nothing moved since the last look: the hand has gone (or
                # rests), read what it left now, not busy_looks later (fodbold seed 9169: an arm read
                # with the board after five busy looks, and its leaving then taken for another hand;
                # blue 5's move found 0.57 s after he was set down)
                return self._read_whole(view, cells)
            if self._busy < s.busy_looks:  # a hand over the table: read what it did once it has gone
                self._busy += 1
                self.stats["none"] += 1
                return self._named
            return self._read_whole(view, cells)
        self._busy = 0
        self.stats["part" if windows else "none"] += 1
        fresh: set[int] = set()
        for window in windows:
            fresh |= {id(r) for r in self._read_part(view, cells, window)}
        self._track_lost(before)
        # the cards kept from before are named again on this look: a face that changed in place (a card
        # turned up onto a pile) can hide from the change map, which forgives a shaking camera
        if self._since_whole % s.rename_every == 0:
            again = [i for i, r in enumerate(self._readings) if r.kind in RENAMED_KINDS and id(r) not in fresh]
            for i, r in zip(again, self.recognizer.reread(view, [self._readings[i] for i in again])):
                if self._doubtful(self._readings[i], r):
                    self._lost.append((r.corners, 1))  # read its place afresh on the next look
                self._readings[i] = r
        self._named = self.recognizer.name(self._readings)
        return self._named

    def _doubtful(self, before: Reading, now: Reading) -> bool:
        """A kept card named much less surely than before on its old corners, and now unsurely: its box may
        no longer lie on it. A card found under the hand that laid it can settle a few px after, less than
        the shake the change map forgives (Crazy Kick seed 9058: a goal card found 10 mm from where it came
        to rest was named at 0.36 on its old box for four looks, under the tracker's floor, and missed)."""
        if before.probabilities is None or now.probabilities is None:
            return False
        was, is_ = float(before.probabilities.max()), float(now.probabilities.max())
        return is_ < was - self.settings.doubt_drop and now.detector_confidence * is_ < self.settings.unsure_below

    def _mark_unsure(self, changed: np.ndarray) -> None:
        """Mark the cells of objects the detector found unsurely as changed, so they are read again: a
        find kept unchanged keeps its confidence, and one under the tracker's threshold would stay
        unseen until the next whole read (fodbold seed 9007: the ball token found at 0.45 after a pass
        was ignored for 3 s, and the move it showed was guessed wrong)."""
        for r in self._readings:
            if r.detector_confidence < self.settings.unsure_below:
                changed[_cell_slice(r.corners, changed)] = 1

    def _too_much(self, windows, shape) -> bool:
        """Do the windows cover more than ``max_share`` of the view (a hand and arm over the table)?"""
        return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in windows) > self.settings.max_share * shape[0] * shape[1]

    def _changed(self, cells: np.ndarray, ref: np.ndarray | None = None) -> np.ndarray:
        """Cells that differ from every cell around them in the reference: a camera that shakes a pixel or
        two moves every edge, but each cell still matches a neighbour (measured on fodbold seed 9002:
        2,235 changed patches in 200 looks compared cell to cell, 146 so)."""
        k = np.ones((3, 3), np.uint8)
        reach = 2 * -(-self.settings.shake_px // CELL) + 1  # cells: the reference's neighbours a cell may match
        near = np.ones((reach, reach), np.uint8)
        t = self.settings.threshold
        ref = self._ref if ref is None else ref
        changed = ((cells > cv2.dilate(ref, near) + t) | (cells < cv2.erode(ref, near) - t)).any(axis=2)
        changed = changed.astype(np.uint8)
        return cv2.morphologyEx(changed, cv2.MORPH_OPEN, k)

    def _read_part(self, view: np.ndarray, cells: np.ndarray, window) -> list[Reading]:
        """Read one window afresh; return what it found."""
        x0, y0, x1, y1 = window
        scale = self.recognizer.detector.imgsz / max(view.shape[:2])  # the whole view's input px per view px
        size = max(64, int(np.ceil(max(x1 - x0, y1 - y0) * scale / 32)) * 32)
        found = [r.moved(x0, y0) for r in self.recognizer.read(view[y0:y1, x0:x1], imgsz=size)]
        h, w = view.shape[:2]
        edge = 3.0  # px: a find this near an edge of the window that is not the view's edge is cut by it
        inner = (x0 + edge if x0 > 0 else -np.inf, y0 + edge if y0 > 0 else -np.inf,
                 x1 - edge if x1 < w else np.inf, y1 - edge if y1 < h else np.inf)
        cut = [r for r in found if not _inside(_box(r.corners, view.shape), inner)]
        found = [r for r in found if _inside(_box(r.corners, view.shape), inner)]
        # a find the window's edge cuts is read on the next look in a window grown around it (as a place
        # lost): come to rest, it would change no more and stay unread until a whole read (Crazy Kick seed
        # 9146: the kick-off card, turned 45 degrees, lay 3 px over the edge of the window read as it came;
        # found 3 s later). Two looks: ``_track_lost`` counts this one down.
        self._lost += [(r.corners, 2) for r in cut if r.kind in RENAMED_KINDS]
        kept = [r for r in self._readings if not _inside(_box(r.corners, view.shape), window)]
        self._readings = kept + found
        cx0, cy0, cx1, cy1 = x0 // CELL, y0 // CELL, -(-x1 // CELL), -(-y1 // CELL)
        self._ref[cy0:cy1, cx0:cx1] = cells[cy0:cy1, cx0:cx1]
        return found

    def _track_lost(self, before: list[Reading]) -> None:
        """Cards found before this look and not now, where nothing found now overlaps them, are read again
        for ``lost_looks`` looks (found again there, they are forgotten). A read under the hand laying a
        card can miss the whole pile, and the reference then holds the pile as it lies: nothing would
        change there until the next whole read (Crazy Kick seed 9013: the pile unread for 3 s and two
        plays missed)."""
        now = [_box(r.corners, (np.inf, np.inf)) for r in self._readings]

        def found_again(corners) -> bool:
            box = _box(corners, (np.inf, np.inf))
            return any(_overlaps(box, b) for b in now)

        lost = [(c, k - 1) for c, k in self._lost if k > 1 and not found_again(c)]
        if self.settings.lost_looks:
            kept = {id(r) for r in self._readings}
            lost += [(r.corners, self.settings.lost_looks) for r in before
                     if r.kind in RENAMED_KINDS and id(r) not in kept and not found_again(r.corners)]
        self._lost = lost

    def _read_whole(self, view: np.ndarray, cells: np.ndarray) -> list[RecognizedCard]:
        self.stats["whole"] += 1
        before = self._readings
        self._readings = self.recognizer.read(np.asarray(view))
        self._track_lost(before)
        self._ref, self._since_whole, self._busy = cells, 0, 0
        self._named = self.recognizer.name(self._readings)
        return self._named

    def _windows(self, changed: np.ndarray, shape) -> list[tuple[int, int, int, int]]:
        """The parts of the view to read (x0, y0, x1, y1 px, on cell boundaries), one per patch of change
        (windows that overlap are merged)."""
        n, _, boxes, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        windows = [self._grow(b[0] * CELL, b[1] * CELL, (b[0] + b[2]) * CELL, (b[1] + b[3]) * CELL, shape)
                   for b in boxes[1:n]]
        m = 2 * self.settings.min_side  # each read's own cost, as px of window side (see ``_cost``)
        merged = True
        while merged:  # merge any two that overlap, then look again: a merged window may overlap a third
            merged = False
            pairs = ((i, j) for i in range(len(windows)) for j in range(i + 1, len(windows)))
            for i, j in pairs:
                a, b = windows[i], windows[j]
                if not _overlaps(a, b):
                    continue
                both = self._grow(min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]), shape)
                if _cost(both, m) <= _cost(a, m) + _cost(b, m):
                    windows[i] = both
                    del windows[j]
                    merged = True
                    break
        return windows

    def _grow(self, x0: float, y0: float, x1: float, y1: float, shape) -> tuple[int, int, int, int]:
        """A change (x0, y0, x1, y1 px) -> the window to read: the change and a margin, grown until every
        known object it touches lies wholly inside with the margin around it; then at least ``min_side``
        a side and square where the view allows (the detector's input is square anyway: free context).
        A known object the squaring cuts keeps its reading (its cut find is dropped): growing after
        squaring chained from piece to piece over a crowded board (fodbold seed 9003: windows of 0.7-1.0
        of the view for a change of a few cells, 36 of 200 looks read whole)."""
        h, w = shape[:2]
        m = self.settings.margin
        box = _clip([x0 - m, y0 - m, x1 + m, y1 + m], w, h)
        known = [_box(r.corners, shape) for r in self._readings]
        for _ in range(8):
            grown = list(box)
            for b in known:
                if _overlaps(b, grown) and not _inside((b[0] - m, b[1] - m, b[2] + m, b[3] + m), grown):
                    grown = [min(grown[0], b[0] - m), min(grown[1], b[1] - m), max(grown[2], b[2] + m),
                             max(grown[3], b[3] + m)]
            grown = _clip(grown, w, h)
            if grown == box:
                break
            box = grown
        side = max(box[2] - box[0], box[3] - box[1], self.settings.min_side)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        box = _clip([min(box[0], cx - side / 2), min(box[1], cy - side / 2), max(box[2], cx + side / 2),
                     max(box[3], cy + side / 2)], w, h)
        x0, y0 = int(box[0]) // CELL * CELL, int(box[1]) // CELL * CELL
        x1, y1 = min(w, -(-int(np.ceil(box[2])) // CELL) * CELL), min(h, -(-int(np.ceil(box[3])) // CELL) * CELL)
        return x0, y0, x1, y1
