"""`referee simulate`: a short video whose action log replays to the truth."""
import json

import cv2
import numpy as np
import pytest

from referee.cli import main
from referee.games.crazy import load_log, replay
from referee.render.video import SimulateError, simulate


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    summary = simulate("crazy", 11, out, fouls=0.5, seconds=2.0, width=320, height=240, progress=False)
    return out, summary


def test_two_second_video_has_sixty_frames(video):
    out, summary = video
    cap = cv2.VideoCapture(str(out / "video.mp4"))
    frames = 0
    while cap.read()[0]:
        frames += 1
    assert frames == summary["frames"] == 60
    assert len((out / "frames.jsonl").read_text().splitlines()) == 60


def test_action_log_replays_to_the_truth(video):
    out, summary = video
    truth = json.loads((out / "truth.json").read_text())
    game, events = replay(load_log(out / "actions.jsonl"))
    assert game.scoresheet() == truth["scoresheet"]
    assert [e.to_dict() for e in events] == truth["events"]
    plays = [json.loads(line) for line in (out / "actions.jsonl").read_text().splitlines()]
    plays = [a for a in plays if a["type"] == "play"]
    assert summary["plays"] == len(plays) >= 1
    assert all(0 < a["t"] <= 2.0 and a["source"] == "simulator" for a in plays)


def test_each_played_card_shows_in_the_trick_after_its_time(video):
    out, _ = video
    frames = [json.loads(line) for line in (out / "frames.jsonl").read_text().splitlines()]
    plays = [json.loads(line) for line in (out / "actions.jsonl").read_text().splitlines()]
    for a in (a for a in plays if a["type"] == "play"):
        seen = [f["frame"] for f in frames[a["frame"]:a["frame"] + 10]
                if any(c["class"] == a["card"] and c["group"] == "trick" for c in f["cards"])]
        assert seen, a
        before = [f for f in frames[:max(0, a["frame"] - 25)]
                  if any(c["class"] == a["card"] and c["group"] == "trick" for c in f["cards"])]
        assert not before, a


def test_same_seed_same_truth(video, tmp_path):
    out, _ = video
    simulate("crazy", 11, tmp_path, fouls=0.5, seconds=2.0, width=320, height=240, progress=False)
    assert (tmp_path / "actions.jsonl").read_text() == (out / "actions.jsonl").read_text()
    assert (tmp_path / "frames.jsonl").read_text() == (out / "frames.jsonl").read_text()


def test_bad_arguments(tmp_path, capsys):
    with pytest.raises(SimulateError, match="fouls"):
        simulate("crazy", 0, tmp_path, fouls=2.0)
    with pytest.raises(SimulateError, match="simulated videos exist for"):
        simulate("chess", 0, tmp_path)
    assert main(["simulate", "--out", str(tmp_path), "--seconds", "0"]) == 2
    assert "--seconds must be positive" in capsys.readouterr().err


def test_crazy_kick_video_replays_to_the_truth(tmp_path):
    from referee.games.crazy_kick import load_log as kick_log, replay as kick_replay

    s = simulate("crazy-kick", 5, tmp_path, fouls=0.3, seconds=4.0, width=240, height=180, progress=False)
    truth = json.loads((tmp_path / "truth.json").read_text())
    game, events = kick_replay(kick_log(tmp_path / "actions.jsonl"))
    assert game.scoresheet() == truth["scoresheet"] and s["frames"] == 120
    assert [e.to_dict() for e in events] == truth["events"]
    plays = [json.loads(line) for line in (tmp_path / "actions.jsonl").read_text().splitlines()]
    plays = [a for a in plays if a["type"] == "play"]
    assert plays and all(a["t"] <= 4.0 for a in plays)
    frames = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    # a card laid on the centre pile shows there in the frames after it lands
    landed = [a for a in plays if any(c["class"] == a["card"] and c["group"] == "centre-pile"
                                      for f in frames[a["frame"]:a["frame"] + 5] for c in f["cards"])]
    assert landed


def test_fodbold_plan_lifts_the_moving_piece_and_carries_it():
    from referee.games.fodbold.loader import load_board
    from referee.render.fodbold import BoardPlacement, random_board_style
    from referee.render.video import MOVE, fodbold_scene, plan_fodbold

    board = load_board()
    plan = plan_fodbold(3, 0.0, 30.0)
    assert plan.moves, "seed 3 moves a piece in its first 30 seconds"
    t, piece, a, b = plan.moves[0]
    bp = BoardPlacement((0.0, 0.0), 20.0, random_board_style(np.random.default_rng(0)))
    skin = {"red": ((150, 180, 225), (90, 30, 30)), "blue": ((120, 150, 200), (30, 90, 30))}
    before, mid, after = (fodbold_scene(plan, board, bp, x, skin) for x in (t - MOVE - 0.1, t - MOVE / 2, t + 0.1))

    def find(fs):
        return next(p for p in fs.pieces if (p.team, p.number) == piece)

    assert find(before).square == a and find(after).square == b
    assert find(before).lift_mm == 0 and find(mid).lift_mm > 30 and mid.scene.arms and not after.scene.arms
    pa, pb = (np.array(bp.square_mm(board, s)) for s in (a, b))
    assert np.allclose(find(mid).pos_mm, (pa + pb) / 2, atol=1.0)


def test_fodbold_video_replays_to_the_truth(tmp_path):
    from referee.games.fodbold import load_log as fb_log, replay as fb_replay

    simulate("fodbold", 3, tmp_path, seconds=16.0, width=160, height=120, progress=False)
    truth = json.loads((tmp_path / "truth.json").read_text())
    game, events = fb_replay(fb_log(tmp_path / "actions.jsonl"))
    assert [e.to_dict() for e in events] == truth["events"]
    frames = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    assert len(frames) == 480 and any(f["objects"] for f in frames)
