"""Small builders for Crazy tests: a game from one setup line, actions from short tuples."""
from referee.games.crazy.actions import ACTION_ADAPTER
from referee.games.crazy.rules import CrazyGame

# A short 4-player game: everything below 11 taken out leaves 16 cards, 4 tricks a round.
SHORT_REMOVED = [f"{c}{n}" for n in range(1, 11) for c in "YGBR"]
SHORT_HANDS = {
    "A": ["R14", "Y11", "G12", "B11"],
    "B": ["R11", "Y14", "G13", "B13"],
    "C": ["R12", "Y12", "G14", "B12"],
    "D": ["R13", "Y13", "G11", "B14"],
}


def setup(players=("A", "B", "C", "D"), deck="rook", dealer=None, **options):
    return ACTION_ADAPTER.validate_python({"type": "setup", "players": list(players), "deck": deck,
                                           "dealer": dealer or players[0], "options": options})


def act(obj):
    return ACTION_ADAPTER.validate_python(obj)


def choose(player, round_):
    return act({"type": "choose", "player": player, "round": round_})


def play(player, card):
    return act({"type": "play", "player": player, "card": card})


def deal(hands):
    return act({"type": "deal", "hands": hands})


def short_game(**options):
    return CrazyGame(setup(removed=SHORT_REMOVED, **options))


def run(game, *actions):
    events = []
    for a in actions:
        events += game.apply(a)
    return events


def plays(*pairs):
    """plays("B R11", "C R12") -> play actions."""
    return [play(*p.split()) for p in pairs]


def violation_types(game):
    return [v.type for v in game.violations]
