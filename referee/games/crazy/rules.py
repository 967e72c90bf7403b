"""The Crazy rules engine: pure Python, deterministic, no I/O.

``CrazyGame(setup).apply(action) -> [Event]`` checks one action against the rules, updates the
state and says what happened. Impossible actions become recorded violations, never exceptions.
The rules and every decision the seed leaves open are written down in docs/rules/crazy.md.

A play of ``UNREAD`` ("?": the camera saw a card laid but never read it) fills its place in the trick
without a card: the trick's winner is then whoever leads next (of those who can have won it), its
points count what is known and are marked unsure, and the card is worked out when the round ends (the
one card of the deck no play used) or when the black 13 round is over before its last trick.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..base import NOTABLE, ROUTINE, URGENT, Event, Violation, violation_event
from .actions import ROUND_TYPES, UNREAD, Choose, Deal, Play, Setup
from .cards import ROOK, Card, CardError, colour_name, copies_for, full_deck, is_red, parse_card

ROUNDS_PER_GAME = len(ROUND_TYPES)
POINTS_RED_CARD = 5
POINTS_BLACK13 = 100
POINTS_FIRST, POINTS_LAST = 50, 50
POINTS_PER_TRICK = 10


def rank_of(card: Card, deck: str, one_high: bool = False) -> int:
    """Rank within a colour: Rook 1 low .. 14 high (1 above 14 with ``one_high``); standard 2 .. A."""
    if deck == ROOK and one_high and card.number == 1:
        return 15
    return card.number


def legal_follow(hand: Iterable[Card], led_colour: str | None) -> list[Card]:
    """Cards of ``hand`` that may be played: the led colour if the hand holds any, else anything."""
    hand = list(hand)
    if led_colour is None:
        return hand
    same = [c for c in hand if c.colour == led_colour]
    return same or hand


def trick_winner(cards: Sequence[Card | None], rank) -> int:
    """Index of the winning card: the highest of the led colour, the first played among equals
    (two identical cards with two decks). No trumps. An unread card (None) after the lead is passed
    over: the best of the cards that are known."""
    led = cards[0].colour
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        if card is not None and card.colour == led and rank(card) > rank(cards[best]):
            best = i
    return best


@dataclass
class Trick:
    leader: str | None  # None: the trick before holds an unread card, and whoever leads this one won it
    cards: list[tuple[str, Card | None]] = field(default_factory=list)  # None: a card played but not read
    winner: str | None = None
    points: int = 0
    could_win: list[str] = field(default_factory=list)  # complete with an unread card: who may have won it
    unsure: bool = False  # its points count only the cards read: the unread one may have carried more

    @property
    def unread(self) -> int:
        return sum(c is None for _, c in self.cards)


@dataclass
class Round:
    number: int  # 1-based
    type: str
    dealer: str
    chooser: str
    tricks: list[Trick]
    points: dict[str, int]
    played: Counter = field(default_factory=Counter)
    hands: dict[str, Counter] = field(default_factory=dict)  # only for players whose hands are known
    shown_out: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> colour -> trick number
    unread_of: Counter = field(default_factory=Counter)  # player -> cards of theirs played but not read
    over: bool = False
    ended_by_black13: bool = False

    @property
    def current(self) -> Trick:
        return self.tricks[-1]

    @property
    def unsure(self) -> bool:
        """Do this round's points rest on a card not read (a lower bound, or a trick not yet awarded)?"""
        return any(t.unsure or (t.unread and t.winner is None) for t in self.tricks)


