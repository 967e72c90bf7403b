"""A card the camera saw played but never read ("?"): its trick goes to whoever leads next, its points
are marked unsure, and the card is worked out when the round ends (docs/rules/crazy.md, decision 10)."""
from referee.games.crazy.cards import parse_card

from .helpers import SHORT_HANDS, choose, deal, play, plays, run, short_game, violation_types

ROUND1 = ["B R11", "C R12", "D R13", "A R14", "A Y11", "B Y14", "C Y12", "D Y13",
          "B G13", "C G14", "D G11", "A G12", "C B12", "D B14", "A B11", "B B13"]


def with_unread(moves, k):
    """The moves with the k-th card played unread."""
    who, _ = moves[k].split()
    return moves[:k] + [f"{who} ?"] + moves[k + 1:]


def test_the_trick_waits_for_its_winner_among_the_best_card_read_and_the_unread_one():
    game = short_game()
    run(game, choose("B", "red"), *plays("B R11", "C ?", "D R13", "A R14"))
    r = game.rounds[0]
    assert r.tricks[0].could_win == ["C", "A"] and r.tricks[0].winner is None
    assert game.to_play is None and game.may_lead == ["C", "A"]
    assert r.unsure and r.points == {"A": 0, "B": 0, "C": 0, "D": 0}
    run(game, play("A", "Y11"))  # A leads: A won it
    assert r.tricks[0].winner == "A" and r.tricks[0].unsure
    assert r.points["A"] == 15  # the three red cards read; C's may have been a fourth
    assert game.to_play == "B" and game.violations == []


def test_a_lead_by_one_who_cannot_have_won_is_out_of_turn_and_changes_nothing():
    game = short_game()
    run(game, choose("B", "red"), *plays("B R11", "C ?", "D R13", "A R14", "B Y14"))
    assert violation_types(game) == ["out_of_turn"]
    assert "C or A leads" in game.violations[0].detail and "not read" in game.violations[0].detail
    assert game.rounds[0].tricks[0].winner is None and game.may_lead == ["C", "A"]


def test_after_an_unread_lead_anyone_may_have_won():
    game = short_game()
    run(game, choose("B", "every_hand"), *plays("B ?", "C R12", "D R13", "A R14"))
    assert game.may_lead == ["B", "C", "D", "A"]
    run(game, play("D", "Y13"))
    r = game.rounds[0]
    # the every hand round pays per trick, whatever the cards: nothing unsure once D is seen to lead
    assert r.tricks[0].winner == "D" and r.points["D"] == 10 and not r.unsure


def test_the_round_end_works_out_the_unread_card_and_counts_its_points():
    read = short_game()
    run(read, choose("B", "red"), *plays(*ROUND1))
    game = short_game()
    events = run(game, choose("B", "red"), *plays(*with_unread(ROUND1, 1)))  # C's R12 unread
    deduced = [e.data for e in events if e.type == "card_deduced"]
    assert deduced == [{"player": "C", "card": "R12", "trick": 1, "round": 1}]
    assert game.rounds[0].points == read.rounds[0].points == {"A": 20, "B": 0, "C": 0, "D": 0}
    assert not game.rounds[0].unsure and not game.scoresheet()["unsure"]
    assert game.rounds[0].tricks[0].cards[1] == ("C", parse_card("R12", "rook"))


def test_an_unread_card_in_the_last_trick_gets_its_winner_by_the_rules_once_worked_out():
    game = short_game()
    run(game, choose("B", "first_last"), *plays(*with_unread(ROUND1, 13)))  # D's B14 unread, last trick
    last = game.rounds[0].tricks[-1]
    assert last.winner == "D" and last.cards[1][1] == parse_card("B14", "rook")
    assert game.rounds[0].over and game.rounds[0].points == {"A": 50, "B": 0, "C": 0, "D": 50}


def test_two_different_cards_unread_stay_unread_and_the_round_unsure():
    game = short_game()
    moves = with_unread(with_unread(ROUND1, 1), 6)  # C's R12 and C's Y12
    run(game, choose("B", "red"), *plays(*moves))
    r = game.rounds[0]
    assert r.over and r.unsure and game.scoresheet()["rounds"][0]["unsure"]
    assert game.scoresheet()["rounds"][0]["tricks"][0]["cards"][1] == ["C", "?"]
    assert r.points["A"] == 15  # a lower bound: C's R12 is not counted
    assert game.violations == []


