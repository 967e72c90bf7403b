"""Cards and decks for Crazy: the Rook deck (56 cards) and the standard 52-card deck.

A card is written as a short code, one line of text, so a test case or an action log stays readable:
Rook = colour letter R/Y/G/B + number 1-14 ("B13"); standard = rank 2-10/J/Q/K/A + suit C/D/H/S ("10H", "KS").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ROOK = "rook"
STANDARD = "standard"
DECKS = (ROOK, STANDARD)

ROOK_COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "black"}
STANDARD_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
STANDARD_RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}
_RANK_NAMES = {v: k for k, v in STANDARD_RANKS.items()}

# Which cards go first when cards are taken out for an even deal: lowest number first, and within
# a number the non-red colours before the red ones (the seed: "take two of the 1's out, leave the red 1 in").
_REMOVAL_COLOUR_ORDER = {ROOK: "YGBR", STANDARD: "CSDH"}
_RED = {ROOK: {"R"}, STANDARD: {"D", "H"}}

_ROOK_RE = re.compile(r"^([RYGB])(1[0-4]|[1-9])$")
_STANDARD_RE = re.compile(r"^(10|[2-9]|[JQKA])([CDHS])$")


class CardError(ValueError):
    """A card code that is not a card of the deck in use."""


@dataclass(frozen=True, order=True)
class Card:
    """One card face. ``colour`` is the colour (Rook) or suit (standard) that must be followed;
    ``number`` is the printed number (Rook 1-14; standard 2-14 with J=11, Q=12, K=13, A=14)."""

    colour: str
    number: int

    def code(self, deck: str) -> str:
        if deck == ROOK:
            return f"{self.colour}{self.number}"
        return f"{_RANK_NAMES.get(self.number, self.number)}{self.colour}"


def parse_card(code: str, deck: str) -> Card:
    """Parse a card code of ``deck``; raise CardError naming what was expected."""
    text = code.strip().upper() if isinstance(code, str) else code
    if deck == ROOK:
        m = _ROOK_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise CardError(f"{code!r} is not a Rook card (expected R/Y/G/B + 1-14, e.g. 'G7' or 'B13')")
        return Card(m.group(1), int(m.group(2)))
    if deck == STANDARD:
        m = _STANDARD_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise CardError(f"{code!r} is not a standard card (expected rank 2-10/J/Q/K/A + suit C/D/H/S, e.g. '10H' or 'KS')")
        rank = m.group(1)
        return Card(m.group(2), STANDARD_RANKS.get(rank) or int(rank))
    raise CardError(f"unknown deck {deck!r}; expected one of {', '.join(DECKS)}")


def full_deck(deck: str) -> list[Card]:
    """Every card of one copy of ``deck`` (the Rook bird card is never part of it)."""
    if deck == ROOK:
        return [Card(c, n) for c in ROOK_COLOURS for n in range(1, 15)]
    if deck == STANDARD:
        return [Card(s, n) for s in STANDARD_SUITS for n in range(2, 15)]
    raise CardError(f"unknown deck {deck!r}; expected one of {', '.join(DECKS)}")


def is_red(card: Card, deck: str) -> bool:
    return card.colour in _RED[deck]


def colour_name(colour: str, deck: str) -> str:
    return (ROOK_COLOURS if deck == ROOK else STANDARD_SUITS)[colour]


def removal_order(deck: str) -> list[Card]:
    """Cards in the order they are taken out for an even deal."""
    order = _REMOVAL_COLOUR_ORDER[deck]
    return sorted(full_deck(deck), key=lambda c: (c.number, order.index(c.colour)))


def copies_for(players: int) -> int:
    """How many decks are shuffled together: one for up to 7 players, two for 8 or more."""
    return 1 if players <= 7 else 2


def default_removed(deck: str, players: int) -> list[Card]:
    """The cards taken out so that every player gets the same number, in removal order.

    With two decks both copies of a card go out together; when an odd number must go, the last
    card taken out is a single copy (the seed is silent; this keeps the deal even)."""
    copies = copies_for(players)
    total = len(full_deck(deck)) * copies
    count = total % players
    removed: list[Card] = []
    for card in removal_order(deck):
        if len(removed) >= count:
            break
        removed.extend([card] * min(copies, count - len(removed)))
    return removed
