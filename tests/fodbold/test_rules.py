"""One test (or more) per rule of the text, each built from a one-line position.

Board: 13 columns a-m x 20 rows; red defends rows 1-10 and attacks up, blue defends 11-20.
Blue's zone 2 is rows 15-17, zone 1 rows 18-20, its penalty area d-j on rows 18-20, its goal f21-h21.
Default red cards: R01 [2,7], R03 [4,9], R04 [5,10], R06 [7,9], R11 [5,9], R14 [2,5], R16 [4,8];
blue the same with B. Shot cards: S01 12/4, S02 11/5, S03 10/6, S04 9/7, S05 8/8, S08 5/3, S09 4/5.
"""
from referee.games.fodbold.position import start_position

from .helpers import BOARD, draw, game, move, roll, run, shot, small_decks, sq, types, violation_types

# ---- 2) The kick-off ------------------------------------------------------------------------------


def test_an_even_roll_means_roll_again_and_the_first_odd_roll_kicks_off():
    g = game()
    assert g.phase == "roll" and g.pos.holder is None
    run(g, roll("red", 4))
    assert g.phase == "roll" and g.pos.holder is None
    run(g, roll("blue", 3))
    assert g.pos.to_play == "blue" and g.pos.holder == ("blue", 9)
    assert g.pos.squares[("blue", 9)] == BOARD.kickoff_square("blue") == sq("g11")
    run(g, roll("red", 5))
    assert violation_types(g) == ["bad_roll"] and g.pos.to_play == "blue"


def test_the_kick_off_is_by_number_9_from_the_centre_with_everybody_on_his_start_square():
    g = game(first="red")
    assert g.pos.holder == ("red", 9) and g.pos.squares[("red", 9)] == sq("g10")
    assert all(g.pos.squares[(t, n)] == s for t in ("red", "blue") for n, s in BOARD.start[t].items())
    run(g, draw("red R06"), move("red 9 g10-g12"))
    assert g.violations == [] and g.pos.holder == ("red", 9) and g.pos.to_play == "blue"


def test_playing_without_an_odd_roll_is_flagged_and_the_team_that_played_kicks_off():
    g = game()
    run(g, draw("red R06"))
    assert violation_types(g) == ["no_kickoff_roll"]
    assert g.pos.holder == ("red", 9) and g.pos.card == "R06"


# ---- 2) Moves: up to his number of squares, any direction, never jumping a piece ------------------------

def test_a_player_moves_at_most_his_number_of_squares_in_any_direction():
    g = game("1g1,7c9,9k5*/1g20 red 0-0")
    run(g, draw("red R01"), move("red 7 c17"))
    assert violation_types(g) == ["too_far"]
    assert "at most 7 squares; c9 to c17 is 8" in g.violations[0].detail
    run(g, move("red 7 j16"))  # seven squares diagonally
    assert len(g.violations) == 1 and g.pos.squares[("red", 7)] == sq("j16") and g.pos.holder == ("red", 7)


def test_a_player_may_not_jump_over_pieces_but_may_go_around_them():
    wall = "2a10,3b10,4c10,6d10,8e10"
    g = game(f"1g1,{wall},5c9,9k5*/1g20 red 0-0")
    run(g, draw("red R04"), move("red 5 c11"))  # two squares away, but around the wall is six
    assert violation_types(g) == ["blocked"]
    g = game(f"1g1,{wall},7c9,9k5*/1g20 red 0-0")
    run(g, draw("red R01"), move("red 7 c11"))  # number 7 gets round: c9 d9 e9 f10 e11 d11 c11
    assert g.violations == [] and g.pos.squares[("red", 7)] == sq("c11")


def test_a_boxed_in_player_can_only_stay():
    ring = "2b8,3c8,4d8,5b9,6d9,8b10,10c10,11d10"
    g = game(f"1g1,{ring},7c9,9k5*/1g20 red 0-0")
    run(g, draw("red R01"), move("red 7 c12"))
    assert violation_types(g) == ["blocked"]
    run(g, move("red 7 c9"))
    assert len(g.violations) == 1 and g.pos.holder == ("red", 7)


