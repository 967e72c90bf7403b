"""Small builders for Fodbold tests: a game from a one-line position, actions from short strings."""
from referee.games.fodbold import load_board, load_decks
from referee.games.fodbold.actions import ACTION_ADAPTER
from referee.games.fodbold.cards import decks_from_dict
from referee.games.fodbold.rules import FodboldGame

BOARD = load_board()
DECKS = load_decks()


def setup(position=None, first=None, **options):
    return ACTION_ADAPTER.validate_python({"type": "setup", "position": position, "first": first,
                                           "options": options})


def game(position=None, decks=None, first=None, **options):
    return FodboldGame(setup(position, first, **options), BOARD, decks or DECKS)


def small_decks(red, blue, shots=None):
    """Decks from {id: [numbers]} dicts; shots {id: (straight, lofted)}."""
    shots = shots or {"S01": (12, 4)}
    return decks_from_dict({"pass": {"red": red, "blue": blue},
                            "shot": {k: {"straight": s, "lofted": lo} for k, (s, lo) in shots.items()}})


def act(obj):
    return ACTION_ADAPTER.validate_python(obj)


def draw(text):
    """draw("red R01")"""
    team, card = text.split()
    return act({"type": "draw", "team": team, "card": card})


def move(text):
    """move("red 7 c11") or move("red 7 c9-c11")"""
    team, piece, squares = text.split()
    frm, _, to = squares.rpartition("-")
    obj = {"type": "move", "team": team, "piece": int(piece), "to": to}
    if frm:
        obj["from"] = frm
    return act(obj)


def shot(text):
    team, card = text.split()
    return act({"type": "shot", "team": team, "card": card})


def roll(team, value):
    return act({"type": "roll", "team": team, "value": value})


def run(g, *actions):
    events = []
    for a in actions:
        events += g.apply(a)
    return events


def types(events):
    return [e.type for e in events]


def violation_types(g):
    return [v.type for v in g.violations]


def sq(name):
    return BOARD.parse(name, allow_goal=True)
