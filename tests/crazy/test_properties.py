"""Property tests over many random legal games (seeded, so every failure replays)."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.crazy.actions import ACTION_ADAPTER
from referee.games.crazy.rules import replay
from referee.games.crazy.simulate import random_game


def play_random(seed, players, deck):
    log = random_game(random.Random(seed), [f"P{i}" for i in range(players)], deck=deck)
    game, events = replay([ACTION_ADAPTER.validate_python(a) for a in log])
    return game, events


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(4, 12), deck=st.sampled_from(["rook", "standard"]))
def test_random_legal_games(seed, players, deck):
    game, events = play_random(seed, players, deck)
    assert game.violations == [], "legal play must never be flagged"
    assert game.over and len(game.rounds) == 5
    for r in game.rounds:
        # every card in play is played exactly once, unless the black 13 ended the round early
        if not r.ended_by_black13:
            assert r.played == game.in_play
        else:
            assert r.type == "black13" and r.played[game.black13] == game.in_play[game.black13]
        # the round hands out exactly what its type makes available
        assert sum(r.points.values()) == game.points_available(r.type)
        for t in r.tricks:
            assert len(t.cards) == players
            led = t.cards[0][1].colour
            ranks = [game.rank(c) for _, c in t.cards if c.colour == led]
            winner_index = [p for p, _ in t.cards].index(t.winner)
            winner_card = t.cards[winner_index][1]
            assert winner_card.colour == led and game.rank(winner_card) == max(ranks)
            # of equal highest cards, the first played wins
            assert all(not (c.colour == led and game.rank(c) == max(ranks)) for _, c in t.cards[:winner_index])
        # the winner of a trick leads the next one
        for a, b in zip(r.tricks, r.tricks[1:]):
            assert b.leader == a.winner
    totals = {p: sum(r.points[p] for r in game.rounds) for p in game.players}
    if game.moon is None:
        assert game.totals() == totals
        assert set(game.winners()) == {p for p, v in totals.items() if v == min(totals.values())}
    else:
        assert game.totals()[game.moon] == 0 and game.winners() == [game.moon]
    assert [e.type for e in events].count("trick_won") == sum(len(r.tricks) for r in game.rounds)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(4, 8))
def test_same_seed_same_game(seed, players):
    a = random_game(random.Random(seed), [f"P{i}" for i in range(players)])
    b = random_game(random.Random(seed), [f"P{i}" for i in range(players)])
    assert a == b


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(4, 7))
def test_injected_revokes_are_all_caught_when_hands_are_known(seed, players):
    log = random_game(random.Random(seed), [f"P{i}" for i in range(players)], fouls=0.2)
    game, _ = replay([ACTION_ADAPTER.validate_python(a) for a in log])
    # the generator only fouls by revoking, so every violation is a revoke and the game still ends
    assert {v.type for v in game.violations} <= {"revoke"}
    assert game.over