def test_the_black13_round_ends_on_an_unread_black13_when_the_table_chooses_the_next_round():
    game = short_game()
    run(game, choose("B", "black13"), *plays("B ?", "C B12", "D B14", "A B11"))  # B's B13 unread
    assert not game.rounds[0].over
    events = run(game, choose("C", "red"))
    first = game.rounds[0]
    assert first.over and first.ended_by_black13 and first.points == {"A": 0, "B": 0, "C": 0, "D": 100}
    assert [e.type for e in events] == ["card_deduced", "trick_won", "round_over", "round_chosen"]
    assert game.violations == [] and len(game.rounds) == 2 and game.to_play == "C"
    assert len(game.scoresheet()["rounds"][0]["tricks"]) == 1


def test_the_black13_round_goes_on_when_someone_leads_after_an_unread_card():
    game = short_game()
    run(game, choose("B", "black13"), *plays("B R11", "C ?", "D R13", "A R14", "A Y11"))
    first = game.rounds[0]
    # the table led on: C's card was not the black 13 (it would have ended the round), so no points unsure
    assert not first.over and first.tricks[0].winner == "A" and not first.tricks[0].unsure and not first.unsure


def test_points_are_sure_when_every_card_worth_points_was_read():
    game = short_game()
    run(game, choose("B", "red"), *plays("B R11", "C R12", "D R13", "A R14", "A Y11", "B ?", "C Y12", "D Y13",
                                         "B G13"))
    assert game.rounds[0].tricks[1].winner == "B" and not game.rounds[0].unsure  # all four reds were read


def test_a_known_hand_with_a_card_played_unread_is_no_proof_of_a_revoke():
    hands = {**SHORT_HANDS, "C": ["R12", "G14", "B12", "G11"], "D": ["R13", "Y13", "Y12", "B14"]}
    game = short_game()
    # C holds no yellow: the unread card on B's yellow lead was C's R12; C then plays G14 on a red lead
    run(game, deal(hands), choose("B", "red"), *plays("B Y14", "C ?", "D Y13", "A Y11", "B R11", "C G14"))
    assert game.violations == []
    # the same with the card read: C shows out of red while holding none, still no revoke
    read = short_game()
    run(read, deal(hands), choose("B", "red"), *plays("B Y14", "C R12", "D Y13", "A Y11", "B R11", "C G14"))
    assert read.violations == []
    # but C holding a red beyond the unread card and not following is a revoke
    game = short_game()
    two = {**hands, "C": ["R12", "R11", "G14", "G11"], "B": ["B12", "Y14", "G13", "B13"]}
    run(game, deal(two), choose("B", "red"), *plays("B Y14", "C ?", "D Y13", "A Y11", "B B12", "C G14"))
    assert game.violations == []  # a black lead: C holds no black, fine
    run(game, *plays("D B14", "A B11", "D R13", "A R14", "B G13", "C G11"))
    assert violation_types(game) == ["revoke"]


def test_every_event_of_an_unread_card_is_spoken():
    from referee.phrases import crazy_en

    game = short_game()
    events = run(game, choose("B", "red"), *plays(*with_unread(ROUND1, 1)))
    said = [crazy_en(e) for e in events]
    assert "C, a card I could not read" in said
    assert "A takes the trick, at least 15 points" in said
    assert "The card not read was C's red 12" in said
    game = short_game()
    said = [crazy_en(e) for e in run(game, choose("B", "black13"), *plays("B R11", "C R12", "D ?", "A R14",
                                                                          "D Y13"))]
    assert "D takes the trick" in said  # the table led on: D's card was not the black 13, nothing unsure


def test_the_scoresheet_and_the_report_mark_a_round_resting_on_an_unread_card():
    from referee.games.crazy.scoresheet import format_scoresheet
    from referee.report import result_line, score_table

    game = short_game()
    run(game, choose("B", "red"), *plays("B R11", "C ?", "D R13", "A R14", "A Y11"))
    sheet = game.scoresheet()
    assert sheet["unsure"] and sheet["rounds"][0]["tricks"][0]["unsure"]
    assert "red (in play) *" in format_scoresheet(sheet) and "played unread" in format_scoresheet(sheet)
    assert score_table(sheet)[1][0]["cells"][0] == "1. red (a card unread)"
    assert result_line(sheet).endswith("check the rounds marked.")
    read = short_game()
    run(read, choose("B", "red"), *plays("B R11", "C R12", "D R13", "A R14", "A Y11"))
    assert "*" not in format_scoresheet(read.scoresheet()) and "unread" not in result_line(read.scoresheet())


def test_the_state_panel_names_who_may_lead_after_an_unread_card():
    from referee.overlay import crazy_panel

    game = short_game()
    run(game, choose("B", "red"), *plays("B R11", "C ?", "D R13", "A R14"))
    assert "To lead: C or A" in crazy_panel(game)
    run(game, play("C", "Y12"))
    assert "To play: D" in crazy_panel(game)
