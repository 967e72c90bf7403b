"""Cards the camera missed on the centre pile: laid and covered within a look or two (a hand over them, the
next card on them at once). ``CrazyKickAdapter`` finds them from the cards that left the players' piles and
the next card laid, and puts their plays in the log where the table laid them (see the adapter's module
text, "A card the camera missed on the centre" and "The table plays on from a card the engine refused").

A mixin of ``CrazyKickAdapter``: it reads and changes that adapter's state.
"""
from __future__ import annotations

from ..adapters import Correction, camera_action
from .actions import ACTION_ADAPTER

GLIMPSE_SURE = 0.8  # a card read on the centre for a look or two (a glimpse) at least this surely may be one covered
                    # at once by the next card: ``_glimpsed_under``


class MissedCards:
    def _misread_unseen(self, obs, card) -> list:
        """The centre's top card read anew, at least as surely as when it was played, as ``card``: the card
        the log played unseen (``_missed``) right under it in the same look. When the top's card had not left
        a player's pile when it was played, nor was carried from one, and lies on none (cards are laid from
        the piles the camera watches; a top replaced by a flicker did not leave), it was that card misread
        as it slid in, not a card of its own: its play goes, and the card under it was seen after all (seed 9158: W1's W36 read W50 at 0.53-0.73 as it
        slid onto W52, W36 put in unseen under a W50 of W2's; W36 read at 0.80 0.4 s later; W50's real play
        7 s later was then missed, and a card made up for it. W50 had been read on W2's pile once, for W52:
        having been seen there is no sign)."""
        top, frame = self._plays.get(obs.track_id, (None, None))
        i = self._index_of(top)
        if obs.kind != "relabelled" or i is None or obs.confidence < self._sure.get(obs.track_id, 1.0):
            return []
        j = next((k for k in range(i - 1, -1, -1) if self.log[k].get("type") == "play"), None)
        if (j is None or self.log[j].get("card") != card.id or not self.log[j].get("unseen")
                or self.log[j].get("frame") != top.get("frame") or self._from_a_pile.get(obs.track_id, True)
                or self._on_a_pile(top["card"]) or any(a.get("type") == "play" for a in self.log[i + 1:])):
            return []
        seen = {k: v for k, v in self.log[j].items() if k != "unseen"}
        self.log[j] = seen
        del self.log[i]
        self._plays[obs.track_id] = (seen, frame)
        self._read_as[obs.track_id] = {card.id}
        self._sure[obs.track_id] = obs.confidence
        self._late = None
        return [Correction(i, None, why=f"{top['card']} was {card.id} misread as it was laid")]

    def _unseen_on_top(self, obs, card) -> list:
        """The centre's top card, read anew surely (``GLIMPSE_SURE``) as ``card``, a card the log has played
        unseen (``_missed``) right under that top's play: it was no card under it, it is laid on it. It had left
        its pile as the top was laid, to be laid next, and the top was a foul the camera took for a play on
        it (seed 9155, fouls 0.2: W33 laid against the rules on W40, W45 picked up meanwhile and laid on W40
        0.4 s later; W45 was put under W33 and W33's foul lost). The two change places when the log bears it
        out: the top is then a foul, and nothing else is (``_fouls_at``)."""
        top, _ = self._plays.get(obs.track_id, (None, None))
        i = self._index_of(top)
        # read there in the looks before the top covered it (``_play_reads``): it lay under the top (seed 9194,
        # fouls 0.2: R11 read once, W19 laid on it against the rules and taken back; R11 showing again was
        # taken for laid on W19, and W19's foul called on the card before R11)
        if (obs.kind != "relabelled" or obs.confidence < GLIMPSE_SURE or i is None or i == 0
                or self.log[i - 1].get("card") != card.id or not self.log[i - 1].get("unseen")
                or any(a.get("type") == "play" for a in self.log[i + 1:])
                or card.id in self._play_reads.get(obs.track_id, ())[:-1]):
            return []
        under = self.log[i - 1]
        laid = camera_action({k: v for k, v in under.items() if k not in ("unseen", "t", "frame", "source")},
                             self._t, obs.frame)
        head, new, rest = self.log[:i - 1], [top, laid], self.log[i + 1:]
        if self._fouls_at(head, new, 0, rest) is None:
            return []
        self.log[i - 1:i + 1] = new
        self._plays[obs.track_id] = (laid, obs.frame)
        self._read_as[obs.track_id] = {card.id}
        self._sure[obs.track_id] = obs.confidence
        return [Correction(i - 1, top, why=f"{card.id} is laid on {top['card']}, not under it: "
                                           f"{top['card']} was a foul")]

    def _under_a_foul(self, obs, card) -> tuple[int, bool] | None:
        """``card`` shows where the last play lay, a card the engine refused (taken back), and was read there
        in the looks before that card covered it (``_play_reads``): it lay under that foul, laid before it.
        Gives the frame from which ``_missed_in_place`` may move its play before the foul (when the foul
        stays one there), and whether it compares the frames cards left their piles (``_gone``) rather than
        the frames they were read. Seed 9178, fouls 0.2: R17 laid on W47, read once, covered by W02 within
        0.3 s; W02 refused and taken back, R17 then showed and was put after W02, as if W02 had fouled W47.
        Never read there, it lay under the foul too when it was taken off its pile (a back read where it lay)
        before the foul's card was, lately: cards are laid in the order they leave the piles (seed 9200,
        fouls 0.2: W47, then keeper R04, then R23 left their piles and were laid within 0.6 s; R04 was covered
        at once and showed only when R23 was taken back: put after R23, R23 was called no_keeper, not
        not_on_card on R04). A card come from a pile (moved) lay under the foul when the tracker first read it
        where it lies (``Observation.since``) before it first read the foul's card there."""
        first, _ = self._plays.get(obs.track_id, (None, None))
        last = next((a for a in reversed(self.log) if a.get("type") == "play"), None)
        since = getattr(obs, "since", None)
        if obs.kind in ("appeared", "moved") and since is not None and last is not None:
            # read where it lies before the foul's card was read there, and covered by it: laid first (seed
            # 9247, fouls 0.2: keeper R04 read once on the centre, W29 laid on it against the rules 0.4 s
            # later; R04 was reported only once W29 was taken back, and W29 was called no_keeper)
            _, tid = self._last_play()
            landed = self._landed.get(tid) if tid is not None else None
            if (landed is not None and since < landed and self.game.in_play(last["card"]) is None
                    and self._face(card.id) != self._face(last["card"])):
                return last.get("frame", obs.frame) - self.correction_frames, False
            return None
        # not the foul's own card laid again (seed 9216, fouls 0.2: W24 laid against the rules twice, 1.6 s
        # apart; the second was put before the first, as the card under it)
        if (obs.kind != "relabelled" or first is None or first is not last
                or self.game.in_play(first["card"]) is not None or self._face(card.id) == self._face(first["card"])):
            return None
        if card.id in self._play_reads.get(obs.track_id, ()):
            return first.get("frame", obs.frame) - self.correction_frames, False
        gone, foul_gone = self._gone.get(card.id), self._gone.get(first["card"])
        if (gone is not None and foul_gone is not None and gone < foul_gone
                and obs.frame - gone <= self.missed_frames and not self._on_a_pile(card.id)):
            return gone, True
        return None

    def _missed(self, card, obs) -> tuple[str, str] | None:
        """(card id, player) of the one card that left its owner's pile within ``missed_frames``, after
        the last play, and was never seen on the centre, when the engine would refuse ``card`` on its
        top but takes that card there and then ``card`` after it (checked on a scratch engine over the
        log, so a goal and the keeper's kick-off after it count too). The camera missed that card on the
        centre (a hand over it, the next card on it within a moment). Seed 9016: R37 left R2's pile and was
        covered by W28 unseen; W28 was called ``not_on_card`` on R50. With no such card, or two, the
        engine judges ``card`` as it is, unless one of several was read on the centre in the look or two
        before ``card`` covered it (``obs.reads``; seed 9059, fouls 0.2: W27 read once under R34; four
        other cards had just changed on the players' piles)."""
        game, frame = self.game, obs.frame
        if game.over or game.is_legal(card.id):
            return None
        showing = {c[0] for cards in self.zone_cards.values() for c in cards.values()}
        # it left after the top card was laid (give or take the tracker's settling): a card that left
        # before went elsewhere (seed 9017: W45 left 4.7 s before and also fitted; R29 was the one). A card
        # the engine refused since is no top: it was taken back (seed 9136, fouls 0.2: W51 laid under hands,
        # R43 on it read, refused on the top before, and taken back; W39 on W51 was called not_on_card)
        top = next((a.get("frame") for a in reversed(self.log) if a.get("type") == "play"
                    and game.in_play(a["card"]) is not None), None)
        since = max(frame - self.missed_frames, (top or 0) - self.correction_frames)
        # not the top ``card`` was turned up onto on its pile and then taken off (seed 9223, fouls 0.2: W1's W54
        # turned up onto W28 and laid on the centre at once, against the rules; W28 was taken for missed under
        # it, a pass made up to make W54 legal, and a goal counted)
        onto = self._turned_onto.get(card.id)
        found = [(c, p) for c, (p, f) in self._left.items()
                 if f >= since and c != card.id and c not in showing and c != onto
                 and game.in_play(c) is None and game.is_legal(c) and not self._ever_played(c, f)]
        fits, read = [], []
        for c, p in found:
            table = self._unseen_tops(c, p)  # its pile, as _play will report it first
            scratch = self._scratch(self.log + ([camera_action(table, self._t, frame)] if table else []))
            before = len(scratch.violations)
            scratch.apply(ACTION_ADAPTER.validate_python(camera_action(
                {"type": "play", "card": c, "player": p}, self._t, frame)))
            if len(scratch.violations) == before:
                (fits if scratch.is_legal(card.id) else read).append((c, p))
        if len(fits) > 1:
            fits = [f for f in fits if f[0] in obs.reads] or fits
        if not fits:
            # read on the centre in the looks before ``card`` covered it (``obs.reads``), having left its pile
            # since the top was laid: laid first, though ``card`` fouls on it too (seed 9194, fouls 0.2: R1's
            # R11 read once, W19 laid on it against the rules within 0.3 s; W19 was called on the card before,
            # and R11 said only once W19 was taken back, 1.1 s after it was laid)
            fits = [f for f in read if f[0] in obs.reads[:-1] and f[0] != obs.old_label]
        return fits[0] if len(fits) == 1 else None

    def _missed_in_place(self, block: list[dict], left: int, by_gone: bool = False) -> Correction | None:
        """``block`` (the missed card's play, after its pile's tops when ``_unseen_first`` gave them) was
        appended to the log; the card left its pile at frame ``left``. Plays the engine refused after the
        last card it laid, read ``correction_frames`` or more after ``left`` (fouls, taken back), came after
        it: it moves before them when
        they stay fouls there (seed 9136, fouls 0.2: W51 laid under hands, R43 on it refused and taken back,
        then W39 on W51; R43's foul was on W51). Else it stays where it is (None). ``by_gone``: a play's card
        counts as laid when it was taken off its pile (``_gone``), where that was read lately before its play."""
        start = self._index_of(block[0])
        if start is None:
            return None
        k0 = None
        for k in range(start - 1, -1, -1):
            a = self.log[k]
            if a.get("type") != "play":
                continue
            # left before that card was laid: its read comes a few looks after it lands (the tracker's votes),
            # a back where a card lay shows at once (seed 9143, fouls 0.2: W01 left its pile in the look R25,
            # refused, was read, and was laid 0.5 s after it; put before it, R25's no_keeper became not_on_card)
            laid = (self._laid_at(a["card"], a.get("frame", 0)) if by_gone
                    else a.get("frame", 0) - self.correction_frames)
            if self.game.in_play(a["card"]) is not None or laid < left:
                break
            k0 = k
        if k0 is None:
            return None
        end = start + len(block)
        moved = self.log[:k0] + block + self.log[k0:start] + self.log[end:]
        if len(self._scratch(moved).violations) != len(self._scratch(self.log).violations):
            return None
        self.log[:] = moved
        return Correction(k0 + len(block) - 1, block[-1], why=f"{block[-1]['card']} left its pile before "
                                                               f"{self.log[k0 + len(block)]['card']} was laid")

    def _laid_at(self, card_id: str, frame: int) -> int:
        """When the card of a play read at ``frame`` was laid: when it was taken off its pile (``_gone``), where
        that was read within ``missed_frames`` before the play; else ``correction_frames`` before the read (a
        read comes a few looks after the card lands: the tracker's votes)."""
        gone = self._gone.get(card_id)
        if gone is not None and 0 <= frame - gone <= self.missed_frames:
            return gone
        return frame - self.correction_frames

    def _played_on(self, card) -> tuple[int, int] | None:
        """(log index, track) of the last play when the engine refused it for not following the top,
        its card still lies on the pile, and ``card`` follows it but not the engine's top."""
        found = self._last_play()
        if found is None:
            return None
        i, tid = found
        last = self.log[i]
        prev = self.game.catalog.cards.get(last["card"])
        if (tid is None or tid in self._taken_back or prev is None or prev.is_goal or prev.id == card.id
                or last.get("missed_before") or self.game.in_play(prev.id) is not None
                or self.game.is_legal(prev.id) or self.game.is_legal(card.id)
                or not self.game.follows(prev.id, card.id)):
            return None
        return i, tid

    def _unseen_first(self, card_id: str, player: str | None, t, frame) -> list:
        """With ``track_piles`` the engine flags a card that was not on top of the player's piles.
        The camera stands by that call only when it saw the card covered on his piles (and not on
        top since); otherwise its view of his piles was out of date (a card turned up and laid
        under a hand), and the pile the card was last seen on is reported unseen first."""
        table = self._unseen_tops(card_id, player)
        return [] if table is None else [self._emit(table, t, frame)]

    def _unseen_tops(self, card_id: str, player: str | None, at: int | None = None) -> dict | None:
        """The ``table`` action ``_unseen_first`` makes, or None when none is needed. ``at``: for a play put
        right at that log index, judged on the tops as they were there, not as they are now (seed 9218, fouls
        0.2: keeper W03 read W01, put right 0.2 s later; a slot of W2's emptied meanwhile hid that the tops at
        the play were out of date, and W03 was called not_on_top)."""
        game = self.game if at is None else self._scratch(self.log[:at])
        tops = game.tops.get(player) if player is not None else None
        if (not self.game.options.track_piles or not tops or None in tops or card_id in tops
                or self._covered.get(card_id) == player):
            return None
        slot = 0
        xs = [c[1] for c in sorted(self.zone_cards[player].values(), key=lambda c: c[1])
              if self.game.catalog[c[0]].team == self.game.team_of[player]]
        if card_id in self._last_xy and len(xs) == len(tops):
            slot = min(range(len(xs)), key=lambda i: abs(xs[i] - self._last_xy[card_id][0]))
        tops = list(tops)
        tops[slot] = None
        return {"type": "table", "piles": {player: tops}}

    def _glimpsed_under(self, card_id: str, player: str, frame: int) -> list:
        """``card_id`` left ``player``'s pile for good (its track let go), unseen on the centre but glimpsed
        there (``look``) before the next card was laid: it was laid and covered at once, and the next card
        was laid on it. Its play is put in the log before that card's (marked ``unseen``) when the game
        then has no more violations than now (seed 9062, fouls 0.2: W14 read once at 0.91 before R34's hand
        covered it; R34 followed W05 as well, and W14's pile track went 1 s after R34 was played)."""
        seen = self._glimpsed.pop(card_id, None)
        game = self.game
        if (seen is None or frame - seen[0] > self.missed_frames or game.in_play(card_id) is not None
                or self._ever_played(card_id) or game.catalog[card_id].team != game.team_of[player]
                or self._on_a_pile(card_id)):
            return []
        i = next((k for k, a in enumerate(self.log) if a.get("type") == "play" and a.get("frame", -1) > seen[0]), None)
        # not once a goal or a ball out came since: everyone picks up his piles then
        if (i is None or any(g > seen[0] for g in self._goal_frames)
                or any(a.get("type") == "ball_out" for a in self.log[i:])):
            return []
        later = self.log[i]
        missed = camera_action({"type": "play", "card": card_id, "player": player, "unseen": True},
                               later.get("t", self._t), seen[0])
        if len(self._scratch(self.log[:i] + [missed] + self.log[i:]).violations) > len(game.violations):
            return []
        self.log.insert(i, missed)
        self._played(card_id, frame)
        return [Correction(i, missed, why=f"{card_id} left {player}'s pile, glimpsed on the centre under "
                                          f"{later['card']}: laid and covered at once")]

    def _read_under_refused(self, card_id: str, player: str, frame: int) -> list:
        """``card_id`` just left ``player``'s pile, unseen on the centre, within ``missed_frames`` after the
        last play, which the engine refused, and the centre track of that play read ``card_id`` before it read
        the play's card (``_play_reads``, the reads before the last): it was laid and covered at once by that
        card, read too unsurely for a glimpse (``_glimpsed_under``). Its play goes before the refused one
        (marked ``unseen``) when the game then has fewer violations (seed 9266, fouls 0.2: W1's W19 read once
        at 0.38 as R46 tackled it 0.3 s later; W19's pile showed a back a look after R46 was played, and R46
        was called not_on_card on W35)."""
        found = self._last_play()
        game = self.game
        if found is None or found[1] is None:
            return []
        i, tid = found
        last = self.log[i]
        reads = self._play_reads.get(tid, ())[:-1]
        if (game.in_play(last["card"]) is not None or card_id == last["card"]
                or self._face(card_id) not in {self._face(r) for r in reads}
                or not 0 <= frame - last.get("frame", frame) <= self.missed_frames
                or any(g > last.get("frame", frame) - self.missed_frames for g in self._goal_frames)
                or game.in_play(card_id) is not None or self._ever_played(card_id)
                or game.catalog[card_id].team != game.team_of[player] or self._on_a_pile(card_id)):
            return []
        missed = camera_action({"type": "play", "card": card_id, "player": player, "unseen": True},
                               last.get("t", self._t), last.get("frame"))
        if len(self._scratch(self.log[:i] + [missed] + self.log[i:]).violations) >= len(game.violations):
            return []
        self.log.insert(i, missed)
        self._played(card_id, frame)
        return [Correction(i, missed, why=f"{card_id} left {player}'s pile, read on the centre before "
                                          f"{last['card']} covered it: laid first")]

    def _missed_under(self, card_id: str, player: str, frame: int) -> list:
        """``card_id`` just left ``player``'s pile, unseen on the centre, after the latest play found laid on
        a card the camera missed (``missed_before``, ``_played_on``): when it fits there (the engine takes
        it on the card before and that play on it, and every later one as before), it is that missed card,
        and its play is put in the log before that play (marked ``unseen``). The tracker lets a pile card
        go only after its hold time, so it can leave after the card laid on it was played (seed 9092: W2's
        keeper W03 after a goal, covered by W1's W23 within 0.5 s, and W11 on that; W03's track went 1.3 s
        after it left)."""
        i = next((k for k in range(len(self.log) - 1, -1, -1) if self.log[k].get("missed_before")), None)
        if i is None:
            return []
        last = self.log[i]
        game = self.game
        # not once a goal or a ball out came since: everyone picks up his piles then
        if (card_id == last["card"] or frame - last.get("frame", frame) > self.missed_frames
                or any(g > last.get("frame", frame) for g in self._goal_frames)
                or any(a.get("type") == "ball_out" for a in self.log[i + 1:])
                or game.in_play(card_id) is not None or self._ever_played(card_id)
                or self._on_a_pile(card_id)):
            return []
        missed = camera_action({"type": "play", "card": card_id, "player": player, "unseen": True},
                               last.get("t", self._t), last.get("frame"))
        fixed = {k: v for k, v in last.items() if k != "missed_before"}
        if len(self._scratch(self.log[:i] + [missed, fixed] + self.log[i + 1:]).violations) > len(game.violations):
            return []
        self.log[i:i + 1] = [missed, fixed]
        for tid, (a, f) in list(self._plays.items()):
            if a is last:
                self._plays[tid] = (fixed, f)
        self._played(card_id, frame)
        return [Correction(i, missed, why=f"{card_id} left {player}'s pile: the card missed under {last['card']}")]
