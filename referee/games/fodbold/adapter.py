"""From what the camera saw (tracker observations in table millimetres) to Fodbold actions.

Labels are those of ``labels.py``: pieces ``red-9``/``blue-4``, ``ball``, pass and shot cards by
their deck ids, ``back`` for a face-down card. Squares come from the layout's board grid.

- **A piece comes to rest on another square than the engine has it on**: a ``move`` (``to`` that
  square; ``from`` the square it was seen leaving, when that is where the engine has it). Coming to
  rest on an opponent's square is a man-marking, which the engine works out from the squares. A
  piece back on the square the engine has it on (the table put back a piece the engine refused, a
  piece straightened on its square) is no move. A piece seen on a square again after a hand hid it
  for long (a new track) is treated the same way.
- **Which piece it is** comes from where it has been more than from its number, which the classifier
  misreads more often than a piece changes places (and the tracker keeps one object for a piece of
  one colour whatever number it reads: ``labels.piece_kind``). A piece first seen on a square where
  the engine has a piece of its colour is that piece (a team never has two pieces on one square);
  it keeps that name wherever it is carried, and later readings of another number on it are
  ignored. Only a piece first seen where the engine has none of its colour (it was carried there
  unseen) is named by its label, and a relabel of such a piece may correct the move it made; when
  the card does not let the labelled piece move, it is the one piece the card lets move that is out
  of sight, if there is exactly one. While none is (the tracker still holds the track of the piece
  that was lifted), such a piece waits up to ``doubt_frames`` for it to be let go, and is judged
  before the other team's next card, or when the recording ends (``finish``). A number the card
  lets move waits too while that piece stands in view on his square: when another mover's track is
  let go meanwhile, the piece carried is that one (his number was misread). A
  piece found again on its square while a track named after it rests elsewhere gets its name back;
  that track went with another piece (one coming to rest beside it) and is named afresh from the
  number last read on it, and its move made.
- **Never onto a teammate.** A piece seen coming to rest on the square where the engine has one of
  its own team is the camera confusing two pieces (a track taken over by a neighbour the classifier
  read with the same number), not a move: a team never shares a square. No call (measured: all 16
  false calls of scripts/bench_referee.py fodbold seed 9002 were such moves).
- **A nudge is not a move.** A piece that is not expected to move (it is not the team's turn, no
  card awaits its move, or the card does not let that piece move) and sits one square from where
  the engine has it was knocked by a hand: no call. Two squares or more is a move, and the engine
  says what is wrong with it (out of turn, not on the card, too far ...).
- **A move before its card.** The team to draw moving a piece (not a nudge) had its card shown
  under a hand or read late: the move waits until that team's card is seen, then counts after it;
  after ``card_wait_frames`` without the card it is called as seen.
- **A card comes into view face up** (it appears, or a face-down card turns over: a ``back`` track
  relabelled): a pass card is that team's ``draw`` (the team is in the card's id, red or blue deck);
  a shot card is a ``shot`` by the team to play (both teams' shot decks are the same cards, so the
  card cannot say whose it is; before the kick-off is decided nobody is to play and no call is
  made). A card is drawn once: a pass card the engine has taken is the discard pile seen again, and
  a card that made its action is not read again while the tracker follows it; a card the engine
  refused (drawn out of turn) went back to the deck and counts when it is shown again. A shot card
  counts again only after its deck was reshuffled.
- **A label corrected by the tracker** (a misread while it settled) corrects the action it made,
  when it comes within ``correction_frames`` of it, nothing has happened since, and it reads the
  same kind of thing (piece for piece, pass card for pass card, shot card for shot card): a
  ``Correction``. Anything else is taken as the new label coming into view (a face-down card turned
  over is a draw shown; the next card laid on the same discard spot is the next draw), except a
  card read back as a label it showed before (read back and forth between two cards) and a drawn
  card read as another pass card while the other team is to draw or its own move is awaited, and a
  card drawn before (the discard pile found again, not the track that made the draw) read as
  another pass card of a team that may not draw now: misreads, no action. A draw read anew, within
  ``correction_frames``, as a card that team drew before was the discard pile seen again and misread
  for a look: the draw is withdrawn. A draw put right, read back as its first card at least
  ``DRAWN_AGAIN_SURE``, is that card again where the moves on it bear that out, or where that read is
  surer than the one that put it right and the moves fit it as well (seed 9215). The shot card that made a shot, read later as another shot card
  the engine would refuse for want of a shot chance, is a misread of the card lying there. A face
  card read on a deck (where a face-down card has lain for ``deck_frames``, nudged or not) is the deck's back
  misread: no action until the card is taken off the deck and shown. So is a face card nudged less than
  ``DECK_MM`` from where it was first seen, lying there since before an action the camera saw (seed 9207).
- **A player who stays put** ("or fewer" squares: none) cannot be seen. When the other team shows
  its card while the engine still waits for a move, the adapter first makes the staying move: the
  player the ball token went to (a pass to a player who does not move), else the holder when the
  ball stayed with him, else, for the team without the ball, a player who may stay. When the ball
  token is seen with none of those who may stay, the nearest to it stays (a guess: without the
  staying move every later card would look out of turn; measured on scripts/bench_referee.py
  fodbold seed 9001, a misread ball token made all 10 of its false calls). When the ball token
  lies two squares or more from all who may stay, a player the card lets move ran there with it
  unseen: the move to the legal square nearest the token is made instead.
- **Guesses give way to sightings.** A staying move or run made up as above is a guess. A piece of
  that team seen later where the engine would refuse his move (out of turn, above all) is taken as
  the move the guess stood for, when the game re-scored that way is legal there and has no more
  violations than now (a ``Correction``); else the move is called as usual.
- **One look, game order.** What one look saw is taken in the order the game goes (``order``): the
  team to play's card when it is to draw, then its pieces, then the rest; a move and the other
  team's next card seen together happened in that order. What one observation made first (a move
  let go from doubt) is taken into account before the rest of it is judged (``_caught_up``).
- **The ball** token makes no action of its own: the engine knows who has it from the cards and
  moves. The adapter keeps the square it was last seen on (``ball_square``) for the staying move
  above and for the overlay.
- **The die** is not read: the kick-off comes from the setup's ``first`` or the operator's call
  ``operator("roll", team, value)``.

The adapter reads the engine but never changes it: it returns actions, and the caller applies them.
"""
from __future__ import annotations