def test_a_player_may_not_end_on_a_team_mate_and_the_team_with_the_ball_never_stacks():
    g = game("1g1,7c9,9c12*/1g20,4d13 red 0-0")
    run(g, draw("red R01"), move("red 7 c12"))
    run(g, move("red 7 d13"))
    assert violation_types(g) == ["occupied", "occupied"]
    assert "only the team without the ball marks" in g.violations[1].detail


def test_the_from_square_if_given_must_be_where_the_piece_stands():
    g = game("1g1,7c9,9k5*/1g20 red 0-0")
    run(g, draw("red R01"), move("red 7 c8-c11"))
    assert violation_types(g) == ["wrong_square"] and g.pos.squares[("red", 7)] == sq("c9")


# ---- 2/3) The card: the receiver (or mover) must be named on it and not marked ---------------------------

def test_the_receiver_must_be_named_on_the_card():
    g = game("1g1,7c9,8e8,9k5*/1g20 red 0-0")
    run(g, draw("red R01"), move("red 8 e9"))
    assert violation_types(g) == ["not_on_card"] and "R01 (2, 7)" in g.violations[0].detail
    assert g.pos.card == "R01"  # still waiting for a proper move


def test_a_marked_player_can_neither_receive_nor_move():
    g = game("1g1,7g13,9g10*/1g20,4g13^ red 0-0")
    run(g, draw("red R06"), move("red 7 g14"))
    assert violation_types(g) == ["marked"]
    assert "marked by blue 4 and can neither move nor receive" in g.violations[0].detail
    run(g, move("red 9 g11"))  # the other named player may
    assert len(g.violations) == 1 and g.pos.holder == ("red", 9)


def test_draws_moves_and_shots_out_of_turn_or_out_of_order_are_ignored():
    g = game("1g1,7c9,9k5*/1g20,4e15 red 0-0")
    run(g, draw("blue B16"), move("red 7 c10"), draw("red R01"), draw("red R03"), draw("red R99"))
    assert violation_types(g) == ["out_of_turn", "no_card", "move_expected", "move_expected"]
    run(g, move("red 7 c10"), draw("blue R02"), draw("blue B16"), move("blue 4 e14"), draw("red R01"))
    assert violation_types(g)[4:] == ["unknown_card", "card_already_drawn"]


# ---- 3) Man-marking --------------------------------------------------------------------------------

def test_a_defender_marks_by_standing_on_an_attacker_on_his_own_half():
    g = game("1g1,7c14,9g10*/1g20,4e15 blue 0-0")
    events = run(g, draw("blue B16"), move("blue 4 c14"))
    assert g.violations == [] and "marked" in types(events)
    assert g.pos.markers == {("blue", 4): ("red", 7)}
    assert g.fen() == "1g1,7c14,9g10*/1g20,4c14^ red 0-0"


def test_marking_only_on_the_own_half():
    g = game("1g1,9g5*,11k8/1g20,4j11 blue 0-0")
    run(g, draw("blue B16"), move("blue 4 k8"))
    assert violation_types(g) == ["bad_mark"] and "only on blue's own half" in g.violations[0].detail


def test_the_player_with_the_ball_cannot_be_marked():
    g = game("1g1,9g12*/1g20,4g14 blue 0-0")
    run(g, draw("blue B16"), move("blue 4 g12"))
    assert violation_types(g) == ["bad_mark"] and "he has the ball" in g.violations[0].detail


def test_the_goalkeeper_cannot_be_marked():
    g = game("1c13,9g5*/1g20,4c15 blue 0-0")
    run(g, draw("blue B16"), move("blue 4 c13"))
    assert violation_types(g) == ["bad_mark"] and "goalkeeper cannot be marked" in g.violations[0].detail


def test_a_marker_whose_number_comes_up_must_move_at_least_one_square():
    g = game("1g1,7c14,9g10*/1g20,4c14^,8g15 blue 0-0")
    run(g, draw("blue B16"), move("blue 8 g14"))  # B16 names 4 and 8: the marker must be the one
    run(g, move("blue 4 c14"))  # staying on red 7 is not moving
    assert violation_types(g) == ["marker_must_move", "marker_must_move"]
    events = run(g, move("blue 4 d14"))
    assert len(g.violations) == 2 and "released" in types(events) and g.pos.markers == {}
    assert g.pos.left == {("blue", 4): ("red", 7)}


