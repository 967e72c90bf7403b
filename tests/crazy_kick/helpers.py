"""Builders for Crazy Kick tests: a six-player mini catalogue whose every path is easy to follow by
hand, and actions from short strings ("R2@3.5 Ann": card R2 laid at t=3.5 s by Ann)."""
from referee.games.crazy_kick.actions import ACTION_ADAPTER
from referee.games.crazy_kick.catalogue import catalog_from_data
from referee.games.crazy_kick.rules import CrazyKickGame

MINI_DATA = {
    "teams": {"red": {"players": {1: "Alex", 2: "Mario", 3: "Leon"}},
              "white": {"players": {1: "Stefan", 2: "Paul", 3: "Luca"}}},
    "cards": [
        {"id": "R1", "team": "red", "player": 1, "passes": [2], "tackles": [3]},   # Alex -> Mario; Luca tackles
        {"id": "R2", "team": "red", "player": 2, "passes": [3], "tackles": [2]},   # Mario -> Leon; Paul tackles
        {"id": "R3", "team": "red", "player": 3, "passes": [2], "tackles": [1]},   # Leon -> Mario; Stefan tackles
        {"id": "R5", "team": "red", "player": 2, "passes": [1], "tackles": [3]},   # Mario -> Alex; Luca tackles
        {"id": "RG", "team": "red", "kind": "goal", "player": 3},                 # goal Leon
        {"id": "RH", "team": "red", "kind": "goal", "player": 3},                 # goal Leon
        {"id": "W1", "team": "white", "player": 1, "passes": [2], "tackles": [3]},  # Stefan -> Paul; Leon tackles
        {"id": "W2", "team": "white", "player": 2, "passes": [3], "tackles": [2]},  # Paul -> Luca; Mario tackles
        {"id": "W3", "team": "white", "player": 3, "passes": [2], "tackles": [1]},  # Luca -> Paul; Alex tackles
        {"id": "WG", "team": "white", "kind": "goal", "player": 3},                # goal Luca
        {"id": "WH", "team": "white", "kind": "goal", "player": 3},                # goal Luca
    ],
}
MINI = catalog_from_data(MINI_DATA, "mini")
TEAMS4 = {"red": ["Ann", "Bob"], "white": ["Cyd", "Dee"]}


def act(obj):
    return ACTION_ADAPTER.validate_python(obj)


def setup(teams=None, **options):
    return act({"type": "setup", "teams": teams or TEAMS4, "options": options})


def mini_game(teams=None, **options):
    return CrazyKickGame(setup(teams, **options), MINI)


def play(spec: str):
    """"R2@3.5 Ann" -> a play of R2 at 3.5 s by Ann; "R2@3.5" -> nobody seen laying it."""
    card, _, rest = spec.partition("@")
    t, _, player = rest.partition(" ")
    return act({"type": "play", "card": card, "t": float(t or 0), "player": player or None})


def plays(*specs):
    return [play(s) for s in specs]


def ball_out(t, visible=None):
    return act({"type": "ball_out", "t": t, "visible": visible})


def table(t, **piles):
    return act({"type": "table", "t": t, "piles": piles})


def deal(hands):
    return act({"type": "deal", "hands": hands})


def run(game, *actions):
    events = []
    for a in actions:
        events += game.apply(a)
    return events


def vtypes(game):
    return [v.type for v in game.violations]


def kinds(events):
    return [e.type for e in events]
