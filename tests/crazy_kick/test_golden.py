"""Golden scripted attacks on the default catalogue: a pass, a tackle, a goal, an illegal card, a ball
out, and the bundled sample game to 5 goals. Every expected value is read off the cards by hand
(R01 Alex passes to Jonas and Felix; R28 Max passes to Mario and Leon, Dennis tackles him; ...)."""
from referee.games.crazy_kick import load_log, replay
from referee.games.crazy_kick.catalogue import DEFAULT_CATALOG
from referee.games.crazy_kick.rules import CrazyKickGame

from .helpers import ball_out, kinds, play, plays, run, setup, vtypes

SAMPLE = DEFAULT_CATALOG.with_name("sample_game.jsonl")


def game(**options):
    return CrazyKickGame(setup(**options))


def test_golden_pass():
    g = game()
    ev = run(g, *plays("R01@1 Ann", "R10@2.5 Bob"))
    assert [(e.type, e.data.get("from"), e.data.get("to")) for e in ev] == [("kickoff", None, None),
                                                                           ("pass", "Alex", "Felix")]
    assert ev[1].data["look_for"] == ["Jonas", "Tim", "Paul"]


def test_golden_tackle():
    g = game()
    ev = run(g, *plays("R01@1", "R10@2", "R15@3", "R28@4", "W36@5 Dee"))
    assert kinds(ev)[-1] == "tackle"
    assert (ev[-1].data["by"], ev[-1].data["from"], ev[-1].data["team"]) == ("Dennis", "Max", "white")
    assert g.ball == ("white", "Dennis")


def test_golden_goal():
    g = game()
    ev = run(g, *plays("R01@1", "R10@2", "R15@3", "R28@4", "R53@4.8 Ann"))
    goal = ev[-1]
    assert goal.type == "goal" and goal.t == 4.8
    assert (goal.data["scorer"], goal.data["assist"], goal.data["score"]) == ("Mario", "Max", {"red": 1, "white": 0})
    assert goal.data["returned"] == 4 and g.pile == []


def test_golden_illegal_card():
    g = game()
    run(g, *plays("R01@1", "R43@2 Bob", "W01@3", "R59@4"))
    assert [(v.type, v.detail) for v in g.violations] == [
        ("not_on_card", "Leon can't take a pass from Alex: not on Alex's card"),
        ("not_on_card", "Stefan can't tackle Alex: not on Alex's card"),
        ("not_on_card", "Max can't score after Alex: no pass to Max on Alex's card"),
    ]
    assert [c.id for c in g.pile] == ["R01"]


def test_golden_ball_out():
    g = game()
    run(g, *plays("R01@1", "R10@2", "R15@3", "R28@4"))
    ev = run(g, ball_out(9.0, visible=["R33", "W20", "R02"]))  # Niklas, Simon, Alex: none fits Max's card
    # Strict (the default): Mario, Leon and Dennis cards are still in the teams' hands.
    assert vtypes(g) == ["bad_ball_out"] and "Mario (R38)" in g.violations[0].detail
    assert kinds(ev) == ["violation", "ball_out"] and ev[-1].data["returned"] == 3
    assert [c.id for c in g.pile] == ["R28"]
    ev = run(g, play("R10@10"))  # Felix is back in the red hands, but Max does not pass to him
    assert vtypes(g)[-1] == "not_on_card"
    agreed = game(ball_out="agreed")
    run(agreed, *plays("R01@1", "R10@2", "R15@3", "R28@4"), ball_out(9.0, visible=["R33", "W20", "R02"]))
    assert agreed.violations == [] and len(agreed.ball_outs) == 1


def test_golden_full_game_to_five_goals():
    g, events = replay(load_log(SAMPLE))
    sheet = g.scoresheet()
    assert sheet["score"] == {"red": 5, "white": 2} and sheet["winner"] == "red" and sheet["complete"]
    assert [(x["t"], x["team"], x["scorer"], x["assist"]) for x in sheet["goals"]] == [
        (6.0, "red", "Mario", "Max"), (25.5, "white", "Paul", "Finn"), (45.5, "white", "Noah", "Dennis"),
        (64.0, "red", "Leon", "Ben"), (84.0, "red", "Mario", "Max"), (104.0, "red", "Leon", "Max"),
        (124.5, "red", "Oskar", "Max")]
    assert [x["score"] for x in sheet["goals"]][-1] == {"red": 5, "white": 2}
    assert [(v["type"], v["t"]) for v in sheet["violations"]] == [("not_on_card", 61.0), ("game_over", 130.0)]
    assert sheet["attacks"] == 7 and sheet["cards_played"] == 35
    assert [e.type for e in events].count("goal") == 7 and events[-2].type == "game_over"