def test_a_released_player_can_move_and_receive_again():
    g = game("1g1,7c14,9g10*/1g20,4c14^ blue 0-0")
    run(g, draw("blue B03"), move("blue 4 d15"), draw("red R01"), move("red 7 c16"))
    assert g.violations == [] and g.pos.holder == ("red", 7)


def test_a_marker_may_not_go_straight_back_onto_the_same_player_on_his_next_move():
    g = game("1g1,7c14,9g10*/1g20,4c14^ blue 0-0")
    run(g, draw("blue B03"), move("blue 4 d14"), draw("red R11"), move("red 9 g9"), draw("blue B16"),
        move("blue 4 c14"))
    assert violation_types(g) == ["remark"]
    # after one more move the ban is over: he may mark red 7 again
    g = game("1g1,7c14,9g10*/1g20,4d15 blue 0-0 left=b4:7")
    run(g, draw("blue B16"), move("blue 4 c14"))
    assert violation_types(g) == ["remark"]
    run(g, move("blue 4 d16"), draw("red R11"), move("red 9 g9"), draw("blue B03"), move("blue 4 c14"))
    assert violation_types(g) == ["remark"] and g.pos.markers == {("blue", 4): ("red", 7)}


def test_a_marker_may_mark_another_player_at_once():
    g = game("1g1,7c14,11e13,9g10*/1g20,4c14^ blue 0-0")
    events = run(g, draw("blue B16"), move("blue 4 e13"))
    assert g.violations == [] and types(events)[-2:] == ["moved", "marked"]
    assert g.pos.markers == {("blue", 4): ("red", 11)}


# ---- 4) Shots ---------------------------------------------------------------------------------------

def test_shots_only_from_zone_1_or_2_of_the_opponents_half_and_instead_of_a_pass_card():
    g = game("1g1,9g14*/1a20 red 0-0")
    run(g, shot("red S01"))
    assert violation_types(g) == ["no_shot_chance"] and g.pos.score == {"red": 0, "blue": 0}
    g = game("1g1,9g15*/1a20 red 0-0")
    run(g, draw("red R06"), shot("red S01"))
    assert violation_types(g) == ["move_expected"]
    g = game("1g1,9g15*/1a20 blue 0-0")
    run(g, shot("blue S01"))
    assert violation_types(g) == ["no_ball"]


def test_a_straight_shot_with_nothing_in_the_way_needs_the_top_number_above_the_distance():
    # g16 is 5 squares from the goal line; the keeper is off the line.
    g = game("1g1,9g16*/1a20 red 0-0")
    events = run(g, shot("red S08"))  # straight 5: not more than 5
    s = next(e for e in events if e.type == "shot")
    assert (s.data["kind"], s.data["distance"], s.data["number"], s.data["result"]) == ("straight", 5, 5, "missed")
    assert g.pos.score["red"] == 0 and g.pos.holder == ("blue", 1) and g.pos.to_play == "blue"
    assert g.pos.squares[("red", 9)] == sq("g16")  # only the ball moves on a shot
    g = game("1g1,9g16*/1a20 red 0-0")
    run(g, shot("red S09"), draw("blue B17"), move("blue 1 a19"), shot("red S02"))
    assert violation_types(g) == ["no_ball"]  # blue has the ball after the miss
    g = game("1g1,9g16*/1a20 red 0-0")
    events = run(g, shot("red S02"))  # straight 11 > 5
    assert "goal" in types(events) and g.pos.score == {"red": 1, "blue": 0}


def test_a_diagonal_is_a_straight_line_too():
    g = game("1g1,9d17*/1a20 red 0-0")  # d17 -> e18 f19 g20 -> h21
    events = run(g, shot("red S08"))
    s = next(e for e in events if e.type == "shot")
    assert (s.data["kind"], s.data["distance"], s.data["target"], s.data["result"]) == ("straight", 4, "h21", "goal")


