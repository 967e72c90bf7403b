"""One test (or more) per paragraph of the seed text, on short scripted deals."""
import pytest

from referee.games.crazy.cards import parse_card
from referee.games.crazy.rules import CrazyGame, legal_follow, trick_winner

from .helpers import SHORT_HANDS, choose, deal, play, plays, run, setup, short_game, violation_types

ROUND1 = ["B R11", "C R12", "D R13", "A R14", "A Y11", "B Y14", "C Y12", "D Y13",
          "B G13", "C G14", "D G11", "A G12", "C B12", "D B14", "A B11", "B B13"]


def cards(*codes, deck="rook"):
    return [parse_card(c, deck) for c in codes]


# ---- How to play: forced colour, the highest of the led colour wins, the winner leads --------------

def test_forced_colour_allows_only_the_led_colour_when_held():
    hand = cards("G3", "G9", "R14", "B13")
    assert set(legal_follow(hand, "G")) == set(cards("G3", "G9"))
    assert set(legal_follow(hand, "Y")) == set(hand)  # out of the colour: anything, e.g. sluff the black 13
    assert set(legal_follow(hand, None)) == set(hand)  # the leader plays what they want


def test_highest_of_the_led_colour_wins_and_there_are_no_trumps():
    rank = lambda c: c.number
    assert trick_winner(cards("G7", "R14", "G9", "B13"), rank) == 2
    assert trick_winner(cards("G7", "G1", "Y14", "R14"), rank) == 0


def test_two_identical_highest_cards_the_first_played_wins():
    assert trick_winner(cards("G7", "G12", "G12", "G3"), lambda c: c.number) == 1


def test_one_high_setting_makes_the_rook_1_beat_the_14():
    game = CrazyGame(setup(one_high=True))
    assert trick_winner(cards("G14", "G1", "G13", "G2"), game.rank) == 1


def test_the_trick_winner_leads_the_next_trick():
    game = short_game()
    run(game, choose("B", "every_hand"), *plays("B R11", "C R12", "D R13", "A R14"))
    assert game.to_play == "A"
    run(game, play("B", "Y14"))
    assert violation_types(game) == ["out_of_turn"]
    assert game.to_play == "A"


# ---- Dealer and chooser ------------------------------------------------------------------------

def test_player_left_of_the_dealer_chooses_and_leads_then_the_chooser_deals_next():
    game = short_game()
    assert (game.dealer, game.chooser) == ("A", "B")
    run(game, choose("B", "red"))
    assert game.to_play == "B"
    run(game, *plays(*ROUND1))
    assert (game.dealer, game.chooser) == ("B", "C")
    sheet = game.scoresheet()
    assert sheet["rounds"][0]["dealer"] == "A" and sheet["rounds"][0]["chooser"] == "B"


def test_a_round_cannot_be_chosen_twice():
    game = short_game()
    run(game, choose("B", "red"), *plays(*ROUND1), choose("C", "red"))
    assert violation_types(game) == ["bad_round_choice"]
    assert len(game.rounds) == 1
    run(game, choose("C", "first_last"))
    assert game.round.type == "first_last" and len(game.rounds) == 2


def test_crazy_can_only_be_the_fifth_round():
    game = short_game()
    run(game, choose("B", "crazy"))
    assert violation_types(game) == ["bad_round_choice"]
    assert game.rounds == []


def test_a_choice_by_the_wrong_player_is_flagged_but_the_table_plays_it():
    game = short_game()
    run(game, choose("D", "red"))
    assert violation_types(game) == ["out_of_turn"]
    assert game.round.type == "red" and game.to_play == "B"


def test_choosing_while_a_round_is_played_is_flagged_and_ignored():
    game = short_game()
    run(game, choose("B", "red"), play("B", "R11"), choose("B", "first_last"))
    assert violation_types(game) == ["bad_round_choice"]
    assert game.round.type == "red"


# ---- Scoring, one test per round type ----------------------------------------------------------

def points_after(round_type, chooser="B", **options):
    game = short_game(**options)
    run(game, choose(chooser, round_type), *plays(*ROUND1))
    return game.rounds[0].points


def test_red_round_5_points_per_red_card_won():
    assert points_after("red") == {"A": 20, "B": 0, "C": 0, "D": 0}


def test_every_hand_round_10_points_per_trick():
    assert points_after("every_hand") == {"A": 10, "B": 10, "C": 10, "D": 10}


def test_first_and_last_round_50_for_the_first_and_the_last_trick():
    assert points_after("first_last") == {"A": 50, "B": 0, "C": 0, "D": 50}


