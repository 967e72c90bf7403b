"""Property tests over random legal play (simulate.random_game with seeds from hypothesis)."""
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.fodbold import load_log, replay
from referee.games.fodbold.position import parse_position
from referee.games.fodbold.rules import FodboldGame
from referee.games.fodbold.simulate import random_game

from .helpers import BOARD, DECKS, act

SETTINGS = dict(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PENALTIES = {"offside", "stalling"}  # rule breaks the cards can force on a team


def check_position(game: FodboldGame):
    pos = game.pos
    # Pieces never overlap, except a marker standing on an opponent.
    for sq, pieces in pos.occupied().items():
        assert BOARD.on_board(sq)
        if len(pieces) > 1:
            assert len(pieces) == 2 and pieces[0][0] != pieces[1][0], pieces
            a, b = pieces
            assert pos.markers.get(a) == b or pos.markers.get(b) == a, (sq, pieces, pos.markers)
    for marker, marked in pos.markers.items():
        assert pos.squares[marker] == pos.squares[marked] and marked[1] != 1 and marked != pos.holder
    # The ball is with exactly one piece from the kick-off on (a shot hands it on at once).
    if pos.to_play is not None:
        assert pos.holder in pos.squares and not pos.is_marked(pos.holder)
    # The one-line notation says everything about the position.
    assert parse_position(game.fen(), BOARD).fen() == game.fen()


def play_checked(log):
    game = FodboldGame(act(log[0]), BOARD, DECKS)
    for obj in log[1:]:
        before = dict(game.pos.score)
        events = game.apply(act(obj))
        goals = Counter(e.data["team"] for e in events if e.type == "goal")
        # Scores change only on goals, by one per goal.
        assert {t: game.pos.score[t] - before[t] for t in before} == {t: goals.get(t, 0) for t in before}
        check_position(game)
    return game


@settings(**SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_the_invariants_and_ends(seed):
    log = random_game(random.Random(seed), BOARD, DECKS)
    game = play_checked(log)
    assert game.over, "a game ends when the cards run out"
    assert set(v.type for v in game.violations) <= PENALTIES
    sheet = game.scoresheet()
    assert sum(sheet["score"].values()) == len(sheet["goals"])
    assert sheet["winner"] == (None if sheet["score"]["red"] == sheet["score"]["blue"]
                               else max(sheet["score"], key=sheet["score"].get))


@settings(**SETTINGS)
@given(st.integers(0, 2**32 - 1), st.sampled_from([{}, {"offside_counts": "all"}, {"offside_on_shot": False},
                                                   {"stalling_back_passes": 1}]))
def test_play_with_fouls_and_other_settings_keeps_the_invariants(seed, options):
    log = random_game(random.Random(seed), BOARD, DECKS, options=options, fouls=0.2)
    game = play_checked(log)
    assert game.over


def test_the_same_seed_gives_the_same_game_and_others_differ():
    a = random_game(random.Random(7), BOARD, DECKS)
    assert a == random_game(random.Random(7), BOARD, DECKS)
    assert a != random_game(random.Random(8), BOARD, DECKS)


def test_a_simulated_log_written_to_a_file_replays_to_the_same_result(tmp_path):
    log = random_game(random.Random(3), BOARD, DECKS, fouls=0.1)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in log), encoding="utf-8")
    game, events = replay(load_log(path))
    direct = play_checked(log)
    assert game.scoresheet() == direct.scoresheet() and game.over
    assert sum(e.type == "goal" for e in events) == len(game.goals)


_squares = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("abcdefghijklmn"), st.integers(0, 22))
_action = st.one_of(
    st.builds(lambda t, v: {"type": "roll", "team": t, "value": v}, st.sampled_from(["red", "blue"]), st.integers(1, 6)),
    st.builds(lambda t, c: {"type": "draw", "team": t, "card": c}, st.sampled_from(["red", "blue"]),
              st.sampled_from(["R01", "R06", "R13", "B03", "B16", "B14", "S01", "X"])),
    st.builds(lambda t, p, s: {"type": "move", "team": t, "piece": p, "to": s}, st.sampled_from(["red", "blue"]),
              st.integers(1, 11), _squares),
    st.builds(lambda t, c: {"type": "shot", "team": t, "card": c}, st.sampled_from(["red", "blue"]),
              st.sampled_from(["S01", "S05", "R01"])),
)


@settings(**SETTINGS)
@given(st.lists(_action, max_size=60), st.sampled_from([None, "red"]))
def test_any_well_formed_actions_never_crash_the_engine(actions, first):
    game = FodboldGame(act({"type": "setup", "first": first}), BOARD, DECKS)
    for obj in actions:
        before = dict(game.pos.score)
        events = game.apply(act(obj))
        assert all(e.type for e in events)
        goals = Counter(e.data["team"] for e in events if e.type == "goal")
        assert {t: game.pos.score[t] - before[t] for t in before} == {t: goals.get(t, 0) for t in before}
        check_position(game)