def test_a_piece_in_the_line_means_the_lofted_number_from_the_distance_to_distance_plus_2():
    results = {}
    for card in ("S08", "S01", "S02", "S03", "S04", "S05"):  # lofted 3, 4, 5, 6, 7, 8
        g = game("1g1,9g16*/1g20 red 0-0")  # the keeper on g20 stands in the line
        events = run(g, shot(f"red {card}"))
        s = next(e for e in events if e.type == "shot")
        assert s.data["kind"] == "lofted" and s.data["distance"] == 5 and s.data["blocked_by"] == "blue 1"
        results[s.data["number"]] = s.data["result"]
    assert results == {3: "short", 4: "short", 5: "goal", 6: "goal", 7: "goal", 8: "over_bar"}


def test_over_the_bar_the_opponents_number_1_takes_a_goal_kick():
    g = game("1g1,9g16*/1g20 red 0-0")
    events = run(g, shot("red S05"))
    assert types(events)[-1] == "goal_kick" and events[-1].data["reason"] == "over_bar"
    assert g.pos.holder == ("blue", 1) and g.pos.to_play == "blue" and g.pos.score["red"] == 0
    run(g, draw("blue B17"), move("blue 1 g19"))  # the goal kick: a card is drawn
    assert g.violations == [] and g.pos.holder == ("blue", 1)


def test_a_goal_restarts_from_the_centre_with_both_teams_in_start_positions():
    g = game("1g1,7c14,9g16*/1a20,4c14^ red 2-3")
    events = run(g, shot("red S01"))
    assert types(events) == ["shot", "goal", "kickoff"] and g.pos.score == {"red": 3, "blue": 3}
    expect = start_position(BOARD, "blue", {"red": 3, "blue": 3})
    assert g.fen() == expect.fen()
    assert g.pos.holder == ("blue", 9) and g.pos.to_play == "blue" and g.pos.markers == {}


def test_the_shot_deck_is_reshuffled_when_used_up():
    # Blue's cards name only blue 9, who is not on the board: blue's draw with the ball is a bad pass.
    decks = small_decks({"R1": [9], "R2": [9]}, {"B1": [9], "B2": [9]}, shots={"S1": (12, 12)})
    g = game("1g1,9g16*/1g20 red 0-0", decks=decks)
    events = run(g, shot("red S1"), draw("blue B1"), draw("red R1"), move("red 9 g16"), draw("blue B2"))
    assert types(events).count("shot") == 1 and "bad_pass" in types(events) and "no_move" in types(events)
    events = run(g, shot("red S1"))  # lofted 12 from 5: over the bar, both times
    assert types(events)[:2] == ["shot_deck_reshuffled", "shot"] and g.violations == []


# ---- 5) Bad pass ------------------------------------------------------------------------------------

def test_a_bad_pass_when_every_named_player_is_marked_the_opponents_lowest_named_player_wins_the_ball():
    g = game("1g1,2l13,7c14,9g10*/1g20,2l13^,4c14^,5b17 red 0-0")
    events = run(g, draw("red R01"))  # R01 names 2 and 7: both marked
    assert types(events)[-1] == "bad_pass" and g.pos.to_play == "blue" and g.pos.turnover
    run(g, shot("blue S01"))
    assert violation_types(g) == ["no_ball"]
    events = run(g, draw("blue B14"))  # 2 and 5: blue 2 is lowest
    assert g.pos.holder == ("blue", 2) and events[-1].type == "ball_won"
    run(g, move("blue 5 b16"))
    assert violation_types(g) == ["no_ball", "wrong_piece"]
    run(g, move("blue 2 l13"))  # he marks, so he must move at least one square
    run(g, move("blue 2 l12"))
    assert violation_types(g)[-1] == "marker_must_move" and len(g.violations) == 3
    assert g.pos.holder == ("blue", 2) and g.pos.squares[("blue", 2)] == sq("l12") and g.pos.to_play == "red"


def test_after_a_bad_pass_the_goalkeeper_gets_the_ball_if_the_lowest_named_player_is_marked():
    g = game("1g1,6d8^,7c14,9g10*/1g20,3d8,4c14^,6j14 red 0-0")
    run(g, draw("red R01"))
    run(g, draw("blue B09"))  # 3 and 6: blue 3 is marked by red 6
    assert g.pos.holder == ("blue", 1)
    run(g, move("blue 1 g19"))
    assert g.violations == [] and g.pos.to_play == "red"


