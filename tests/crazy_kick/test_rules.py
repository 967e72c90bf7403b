"""One test (or more) per numbered paragraph of the Crazy Kick rulebook, and the box for 3, 5 and 7
players, on the mini catalogue of helpers.py (every expected result follows from its six players)."""
import random

import pytest
from pydantic import ValidationError

from referee.games.crazy_kick.rules import CrazyKickGame, deal_hands, layout_counts

from .helpers import (MINI, TEAMS4, act, ball_out, deal, kinds, mini_game, play, plays, run, setup, table,
                      vtypes)


def teams_of(red, white):
    return {"red": [f"r{i}" for i in range(red)], "white": [f"w{i}" for i in range(white)]}


# ---- 1: picking teams ---------------------------------------------------------------------------

@pytest.mark.parametrize("red,white", [(1, 1), (2, 2), (3, 3), (4, 4), (1, 2), (2, 1), (3, 2), (3, 4)])
def test_1_teams_even_or_one_apart_for_2_to_8_players(red, white):
    s = setup(teams_of(red, white))
    assert len(s.players) == red + white


@pytest.mark.parametrize("red,white,why", [
    (1, 3, "equal"), (2, 4, "equal"), (1, 4, "one player apart"), (0, 2, "equal"),
    (5, 4, "2 to 8 players"), (1, 0, "2 to 8 players"),
])
def test_1_other_splits_are_refused(red, white, why):
    with pytest.raises(ValidationError, match=why):
        setup(teams_of(red, white))


def test_1_names_are_distinct_across_teams():
    with pytest.raises(ValidationError, match="distinct"):
        setup({"red": ["Ann"], "white": ["Ann"]})


# ---- 2 and 3: each team gets its colour, shuffled and shared out evenly ------------------------

