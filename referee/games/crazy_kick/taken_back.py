"""Cards laid against the rules and taken back: the camera read them on the centre for a moment and then
took them for misreads, or read them surely and dismissed them; when such a card shows on its player's pile
again soon, ``CrazyKickAdapter`` puts its play back in the log, a foul, where the log bears that out (see the
adapter's module text, "A misread or a new card?").

A mixin of ``CrazyKickAdapter``: it reads and changes that adapter's state.
"""
from __future__ import annotations

from ..adapters import Correction, camera_action
from .actions import ACTION_ADAPTER

RETURN_FRAMES = 60  # a card read on the centre, then taken for a misread, back on its pile within 2 s: a foul taken back


class TakenBack:
    def _undo_late(self, card) -> Correction | None:
        """The last play was corrected late to the card read on it as a misread (``_misread_late``), and
        ``card`` now follows the card first read but not the correction: the first card was right and the
        other was laid on it, a foul the table took back (seed 9061, fouls 0.2: W35 on W52, then W47 on
        W35 read for 0.8 s and taken back; as a misread of W35, R32 laid on W35 next was called
        not_on_card). The first play is restored and the other follows it as a play of its own."""
        late, self._late = self._late, None
        if late is None:
            return None
        tid, first, fixed, frame, flicker = late
        i = self._index_of(fixed)
        game = self.game
        if (i is None or any(a.get("type") == "play" for a in self.log[i + 1:]) or game.top is None
                or game.top.id != fixed["card"] or game.is_legal(card.id)
                or not game.follows(first["card"], card.id)):
            return None
        self.log[i] = first
        self._plays[tid] = (first, frame)
        # read as that card before, and back (seed 9062: W50 and W52 in turn), or read as a card never seen
        # on a player's pile, with nobody to name (cards are laid from the piles the camera watches; seed
        # 9082: W28 read W30 at 0.53, then W38 laid on it; W30 was called not_on_card): a misread
        if flicker or self._by_nobody(fixed):
            return Correction(i, first, why=f"{card.id} follows {first['card']}: {fixed['card']} was a misread")
        self.log.insert(i + 1, fixed)
        return Correction(i, first, why=f"{card.id} follows {first['card']}: {fixed['card']} was laid on it "
                                        "and taken back")

    def _foul_taken_back(self, label: str, p: str, frame: int) -> list:
        """``label`` shows anew on ``p``'s pile soon after a play of it on the centre was corrected to
        another card as a misread (or, asked at the correction, it had left ``p``'s pile before and lies
        on none): it was a card, laid against the rules and taken back (the table's own call), and the
        other card is a play of its own. Its play is put back in the log, before the
        other card, or after it when the other was read on the centre first (the foul laid on it); when
        the log bears out neither, in the other order (the other card's read there first may be older
        than the reads kept). Only when the log bears it out: it fouls there, and the log has at most one
        violation more (its own). A card that left its pile unseen on the centre before it (``_left``) is tried under it,
        and taken when the log then has fewer violations and no other such card does as well (seed
        9060, fouls 0.2: W1's W40 laid under hands, W2's W16 on it for 0.3 s and taken back, W46 on
        W40; W16 then W46 was taken for one card relabelled, and W46 on the top the camera knew, R09,
        was called; seed 9062: W19 read 0.3 s on W40, then W49, and W19 was back on W2's pile 0.3 s
        later)."""
        track, first, fixed, at, after = self._corrected[self._face(label)]
        game = self.game
        card = game.catalog[first["card"]]
        i = self._index_of(fixed)
        if (frame - at > RETURN_FRAMES or i is None or first.get("player") not in (p, None)
                or card.team != game.team_of[p] or game.in_play(card.id) is not None
                or self._face(fixed["card"]) == self._face(card.id)):
            return []
        del self._corrected[self._face(label)]
        foul = {**first, "player": p}
        head, rest = self.log[:i], self.log[i + 1:]
        # the two read in turn on a pile too (``_pile_flickers``): the correction was this card misread, no
        # card of its own (seed 9177, fouls 0.2: R2's R30 laid against the rules, read R28 for a look and
        # taken back; R28 was kept as a second foul)
        alone = frozenset((card.id, fixed["card"])) in self._pile_flickers
        # the other card left its pile before the foul was laid: it lay under the foul, laid first (seed 9181,
        # fouls 0.2: keeper W03 kicked off, R32 laid on it at once and read first, then taken back; R32 was
        # put first and called no_keeper, not not_on_card on W03)
        was = self._left.get(fixed["card"])
        # where the foul's card was taken off its pile (a back read where it lay), the two left in the order
        # they were laid (seed 9205, fouls 0.2: R31 left 0.3 s before W41 and was read 0.4 s after it landed;
        # against its read, W41 seemed to have left first and was put before it)
        after = after or (was is not None and was[1] < self._laid_at(card.id, first.get("frame", frame)))
        tries = [([foul], None)] if alone else [([fixed, foul], None)] if after else [([foul, fixed], None)]
        if not after and not alone:
            prev = next((a.get("frame") for a in reversed(head) if a.get("type") == "play"), None)
            since = max(first.get("frame", frame) - self.missed_frames, (prev or 0) - self.correction_frames)
            showing = {c[0] for cards in self.zone_cards.values() for c in cards.values()}
            for c, (q, f) in self._left.items():
                if (since <= f <= first.get("frame", frame) and c not in (card.id, fixed["card"]) and c not in showing
                        and game.in_play(c) is None and not self._ever_played(c)):
                    unseen = camera_action({"type": "play", "card": c, "player": q, "unseen": True},
                                           first.get("t", self._t), first.get("frame"))
                    tries.append(([unseen, foul, fixed], c))
        # the reading with the fewest violations, its card among them; of equals, the one with no card made up
        counts = [(n, k, new, c) for k, (new, c) in enumerate(tries)
                  if (n := self._fouls_at(head, new, new.index(foul), rest)) is not None]
        if not counts and not alone:
            # the other order: the reads kept at the play may have missed the other card read there first
            # (seed 9151, fouls 0.2: R28 read for one look, R32 laid on it and read for 0.4 s, then taken
            # back; R32 on the card before R28 was no foul, and R28 was taken for R32 misread)
            new = [foul, fixed] if after else [fixed, foul]
            n = self._fouls_at(head, new, new.index(foul), rest)
            counts = [(n, 0, new, None)] if n is not None else []
        fits = [f for f in counts if f[0] == min(counts)[0]] if counts else []
        if not fits or (fits[0][3] is not None and len(fits) > 1):
            return []  # the log does not bear it out (or two missed cards would): no call on a guess
        _, _, new, missed = fits[0]
        self.log[i:i + 1] = new
        self._put_back.append(foul)
        if missed is not None:
            self._played(missed, frame)
        if self._late is not None and self._late[2] is fixed:
            self._late = None
        self._read_as.get(track, set()).discard(card.id)
        other = f"{fixed['card']} was it misread" if alone else f"{fixed['card']} is a card of its own"
        return [Correction(i + new.index(foul), foul, why=f"{card.id} is back on {p}'s pile: it was laid and "
                                                          f"taken back, a foul, and {other}")]

    def _late_read_taken_back(self, label: str, p: str, frame: int) -> list:
        """``label`` shows anew on ``p``'s pile within ``RETURN_FRAMES`` of a play on the centre being corrected
        to it as a misread, that play still in the log with it, under the cards laid since, and the card
        first read on no pile: a card lies in one place only, so the first read was right, and ``label``
        was laid on it against the rules and taken back. The play gets its first card again, and ``label``'s
        play by ``p`` follows it, a foul, when the log bears it out (``_fouls_at``). Seed 9260, fouls 0.2:
        R1's R52 (Oskar) tackled; R2's R48 (Oskar too: no pass to himself) laid on it, read on the centre
        0.6 s later, and taken for R52 misread (it follows the card under); R45 was laid on R52, and R48
        showed on R2's pile 0.3 s later. The foul went uncalled."""
        entry = next((e for e in self._corrected.values() if e[2]["card"] == label), None)
        game = self.game
        if entry is None:
            return []
        track, first, fixed, at, _ = entry
        i = self._index_of(fixed)
        if (frame - at > RETURN_FRAMES or i is None or first["card"] == label or self._showing(first["card"])
                or game.catalog[label].team != game.team_of[p] or game.in_play(label) is None
                or game.catalog[label].is_goal):
            return []
        foul = {**fixed, "player": p, "frame": at}
        if self._fouls_at(self.log[:i] + [first], [foul], 0, self.log[i + 1:]) is None:
            return []
        del self._corrected[self._face(first["card"])]
        self.log[i:i + 1] = [first, foul]
        for tid, (a, f) in list(self._plays.items()):
            if a is fixed:
                self._plays[tid] = (first, f)
        self._put_back.append(foul)
        if self._late is not None and self._late[2] is fixed:
            self._late = None
        return [Correction(i, first, why=f"{label} is back on {p}'s pile: {first['card']} was read right, and "
                                         f"{label} was laid on it and taken back, a foul")]

    def _named_when_back(self, label: str, p: str, frame: int) -> list:
        """``label`` shows anew on ``p``'s pile (of its team) within ``RETURN_FRAMES`` of a play of it by nobody
        that the engine refused, its centre track since taken back: the foul was ``p``'s. He is named when that
        adds no call (seed 9259, fouls 0.2: R2's R30, never seen on a pile before it was laid against the
        rules, was back on his pile 0.9 s later)."""
        game = self.game
        k = next((k for k in range(len(self.log) - 1, -1, -1) if self.log[k].get("type") == "play"
                  and self.log[k].get("card") == label), None)
        if k is None or game.catalog[label].team != game.team_of[p] or game.in_play(label) is not None:
            return []
        play = self.log[k]
        track = next((tid for tid, (a, _) in self._plays.items() if a is play), None)
        if ("player" in play or track not in self._taken_back or not 0 <= frame - play.get("frame", frame) <= RETURN_FRAMES):
            return []
        named = {**play, "player": p}
        if len(self._scratch([named if j == k else a for j, a in enumerate(self.log)]).violations) != len(game.violations):
            return []
        self.log[k] = named
        self._plays[track] = (named, self._plays[track][1])
        return [Correction(k, named, why=f"{label} is back on {p}'s pile: it was {p}'s, laid and taken back")]

    def _dismissed_taken_back(self, label: str, p: str, frame: int) -> list:
        """``label`` shows anew on ``p``'s pile (where nothing or a back lay) within ``RETURN_FRAMES`` of a sure
        read of it on the centre's top that ``_top_misread`` dismissed (a card the engine refused there, never
        seen on a pile, nobody to name): it was a card, turned up, laid against the rules and taken back into
        his piles. Its play goes in the log on the play it lay on, by ``p``, when the log bears it out (it
        fouls there, and the log has at most one violation more: ``_fouls_at``). Seed 9166, fouls 0.2: W1's
        W05 laid from the hand on R02 for 0.4 s, read at 0.89, then on W1's pile 0.8 s later."""
        card_id, at, t, on = self._dismissed.pop(self._face(label))
        game = self.game
        i = self._index_of(on)
        if (frame - at > RETURN_FRAMES or i is None or game.catalog[card_id].team != game.team_of[p]
                or game.in_play(card_id) is not None or self._ever_played(card_id)):
            return []
        foul = camera_action({"type": "play", "card": card_id, "player": p}, t, at)
        head, rest = self.log[:i + 1], self.log[i + 1:]
        if self._fouls_at(head, [foul], 0, rest) is None:
            return []
        self.log.insert(i + 1, foul)
        self._put_back.append(foul)
        return [Correction(i + 1, foul, why=f"{card_id} is back on {p}'s pile: it was laid on {on['card']} and "
                                            "taken back, a foul")]

    def _nobodys_play_taken_back(self, label: str, p: str, frame: int) -> list:
        """``label`` shows anew on ``p``'s pile within ``RETURN_FRAMES`` of leaving it (a back read where it lay,
        ``_gone``), and the last play, made since, is of a card nobody can be named for (never seen on a pile,
        not one that left a pile) whose centre track has since shown the card under it again or gone
        (``_taken_back``): that card was this one misread as it was laid, against the rules, and taken back
        (the table's own call). The play becomes this card's by ``p``, a foul, when the log bears it out (it
        fouls there, and the log has at most one violation more: ``_fouls_at``). Seed 9196, fouls 0.2: R2's
        R09 laid on R16 against the rules, read R12 at 0.53 for 0.6 s, taken back; R12 stood as a pass by
        nobody, and the next two plays were called not_on_card."""
        gone = self._gone.get(label)
        game = self.game
        found = self._last_play()
        if gone is None or frame - gone > RETURN_FRAMES or found is None:
            return []
        i, track = found
        last = self.log[i]
        if (track is None or track not in self._taken_back or not self._by_nobody(last) or last.get("unseen")
                or not gone <= last.get("frame", -1) <= frame or self._on_a_pile(last["card"])
                or self._face(last["card"]) == self._face(label) or game.catalog[label].team != game.team_of[p]
                or game.in_play(label) is not None or self._ever_played(label)):
            return []
        foul = {**last, "card": label, "player": p}
        if self._fouls_at(self.log[:i], [foul], 0, self.log[i + 1:]) is None:
            return []
        self.log[i] = foul
        self._plays[track] = (foul, self._plays[track][1])
        self._put_back.append(foul)
        if self._late is not None and self._late[2] is last:
            self._late = None
        return [Correction(i, foul, why=f"{label} is back on {p}'s pile: it was laid, read {last['card']}, and "
                                        "taken back, a foul")]

    def _played_on_taken_back(self, obs, card) -> list:
        """The centre track of the last play shows again ``card``, the card played before the play before it,
        which the engine refused and was then taken as played on (``missed_before``: the last play followed
        it): neither lies there, both were laid and taken back, the table's own call. The refused play counts
        as the foul it was, and the last play is judged on ``card``, when both then foul and nothing else
        does. Seed 9259, fouls 0.2: R2's R09 laid on W10 against the rules (called), R30 laid in its place
        0.7 s later and read on the same track: R09 was taken as played on and R30 as a pass from it; then W10
        showed again, and R1's next card, legal on W10, was called not_on_card."""
        found = self._last_play()
        if found is None or found[1] != obs.track_id:
            return []
        i = found[0]
        plays = [k for k in range(i) if self.log[k].get("type") == "play"]
        if len(plays) < 2:
            return []
        j, under = plays[-1], plays[-2]
        before = self.log[j]
        if not before.get("missed_before") or self.log[under]["card"] != card.id:
            return []
        fixed = {k: v for k, v in before.items() if k != "missed_before"}
        log = [fixed if k == j else a for k, a in enumerate(self.log)]
        if len(self._scratch(log).violations) != len(self.game.violations) + 2:
            return []  # both foul there, and nothing else: else the log does not bear it out
        self.log[j] = fixed
        for tid, (a, f) in list(self._plays.items()):
            if a is before:
                self._plays[tid] = (fixed, f)
        self._put_back.extend([fixed, self.log[i]])
        return [Correction(j, fixed, why=f"{card.id} shows again: {before['card']} and {self.log[i]['card']} were "
                                         "both laid on it and taken back, fouls")]

    def _fouls_at(self, head: list[dict], new: list[dict], k: int, rest: list[dict]) -> int | None:
        """The violations of the log ``head + new + rest`` when ``new[k]`` is one of them, what comes before it
        in ``new`` is none, and there is at most one more than the game has now; else None."""
        scratch = self._scratch(head + new[:k])
        before = len(scratch.violations)
        if k and before != len(self._scratch(head).violations):
            return None  # a card put before it fouls
        for a in [*new[k:], *rest]:
            scratch.apply(ACTION_ADAPTER.validate_python(a))
            if a is new[k] and len(scratch.violations) != before + 1:
                return None
        n = len(scratch.violations)
        return n if n <= len(self.game.violations) + 1 else None