class CrazyGame:
    """State of one game of Crazy. Feed it actions with ``apply``; read ``scoresheet()``."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.deck = setup.deck
        self.players = list(setup.players)
        self.n = len(self.players)
        self.copies = copies_for(self.n)
        self.removed = Counter(setup.removed_cards())
        self.in_play = Counter(full_deck(self.deck) * self.copies) - self.removed
        self.cards_per_player = sum(self.in_play.values()) // self.n
        self.one_high = setup.options.one_high
        default_b13 = "B13" if self.deck == ROOK else "KS"
        self.black13 = parse_card(setup.options.black13 or default_b13, self.deck)
        self.rounds: list[Round] = []
        self.violations: list[Violation] = []
        self.pending_hands: dict[str, Counter] = {}
        self.moon: str | None = None
        self.over = False
        self._dealer_index = self.players.index(setup.dealer)

    # ---- rules ---------------------------------------------------------------------------

    def rank(self, card: Card) -> int:
        return rank_of(card, self.deck, self.one_high)

    def code(self, card: Card) -> str:
        return card.code(self.deck)

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def dealer(self) -> str:
        return self.players[(self._dealer_index + len(self.rounds)) % self.n]

    @property
    def chooser(self) -> str:
        """Who chooses the next round: the player left of (after) the dealer."""
        return self.players[(self._dealer_index + len(self.rounds) + 1) % self.n]

    @property
    def to_play(self) -> str | None:
        """Whose card the trick waits for, or None between rounds, or when one of several may lead
        (``may_lead``: the trick before holds an unread card)."""
        r = self.round
        if r is None or r.over:
            return None
        t = r.current
        if t.leader is None:
            return None
        return self.players[(self.players.index(t.leader) + len(t.cards)) % self.n]

    @property
    def may_lead(self) -> list[str]:
        """Who may play the next card: ``to_play``, or those who can have won the trick before, when it
        holds an unread card and nobody has led since."""
        r = self.round
        if r is None or r.over:
            return []
        if r.current.leader is None:
            return list(r.tricks[-2].could_win)
        return [self.to_play]

    @property
    def led_colour(self) -> str | None:
        """The colour the open trick follows; None before its lead, or when its lead was not read."""
        r = self.round
        if r is None or r.over or not r.current.cards or r.current.cards[0][1] is None:
            return None
        return r.current.cards[0][1].colour

    def rounds_left(self) -> list[str]:
        used = {r.type for r in self.rounds}
        left = [t for t in ROUND_TYPES if t not in used and t != "crazy"]
        return left or (["crazy"] if "crazy" not in used else [])

    def black13_in_play(self) -> int:
        return self.in_play[self.black13]

    def red_in_play(self) -> int:
        return sum(k for c, k in self.in_play.items() if is_red(c, self.deck))

    def points_available(self, round_type: str) -> int:
        """Points a whole round of ``round_type`` hands out (the black 13 round: what it ends on)."""
        red = POINTS_RED_CARD * self.red_in_play()
        b13 = POINTS_BLACK13 * self.black13_in_play()
        first_last = POINTS_FIRST + POINTS_LAST
        every = POINTS_PER_TRICK * self.cards_per_player
        return {"red": red, "black13": b13, "first_last": first_last, "every_hand": every,
                "crazy": red + b13 + first_last + every}[round_type]

    def moon_threshold(self) -> int:
        o = self.setup.options
        return o.moon_threshold if o.moon_threshold is not None else self.points_available("crazy") - o.moon_margin

    def trick_points(self, round_type: str, index: int, cards: Iterable[Card]) -> int:
        """Points for winning trick ``index`` (0-based) of a round of ``round_type``."""
        cards = list(cards)
        red = POINTS_RED_CARD * sum(is_red(c, self.deck) for c in cards)
        b13 = POINTS_BLACK13 * sum(c == self.black13 for c in cards)
        first_last = (POINTS_FIRST if index == 0 else 0) + (POINTS_LAST if index == self.cards_per_player - 1 else 0)
        return {"red": red, "black13": b13, "first_last": first_last, "every_hand": POINTS_PER_TRICK,
                "crazy": red + b13 + first_last + POINTS_PER_TRICK}[round_type]

    # ---- actions -------------------------------------------------------------------------

    def apply(self, action) -> list[Event]:
        """Apply one action; return the events it caused (violations included)."""
        self._events: list[Event] = []
        if isinstance(action, Setup):
            self._violate("bad_action", None, "a second setup; a log holds one game", action)
        elif self.over:
            who = getattr(action, "player", None)
            self._violate("game_over", who, f"the game is over; '{action.type}' ignored", action)
        elif isinstance(action, Choose):
            self._choose(action)
        elif isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Play):
            self._play(action)
        else:  # pragma: no cover - the schema admits nothing else
            raise TypeError(f"not a Crazy action: {action!r}")
        return self._events

    def _emit(self, type_: str, action, priority: int = ROUTINE, **data) -> None:
        self._events.append(Event(type_, data, t=action.t, priority=priority))

    def _violate(self, type_: str, player: str | None, detail: str, action, trick: int | None = None,
                 round_number: int | None = None) -> None:
        r = self.round
        if round_number is None and r is not None and not r.over:
            round_number = r.number
        if trick is None and r is not None and not r.over:
            trick = len(r.tricks)
        v = Violation(type_, player, detail, round=round_number, trick=trick, t=action.t)
        self.violations.append(v)
        self._events.append(violation_event(v))

    def _choose(self, a: Choose) -> None:
        r = self.round
        if r is not None and not r.over and self._black13_unread(r):
            # the table moved on: the last trick's unread card was the black 13 and ended the round
            self._deduce(r, [(len(r.tricks) - 2, j) for j, (_, c) in enumerate(r.tricks[-2].cards) if c is None],
                         [self.black13], a)
            r.tricks.pop()  # the trick nobody led
            r.over = r.ended_by_black13 = True
            self._emit("round_over", a, NOTABLE, round=r.type, number=r.number, points=dict(r.points),
                       ended_by_black13=True)
        if r is not None and not r.over:
            self._violate("bad_round_choice", a.player,
                          f"round {r.number} ({r.type}) is still being played; '{a.round}' ignored", a)
            return
        if a.player not in self.players:
            self._violate("unknown_player", a.player, f"{a.player!r} is not at this table {self.players}", a,
                          round_number=len(self.rounds) + 1)
            return
        used = {x.type for x in self.rounds}
        number = len(self.rounds) + 1
        if a.round in used:
            self._violate("bad_round_choice", a.player, f"the {a.round} round was already played; "
                          f"choose one of {self.rounds_left()}", a, round_number=number)
            return
        if a.round == "crazy" and number < ROUNDS_PER_GAME:
            self._violate("bad_round_choice", a.player, f"the crazy round is always the fifth; this is round "
                          f"{number}; choose one of {self.rounds_left()}", a, round_number=number)
            return
        chooser, dealer = self.chooser, self.dealer
        if a.player != chooser:
            # The table plays the round that was chosen; the seat left of the dealer still leads.
            self._violate("out_of_turn", a.player, f"{chooser} (left of the dealer {dealer}) chooses round "
                          f"{number}, not {a.player}", a, round_number=number)
        r = Round(number, a.round, dealer, chooser, [Trick(chooser)], {p: 0 for p in self.players})
        r.hands, self.pending_hands = self.pending_hands, {}
        self.rounds.append(r)
        self._emit("round_chosen", a, NOTABLE, round=a.round, number=number, dealer=dealer, chooser=chooser)

    def _deal(self, a: Deal) -> None:
        r = self.round
        if r is not None and not r.over and (r.played or len(r.tricks) > 1):
            self._violate("bad_deal", None, "hands dealt after the round's first card; deal ignored", a)
            return
        pool = Counter(self.in_play)
        hands: dict[str, Counter] = {}
        for player, codes in a.hands.items():
            if player not in self.players:
                self._violate("bad_deal", player, f"{player!r} is not at this table; deal ignored", a)
                return
            if len(codes) != self.cards_per_player:
                self._violate("bad_deal", player, f"{player} was dealt {len(codes)} cards, not "
                              f"{self.cards_per_player}; deal ignored", a)
                return
            hand = Counter()
            for code in codes:
                try:
                    card = parse_card(code, self.deck)
                except CardError as e:
                    self._violate("bad_deal", player, f"{e}; deal ignored", a)
                    return
                if pool[card] == 0:
                    self._violate("bad_deal", player, f"{code} is dealt more often than the deck in play holds "
                                  "it; deal ignored", a)
                    return
                pool[card] -= 1
                hand[card] += 1
            hands[player] = hand
        if r is not None and not r.over:
            r.hands = hands
        else:
            self.pending_hands = hands
        self._emit("deal", a, known=sorted(hands))

    def _play(self, a: Play) -> None:
        r = self.round
        if r is None or r.over:
            detail = ("no round has been chosen yet" if r is None else
                      f"round {r.number} ({r.type}) is over" + (" (the black 13 was won)" if r.ended_by_black13 else ""))
            self._violate("no_round", a.player, f"{detail}; {self.chooser} must choose the next round; "
                          f"{a.card} ignored", a, round_number=len(self.rounds) + 1)
            return
        if a.player not in self.players:
            self._violate("unknown_player", a.player, f"{a.player!r} is not at this table {self.players}", a)
            return
        may = self.may_lead
        if a.player not in may:
            if len(may) == 1:
                detail = f"it is {may[0]}'s turn, not {a.player}'s; {a.card} ignored"
            else:
                detail = (f"{', '.join(may[:-1])} or {may[-1]} leads (one of them won the trick before, whose "
                          f"card was not read), not {a.player}; {a.card} ignored")
            self._violate("out_of_turn", a.player, detail, a)
            return
        if a.card == UNREAD:
            self._award_unread(r, a)
            self._lay(r, a, None)
            return
        try:
            card = parse_card(a.card, self.deck)
        except CardError as e:
            self._violate("unknown_card", a.player, str(e), a)
            return
        if self.in_play[card] == 0:
            self._violate("card_not_in_deck", a.player, f"{self.code(card)} was taken out of the deck for "
                          "this deal", a)
            return
        if r.played[card] >= self.in_play[card]:
            self._violate("card_already_played", a.player, f"{self.code(card)} was already played this round", a)
            return
        hand = r.hands.get(a.player)
        if hand is not None and hand[card] == 0:
            self._violate("card_not_in_hand", a.player, f"{self.code(card)} is not in {a.player}'s dealt hand", a)
            return
        self._award_unread(r, a)
        self._check_revoke(r, a, card, hand)
        if hand is not None:
            hand[card] -= 1
        r.played[card] += 1
        self._lay(r, a, card)

    def _lay(self, r: Round, a: Play, card: Card | None) -> None:
        """Put an accepted play (``card`` None: unread) in the open trick; the trick closes on its last card."""
        trick = r.current
        trick.cards.append((a.player, card))
        if card is None:
            r.unread_of[a.player] += 1
            self._emit("card_played", a, player=a.player, card=UNREAD, unread=True, trick=len(r.tricks),
                       round=r.number)
        else:
            self._emit("card_played", a, player=a.player, card=self.code(card), trick=len(r.tricks), round=r.number)
        if len(trick.cards) == self.n:
            self._finish_trick(r, a)

    def _award_unread(self, r: Round, a: Play) -> None:
        """The lead after a trick with an unread card: its player won that trick (``may_lead`` checked)."""
        if r.current.leader is not None:
            return
        before = r.tricks[-2]
        r.current.leader = a.player
        self._award(r, len(r.tricks) - 2, a.player, a)
        before.could_win = []

    def _check_revoke(self, r: Round, a: Play, card: Card, hand: Counter | None) -> None:
        """A revoke is proven when the hand is known, or when a player later plays a colour they showed out of."""
        trick_no = len(r.tricks)
        earlier = r.shown_out.get(a.player, {}).pop(card.colour, None)
        if earlier is not None:
            self._violate("revoke", a.player, f"showed out of {colour_name(card.colour, self.deck)} in trick "
                          f"{earlier}, then played {self.code(card)} in trick {trick_no}", a, trick=earlier)
        led = self.led_colour
        if led is None or card.colour == led:
            return
        if hand is not None:
            # a card of theirs played unread may have been the one of the led colour they held
            if sum(k for c, k in hand.items() if c.colour == led) > r.unread_of[a.player]:
                self._violate("revoke", a.player, f"played {self.code(card)} on a {colour_name(led, self.deck)} "
                              f"lead while holding {colour_name(led, self.deck)}", a)
        else:
            r.shown_out.setdefault(a.player, {}).setdefault(led, trick_no)

    def _finish_trick(self, r: Round, a: Play) -> None:
        trick = r.current
        index = len(r.tricks) - 1
        cards = [c for _, c in trick.cards]
        if trick.unread:
            # who won is seen when the next lead comes: the best card read, or any unread one (after an
            # unread lead, anyone: its colour is unknown)
            best = trick.cards[trick_winner(cards, self.rank)][0] if cards[0] is not None else None
            trick.could_win = [p for p, c in trick.cards if c is None or p == best or best is None]
        else:
            self._award(r, index, trick.cards[trick_winner(cards, self.rank)][0], a)
        black13_done = r.played[self.black13] >= self.in_play[self.black13] > 0
        if r.type == "black13" and black13_done:
            r.over = r.ended_by_black13 = True
        elif len(r.tricks) == self.cards_per_player:
            r.over = True
            self._deduce(r, self._unread_slots(r), list((self.in_play - r.played).elements()), a)
        else:
            r.tricks.append(Trick(trick.winner))
        if r.over:
            self._emit("round_over", a, NOTABLE, round=r.type, number=r.number, points=dict(r.points),
                       ended_by_black13=r.ended_by_black13)
            if len(self.rounds) == ROUNDS_PER_GAME:
                self._finish_game(a)

    def _award(self, r: Round, index: int, winner: str, a) -> None:
        """Trick ``index`` of round ``r`` goes to ``winner``, with the points of the cards read in it."""
        trick = r.tricks[index]
        trick.winner = winner
        trick.points = self.trick_points(r.type, index, [c for _, c in trick.cards if c is not None])
        trick.unsure = bool(trick.unread) and self._may_carry_points(r, led_after=r.current is not trick)
        r.points[winner] += trick.points
        self._emit("trick_won", a, NOTABLE, player=winner, trick=index + 1, round=r.number, points=trick.points,
                   cards=[[p, UNREAD if c is None else self.code(c)] for p, c in trick.cards],
                   **({"unsure": True} if trick.unsure else {}))

    def _may_carry_points(self, r: Round, led_after: bool) -> bool:
        """Can an unread card of this round be worth points? Not in the rounds that pay per trick, nor when
        every card worth points was read; nor the last black 13 in play once someone led after it in the
        black 13 round (it would have ended the round)."""
        left = self.in_play - r.played
        red = any(is_red(c, self.deck) for c in left)
        b13 = left[self.black13] > (1 if led_after and r.type == "black13" else 0)
        return {"red": red, "black13": b13, "crazy": red or left[self.black13] > 0}.get(r.type, False)

    def _black13_unread(self, r: Round) -> bool:
        """The black 13 round, the black 13 not played, the last trick complete with an unread card and
        nobody leading since: the round goes on only if someone leads; if the table chooses the next round
        instead, that card was the black 13."""
        return (r.type == "black13" and r.played[self.black13] < self.in_play[self.black13]
                and len(r.tricks) > 1 and r.current.leader is None and not r.current.cards)

    @staticmethod
    def _unread_slots(r: Round) -> list[tuple[int, int]]:
        return [(i, j) for i, t in enumerate(r.tricks) for j, (_, c) in enumerate(t.cards) if c is None]

    def _deduce(self, r: Round, slots: list[tuple[int, int]], left: list[Card], a) -> None:
        """The round is over: the cards ``left`` are those of the unread plays at ``slots`` (trick, place),
        when that settles each of them (as many, and all the same card: one unread card, say). Each trick
        with one then gets its card, its winner by the rules when nobody led after it, and its points
        counted again."""
        if not slots or len(slots) != len(left) or len(set(left)) != 1:
            return
        for (i, j), card in zip(slots, left):
            trick = r.tricks[i]
            player = trick.cards[j][0]
            trick.cards[j] = (player, card)
            r.played[card] += 1
            r.unread_of[player] -= 1
            hand = r.hands.get(player)
            if hand is not None and hand[card] > 0:
                hand[card] -= 1
            self._emit("card_deduced", a, NOTABLE, player=player, card=self.code(card), trick=i + 1, round=r.number)
            cards = [c for _, c in trick.cards]
            if trick.unread:
                continue
            if trick.winner is None:
                self._award(r, i, trick.cards[trick_winner(cards, self.rank)][0], a)
            else:  # the points counted again with the card known, to the player who led after it
                r.points[trick.winner] -= trick.points
                trick.points = self.trick_points(r.type, i, cards)
                trick.unsure = False
                r.points[trick.winner] += trick.points

    def _finish_game(self, a) -> None:
        self.over = True
        crazy = next(r for r in self.rounds if r.type == "crazy")
        threshold = self.moon_threshold()
        best = max(crazy.points.values())
        shooters = [p for p, pts in crazy.points.items() if pts >= threshold and pts == best]
        if len(shooters) == 1:
            self.moon = shooters[0]
            self._emit("moon", a, URGENT, player=self.moon, points=best, threshold=threshold)
        self._emit("game_over", a, URGENT, totals=self.totals(), winners=self.winners())

    # ---- results -------------------------------------------------------------------------

    def totals(self) -> dict[str, int]:
        totals = {p: sum(r.points[p] for r in self.rounds) for p in self.players}
        if self.moon is not None:
            totals[self.moon] = 0
        return totals

    def winners(self) -> list[str]:
        """Lowest total wins, ties share; a moon shot wins outright. Empty until the game is over."""
        if not self.over:
            return []
        if self.moon is not None:
            return [self.moon]
        totals = self.totals()
        low = min(totals.values())
        return [p for p in self.players if totals[p] == low]

    def scoresheet(self) -> dict:
        """Everything a scoresheet shows, as plain JSON-ready data."""
        return {
            "game": "crazy",
            "deck": self.deck,
            "players": self.players,
            "cards_per_player": self.cards_per_player,
            "removed": [self.code(c) for c in sorted(self.removed.elements(), key=lambda c: (c.number, c.colour))],
            "moon_threshold": self.moon_threshold(),
            "rounds": [
                {
                    "number": r.number, "round": r.type, "dealer": r.dealer, "chooser": r.chooser,
                    "complete": r.over, "ended_by_black13": r.ended_by_black13, "points": dict(r.points),
                    "unsure": r.unsure,  # a card was played unread: its points, or who won its trick, unknown
                    "tricks": [{"leader": t.leader,
                                "cards": [[p, UNREAD if c is None else self.code(c)] for p, c in t.cards],
                                "winner": t.winner, "points": t.points,
                                **({"unsure": True} if t.unsure else {}),
                                **({"could_win": t.could_win} if t.could_win else {})}
                               for t in r.tricks if t.cards],
                }
                for r in self.rounds
            ],
            "totals": self.totals(),
            "unsure": any(r.unsure for r in self.rounds),
            "complete": self.over,
            "winners": self.winners(),
            "moon": self.moon,
            "violations": [v.to_dict() for v in self.violations],
        }


def replay(actions: Sequence) -> tuple[CrazyGame, list[Event]]:
    """Play a parsed action log (setup first) and return the game and every event."""
    game = CrazyGame(actions[0])
    events: list[Event] = []
    for action in actions[1:]:
        events.extend(game.apply(action))
    return game, events
