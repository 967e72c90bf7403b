"""The Crazy rules engine: pure Python, deterministic, no I/O.

``CrazyGame(setup).apply(action) -> [Event]`` checks one action against the rules, updates the
state and says what happened. Impossible actions become recorded violations, never exceptions.
The rules and every decision the seed leaves open are written down in docs/rules/crazy.md.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..base import NOTABLE, ROUTINE, URGENT, Event, Violation, violation_event
from .actions import ROUND_TYPES, Choose, Deal, Play, Setup
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


def trick_winner(cards: Sequence[Card], rank) -> int:
    """Index of the winning card: the highest of the led colour, the first played among equals
    (two identical cards with two decks). No trumps."""
    led = cards[0].colour
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        if card.colour == led and rank(card) > rank(cards[best]):
            best = i
    return best


@dataclass
class Trick:
    leader: str
    cards: list[tuple[str, Card]] = field(default_factory=list)
    winner: str | None = None
    points: int = 0


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
    over: bool = False
    ended_by_black13: bool = False

    @property
    def current(self) -> Trick:
        return self.tricks[-1]


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
        """Whose card the trick waits for, or None between rounds."""
        r = self.round
        if r is None or r.over:
            return None
        t = r.current
        return self.players[(self.players.index(t.leader) + len(t.cards)) % self.n]

    @property
    def led_colour(self) -> str | None:
        r = self.round
        if r is None or r.over or not r.current.cards:
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
        expected = self.to_play
        if a.player != expected:
            self._violate("out_of_turn", a.player, f"it is {expected}'s turn, not {a.player}'s; {a.card} ignored", a)
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
        self._check_revoke(r, a, card, hand)
        if hand is not None:
            hand[card] -= 1
        r.played[card] += 1
        trick = r.current
        trick.cards.append((a.player, card))
        self._emit("card_played", a, player=a.player, card=self.code(card), trick=len(r.tricks), round=r.number)
        if len(trick.cards) == self.n:
            self._finish_trick(r, a)

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
            if any(c.colour == led and k > 0 for c, k in hand.items()):
                self._violate("revoke", a.player, f"played {self.code(card)} on a {colour_name(led, self.deck)} "
                              f"lead while holding {colour_name(led, self.deck)}", a)
        else:
            r.shown_out.setdefault(a.player, {}).setdefault(led, trick_no)

    def _finish_trick(self, r: Round, a: Play) -> None:
        trick = r.current
        index = len(r.tricks) - 1
        cards = [c for _, c in trick.cards]
        trick.winner = trick.cards[trick_winner(cards, self.rank)][0]
        trick.points = self.trick_points(r.type, index, cards)
        r.points[trick.winner] += trick.points
        self._emit("trick_won", a, NOTABLE, player=trick.winner, trick=index + 1, round=r.number,
                   points=trick.points, cards=[[p, self.code(c)] for p, c in trick.cards])
        black13_done = r.played[self.black13] >= self.in_play[self.black13] > 0
        if r.type == "black13" and black13_done:
            r.over = r.ended_by_black13 = True
        elif len(r.tricks) == self.cards_per_player:
            r.over = True
        else:
            r.tricks.append(Trick(trick.winner))
        if r.over:
            self._emit("round_over", a, NOTABLE, round=r.type, number=r.number, points=dict(r.points),
                       ended_by_black13=r.ended_by_black13)
            if len(self.rounds) == ROUNDS_PER_GAME:
                self._finish_game(a)

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
                    "tricks": [{"leader": t.leader, "cards": [[p, self.code(c)] for p, c in t.cards],
                                "winner": t.winner, "points": t.points} for t in r.tricks if t.cards],
                }
                for r in self.rounds
            ],
            "totals": self.totals(),
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
