"""End to end: a simulated video of a Crazy game, refereed by `referee review`.

Perception here is the simulator's ground truth (frames.jsonl), so these tests check everything
after the vision stage: calibration from the markers in the video, tracking, seat attribution, the
rules, the logs and the report. The recogniser's own accuracy is measured by scripts/bench_detector.py."""
import json

import pytest

from referee.eventlog import read_jsonl_tolerant
from referee.games.crazy import load_log, replay
from referee.render.video import simulate
from referee.review import ReviewError, read_setup, review
from referee.session import GameSession


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    simulate("crazy", seed=5, out=out, seconds=4.0, width=960, height=540, progress=False)
    return out


def truth_rounds(sim):
    return [a["round"] for a in map(json.loads, (sim / "actions.jsonl").read_text().splitlines()) if a["type"] == "choose"]


def plays(path):
    return [(a["player"], a["card"]) for a in map(json.loads, path.read_text().splitlines()) if a["type"] == "play"]


def test_review_of_a_simulated_video_gets_the_action_log_right(sim, tmp_path):
    out = tmp_path / "review"
    result = review("crazy", sim / "video.mp4", out, read_setup(sim / "actions.jsonl"), perception="truth",
                    options={"rounds": truth_rounds(sim)}, progress=False)
    truth = plays(sim / "actions.jsonl")
    assert len(truth) >= 3 and plays(out / "actions.jsonl") == truth
    game, _ = replay(load_log(out / "actions.jsonl"))
    truth_game, _ = replay(load_log(sim / "actions.jsonl"))
    assert game.scoresheet()["rounds"][0]["tricks"] == truth_game.scoresheet()["rounds"][0]["tricks"]
    assert result["scoresheet"]["violations"] == truth_game.scoresheet()["violations"] == []
    for name in ("events.jsonl", "scoresheet.json", "scoresheet.csv", "annotated.mp4", "report.html"):
        assert (out / name).stat().st_size > 0, name
    assert result["stats"]["frames"] == 120 and result["stats"]["skipped frames"] == 0


def test_missing_and_corrupt_videos_are_clear_errors(sim, tmp_path):
    setup = read_setup(sim / "actions.jsonl")
    with pytest.raises(ReviewError, match="no such video file"):
        review("crazy", tmp_path / "none.mp4", tmp_path / "o", setup, perception="truth")
    bad = tmp_path / "video.mp4"
    bad.write_bytes((sim / "video.mp4").read_bytes()[:4000])
    with pytest.raises(ReviewError, match="not a video"):
        review("crazy", bad, tmp_path / "o", setup, perception="truth")
    with pytest.raises(ReviewError, match="expected a setup"):
        read_setup(sim / "frames.jsonl")


def test_a_review_killed_half_way_leaves_logs_that_resume(sim, tmp_path, kill_review):
    out = tmp_path / "killed"
    kill_review([sim / "video.mp4", "--game", "crazy", "--setup", sim / "actions.jsonl", "--rounds",
                 ",".join(truth_rounds(sim)), "--perception", "truth"], out, '"play"', timeout=60)
    actions = out / "actions.jsonl"
    records, bad = read_jsonl_tolerant(out / "events.jsonl")
    assert bad in ([], [len(records) + 1])  # at most the line being written is cut
    assert any(r["type"] == "card_played" for r in records)
    session = GameSession.resume("crazy", out)
    done = plays(actions)
    truth = plays(sim / "actions.jsonl")
    assert 1 <= len(done) < len(truth) and done == truth[:len(done)]
    assert session.engine.to_play == truth[len(done)][0]  # it goes on with the next player's card


def test_looking_at_every_third_frame_gets_the_same_plays(sim, tmp_path):
    out = tmp_path / "stride"
    review("crazy", sim / "video.mp4", out, read_setup(sim / "actions.jsonl"), perception="truth",
           options={"rounds": truth_rounds(sim)}, progress=False, annotate=False, stride=3)
    assert plays(out / "actions.jsonl") == plays(sim / "actions.jsonl")
    with pytest.raises(ReviewError, match="stride"):
        review("crazy", sim / "video.mp4", out, read_setup(sim / "actions.jsonl"), perception="truth", stride=0)
