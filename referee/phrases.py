"""What the referee says for each event, per game and language.

One function per game takes an Event and returns a short phrase (or None for events not spoken).
Phrases are short on purpose: the table is playing, and the next card comes within a second.
"""
from __future__ import annotations

from typing import Callable

from .games.base import Event

_ROOK = {"R": "red", "Y": "yellow", "G": "green", "B": "black"}
_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_ROUND_NAMES = {"red": "the red round", "black13": "the black 13 round", "first_last": "the first and last round",
                "every_hand": "the every hand round", "crazy": "the crazy round"}
_CRAZY_VIOLATIONS = {
    "revoke": "Revoke by {player}", "out_of_turn": "Not your turn, {player}", "unknown_card": "Unknown card",
    "card_already_played": "That card was already played", "card_not_in_deck": "That card is not in the deck",
    "card_not_in_hand": "That card was not in {player}'s hand", "unknown_player": "Unknown player",
    "bad_round_choice": "That round cannot be chosen now", "no_round": "Choose a round first",
    "bad_deal": "Bad deal", "game_over": "The game is over",
}


def spoken_card(code: str) -> str:
    """'G7' -> 'green 7', '10H' -> '10 of hearts', 'KS' -> 'king of spades'."""
    if code[:1] in _ROOK and code[1:].isdigit():
        return f"{_ROOK[code[0]]} {code[1:]}"
    rank, suit = code[:-1], code[-1]
    if suit in _SUITS:
        return f"{_RANKS.get(rank, rank)} of {_SUITS[suit]}"
    return code


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def crazy_en(e: Event) -> str | None:
    d = e.data
    if e.type == "round_chosen":
        return f"Round {d['number']}: {d['chooser']} chooses {_ROUND_NAMES[d['round']]}"
    if e.type == "card_played":
        return f"{d['player']}, {spoken_card(d['card'])}"
    if e.type == "trick_won":
        return f"{d['player']} takes the trick" + (f", {_points(d['points'])}" if d["points"] else "")
    if e.type == "round_over":
        return f"End of {_ROUND_NAMES[d['round']]}" + (", the black 13 has fallen" if d.get("ended_by_black13") else "")
    if e.type == "moon":
        return f"{d['player']} shoots the moon!"
    if e.type == "game_over":
        w = d["winners"]
        return ("Game over. " + (f"{w[0]} wins" if len(w) == 1 else " and ".join(w) + " share the win")
                + f" with {_points(d['totals'][w[0]])}")
    if e.type == "violation":
        text = _CRAZY_VIOLATIONS.get(d["violation"], "Foul")
        return text.format(player=d.get("player") or "player")
    return None


PHRASEBOOKS: dict[tuple[str, str], Callable[[Event], str | None]] = {
    ("crazy", "en"): crazy_en,
}


def phrasebook(game: str, lang: str = "en") -> Callable[[Event], str | None]:
    try:
        return PHRASEBOOKS[(game, lang)]
    except KeyError:
        langs = sorted(l for g, l in PHRASEBOOKS if g == game)
        raise ValueError(f"no {lang!r} phrases for {game}; available: {langs or 'none'}") from None
