"""End to end for Crazy Kick and fodbold: a simulated video refereed by `referee review`.

As in test_review.py, perception is the simulator's ground truth (frames.jsonl: cards, and fodbold's
pieces and ball), so this checks everything after the vision stage: calibration from the corner
markers in the video, the table laid out where the calibration layout expects it, tracking, the
adapters, the rules, the logs.

What the camera cannot see comes from the operator, as on a real table: fodbold's kick-off die rolls
and Crazy Kick's ball out (`--calls`, here the simulator's own log). Crazy Kick's ``table`` actions
(pile tops) are the camera's own record, made when it sees them change, so they are not compared
with the simulator's; the plays they judge are."""
import json

import pytest

from referee.cli import main
from referee.review import ReviewError, read_calls, read_setup, review
from referee.render.video import simulate

SEEN = {"crazy-kick": ("play", "ball_out"), "fodbold": ("roll", "draw", "shot", "move")}


def actions(path, game):
    """The actions a review must reproduce, without times and bookkeeping (``from`` of a move is
    optional: the camera gives it only when it saw the piece leave that square)."""
    return [{k: v for k, v in a.items() if k not in ("t", "frame", "source", "from", "visible")}
            for a in map(json.loads, path.read_text().splitlines()) if a["type"] in SEEN[game]]


@pytest.fixture(scope="module")
def kick(tmp_path_factory):
    out = tmp_path_factory.mktemp("kick")
    simulate("crazy-kick", seed=0, out=out, seconds=3.8, width=960, height=540, progress=False)
    return out


@pytest.fixture(scope="module")
def fodbold(tmp_path_factory):
    out = tmp_path_factory.mktemp("fodbold")
    simulate("fodbold", seed=23, out=out, seconds=6.7, width=960, height=540, progress=False)
    return out


def test_crazy_kick_review_gets_the_plays_right(kick, tmp_path):
    from referee.games.crazy_kick import load_log, replay

    out = tmp_path / "review"
    result = review("crazy-kick", kick / "video.mp4", out, read_setup(kick / "actions.jsonl"), perception="truth",
                    calls=read_calls(kick / "actions.jsonl", "crazy-kick"), progress=False, annotate=False)
    truth = actions(kick / "actions.jsonl", "crazy-kick")
    assert len([a for a in truth if a["type"] == "play"]) >= 3
    assert actions(out / "actions.jsonl", "crazy-kick") == truth
    truth_game, _ = replay(load_log(kick / "actions.jsonl"))
    game, _ = replay(load_log(out / "actions.jsonl"))  # the review's log re-scores to its own scoresheet
    sheet = truth_game.scoresheet()
    assert result["scoresheet"]["score"] == game.scoresheet()["score"] == sheet["score"]
    assert result["scoresheet"]["violations"] == sheet["violations"] == []
    # the camera's pile records: every player's piles were seen (the engine judges "not on top" by them)
    logged = [json.loads(line) for line in (out / "actions.jsonl").read_text().splitlines()]
    seen = {p for a in logged if a["type"] == "table" for p in a["piles"]}
    assert seen == {"R1", "R2", "W1", "W2"}


def test_fodbold_review_gets_rolls_draws_and_moves_right(fodbold, tmp_path, capsys):
    out = tmp_path / "review"
    code = main(["review", str(fodbold / "video.mp4"), "--game", "fodbold", "--out", str(out), "--setup",
                 str(fodbold / "actions.jsonl"), "--calls", str(fodbold / "actions.jsonl"), "--perception", "truth",
                 "--no-video"])
    assert code == 0, capsys.readouterr().err
    truth = actions(fodbold / "actions.jsonl", "fodbold")
    assert {a["type"] for a in truth} >= {"roll", "draw", "move"}
    assert actions(out / "actions.jsonl", "fodbold") == truth
    review_sheet = json.loads((out / "scoresheet.json").read_text())
    sheet = json.loads((fodbold / "truth.json").read_text())["scoresheet"]
    assert review_sheet["score"] == sheet["score"] and review_sheet["position"] == sheet["position"]
    assert review_sheet["violations"] == sheet["violations"] == []
    # the die is the operator's: without the calls nobody has kicked off when red shows its card
    blind = review("fodbold", fodbold / "video.mp4", tmp_path / "blind", read_setup(fodbold / "actions.jsonl"),
                   perception="truth", progress=False, annotate=False)
    assert [v["type"] for v in blind["scoresheet"]["violations"]][:1] == ["no_kickoff_roll"]


def test_a_fodbold_review_annotates_with_its_state_panel(fodbold, tmp_path):
    import cv2

    out = tmp_path / "review"
    review("fodbold", fodbold / "video.mp4", out, read_setup(fodbold / "actions.jsonl"), perception="truth",
           calls=read_calls(fodbold / "actions.jsonl", "fodbold"), progress=False)
    cap = cv2.VideoCapture(str(out / "annotated.mp4"))
    ok, img = cap.read()
    assert ok and (out / "report.html").stat().st_size > 0
    assert img[5:40, 5:300].mean() < 60  # the panel's dark box, top left


