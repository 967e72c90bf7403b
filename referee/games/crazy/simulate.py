"""Random legal games of Crazy, for property tests, the demo log and the video simulator.

Randomness only through the ``random.Random`` passed in: the same seed gives the same game.
"""
from __future__ import annotations

import random
from collections import Counter

from .actions import ACTION_ADAPTER, ROUND_TYPES, Setup
from .cards import Card
from .rules import CrazyGame, legal_follow


def deal_hands(game: CrazyGame, rng: random.Random) -> dict[str, list[Card]]:
    cards = sorted(game.in_play.elements())
    rng.shuffle(cards)
    k = game.cards_per_player
    return {p: sorted(cards[i * k:(i + 1) * k]) for i, p in enumerate(game.players)}


def random_game(rng: random.Random, players: list[str], deck: str = "rook", dealer: str | None = None,
                options: dict | None = None, with_deal: bool = True, fouls: float = 0.0) -> list[dict]:
    """An action log (list of JSON-ready dicts) of a whole game of random legal play.

    ``fouls`` is the chance that a player who could follow colour plays another colour instead
    (a revoke), so tests and simulated videos contain violations the referee must catch."""
    setup = {"type": "setup", "game": "crazy", "players": list(players), "deck": deck,
             "dealer": dealer or players[0], "options": options or {}}
    game = CrazyGame(Setup.model_validate(setup))
    log = [setup]
    order = [t for t in ROUND_TYPES if t != "crazy"]
    rng.shuffle(order)
    for round_type in order + ["crazy"]:
        hands = {p: Counter(h) for p, h in deal_hands(game, rng).items()}
        if with_deal:
            log.append({"type": "deal", "hands": {p: [game.code(c) for c in sorted(h.elements())]
                                                  for p, h in hands.items()}})
        choose = {"type": "choose", "player": game.chooser, "round": round_type}
        log.append(choose)
        game.apply(_parse(choose))
        while game.round is not None and not game.round.over:
            player = game.to_play
            hand = sorted(hands[player].elements())
            legal = legal_follow(hand, game.led_colour)
            if fouls and len(legal) < len(hand) and rng.random() < fouls:
                legal = [c for c in hand if c not in legal]
            card = rng.choice(legal)
            hands[player][card] -= 1
            play = {"type": "play", "player": player, "card": game.code(card)}
            log.append(play)
            game.apply(_parse(play))
    return log


def _parse(obj: dict):
    return ACTION_ADAPTER.validate_python(obj)
