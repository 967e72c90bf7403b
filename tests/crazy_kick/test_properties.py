"""Property tests over random games from the seeded generator (every failure replays from its seed),
checked against a second, deliberately naive referee written here from the rulebook alone."""
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.crazy_kick import load_log, replay
from referee.games.crazy_kick.actions import ACTION_ADAPTER
from referee.games.crazy_kick.catalogue import default_catalog
from referee.games.crazy_kick.rules import layout_counts
from referee.games.crazy_kick.simulate import random_game

CAT = default_catalog()
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def naive_referee(log, outs=None):
    """Accept or reject each play by the rulebook, with none of the engine's code: a list of
    (card, accepted) and the final score. ``outs`` collects, per ball out, (cards returned, whether
    a card that fits was showing)."""
    top, pile, aside, score, decisions = None, [], set(), Counter(), []

    def fits(c):
        if c.id in aside or any(p.id == c.id for p in pile):
            return False
        if top is None:
            return c.kind == "player" and c.player == 1
        if c.kind == "goal":
            return c.team == top.team and c.player in top.passes
        return c.player in (top.passes if c.team == top.team else top.tackles)

    for a in log[1:]:
        if a["type"] == "ball_out":
            if outs is not None:
                outs.append((len(pile) - 1, any(fits(CAT[v]) for v in a.get("visible") or [])))
            pile = [top] if top else []
            continue
        if a["type"] != "play":
            continue
        c = CAT[a["card"]]
        over = score and max(score.values()) >= log[0]["options"].get("goals_to_win", 5)
        ok = not over and fits(c)
        decisions.append((c.id, ok))
        if ok and c.kind == "goal":
            score[c.team] += 1
            aside.add(c.id)
            top, pile = None, []
        elif ok:
            top = c
            pile.append(c)
    return decisions, score


def game_of(seed, n, goals, fouls=0.0, tables="layout", stuck_after=None):
    log = random_game(random.Random(seed), n_players=n, options={"goals_to_win": goals}, fouls=fouls,
                      tables=tables, stuck_after=stuck_after)
    game, events = replay([ACTION_ADAPTER.validate_python(a) for a in log])
    return log, game, events


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), goals=st.integers(1, 3))
def test_random_legal_games_are_never_flagged_and_end_with_a_winner(seed, n, goals):
    log, game, events = game_of(seed, n, goals)
    assert game.violations == [], "legal play must never be flagged"
    assert game.over and game.score[game.winner] == goals and min(game.score.values()) < goals
    assert [e.data["score"] for e in events if e.type == "goal"][-1] == game.score
    decisions, score = naive_referee(log)
    assert all(ok for _, ok in decisions) and dict(score) == {t: k for t, k in game.score.items() if k}
    times = [a["t"] for a in log if "t" in a]
    assert times == sorted(times)


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8))
def test_every_attack_starts_with_a_keeper_and_every_goal_follows_a_pass_to_the_scorer(seed, n):
    log, game, events = game_of(seed, n, 2)
    plays = [e for e in events if e.type in ("kickoff", "pass", "tackle", "goal")]
    for prev, e in zip([None] + plays, plays):
        if prev is None or prev.type == "goal":
            assert e.type == "kickoff" and CAT[e.data["card"]].is_keeper
        if e.type == "goal":
            assert prev.type in ("kickoff", "pass", "tackle") and prev.data["team"] == e.data["team"]
            assert e.data["scorer"] in prev.data["look_for"] and e.data["assist"] == prev.data["ball"]
        if e.type in ("pass", "tackle"):
            assert (e.data["team"] == prev.data["team"]) == (e.type == "pass")
            assert e.data["ball"] in prev.data["look_for"]


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), fouls=st.floats(0.05, 0.5))
def test_fouls_are_caught_exactly_as_the_naive_referee_sees_them(seed, n, fouls):
    log, game, events = game_of(seed, n, 2, fouls=fouls)
    decisions, score = naive_referee(log)
    rejected = [cid for cid, ok in decisions if not ok]
    assert len(game.violations) == len(rejected)
    assert {v.type for v in game.violations} <= {"not_on_card", "no_keeper"}
    assert all(v.detail.split(" can't ")[0] == CAT[cid].name for v, cid in zip(game.violations, rejected))
    assert dict(score) == {t: k for t, k in game.score.items() if k}


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), stuck_after=st.integers(1, 4))
def test_agreed_ball_outs_return_the_pile_but_the_top_card(seed, n, stuck_after):
    log, game, events = game_of(seed, n, 2, stuck_after=stuck_after)
    assert game.violations == [] and game.over
    outs = []
    decisions, score = naive_referee(log, outs)  # the naive referee empties the pile but the top on a ball out
    assert [r for r, _ in outs] == [e.data["returned"] for e in events if e.type == "ball_out"]
    assert not any(showing for _, showing in outs)  # called only when nothing that fits was showing
    assert all(ok for _, ok in decisions) and dict(score) == {t: k for t, k in game.score.items() if k}


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8))
def test_with_every_table_change_logged_the_layout_and_pile_tops_check_out(seed, n):
    log, game, events = game_of(seed, n, 1, tables="all")
    assert game.options.track_piles and game.violations == []
    first = next(a for a in log if a["type"] == "table")
    counts = layout_counts(log[0]["teams"])
    assert {p: len(tops) for p, tops in first["piles"].items()} == counts  # rule 5 and the box


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_generator_is_deterministic_and_logs_replay_from_a_file(seed, tmp_path_factory):
    a = random_game(random.Random(seed), n_players=5, options={"goals_to_win": 1})
    b = random_game(random.Random(seed), n_players=5, options={"goals_to_win": 1})
    assert a == b
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in a))
    direct, _ = replay([ACTION_ADAPTER.validate_python(x) for x in a])
    from_file, _ = replay(load_log(path))
    assert direct.scoresheet() == from_file.scoresheet()


def test_cards_are_conserved_across_goals_and_ball_outs():
    # A catalogue-level invariant: every card is in exactly one place at every step.
    for seed in range(5):
        log = random_game(random.Random(seed), n_players=4, options={"goals_to_win": 3})
        game, _ = replay([ACTION_ADAPTER.validate_python(log[0])])
        for a in log[1:]:
            game.apply(ACTION_ADAPTER.validate_python(a))
            places = [c.id for c in game.pile] + [c.id for t in game.aside.values() for c in t]
            assert len(places) == len(set(places))
        assert sum(game.score.values()) == len([a for a in log if a.get("card") and CAT[a["card"]].is_goal])