def test_operator_calls_files(tmp_path):
    f = tmp_path / "calls.jsonl"
    f.write_text('{"t": 3.5, "call": "ball_out"}\n{"t": 1, "call": ["roll", "red", 3]}\n'
                 '{"type": "roll", "team": "blue", "value": 5, "t": 2.0}\n{"type": "draw", "t": 2.5}\n')
    assert read_calls(f, "fodbold") == [{"t": 1.0, "call": ["roll", "red", 3]},
                                        {"t": 2.0, "call": ["roll", "blue", 5]},
                                        {"t": 3.5, "call": ["ball_out"]}]
    assert read_calls(f, "crazy-kick")[1:] == [{"t": 3.5, "call": ["ball_out"]}]
    f.write_text('{"call": ["roll"]}\n')
    with pytest.raises(ReviewError, match="not an operator call"):
        read_calls(f, "fodbold")
    with pytest.raises(ReviewError, match="no such calls file"):
        read_calls(tmp_path / "none", "fodbold")


def test_a_bad_operator_call_is_a_clear_error(fodbold, tmp_path):
    with pytest.raises(ReviewError, match="operator call"):
        review("fodbold", fodbold / "video.mp4", tmp_path / "o", read_setup(fodbold / "actions.jsonl"),
               perception="truth", calls=[{"t": 0.5, "call": ["roll", "green", 3]}], progress=False, annotate=False)


def test_the_recogniser_looks_at_every_zone_of_the_layout_and_what_lies_beside_it():
    from referee.calibration.layouts import load_layout
    from referee.review import view_bounds

    assert view_bounds("crazy", load_layout("crazy", players=4)) == (-320.0, -320.0, 320.0, 320.0)
    kick = load_layout("crazy-kick", teams=(2, 2))
    x0, y0, x1, y1 = view_bounds("crazy-kick", kick)
    for z in kick.zones:   # centre pile, player piles, goal areas
        assert (z.polygon[:, 0] > x0).all() and (z.polygon[:, 0] < x1).all()
        assert (z.polygon[:, 1] > y0).all() and (z.polygon[:, 1] < y1).all()
    x0, y0, x1, y1 = view_bounds("fodbold", load_layout("fodbold"))
    # the board is 520 mm wide; each team's cards lie 70 mm beyond its side, up to 44 mm more for a card
    assert x0 <= -260 - 70 - 44 and x1 >= 260 + 70 + 44 and y0 < -400 and y1 > 400


def test_players_on_the_command_line_make_each_games_setup():
    import importlib

    from referee.review import setup_from_players

    kick = setup_from_players("crazy-kick", "Ann,Bob/Cyd,Dee")
    assert kick["teams"] == {"red": ["Ann", "Bob"], "white": ["Cyd", "Dee"]}
    fod = setup_from_players("fodbold", "Ann/Bob", first="blue")
    assert fod["teams"] == {"red": "Ann", "blue": "Bob"} and fod["first"] == "blue"
    crazy = setup_from_players("crazy", "A,B,C,D", deck="standard")
    assert crazy["players"] == ["A", "B", "C", "D"] and crazy["dealer"] == "A"
    for game, setup in (("crazy-kick", kick), ("fodbold", fod), ("crazy", crazy)):
        actions = importlib.import_module(f"referee.games.{game.replace('-', '_')}.actions")
        actions.ACTION_ADAPTER.validate_python(setup)   # each is a valid setup action of its game
    with pytest.raises(ReviewError, match="give both sides"):
        setup_from_players("crazy-kick", "Ann,Bob,Cyd,Dee")
    with pytest.raises(ReviewError, match="say who plays"):
        setup_from_players("fodbold", None)


@pytest.mark.parametrize("game", ["crazy-kick", "fodbold"])
def test_a_review_killed_half_way_leaves_logs_that_resume(game, kick, fodbold, tmp_path, kill_review):
    from referee.eventlog import read_jsonl_tolerant
    from referee.session import GameSession

    sim = kick if game == "crazy-kick" else fodbold
    out = tmp_path / "killed"
    kill_review([sim / "video.mp4", "--game", game, "--setup", sim / "actions.jsonl", "--calls", sim / "actions.jsonl",
                 "--perception", "truth"], out, {"crazy-kick": '"play"', "fodbold": '"move"'}[game])
    log = out / "actions.jsonl"
    records, bad = read_jsonl_tolerant(out / "events.jsonl")
    assert records and bad in ([], [len(records) + 1])   # at most the line being written is cut
    done, truth = actions(log, game), actions(sim / "actions.jsonl", game)
    assert 1 <= len(done) < len(truth) and done == truth[:len(done)]
    session = GameSession.resume(game, out)
    # the resumed engine is where the log says: the same as replaying the log from scratch
    from referee.games import game_module

    module = game_module(game)
    replayed, _ = module.replay(module.load_log(log))
    assert session.engine.scoresheet() == replayed.scoresheet()
    assert len(session.adapter.log) == len(read_jsonl_tolerant(log)[0]) - 1   # every action but the setup
