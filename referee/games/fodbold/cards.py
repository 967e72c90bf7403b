"""Fodbold's cards as data: each team's pass cards (who may receive the ball or move) and the
black shot cards (a straight number and a lofted number). Pure; loader.py reads the YAML file."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .board import TEAMS

_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,12}$")


class DeckError(ValueError):
    """A decks file that cannot be played with."""


@dataclass(frozen=True)
class PassCard:
    id: str
    players: tuple[int, ...]  # piece numbers, ascending


@dataclass(frozen=True)
class ShotCard:
    id: str
    straight: int  # the top number: a straight shot must be greater than the distance
    lofted: int  # the number with the arc: from the distance up to the distance + 2 scores


@dataclass(frozen=True)
class Decks:
    passes: dict[str, dict[str, PassCard]]  # team -> card id -> card
    shots: dict[str, ShotCard]  # one copy of this deck per team

    def pass_card(self, team: str, card_id: str) -> PassCard | None:
        return self.passes[team].get(card_id)


def decks_from_dict(data: dict[str, Any], name: str = "decks") -> Decks:
    if not isinstance(data, dict) or "pass" not in data or "shot" not in data:
        raise DeckError(f"{name}: expected a mapping with 'pass' (red and blue) and 'shot'")
    p = data["pass"]
    if not isinstance(p, dict) or set(p) != set(TEAMS):
        raise DeckError(f"{name}: 'pass' must have exactly the keys red and blue")
    passes: dict[str, dict[str, PassCard]] = {}
    seen: set[str] = set()
    for team in TEAMS:
        cards = p[team]
        if not isinstance(cards, dict) or not cards:
            raise DeckError(f"{name}: pass.{team} must map card ids to lists of piece numbers")
        passes[team] = {}
        for cid, players in cards.items():
            cid = str(cid)
            if not _ID_RE.match(cid) or cid in seen:
                raise DeckError(f"{name}: pass.{team}: card id {cid!r} is malformed or used twice")
            seen.add(cid)
            if (not isinstance(players, list) or not players
                    or not all(isinstance(n, int) and 1 <= n <= 11 for n in players)
                    or len(set(players)) != len(players)):
                raise DeckError(f"{name}: pass.{team}.{cid}: expected distinct piece numbers 1-11, got {players!r}")
            passes[team][cid] = PassCard(cid, tuple(sorted(players)))
    shots: dict[str, ShotCard] = {}
    s = data["shot"]
    if not isinstance(s, dict) or not s:
        raise DeckError(f"{name}: 'shot' must map card ids to {{straight: N, lofted: N}}")
    for cid, nums in s.items():
        cid = str(cid)
        if not _ID_RE.match(cid) or cid in seen:
            raise DeckError(f"{name}: shot: card id {cid!r} is malformed or used twice")
        seen.add(cid)
        try:
            straight, lofted = int(nums["straight"]), int(nums["lofted"])
        except (KeyError, TypeError, ValueError):
            raise DeckError(f"{name}: shot.{cid}: expected {{straight: N, lofted: N}}, got {nums!r}") from None
        if straight < 0 or lofted < 0:
            raise DeckError(f"{name}: shot.{cid}: numbers must not be negative")
        shots[cid] = ShotCard(cid, straight, lofted)
    return Decks(passes, shots)