@pytest.mark.parametrize("red,white", [(1, 1), (2, 1), (2, 2), (3, 2), (4, 3), (4, 4)])
def test_2_3_deal_gives_each_team_its_own_cards_split_evenly(red, white):
    teams = teams_of(red, white)
    game = CrazyKickGame(setup(teams))
    hands = deal_hands(game.catalog, teams, random.Random(7))
    for team, players in teams.items():
        dealt = [cid for p in players for cid in hands[p]]
        assert sorted(dealt) == sorted(c.id for c in game.catalog.team_cards(team))  # all 60, once each
        assert {len(hands[p]) for p in players} == {60 // len(players)}
    if red == 1:
        assert len(hands["r0"]) == 60  # a team of one takes them all


def test_3_hands_are_shuffled_by_the_generator_passed_in():
    cat = CrazyKickGame(setup()).catalog
    a, b, c = (deal_hands(cat, TEAMS4, random.Random(s)) for s in (1, 1, 2))
    assert a == b and a != c
    assert a["Ann"] != sorted(a["Ann"])


def test_2_3_a_logged_deal_must_give_the_right_colour_and_split_evenly():
    game = mini_game()
    run(game, deal({"Ann": ["R1", "R2", "W1"], "Bob": ["R3", "R5", "RG", "RH"], "Cyd": ["W2", "W3"], "Dee": ["WG", "WH"]}))
    assert vtypes(game) == ["bad_deal"] and "white card, Ann plays for red" in game.violations[0].detail
    run(game, deal({"Ann": ["R1"], "Bob": ["R2", "R3", "R5", "RG", "RH"], "Cyd": ["W1", "W2", "W3"], "Dee": ["WG", "WH"]}))
    assert vtypes(game)[-1] == "bad_deal" and "not an even split" in game.violations[-1].detail
    run(game, deal({"Ann": ["R1", "R2", "R3"], "Bob": ["R5", "RG", "RH"], "Cyd": ["W1", "W2", "W3"], "Dee": ["WG"]}))
    assert vtypes(game)[-1] == "bad_deal" and "not dealt" in game.violations[-1].detail
    assert game.owner == {}  # every bad deal is ignored


# ---- 4: each player holds his own stack: a dealt card is his -----------------------------------

def test_4_a_card_laid_by_someone_it_was_not_dealt_to_is_flagged():
    game = mini_game()
    run(game, deal({"Ann": ["R1", "R2", "R3"], "Bob": ["R5", "RG", "RH"], "Cyd": ["W1", "W2", "W3"], "Dee": ["WG", "WH"]}))
    run(game, play("R1@1 Bob"))
    assert vtypes(game) == ["not_his_card"] and "dealt to Ann, not Bob" in game.violations[0].detail
    run(game, play("R1@2 Ann"), play("W3@3 Ann"))
    assert vtypes(game)[-1] == "wrong_team" and game.top.id == "R1"


# ---- 5 and the box: how many cards each player lays out ----------------------------------------

@pytest.mark.parametrize("red,white,expected", [
    (1, 1, {"red": 3, "white": 3}), (2, 2, {"red": 3, "white": 3}), (3, 3, {"red": 3, "white": 3}),
    (4, 4, {"red": 3, "white": 3}),
    (1, 2, {"red": 4, "white": 2}),   # 3 players: alone 4, the pair 2 each
    (2, 1, {"red": 2, "white": 4}),
    (3, 2, {"red": 2, "white": 3}),   # 5 players: the team of 3 lays 2 each, the team of 2 lays 3 each
    (4, 3, {"red": 2, "white": 3}),   # 7 players: the team of 4 lays 2 each, the team of 3 lays 3 each
    (3, 4, {"red": 3, "white": 2}),
])
def test_5_box_cards_laid_out_per_player(red, white, expected):
    teams = teams_of(red, white)
    counts = layout_counts(teams)
    assert {t: {counts[p] for p in teams[t]} for t in teams} == {t: {k} for t, k in expected.items()}


def test_5_the_layout_before_the_keeper_is_checked():
    game = mini_game(teams_of(1, 2))  # 3 players: r0 lays 4, w0 and w1 lay 2 each
    run(game, table(0, r0=["R1", "R2", "R3", "R5"], w0=["W1", "W2"], w1=["W3"]))
    assert vtypes(game) == ["layout"]
    assert game.violations[0].player == "w1"
    assert "each player of the team of 2 lays out 2" in game.violations[0].detail


def test_5_during_an_attack_piles_may_run_out_but_never_grow_in_number():
    game = mini_game()
    run(game, play("R1@1"), table(2, Ann=["R2"], Bob=["R3", "R5", "RG"]))
    assert vtypes(game) == []
    run(game, table(3, Ann=["R2", None, None, "RG"]))
    assert vtypes(game) == ["layout"] and "Ann has 4 piles" in game.violations[0].detail


def test_5_only_a_pile_top_may_go_to_the_middle_when_the_log_tracks_the_piles():
    game = mini_game(track_piles=True)
    run(game, table(0, Ann=["R1", "R3", "W1"], Bob=["R2", "R5", "RG"]))
    assert vtypes(game) == ["wrong_team"]  # a white card on a red player's pile
    run(game, play("W2@2 Ann"))
    assert vtypes(game)[-1] == "wrong_team" and "can't lay W2 (white Paul)" in game.violations[-1].detail
    run(game, play("R1@3 Bob"))  # R1 lies on Ann's piles, not Bob's
    assert vtypes(game)[-1] == "not_on_top" and "R2, R5, RG" in game.violations[-1].detail
    run(game, play("R1@4 Ann"))
    assert game.top.id == "R1" and game.tops["Ann"] == [None, "R3", "W1"]  # under R1: not seen yet


def test_5_without_pile_tracking_a_stale_view_of_the_piles_proves_nothing():
    game = mini_game()
    run(game, table(0, Bob=["R2", "R5", "RG"]), play("W1@1 Cyd"), play("R1@3 Bob"))
    assert "not_on_top" not in vtypes(game)


def test_5_the_engine_says_whether_a_legal_card_shows():
    game = mini_game()
    run(game, table(0, Ann=["R2", "R3", "R5"], Bob=["RG", "RH", "R1"]))
    assert game.any_legal_visible()  # R1 is a keeper
    run(game, play("R1@1 Bob"))
    assert game.legal_cards(["R2", "R3", "W2", None]) == ["R2"]  # Mario takes the pass; Paul can't tackle
    assert game.legal_cards(["R3", "W3"]) == ["W3"]  # Luca tackles Alex
    assert game.any_legal_visible(["R3", "W1"]) is False
    assert game.any_legal_visible()  # Ann's R2 shows


# ---- 6: a goalkeeper starts every attack --------------------------------------------------------

def test_6_the_first_card_must_be_a_goalkeeper():
    game = mini_game()
    ev = run(game, play("R2@0.5 Ann"))
    assert kinds(ev) == ["violation"] and game.top is None
    assert game.violations[0].type == "no_keeper"
    assert game.violations[0].detail == ("Mario can't start the attack: no ball in play; the first card must be a "
                                         "goalkeeper (Alex or Stefan)")
    ev = run(game, play("R1@1 Ann"))
    assert kinds(ev) == ["kickoff"] and ev[0].data["team"] == "red" and ev[0].data["keeper"] == "Alex"


def test_6_either_teams_goalkeeper_may_start():
    game = mini_game()
    ev = run(game, play("W1@1 Cyd"))
    assert kinds(ev) == ["kickoff"] and ev[0].data["team"] == "white" and game.ball == ("white", "Stefan")


# ---- 7: one pile; the top card says who may take the ball --------------------------------------

def test_7_a_team_mate_in_a_corner_takes_a_pass():
    game = mini_game()
    ev = run(game, play("R1@1 Ann"), play("R2@2 Bob"))
    assert kinds(ev) == ["kickoff", "pass"]
    assert {k: ev[1].data[k] for k in ("team", "from", "to", "card", "player")} == \
        {"team": "red", "from": "Alex", "to": "Mario", "card": "R2", "player": "Bob"}
    assert [c.id for c in game.pile] == ["R1", "R2"]


def test_7_an_opponent_in_a_corner_tackles_and_the_ball_changes_team():
    game = mini_game()
    ev = run(game, play("R1@1"), play("W3@2 Dee"))
    assert kinds(ev) == ["kickoff", "tackle"]
    assert (ev[1].data["by"], ev[1].data["from"], ev[1].data["team"]) == ("Luca", "Alex", "white")
    assert game.ball == ("white", "Luca")


@pytest.mark.parametrize("cards,reason", [
    (["R1", "R5", "R3"], "Leon can't take a pass from Mario: not on Mario's card"),
    (["R1", "W2"], "Paul can't tackle Alex: not on Alex's card"),
    (["W1", "R1"], "Alex can't tackle Stefan: not on Stefan's card"),
])
def test_7_a_card_not_on_the_top_card_is_a_violation_and_is_taken_back(cards, reason):
    game = mini_game()
    run(game, *plays(*[f"{c}@{i}" for i, c in enumerate(cards)]))
    assert vtypes(game) == ["not_on_card"] and game.violations[0].detail == reason
    assert [c.id for c in game.pile] == cards[:-1]
    assert game.violations[0].t == len(cards) - 1


def test_7_a_card_already_on_the_pile_cannot_be_laid_again():
    game = mini_game()
    run(game, *plays("R1@1", "R2@2", "W2@3", "W3@4", "R1@5"))  # R1 would be legal (Alex tackles Luca)
    assert vtypes(game) == ["card_in_play"] and "already on the centre pile" in game.violations[0].detail


def test_7_unknown_cards_and_players_are_violations_not_crashes():
    game = mini_game()
    run(game, play("X9@1"), play("R1@2 Zed"))
    assert vtypes(game) == ["unknown_card", "unknown_player"] and game.top is None


# ---- 8 and 9: follow the ball; call the names ---------------------------------------------------

def test_8_every_card_says_who_has_the_ball_now():
    game = mini_game()
    ev = run(game, *plays("R1@1", "R2@2", "W2@3"))
    assert [e.data["ball"] for e in ev] == ["Alex", "Mario", "Paul"]
    assert game.scoresheet()["ball"] == "Paul"


def test_9_the_names_to_call_are_the_top_cards_corners():
    game = mini_game()
    assert game.look_for() == ["Alex", "Stefan"]  # before kick-off: the keepers
    ev = run(game, play("R1@1"), play("R2@2"))
    assert ev[0].data["look_for"] == ["Mario", "Luca"]
    assert ev[1].data["look_for"] == ["Leon", "Paul"]


# ---- 10: goal -----------------------------------------------------------------------------------

def test_10_a_goal_card_after_a_pass_to_the_scorer_scores():
    game = mini_game()
    ev = run(game, *plays("R1@1 Ann", "R2@2 Bob", "RG@3.5 Ann"))
    assert kinds(ev) == ["kickoff", "pass", "goal"]
    g = ev[2].data
    assert (g["team"], g["scorer"], g["assist"], g["score"], g["player"]) == ("red", "Leon", "Mario",
                                                                              {"red": 1, "white": 0}, "Ann")
    assert ev[2].t == 3.5 and game.goals[0]["t"] == 3.5


@pytest.mark.parametrize("cards,reason", [
    (["R1", "RG"], "Leon can't score after Alex: no pass to Leon on Alex's card"),
    (["R1", "R2", "WG"], "Luca can't score: Mario of red has the ball"),
    (["WG"], "Luca can't score: no ball in play; the first card must be a goalkeeper (Alex or Stefan)"),
])
def test_10_a_goal_card_without_the_pass_is_a_violation(cards, reason):
    game = mini_game()
    run(game, *plays(*[f"{c}@{i}" for i, c in enumerate(cards)]))
    assert game.violations[-1].detail == reason and game.score == {"red": 0, "white": 0}


def test_10_house_rule_goal_after_any_card_of_the_team():
    game = mini_game(goal_after="any")
    run(game, *plays("R1@1", "RG@2"))
    assert game.violations == [] and game.score == {"red": 1, "white": 0}
    run(game, *plays("R1@3", "WG@4"))
    assert vtypes(game) == ["not_on_card"]  # still not on the other team's card


# ---- 11 and 12: the goal card is set aside; the pile goes back; a keeper starts again ----------

def test_11_the_goal_card_stays_aside_and_cannot_come_back():
    game = mini_game()
    run(game, *plays("R1@1", "R2@2", "RG@3"))
    assert [c.id for c in game.aside["red"]] == ["RG"] and game.score == {"red": 1, "white": 0}
    run(game, *plays("R1@4", "R2@5", "RG@6"))
    assert vtypes(game) == ["card_in_play"] and "set aside as a goal" in game.violations[0].detail
    run(game, play("RH@7"))
    assert game.score == {"red": 2, "white": 0}


def test_12_after_a_goal_the_pile_is_empty_and_a_keeper_starts_the_next_attack():
    game = mini_game()
    ev = run(game, *plays("R1@1", "R2@2", "RG@3"))
    assert ev[-1].data["returned"] == 2 and game.pile == [] and game.top is None
    run(game, play("R2@4"))
    assert vtypes(game) == ["no_keeper"]
    ev = run(game, play("W1@5"), play("W2@6"), play("WG@7"))  # the cards of the last attack are back in play
    assert kinds(ev) == ["kickoff", "pass", "goal"] and game.attacks == 2
    assert game.score == {"red": 1, "white": 1}


# ---- 13: the final whistle ----------------------------------------------------------------------

def test_13_first_to_the_goal_count_wins_and_the_game_ends():
    game = mini_game(goals_to_win=2)
    run(game, *plays("R1@1", "R2@2", "RG@3", "W1@4", "W2@5", "WG@6"))
    assert not game.over
    ev = run(game, *plays("R1@7", "R2@8", "RH@9"))
    assert kinds(ev)[-2:] == ["goal", "game_over"]
    assert game.over and game.winner == "red" and ev[-1].data["score"] == {"red": 2, "white": 1}
    run(game, play("W1@10"))
    assert vtypes(game) == ["game_over"] and game.top is None


def test_13_the_default_is_five_goals():
    assert mini_game().options.goals_to_win == 5


# ---- If the ball goes out -----------------------------------------------------------------------

STUCK = ("W1@1", "W2@2", "W3@3", "R1@4", "R5@5")  # Mario -> Alex (R1 on the pile), Luca tackles (W3 on it)


def test_ball_out_when_every_card_that_fits_is_on_the_pile():
    game = mini_game()
    run(game, *plays(*STUCK))
    assert game.legal_cards() == []
    ev = run(game, ball_out(9.0))
    assert game.violations == [] and kinds(ev) == ["ball_out"]
    assert ev[0].data["returned"] == 4 and [c.id for c in game.pile] == ["R5"]  # the top card stays
    ev = run(game, play("R1@10"))  # Alex is back with his team and takes Mario's pass
    assert kinds(ev) == ["pass"] and game.scoresheet()["ball_outs"][0]["t"] == 9.0


def test_ball_out_too_early_is_flagged_but_the_table_is_followed():
    game = mini_game()
    run(game, *plays("R1@1", "R2@2"), ball_out(3))
    assert vtypes(game) == ["bad_ball_out"]
    assert "Leon (R3)" in game.violations[0].detail and "Paul (W2)" in game.violations[0].detail
    assert [c.id for c in game.pile] == ["R2"]


def test_ball_out_with_a_legal_card_showing_names_it():
    game = mini_game(ball_out="agreed")
    run(game, *plays("R1@1", "R2@2"), ball_out(3, visible=["R5", "W2"]), ball_out(4, visible=["R5", "W1"]))
    assert vtypes(game) == ["bad_ball_out"]  # the second call: nothing showing, agreed: fine
    assert game.violations[0].detail == "the ball was not out: Paul (W2) showed and could take the ball from Mario"


def test_ball_out_agreed_house_rule_accepts_any_agreed_ball_out():
    game = mini_game(ball_out="agreed")
    run(game, *plays("R1@1", "R2@2"), ball_out(3))
    assert game.violations == [] and len(game.ball_outs) == 1


def test_ball_out_with_no_ball_in_play_is_flagged():
    game = mini_game()
    run(game, ball_out(1))
    assert vtypes(game) == ["bad_ball_out"]


# ---- The action log edge: schema errors are not violations -------------------------------------

@pytest.mark.parametrize("obj", [
    {"type": "play", "card": "R1"},                       # no time
    {"type": "play", "t": -1, "card": "R1"},              # negative time
    {"type": "play", "t": 1, "card": "R1", "crad": 1},   # typo
    {"type": "shoot", "t": 1},
])
def test_malformed_actions_fail_validation(obj):
    with pytest.raises(ValidationError):
        act(obj)


def test_a_second_setup_is_a_violation():
    game = mini_game()
    run(game, setup())
    assert vtypes(game) == ["bad_action"]


def test_the_engine_never_raises_on_any_card_id_in_any_state():
    game = mini_game()
    ids = [c.id for c in MINI] + ["??"]
    for i in range(200):
        run(game, play(f"{ids[(i * 7) % len(ids)]}@{i}"))
    sheet = game.scoresheet()
    assert sheet["cards_played"] + len(sheet["violations"]) == 200 or game.over


def test_the_rules_engine_is_pure_python():
    import subprocess
    import sys

    code = ("import sys, random; import referee.games.crazy_kick as k; from referee.games.crazy_kick import simulate; "
            "simulate.random_game(random.Random(1), n_players=2, options={'goals_to_win': 1}); "
            "print(sorted(m for m in ('cv2', 'numpy', 'torch', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
