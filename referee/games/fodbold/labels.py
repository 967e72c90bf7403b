"""The detection labels a Fodbold table is seen in: one place for the detector's classes, the
renderer/dataset that will train it, and the adapter that reads them.

- pieces: ``red-1`` .. ``red-11`` and ``blue-1`` .. ``blue-11`` (team colour and the number on the
  piece; every piece is a class of its own, so a piece keeps its identity across a move);
- ``ball``: the ball token (it shows who holds the ball; the engine knows that from the play);
- pass cards: their deck ids (``R01`` .. ``R24`` red, ``B01`` .. ``B24`` blue in the default decks);
- shot cards: their deck ids (``S01`` .. ``S16``); both teams' shot decks are the same cards;
- ``back``: a card face down (seen, never read).

Card ids come from the decks file in use (``load_decks``), so a table with its own cards gets its
own classes.
"""
from __future__ import annotations

import re

from .board import TEAMS
from .cards import Decks

BALL = "ball"
BACK = "back"
PIECE_NUMBERS = range(1, 12)
_PIECE_RE = re.compile(r"^(red|blue)-([1-9]|1[01])$")


def piece_label(team: str, number: int) -> str:
    """('red', 9) -> 'red-9'."""
    if team not in TEAMS or number not in PIECE_NUMBERS:
        raise ValueError(f"no piece {team} {number}: teams are {TEAMS}, numbers 1-11")
    return f"{team}-{number}"


def parse_piece(label: str) -> tuple[str, int] | None:
    """'blue-4' -> ('blue', 4); None for anything that is not a piece label."""
    m = _PIECE_RE.match(label)
    return (m.group(1), int(m.group(2))) if m else None


def piece_kind(label: str) -> str:
    """What the tracker may take for one object: a piece's colour (``piece-red``), never its
    number, which the classifier misreads more often than a piece changes places; any other
    label is its own kind."""
    piece = parse_piece(label)
    return f"piece-{piece[0]}" if piece else label


def piece_labels() -> list[str]:
    return [piece_label(t, n) for t in TEAMS for n in PIECE_NUMBERS]


def card_labels(decks: Decks) -> list[str]:
    """Pass cards of both teams, then the shot cards, by deck id."""
    return [c for t in TEAMS for c in decks.passes[t]] + list(decks.shots)


def fodbold_classes(decks: Decks | None = None) -> list[str]:
    """Every class a Fodbold detector knows, in a fixed order: pieces, ball, cards, back."""
    if decks is None:
        from .loader import load_decks

        decks = load_decks()
    return piece_labels() + [BALL] + card_labels(decks) + [BACK]