def test_a_defending_team_whose_named_players_are_all_marked_loses_its_move():
    g = game("1g1,9g10*,6d8^/1g20,3d8 blue 0-0")
    events = run(g, draw("blue B09"))  # 3 (marked) and 6 (not on the board)
    assert events[-1].type == "no_move" and g.pos.to_play == "red" and g.violations == []


# ---- 6) Offside -------------------------------------------------------------------------------------

def test_receiving_the_ball_level_with_the_rearmost_defender_is_offside():
    g = game("1g1,7c17,9g12*/1g20,3i16,4e17 red 0-0")
    events = run(g, draw("red R01"), move("red 7 c16"))  # moving back onside does not help
    assert violation_types(g) == ["offside"]
    assert g.violations[0].detail == "Offside: red 7 was level with blue 4 when he received the ball"
    assert g.pos.holder == ("blue", 4) and g.pos.to_play == "blue" and events[-1].type == "free_kick"
    assert g.pos.squares[("red", 7)] == sq("c17")


def test_receiving_the_ball_behind_the_rearmost_defender_is_offside_and_in_front_is_not():
    g = game("1g1,7c18,9g12*/1g20,3i16,4e17 red 0-0")
    run(g, draw("red R01"), move("red 7 c18"))
    assert g.violations[0].detail == "Offside: red 7 was behind blue 4 when he received the ball"
    g = game("1g1,7c16,9g12*/1g20,3i16,4e17 red 0-0")
    run(g, draw("red R01"), move("red 7 c19"))
    assert g.violations == [] and g.pos.holder == ("red", 7)


def test_the_offside_setting_decides_whether_the_goalkeeper_counts():
    g = game("1g1,7c18,9g12*/1g20,4e17 red 0-0", offside_counts="all")
    run(g, draw("red R01"), move("red 7 c17"))
    assert g.violations == []
    g = game("1g1,7c20,9g12*/1g20,4e17 red 0-0", offside_counts="all")
    run(g, draw("red R01"), move("red 7 c19"))
    assert g.violations[0].detail == "Offside: red 7 was level with blue 1 when he received the ball"


def test_nobody_is_offside_on_his_own_half():
    g = game("1g1,7c8,9g12*/1g20,4e5 red 0-0")
    run(g, draw("red R01"), move("red 7 c9"))
    assert g.violations == []


def test_a_solo_run_is_never_offside_but_must_shoot_before_the_penalty_area():
    g = game("1g1,9b18*/1g20,4e17 red 0-0")
    run(g, draw("red R06"), move("red 9 b19"))
    assert g.violations == [] and g.pos.holder == ("red", 9)
    g = game("1g1,9c18*/1g20,4e17 red 0-0")
    run(g, draw("red R06"), move("red 9 d18"))
    assert violation_types(g) == ["solo_into_penalty_area"]
    assert "must shoot before the penalty area" in g.violations[0].detail
    g = game("1g1,9g17*/1g20,4e19 red 0-0")  # in front of the last defender he may go in
    run(g, draw("red R06"), move("red 9 g18"))
    assert g.violations == []


def test_a_marked_attacker_does_not_count_when_a_team_mate_shoots():
    g = game("1g1,7c18,9g16*/1a20,4e17,5c18^ red 0-0")
    events = run(g, shot("red S01"))
    assert g.violations == [] and "goal" in types(events)


def test_an_unmarked_attacker_offside_when_a_team_mate_shoots_is_offside():
    g = game("1g1,7c18,9g16*/1a20,4e17 red 0-0")
    events = run(g, shot("red S01"))
    assert violation_types(g) == ["offside"] and "goal" not in types(events)
    assert g.violations[0].detail == "Offside: red 7 was behind blue 4 when red 9 shot"
    assert g.pos.holder == ("blue", 4) and g.pos.score["red"] == 0
    g = game("1g1,7c18,9g16*/1a20,4e17 red 0-0", offside_on_shot=False)
    events = run(g, shot("red S01"))
    assert g.violations == [] and "goal" in types(events)