def test_black13_round_100_and_the_round_ends_after_that_trick():
    game = short_game()
    run(game, choose("B", "black13"), *plays("B B13", "C B12", "D B14", "A B11"))
    assert game.rounds[0].points == {"A": 0, "B": 0, "C": 0, "D": 100}
    assert game.rounds[0].over and game.rounds[0].ended_by_black13
    run(game, play("D", "R13"))  # playing on after the round ended
    assert violation_types(game) == ["no_round"]
    assert game.chooser == "C"


def test_black13_round_without_a_black13_in_play_is_played_to_the_end():
    game = short_game(black13="B1")  # B1 is taken out in the short game
    run(game, choose("B", "black13"), *plays(*ROUND1))
    assert game.rounds[0].over and not game.rounds[0].ended_by_black13
    assert sum(game.rounds[0].points.values()) == 0


def test_standard_deck_black13_is_the_king_of_spades_or_a_setting():
    assert CrazyGame(setup(deck="standard")).black13 == parse_card("KS", "standard")
    assert CrazyGame(setup(deck="standard", black13="KC")).black13 == parse_card("KC", "standard")


def test_crazy_round_combines_every_round_and_is_played_to_the_last_trick():
    game = play_whole_short_game()
    crazy = game.rounds[4]
    assert crazy.type == "crazy" and len(crazy.tricks) == 4
    # A: first trick 50 + 10 + four reds 20; D: 10 + black 13 100; B: 10; C: last trick 50 + 10.
    assert crazy.points == {"A": 80, "B": 10, "C": 60, "D": 110}


def play_whole_short_game(**options):
    game = short_game(**options)
    run(game,
        deal(SHORT_HANDS), choose("B", "red"), *plays(*ROUND1),
        deal(SHORT_HANDS), choose("C", "black13"), *plays("C B12", "D B14", "A B11", "B B13"),
        deal(SHORT_HANDS), choose("D", "first_last"),
        *plays("D R13", "A R14", "B R11", "C R12", "A Y11", "B Y14", "C Y12", "D Y13",
               "B G13", "C G14", "D G11", "A G12", "C B12", "D B14", "A B11", "B B13"),
        deal(SHORT_HANDS), choose("A", "every_hand"),
        *plays("A G12", "B G13", "C G14", "D G11", "C R12", "D R13", "A R14", "B R11",
               "A Y11", "B Y14", "C Y12", "D Y13", "B B13", "C B12", "D B14", "A B11"),
        deal(SHORT_HANDS), choose("B", "crazy"),
        *plays("B R11", "C R12", "D R13", "A R14", "A B11", "B B13", "C B12", "D B14",
               "D Y13", "A Y11", "B Y14", "C Y12", "B G13", "C G14", "D G11", "A G12"))
    return game


def test_scripted_whole_game_totals_and_winner():
    game = play_whole_short_game()
    assert game.violations == []
    assert [r.type for r in game.rounds] == ["red", "black13", "first_last", "every_hand", "crazy"]
    assert [r.dealer for r in game.rounds] == ["A", "B", "C", "D", "A"]
    assert game.totals() == {"A": 160, "B": 20, "C": 70, "D": 270}
    assert game.over and game.winners() == ["B"] and game.moon is None
    run(game, play("B", "R11"))
    assert violation_types(game) == ["game_over"]


def test_lowest_totals_share_the_win():
    game = play_whole_short_game()
    game.rounds[0].points["B"] += 50  # B 20 -> 70, level with C
    assert game.winners() == ["B", "C"]


# ---- Shooting the moon -------------------------------------------------------------------------

def test_default_moon_threshold_is_available_points_minus_75():
    # The seed's example: 7 players, Rook deck, 8 tricks: 70 + 100 + 80 + 100 = 350, minus 75.
    game = CrazyGame(setup([f"P{i}" for i in range(7)]))
    assert game.points_available("crazy") == 350
    assert game.moon_threshold() == 275
    assert short_game().moon_threshold() == 260 - 75


def test_reaching_the_threshold_in_the_crazy_round_shoots_the_moon():
    game = play_whole_short_game(moon_threshold=110)
    assert game.moon == "D"
    assert game.totals()["D"] == 0 and game.winners() == ["D"]


def test_moon_margin_setting_and_exact_threshold():
    game = play_whole_short_game(moon_margin=150)  # 260 - 150 = 110, D has exactly 110
    assert game.moon == "D"