from dataclasses import replace

from ..adapters import Correction, camera_action, replayed
from .actions import ACTION_ADAPTER
from .board import TEAMS, BoardError, square_name
from .labels import BACK, BALL, parse_piece
from .rules import FodboldGame, chebyshev

__all__ = ["FodboldAdapter", "Correction"]


MOVER_SURE = 0.8  # a moved piece read this surely as a mover the card names is that mover (``_piece``)
DRAWN_AGAIN_SURE = 0.7  # a drawn card put right, read back this surely as the card first read, was that card

class FodboldAdapter:
    def __init__(self, game: FodboldGame, layout, correction_frames: int = 30, card_wait_frames: int = 300,
                 doubt_frames: int = 45, deck_frames: int = 90):
        """``layout``: ``fodbold_layout()``, whose grid names the board's squares.
        ``correction_frames``: how soon after an action a relabel of its object corrects it.
        ``card_wait_frames``: how long a move of the team to draw waits for its card to be seen.
        ``doubt_frames``: how long a piece carried unseen, whose number the card does not let move,
        waits for the tracker to let go of the piece that did move (``_carried``); about the tracker's
        hold (1.5 s).
        ``deck_frames``: how long a face-down card must have lain in one place to be taken for a deck:
        a face card read there is the deck's back misread (``_on_deck``)."""
        if layout.grid is None:
            raise ValueError("the Fodbold adapter needs a layout with a board grid")
        if correction_frames < 0 or card_wait_frames < 0 or doubt_frames < 0 or deck_frames < 0:
            raise ValueError(f"correction_frames, card_wait_frames, doubt_frames and deck_frames must not be "
                             f"negative, got {correction_frames}, {card_wait_frames}, {doubt_frames} and {deck_frames}")
        self.correction_frames = correction_frames
        self.card_wait_frames = card_wait_frames
        self.doubt_frames = doubt_frames
        self.deck_frames = deck_frames
        self._backs: dict[int, tuple[float, float, int]] = {}  # face-down card track -> (x, y, resting since)
        self._decks: list[tuple[float, float]] = []  # where a face-down card lay for deck_frames: a deck
        self._doubts: dict[int, tuple[object, tuple[str, int], float | None, int]] = {}  # track -> (obs, label, t, since)
        self.game = game
        self.grid = layout.grid
        self.log: list[dict] = []
        self.ball_square: str | None = None
        self._made: dict[int, dict] = {}  # track id -> the action it made
        self._named: dict[int, tuple[tuple[str, int], bool]] = {}  # track id -> (piece, named by its square)
        self._rest: dict[int, str] = {}  # piece track id -> the square it was last seen at rest on
        self._shown: dict[int, set[str]] = {}  # card track id -> the labels it has been read as
        self._put_right: dict[int, float] = {}  # draw track id -> how surely the relabel that put its draw right read
        self._guesses: list[dict] = []  # the moves _stayed guessed (the dicts in self.log)
        self._last: dict[int, object] = {}  # piece or card track id -> its last observation
        self._orphans: list[int] = []  # tracks whose name a newer sighting of the piece took
        self._waiting: dict[tuple[str, int], tuple[dict, int, int]] = {}  # piece -> (move, track, frame)
        self._gone: dict[tuple[str, int], int] = {}  # piece -> the frame a track named after him was let go
        self._first: dict[int, tuple[float, float, int]] = {}  # card track id -> where and when it was first seen

    # ---- operator calls ----------------------------------------------------------------------

    def operator(self, call: str, *args, t: float | None = None) -> dict:
        """A call the camera cannot see: ``("roll", team, value)`` for the kick-off die."""
        if call != "roll" or len(args) != 2 or args[0] not in TEAMS:
            raise ValueError(f"Fodbold operator calls: roll TEAM VALUE (team red or blue); got {(call, *args)!r}")
        action = self._emit({"type": "roll", "team": args[0], "value": int(args[1])}, t, None, None)
        action["source"] = "operator"  # the die is thrown off camera, entered by a person
        return action

    # ---- observations ------------------------------------------------------------------------

    def order(self, observations: list) -> list:
        """What one look saw, in the order the game goes: the team to play's card (when it is to draw),
        then its pieces, then the rest. A move and the other team's next card seen in the same look
        (the move was hidden by a hand, or the piece was carried far and found again only now)
        happened in that order; taking the card first made the move look out of turn (measured:
        scripts/bench_referee.py fodbold seed 9003, one such look made 4 false calls). Likewise a
        team's card and its move seen together (seed 9010: the move first was a move without a card)."""
        game = self.game
        team = game.pos.to_play
        if game.phase not in ("move", "turn") or team is None:
            return list(observations)

        def rank(obs) -> int:
            if obs.kind == "vanished":
                return 2
            piece = parse_piece(obs.label)
            if piece is not None:
                return 1 if piece[0] == team else 2
            drawing = game.phase == "turn" and (game.decks.pass_card(team, obs.label) is not None
                                                or obs.label in game.decks.shots)
            return 0 if drawing else 2

        return sorted(observations, key=rank)  # stable: each rank keeps the tracker's order

    def observe(self, obs, t: float | None = None) -> list:
        """Actions (dicts, already appended to ``self.log``) and Corrections for one observation."""
        game = self.game
        try:
            return self._observe(obs, t)
        finally:
            self.game = game  # the caller's engine, which takes the actions returned

    def finish(self, frame: int, t: float | None = None) -> list:
        """The recording ended: pieces that wait for another track to be let go (``_settle``) are
        judged as last seen (seed 9110: red 10 set down 0.1 s before the end). Moves that wait for
        their team's card stay unjudged: the card may come after the end, and no call beats a false one."""
        return self._settle(frame, now=True)

    def _caught_up(self, out: list) -> list:
        """``out``, after which this observation is judged on a scratch engine that has taken it: the
        caller applies the actions only once ``observe`` returns (seed 9108: a doubted move let go as
        the other team's card showed was still unplayed when the staying move was judged, and red was
        made to stay as well as move)."""
        if out:
            self.game = self._scratch(self.log)
        return out

    def _observe(self, obs, t: float | None) -> list:
        out = self._caught_up(self._overdue(obs.frame, t))
        self._note_back(obs)
        if obs.kind == "vanished":
            named = self._named.pop(obs.track_id, None)
            if named is not None:
                self._gone[named[0]] = obs.frame
            self._rest.pop(obs.track_id, None)
            self._last.pop(obs.track_id, None)
            return out + self._settle(obs.frame)
        out += self._caught_up(self._settle(obs.frame))
        piece = parse_piece(obs.label)
        before = self._last.get(obs.track_id)
        if obs.label != BALL:
            self._last[obs.track_id] = obs
            if piece is None:
                self._first.setdefault(obs.track_id, (obs.x, obs.y, obs.frame))
        if (piece is None and obs.label != BALL and obs.kind == "moved" and before is not None
                and before.label != obs.label):
            # the tracker reports a card that moved and changed label in one look as a move under the
            # new label and then a relabel: the relabel says what the new label means (seed 9019: the
            # discard pile misread while it was nudged made a draw)
            return out
        if obs.kind == "relabelled":
            return out + self._relabelled(obs, t)
        if obs.label == BALL:
            self.ball_square = self._square((obs.x, obs.y))
            return out
        if piece is not None:
            out += self._caught_up(self._piece(obs, piece, t))
            while self._orphans:  # a track the piece's newer sighting took the name from: what is it?
                tid = self._orphans.pop()
                last = self._last.get(tid)
                if last is not None and tid != obs.track_id:
                    out += self._caught_up(self._piece(replace(last, kind="moved", from_xy=None, frame=obs.frame),
                                                       parse_piece(last.label), t))
            return out
        return out + self._card(obs, t)

    def _note_back(self, obs) -> None:
        """Keep where face-down cards rest; one that lay in one place for ``deck_frames`` is a deck,
        and the place stays one after its back is read as something else or lost."""
        was = self._backs.get(obs.track_id)
        if obs.kind != "vanished" and obs.label == BACK:
            # a deck nudged (a card drawn off it) is still the deck, lying there since it first did
            # (seed 9146: the shot deck, moved 8-10 mm three times, read S02 at 0.56: a false shot)
            if was is None or (obs.kind == "moved" and not _near(was[:2], [(obs.x, obs.y)], self.DECK_MM)):
                self._backs[obs.track_id] = (obs.x, obs.y, obs.frame)
            return
        if was is not None:
            del self._backs[obs.track_id]
            if obs.frame - was[2] >= self.deck_frames and not _near(was[:2], self._decks, self.SAME_DECK_MM):
                self._decks.append((was[0], was[1]))

    DECK_MM = 25.0  # a face card read this near a deck is read on it
    SAME_DECK_MM = 3.0  # a deck this near one already kept is that one (its back read again), not kept twice

    def _on_deck(self, obs) -> bool:
        """Whether ``obs`` lies on a deck (``_note_back``): a face card read there is the deck's back
        misread, not a card shown (seeds 9074, 9088: both decks read S01 now and then at 0.5-0.7 and
        called shots, seven false calls). A card drawn off a deck and shown elsewhere counts there."""
        spots = self._decks + [(x, y) for tid, (x, y, since) in self._backs.items()
                               if tid != obs.track_id and obs.frame - since >= self.deck_frames]
        return _near((obs.x, obs.y), spots, self.DECK_MM)

    def _lay_through_a_turn(self, obs) -> bool:
        """A card nudged (moved less than ``DECK_MM`` from where it was first seen) that lay there, making no
        action, since before an action the camera saw: it was not shown now, it is a deck misread as a face
        (never read as a back, so no deck is known there: ``_on_deck``) or a card lying aside. A card drawn
        is carried to where it is shown (seed 9207: red's pass deck read S03 at 0.3-0.87 from the first look,
        before the kick-off roll; nudged 9 mm as red drew R09 off it, it was called blue's shot out of turn)."""
        first = self._first.get(obs.track_id)
        if first is None or not _near(first[:2], [(obs.x, obs.y)], self.DECK_MM):
            return False
        return any(first[2] < a.get("frame", -1) <= obs.frame for a in self.log)

    def _pass_team(self, label: str) -> str | None:
        """The team whose pass card ``label`` is (its deck says), else None (a shot card, a back, ...)."""
        return next((tm for tm in TEAMS if self.game.decks.pass_card(tm, label) is not None), None)

    def _square(self, xy) -> str | None:
        """The board square under a point; None off the board (goal squares are off the board)."""
        name = self.grid.square_at(xy)
        if name is None:
            return None
        try:
            self.game.board.parse(name)
        except BoardError:
            return None
        return name

    def _identify(self, obs, label: tuple[str, int]) -> tuple[str, int]:
        """The piece a track is: the name it was given, else the engine's piece of its colour on the
        square it rested on (before this move) or rests on, else its label."""
        known = self._named.get(obs.track_id)
        if known is not None:
            return known[0]
        for xy in (obs.from_xy, (obs.x, obs.y)):
            sq = self._square(xy) if xy is not None else None
            if sq is None:
                continue
            piece = next((p for p in self.game.pos.at(self.game.board.parse(sq)) if p[0] == label[0]), None)
            if piece is not None:
                for tid in [k for k, (named, _) in self._named.items() if named == piece]:
                    del self._named[tid]  # a track of it lost meanwhile: the newer sighting is the piece
                    last = self._last.get(tid)
                    if self._rest.get(tid) != sq and last is not None and parse_piece(last.label) != piece:
                        # elsewhere, reading another number: the track went with another piece (seed
                        # 9017: blue-8 came to rest beside blue-2 and took its track): named afresh from
                        # what it last showed. Reading the same number it is the piece's old track, not
                        # yet let go (seed 9003: the pieces set up again after a goal)
                        self._orphans.append(tid)
                self._named[obs.track_id] = (piece, True)
                return piece
        label = self._carried(label, obs.frame)
        self._named[obs.track_id] = (label, False)
        return label

    def _carried(self, label: tuple[str, int], frame: int) -> tuple[str, int]:
        """A piece first seen where the engine has none of its colour was carried there unseen. When
        the card does not let the piece its number names move, while exactly one piece of its colour
        that the card lets move is out of sight (no track is named after it), the number was misread
        and that piece is the one carried (seed 9011: blue 1 read as 7 on his new square and called
        not on the card). A number the card lets move stands (seed 9033: blue 11 carried, his old
        track let go a look later), unless that piece is in sight on his square (``_in_sight``) and
        exactly one other mover's track was let go within ``doubt_frames``: he is the one carried."""
        game = self.game
        movers = game.allowed_movers() if game.phase == "move" else []
        if not movers or (label in movers and not self._in_sight(label)):
            return label
        seen = {named for named, _ in self._named.values()}
        unseen = [p for p in movers if p[0] == label[0] and p not in seen]
        if label in movers:  # his number, read while he stands in view: the mover whose track just went
            unseen = [p for p in unseen if p in self._gone and frame - self._gone[p] <= self.doubt_frames]
        return unseen[0] if len(unseen) == 1 else label

    def _in_sight(self, piece: tuple[str, int], besides: int | None = None) -> bool:
        """Whether a track named after ``piece`` by its square (not ``besides``) still rests on the
        square the engine has him on: then a piece carried elsewhere and read with his number may be
        another mover misread (seed 9111: blue 6 carried and read as 8 while blue 8 stood in view;
        blue 6's old track was let go a look later)."""
        there = self.game.pos.squares.get(piece)
        if there is None:
            return False
        sq = square_name(there)
        return any(named == piece and by_square and tid != besides and self._rest.get(tid) == sq
                   for tid, (named, by_square) in self._named.items())

    def _piece(self, obs, label: tuple[str, int], t, settling: bool = False) -> list:
        game = self.game
        p = self._identify(obs, label)
        if (label != p and label[0] == p[0] and obs.kind == "moved" and obs.confidence >= MOVER_SURE
                and game.phase == "move" and p[0] == game.pos.to_play
                and p not in game.allowed_movers() and label in game.allowed_movers()):
            # the track of a piece the card does not let move carried off, read surely as one it does: the
            # tracker gave the mover's new place to the other's track as the hand passed over him (seed 9203:
            # blue 11 taken from l11 to b16 went to blue 10's track at d14, read 11 there at 0.59 a moment
            # before; blue 10 was called not on the card)
            self._named[obs.track_id] = (label, True)
            p = label
        there = game.pos.squares.get(p)
        to = self._square((obs.x, obs.y))
        self._rest[obs.track_id] = to
        if there is None or to is None:
            return []  # a piece not in play, or lifted off the board: nothing the rules know
        here = game.board.parse(to)
        if here == there:
            return []
        if any(q[0] == p[0] for q in game.pos.at(here)):
            return []  # onto a teammate's square: two pieces confused by the camera
        expected = game.phase == "move" and p[0] == game.pos.to_play and p in game.allowed_movers()
        # a square off where a guess put him: the guess was a square out (the ball token read off)
        guessed = any(g["team"] == p[0] and g["piece"] == p[1] and g["to"] == square_name(there)
                      for g in self._guesses)
        nudged = not expected and chebyshev(here, there) < 2
        if nudged and not guessed:
            return []  # knocked one square by a hand: no call
        if (not settling and self.doubt_frames and not self._named[obs.track_id][1]
                and game.phase == "move" and p[0] == game.pos.to_play
                and (not expected or self._in_sight(p, obs.track_id))):
            # named by a number the card does not let move, or by that of a mover still in sight on
            # his square: the piece that did move may still have a track the tracker holds unseen;
            # wait for it to be let go (``_settle``)
            since = self._doubts.get(obs.track_id, (None, None, None, obs.frame))[3]
            self._doubts[obs.track_id] = (obs, label, t, since)
            del self._named[obs.track_id]
            return []
        self._doubts.pop(obs.track_id, None)
        action = {"type": "move", "team": p[0], "piece": p[1]}
        if obs.from_xy is not None and self._square(obs.from_xy) == square_name(there):
            action["from"] = square_name(there)
        action["to"] = to
        if not (expected and game.move_problem(p, here) is None):
            late = self._late(action, obs)
            if late is not None:
                return [late]
            if nudged:
                return []
            if game.phase == "turn" and p[0] == game.pos.to_play:
                # the team to draw moved: its card was shown under a hand or read late (seed 9017: 3 s).
                # The move waits for the card; then it counts after it (``_card``, ``_overdue``).
                first = self._waiting.get(p)
                if first is not None and "from" in first[0]:
                    action = {**action, "from": first[0]["from"]}
                self._waiting[p] = (action, obs.track_id, first[2] if first is not None else obs.frame)
                return []
        self._waiting.pop(p, None)
        return [self._emit(action, t, obs.frame, obs.track_id)]

    def _settle(self, frame: int, now: bool = False) -> list:
        """The doubted pieces (``_piece``) whose wait is over, or that ``_carried`` now names as a piece
        the card lets move (the tracker let go of it), or all of them (``now``: the other team shows
        its card), judged as they were seen."""
        out = []
        for tid, (obs, label, t, since) in list(self._doubts.items()):
            if (now or frame - since >= self.doubt_frames or self._carried(label, frame) != label
                    or (label in self.game.allowed_movers() and not self._in_sight(label, tid))):
                del self._doubts[tid]
                out += self._piece(obs, label, t, settling=True)
        return out

    def _flush(self, team: str | None, t, frame) -> list:
        """The waiting moves of ``team`` (None: every team), in the order they were seen."""
        out = []
        for p, (action, track, _) in sorted(self._waiting.items(), key=lambda kv: kv[1][2]):
            if team is None or p[0] == team:
                del self._waiting[p]
                out.append(self._emit(action, t, frame, track))
        return out

    def _overdue(self, frame: int, t) -> list:
        """Moves that waited for their team's card longer than ``card_wait_frames``: called as seen."""
        if any(frame - since > self.card_wait_frames for _, _, since in self._waiting.values()):
            return self._flush(None, t, frame)
        return []

    def _late(self, action: dict, obs) -> Correction | None:
        """A move the engine would refuse now may be one the camera saw late: the piece was carried
        under a hand (or read only now) while the adapter had guessed that his team stayed put. It
        replaces the latest such guess after which it makes a game with no more violations than now
        and is itself legal there; else None (measured: scripts/bench_referee.py fodbold seeds
        9003-9008, a move seen after the other team's next card made most of the false calls)."""
        for k in range(len(self.log) - 1, -1, -1):
            stay = self.log[k]
            if not any(stay is g for g in self._guesses) or stay["team"] != action["team"]:
                continue
            stamp = {"t": stay.get("t"), "frame": stay.get("frame"), "source": "camera"}
            tries = [{**action, **stamp}]
            named = self._named.get(obs.track_id)
            if named is not None and not named[1] and stay["piece"] != action["piece"]:
                # named only by the number read on it (seed 9011: the keeper read as 7): the guessed
                # player himself may be the one who moved
                tries.append({**{key: v for key, v in action.items() if key != "from"}, "piece": stay["piece"],
                              **stamp})
            for fixed in tries:
                if self._violations_with(k, fixed) is not None:
                    self.log[k] = fixed
                    self._guesses = [g for g in self._guesses if g is not stay]
                    self._made[obs.track_id] = fixed
                    self._named[obs.track_id] = ((fixed["team"], fixed["piece"]), True)
                    return Correction(k, fixed, why=f"{fixed['team']} {fixed['piece']} seen on {fixed['to']} late: "
                                                    "he moved instead of staying put")
        return None

    def _violations_with(self, k: int, fixed: dict) -> int | None:
        """The violations of the game with action ``k`` replaced by ``fixed``; None when ``fixed`` is
        refused there or the game would have more violations than it has now."""
        scratch = self._scratch(self.log[:k])
        before = len(scratch.violations)
        replayed(scratch, [fixed], ACTION_ADAPTER.validate_python)
        if len(scratch.violations) > before:
            return None
        n = len(replayed(scratch, self.log[k + 1:], ACTION_ADAPTER.validate_python).violations)
        return n if n <= len(self.game.violations) else None

    def _scratch(self, actions: list[dict]) -> FodboldGame:
        """A scratch engine that has taken ``actions`` (the adapter never changes its own game)."""
        return replayed(FodboldGame(self.game.setup, self.game.board, self.game.decks), actions,
                        ACTION_ADAPTER.validate_python)

    def _card(self, obs, t) -> list:
        if obs.track_id in self._made:
            return []  # this card already made its action; now it is moved aside
        if obs.label != BACK and self._on_deck(obs):
            return []  # a deck's back misread; a card taken off the deck counts where it is shown
        if obs.kind == "moved" and self._lay_through_a_turn(obs):
            return []
        game, card = self.game, obs.label
        team = self._pass_team(card)
        if team is not None:
            if card in game.drawn[team]:
                return []
            out = self._caught_up(self._settle(obs.frame, now=True))
            out += self._stayed(team, t, obs.frame)
            out.append(self._emit({"type": "draw", "team": team, "card": card}, t, obs.frame, obs.track_id))
            return out + self._flush(team, t, obs.frame)
        if card in game.decks.shots:
            team = self._shooter()
            if team is None:
                return []
            used = game.shots_drawn[team]
            if card in used and len(used) < len(game.decks.shots):
                return []
            out = self._caught_up(self._settle(obs.frame, now=True))
            out += self._stayed(team, t, obs.frame)
            out.append(self._emit({"type": "shot", "team": team, "card": card}, t, obs.frame, obs.track_id))
            return out + self._flush(team, t, obs.frame)
        return []  # a face-down card, a hand, anything else

    def _shooter(self) -> str | None:
        """The team a shot card shown now is for (both teams' shot decks are the same cards): the team
        to play, or its opponent when the team to play still owes a move and the ball is the other's."""
        game = self.game
        team = game.pos.to_play
        if team is not None and game.phase == "move" and game.ball_team() not in (None, team) and not game.pos.turnover:
            team = "blue" if team == "red" else "red"  # the shooter's opponent stayed put first
        return team

    def _shot_refused(self, card: str) -> bool:
        """Whether the engine would refuse a shot with ``card`` now for want of a shot chance (the
        shooter is not in a shooting zone). Other refusals may come from a staying move the adapter
        has yet to make before the shot (``_stayed``), so they do not count here."""
        team = self._shooter()
        if team is None:
            return False
        scratch = self._scratch(self.log)
        before = len(scratch.violations)
        scratch.apply(ACTION_ADAPTER.validate_python({"type": "shot", "team": team, "card": card}))
        return any(v.type == "no_shot_chance" for v in scratch.violations[before:])

    def _stayed(self, team: str, t, frame) -> list:
        """``team`` shows a card while the engine still waits for the other team's move: that team
        moved nobody, which the camera cannot see. The player who stayed put is the one the ball
        token went to (a pass to a player who stays where he is), else the holder when the ball
        stayed with him, else (the team without the ball) any player who may stay. When the ball
        token is seen on none of them, the one nearest to it (else the first the card names) is
        taken: without a staying move every later card would look out of turn. A ball token seen far
        from all who may stay went there with a player who moved unseen (``_ran_with_ball``)."""
        game = self.game
        mover = game.pos.to_play
        if game.phase != "move" or mover is None or mover == team:
            return []
        stay = [p for p in game.allowed_movers() if game.move_problem(p, game.pos.squares[p]) is None]
        ball = game.board.parse(self.ball_square) if self.ball_square else None
        if game.ball_team() == mover and not game.pos.turnover:
            at_ball = [p for p in stay if game.pos.squares[p] == ball]
            holder = game.pos.holder
            pick = (at_ball[0] if at_ball else
                    holder if holder in stay and ball in (None, game.pos.squares[holder]) else None)
            if pick is None and ball is not None and all(chebyshev(game.pos.squares[p], ball) >= 2 for p in stay):
                ran = self._ran_with_ball(ball)
                if ran is not None:
                    return [self._guess(*ran, t, frame)]
            if pick is None and stay:
                # the ball token was not seen on any of them (misread, or hidden): the one nearest to
                # where it was last seen, else the first the card names. A guess, but no staying move
                # makes the other team's card, and all that follows, look out of turn.
                pick = min(stay, key=lambda p: chebyshev(game.pos.squares[p], ball) if ball else 0)
        else:
            pick = stay[0] if stay else None
        if pick is None:
            return []
        return [self._guess(pick, game.pos.squares[pick], t, frame)]

    def _ran_with_ball(self, ball) -> tuple | None:
        """(piece, square) for a ball token seen at rest two squares or more from everyone who may stay:
        a player the card lets move ran there with it (or took the pass there), unseen. The legal
        destination nearest to the token, when it is at most a square off (the token sits on the
        piece and is read a square off at times). Not a player seen still on his square (seed 9005: the
        token read a square off was nearer a far player who had not moved than the one who had)."""
        game = self.game
        seen = set()  # pieces seen still where they stood
        for tid, sq in self._rest.items():
            piece = self._named.get(tid, (None, False))[0]
            if piece in game.pos.squares and sq == square_name(game.pos.squares[piece]):
                seen.add(piece)
        best = min(((chebyshev(d, ball), i, p, d) for i, p in enumerate(game.allowed_movers()) if p not in seen
                    for d in game.destinations(p) if d != game.pos.squares[p]), default=None)
        return (best[2], best[3]) if best is not None and best[0] <= 1 else None

    def _guess(self, piece, to, t, frame) -> dict:
        """A move the camera did not see, made so the game goes on; a later sighting of the piece may
        replace it (``_late``)."""
        action = {"type": "move", "team": piece[0], "piece": piece[1],
                  "from": square_name(self.game.pos.squares[piece]), "to": square_name(to)}
        guess = self._emit(action, t, frame, None)
        self._guesses.append(guess)
        return guess

    def _relabelled(self, obs, t) -> list:
        named = self._named.get(obs.track_id)
        piece = parse_piece(obs.label)
        if named is not None and piece is not None:
            if named[0][0] != piece[0] and self._rest.get(obs.track_id) == self._square((obs.x, obs.y)):
                # the other team's colour on a piece at rest: a piece set on it (man-marking) took over its
                # track, and the one under it is covered. A new sighting of the marker (seed 9090: red 10
                # marked blue 8; the relabel was taken for a misread and the move never made)
                del self._named[obs.track_id]
                return self._piece(replace(obs, kind="appeared", old_label=None, from_xy=None), piece, t)
            if named[1] or named[0][0] != piece[0]:
                return []  # named by its square (or another colour read on it): a misread number
            self._named[obs.track_id] = (piece, False)  # named by its label: the better reading wins
        done = self._made.get(obs.track_id)
        shown = self._shown.setdefault(obs.track_id, set())
        again = piece is None and done is not None and obs.label in shown
        shown.update({obs.old_label, obs.label})
        i = next((k for k, a in enumerate(self.log) if a is done), None)  # None: undone meanwhile
        if (i == len(self.log) - 1 and obs.frame - done.get("frame", obs.frame) <= self.correction_frames
                and done["type"] != "roll"):
            fixed = None
            piece = parse_piece(obs.label)
            if done["type"] == "move" and piece is not None:
                fixed = {**done, "team": piece[0], "piece": piece[1]}
                fixed.pop("from", None)  # it was checked against the other piece's square
            elif done["type"] == "draw":
                team = self._pass_team(obs.label)
                if team is not None and obs.label != done["card"] and obs.label in self.game.drawn[team]:
                    # read anew as a card drawn before: the discard pile seen again, first misread as a
                    # card not yet drawn (seed 9053: B24 read B12 for a look). No draw was made
                    self.log.pop(i)
                    self._made.pop(obs.track_id, None)
                    return [Correction(i, None, f"{obs.label} (was read as {obs.old_label}): a card drawn "
                                                "before, seen again; no draw")]
                if team is not None:
                    fixed = {**done, "team": team, "card": obs.label}
                    self._put_right[obs.track_id] = obs.confidence
            elif done["type"] == "shot" and obs.label in self.game.decks.shots:
                fixed = {**done, "card": obs.label}
            if fixed is not None:
                self.log[i] = fixed
                self._made[obs.track_id] = fixed
                return [Correction(i, fixed)]
        team = self._pass_team(obs.label)
        if again:
            # a card read back and forth between two labels: a misread, not a card laid on it. A draw put right
            # to the other label, read surely as the card it was drawn as again, was that card: put back, also
            # after a move on it (seed 9202: red's R11 read R24 at 0.60 for 0.4 s, then R11 at 0.76 as red 5
            # moved; red 5 was called not on R24)
            if (i is not None and done["type"] == "draw" and done["card"] != obs.label and team == done["team"]
                    and obs.confidence >= DRAWN_AGAIN_SURE and obs.label not in self.game.drawn[team]):
                fixed = {**done, "card": obs.label}
                n = self._violations_with(i, fixed)
                # only where the moves bear it out, or where it reads more surely than the relabel that put the
                # draw right and the moves bear it as well (seed 9215: blue's B12 read 0.76, put right to B24 at
                # 0.69, read B12 at 0.84 as blue 8 moved, which either card lets move)
                surer = obs.confidence > self._put_right.get(obs.track_id, 1.0)
                if n is not None and (n < len(self.game.violations) or surer and n <= len(self.game.violations)):
                    self.log[i] = fixed
                    self._made[obs.track_id] = fixed
                    return [Correction(i, fixed, f"{obs.label} read surely again: the card drawn")]
            return []
        game = self.game
        if piece is None and done is not None and done["type"] == "draw" and team is not None and (
                (game.phase == "turn" and team != game.pos.to_play)  # the other team is to draw (seed 9010)
                or (game.phase == "move" and game.pos.card == done["card"])):  # its move is awaited (9005)
            return []  # a drawn card read anew when no card may be drawn: a misread
        before = self._pass_team(obs.old_label) if obs.old_label else None
        if (piece is None and done is None and team is not None and before is not None
                and obs.old_label in game.drawn[before] and not (game.phase == "turn" and game.pos.to_play == team)):
            # the discard pile found again (a track that made no draw) read as another pass card while
            # that team may not draw (seed 9019). A track that made a draw and reads a new card is the
            # next draw laid on it, also while the game waits for a move the camera has not seen (9004)
            return []
        if (piece is None and done is not None and done["type"] == "shot" and obs.label in game.decks.shots
                and self._shot_refused(obs.label)):
            # the shot card that made a shot, lying where it was laid, read as another shot card the
            # engine would refuse: a misread, not a new card laid on it (seed 9065: S12 read S02, called
            # no_shot_chance). A refused shot shown as a card of its own is still called
            return []
        if obs.label == BACK:
            # a card read face down keeps the action it made: faces are read at 0.5 and up, backs from
            # 0.1 (session.BACK_FLOOR), so a shown card is read as a back now and then (seed 9065: S12,
            # read back and then S02, was taken for a new card and called no_shot_chance)
            return []
        self._made.pop(obs.track_id, None)
        return self.observe(replace(obs, kind="appeared", old_label=None), t)

    def _emit(self, action: dict, t: float | None, frame: int | None, track: int | None) -> dict:
        self.log.append(camera_action(action, t, frame))
        if track is not None:
            self._made[track] = action
        return action


def _near(xy, spots, mm: float) -> bool:
    """Whether ``xy`` lies within ``mm`` of any of ``spots`` (table millimetres)."""
    return any((xy[0] - x) ** 2 + (xy[1] - y) ** 2 <= mm ** 2 for x, y in spots)
