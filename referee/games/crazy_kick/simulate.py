"""Random legal games of Crazy Kick, for property tests and the video simulator.

A small model of the table: each player holds a stack, lays out his piles (rule 5 and the box),
turns up a card from his stack onto a pile when nothing fits, picks his piles up and reshuffles
when his stack runs out, and lays a pile top onto the centre pile when it fits. After a goal (or
a ball out) the cards go back to their owners. Randomness only through the ``random.Random``
passed in: the same seed gives the same game, times included.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .actions import ACTION_ADAPTER, Setup
from .catalogue import Catalog
from .rules import CrazyKickGame, deal_hands


@dataclass
class _Seat:
    name: str
    hand: list[str] = field(default_factory=list)     # the stack in his hand, top at the end
    piles: list[list[str]] = field(default_factory=list)

    def tops(self) -> list[str | None]:
        return [p[-1] if p else None for p in self.piles]

    def gather(self, rng: random.Random, returned: list[str] = ()) -> None:
        """Rule 12: take everything back into the hand and shuffle."""
        self.hand += [c for p in self.piles for c in p] + list(returned)
        self.piles = []
        rng.shuffle(self.hand)

    def lay_out(self, k: int) -> None:
        self.piles = [[self.hand.pop()] if self.hand else [] for _ in range(k)]


def team_split(n: int, rng: random.Random | None = None) -> tuple[int, int]:
    """Rule 1: (red, white) team sizes for n players; the odd player goes to a random side."""
    small, big = n // 2, n - n // 2
    if rng is not None and rng.random() < 0.5:
        return big, small
    return small, big


def random_game(rng: random.Random, teams: dict[str, list[str]] | None = None, n_players: int = 4,
                options: dict | None = None, catalog: Catalog | None = None, fouls: float = 0.0,
                tables: str = "layout", stuck_after: int | None = None, max_plays: int = 5000) -> list[dict]:
    """An action log (JSON-ready dicts) of a game of random play until a team wins.

    ``fouls``: the chance that a player lays an illegal card from his pile tops, so logs hold
    violations the referee must catch. ``tables``: when to log the pile tops ("layout": at each
    kick-off, "all": after every change, "none"). ``stuck_after``: when nothing fitting has shown for
    that many turns of the table, the teams agree on a ball out (the log then uses the house rule
    ``ball_out: agreed``, which accepts it). ``max_plays`` stops a game that runs too long."""
    if teams is None:
        r, w = team_split(n_players, rng)
        teams = {"red": [f"R{i + 1}" for i in range(r)], "white": [f"W{i + 1}" for i in range(w)]}
    options = dict(options or {})
    if tables == "all":
        options.setdefault("track_piles", True)
    if stuck_after is not None:
        options.setdefault("ball_out", "agreed")
    setup = {"type": "setup", "game": "crazy-kick", "teams": teams, "options": options}
    game = CrazyKickGame(Setup.model_validate(setup), catalog)
    cat = game.catalog
    log: list[dict] = [setup]
    hands = deal_hands(cat, game.teams, rng)
    log.append({"type": "deal", "hands": {p: list(h) for p, h in hands.items()}})
    _apply(game, log[-1])
    seats = {p: _Seat(p, list(h)) for p, h in hands.items()}
    t = 0.0

    def emit(obj: dict) -> None:
        log.append(obj)
        _apply(game, obj)

    def snapshot() -> None:
        emit({"type": "table", "t": round(t, 2), "piles": {p: s.tops() for p, s in seats.items()}})

    def kick_off() -> None:
        for s in seats.values():
            s.lay_out(game.layout[s.name])
        if tables != "none":
            snapshot()

    def return_pile(ids: list[str]) -> None:
        for cid in ids:
            seats[game.owner[cid]].hand.append(cid)

    kick_off()
    plays = idle = 0
    while not game.over and plays < max_plays:
        showing = [(p, i, c) for p, s in seats.items() for i, c in enumerate(s.tops()) if c is not None]
        legal = [x for x in showing if game.is_legal(x[2])]
        if fouls and rng.random() < fouls:
            wrong = [x for x in showing if not game.is_legal(x[2])]
            if wrong:
                p, i, c = rng.choice(wrong)
                t += rng.uniform(0.2, 1.0)
                emit({"type": "play", "t": round(t, 2), "card": c, "player": p})  # flagged; he takes it back
        if legal:
            p, i, c = rng.choice(legal)
            t += rng.uniform(0.3, 2.5)
            before = [x.id for x in game.pile]
            emit({"type": "play", "t": round(t, 2), "card": c, "player": p})
            seats[p].piles[i].pop()
            plays += 1
            idle = 0
            if not game.pile:  # a goal: the pile went back to its teams; everyone gathers and lays out
                return_pile(before)
                for s in seats.values():
                    s.gather(rng)
                if not game.over:
                    kick_off()
            elif tables == "all":  # the card under the one laid now shows
                snapshot()
            continue
        stuck = stuck_after is not None and idle >= stuck_after
        if game.pile and (stuck or not game.legal_cards()):
            # Ball out: every card that could take the ball is on the centre pile (the rulebook's
            # case), or the teams have looked long enough and agree.
            t += rng.uniform(1.0, 3.0)
            under = [x.id for x in game.pile[:-1]]
            emit({"type": "ball_out", "t": round(t, 2), "visible": [c for _, _, c in showing]})
            return_pile(under)
            for s in seats.values():
                s.gather(rng)
                s.lay_out(game.layout[s.name])
            if tables == "all":
                snapshot()
            idle = 0
            continue
        # Nothing fits: everyone turns up a card (or picks up his piles when his stack is empty).
        t += rng.uniform(0.4, 1.2)
        for s in seats.values():
            if s.hand:
                target = [i for i, pile in enumerate(s.piles) if not pile] or list(range(len(s.piles)))
                s.piles[rng.choice(target)].append(s.hand.pop())
            else:
                s.gather(rng)
                s.lay_out(game.layout[s.name])
        idle += 1
        if tables == "all":
            snapshot()
        if idle > 2000:  # pragma: no cover - a deck where nothing can ever follow; the design tests forbid it
            break
    return log


def _apply(game: CrazyKickGame, obj: dict) -> None:
    game.apply(ACTION_ADAPTER.validate_python(obj))


__all__ = ["random_game", "team_split"]