def test_below_the_threshold_no_moon():
    game = play_whole_short_game(moon_threshold=111)
    assert game.moon is None and game.winners() == ["B"]


def test_points_won_before_the_crazy_round_do_not_count_for_the_moon():
    # D has 270 in total but only 110 in the crazy round.
    game = play_whole_short_game(moon_threshold=200)
    assert game.moon is None


# ---- Revokes -----------------------------------------------------------------------------------

def test_revoke_flagged_at_once_when_hands_are_known():
    game = short_game()
    hands = {"A": ["R14", "Y11", "G12", "B11"], "B": ["R11", "Y14", "G13", "B13"],
             "C": ["R12", "Y12", "G14", "B12"], "D": ["R13", "Y13", "G11", "B14"]}
    run(game, deal(hands), choose("B", "red"), play("B", "R11"), play("C", "Y12"))  # C holds R12
    assert violation_types(game) == ["revoke"]
    v = game.violations[0]
    assert (v.player, v.round, v.trick) == ("C", 1, 1)
    assert game.to_play == "D"  # the game goes on


def test_no_revoke_when_the_player_is_out_of_the_colour():
    game = short_game()
    hands = {"A": ["R14", "Y11", "G12", "B11"], "B": ["R11", "R12", "G13", "B13"],
             "C": ["Y14", "Y12", "G14", "B12"], "D": ["R13", "Y13", "G11", "B14"]}
    run(game, deal(hands), choose("B", "red"), play("B", "R11"), play("C", "Y12"))
    assert game.violations == []


def test_revoke_proven_later_when_hands_are_unknown():
    game = short_game()
    run(game, choose("B", "red"), *plays("B R11", "C Y12", "D R13", "A R14"))  # C shows out of red
    assert game.violations == []
    run(game, *plays("A Y11", "B Y14", "C R12"))  # ... and plays red later: the revoke is proven
    assert violation_types(game) == ["revoke"]
    v = game.violations[0]
    assert (v.player, v.trick) == ("C", 1) and "trick 2" in v.detail


def test_dealt_hands_checked_against_plays():
    game = short_game()
    run(game, deal(SHORT_HANDS), choose("B", "red"), play("B", "R12"))
    assert violation_types(game) == ["card_not_in_hand"]
    assert game.to_play == "B"


@pytest.mark.parametrize("hands,why", [
    ({"A": ["R14", "Y11", "G12"]}, "3 cards"),
    ({"Z": ["R14", "Y11", "G12", "B11"]}, "not at this table"),
    ({"A": ["R14", "Y11", "G12", "Q11"]}, "not a Rook card"),
    ({"A": ["R14", "Y11", "G12", "B11"], "B": ["R14", "Y14", "G13", "B13"]}, "more often"),
])
def test_bad_deals_are_violations_and_ignored(hands, why):
    game = short_game()
    run(game, deal(hands), choose("B", "red"))
    assert violation_types(game) == ["bad_deal"] and why in game.violations[0].detail
    assert game.round.hands == {}


# ---- Impossible actions are recorded, never a crash --------------------------------------------

@pytest.mark.parametrize("action,vtype", [
    (play("B", "Q7"), "unknown_card"),
    (play("B", "Y3"), "card_not_in_deck"),      # taken out in the short game
    (play("Zed", "R11"), "unknown_player"),
    (play("C", "R12"), "out_of_turn"),
])
def test_impossible_plays_are_violations(action, vtype):
    game = short_game()
    run(game, choose("B", "red"), action)
    assert violation_types(game) == [vtype]
    assert game.round.played == {} and game.to_play == "B"


def test_a_card_already_played_this_round():
    game = short_game()
    run(game, choose("B", "red"), play("B", "R11"), play("C", "R11"))
    assert violation_types(game) == ["card_already_played"]


def test_two_decks_allow_each_card_twice_and_the_first_of_two_equal_cards_wins():
    names = [f"P{i}" for i in range(8)]
    game = CrazyGame(setup(names))
    run(game, choose("P1", "every_hand"),
        *plays("P1 G7", "P2 G12", "P3 G12", "P4 G3", "P5 G1", "P6 G2", "P7 G4", "P0 G5"))
    assert game.violations == []
    assert game.rounds[0].tricks[0].winner == "P2"
    run(game, *plays("P2 G7", "P3 G7"))
    assert violation_types(game) == ["card_already_played"]


def test_play_before_any_round_is_chosen():
    game = short_game()
    run(game, play("B", "R11"))
    assert violation_types(game) == ["no_round"]