# ---- 7) Stalling ------------------------------------------------------------------------------------

def test_one_backward_pass_while_attacking_is_allowed_the_second_in_a_row_is_stalling():
    g = game("1g1,7c12,8e11,9g14*/1g20,2l17,4e18 red 0-0")
    events = run(g, draw("red R01"), move("red 7 c13"))
    assert g.violations == [] and "back_pass" in types(events) and g.pos.back_passes == 1
    run(g, draw("blue B16"), move("blue 4 e19"), draw("red R02"), move("red 8 e12"))
    assert violation_types(g) == ["stalling"]
    assert "passed backwards 2 times in a row while attacking (red 7 to red 8)" in g.violations[0].detail
    assert g.pos.to_play == "blue" and g.pos.turnover and g.pos.squares[("red", 8)] == sq("e11")
    run(g, draw("blue B14"))
    assert g.pos.holder == ("blue", 2)


def test_a_forward_pass_or_a_pass_on_the_own_half_ends_the_run_of_backward_passes():
    g = game("1g1,7c16,9g14*/1g20,4e18 red 0-0 back=1")
    run(g, draw("red R01"), move("red 7 c16"))
    assert g.violations == [] and g.pos.back_passes == 0
    g = game("1g1,7c5,9g8*/1g20,4e18 red 0-0 back=1")
    run(g, draw("red R01"), move("red 7 c6"))
    assert g.violations == [] and g.pos.back_passes == 0


def test_the_stalling_limit_is_a_setting():
    g = game("1g1,7c12,9g14*/1g20,4e18 red 0-0 back=1", stalling_back_passes=3)
    run(g, draw("red R01"), move("red 7 c12"))
    assert g.violations == [] and g.pos.back_passes == 2


# ---- 8) The end -------------------------------------------------------------------------------------

def test_when_red_runs_out_of_cards_blue_still_plays_its_card_and_the_most_goals_win():
    decks = small_decks({"R1": [9], "R2": [9]}, {"B1": [4], "B2": [4]})
    g = game("1g1,9g10*/1g20,4e15 red 1-0", decks=decks)
    run(g, draw("red R1"), move("red 9 g9"), draw("blue B1"), move("blue 4 e14"), draw("red R2"))
    events = run(g, move("red 9 g8"))
    assert types(events)[-1] == "cards_out" and not g.over and g.pos.to_play == "blue"
    events = run(g, draw("blue B2"), move("blue 4 e13"))
    assert types(events)[-2:] == ["cards_out", "game_over"] and g.over
    assert g.winner() == "red" and g.scoresheet()["result"] == "red wins"
    run(g, draw("red R1"))
    assert violation_types(g) == ["game_over"]


def test_a_team_out_of_cards_still_gets_its_shot_chance():
    decks = small_decks({"R1": [9]}, {"B1": [4]})
    g = game("1g1,9g16*/1g20,4e19 red 0-1", decks=decks)
    run(g, draw("red R1"), move("red 9 g17"), draw("blue B1"))  # B1: blue 4 moves; now both are out
    events = run(g, move("blue 4 e18"))
    assert "last_chance" in types(events) and not g.over
    events = run(g, shot("red S01"))  # lofted 4 from 4 over the keeper: a goal, then nobody can play
    assert "goal" in types(events) and g.over and g.winner() is None
    assert g.scoresheet()["result"] == "draw"


def test_a_bad_pass_on_the_last_card_ends_the_game_when_the_opponent_has_no_card_to_win_the_ball():
    decks = small_decks({"R1": [7]}, {"B1": [5]})
    g = game("1g1,7c14,9g10*/1g20,4c14^,5b17 blue 0-0 card=B1", decks=decks)
    events = run(g, move("blue 5 b16"))
    assert types(events)[-1] == "cards_out" and not g.over and g.pos.to_play == "red"
    events = run(g, draw("red R1"))  # red 7 is marked: a bad pass, and blue has no card to win the ball
    assert types(events)[-3:] == ["bad_pass", "cards_out", "game_over"] and g.violations == []
