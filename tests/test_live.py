"""`referee play`'s loop on a simulated game fed through a camera that drops out, with operator keys."""
import json

import cv2
import pytest

from referee.live import LiveReferee, run
from referee.overlay import Overlay
from referee.phrases import crazy_en
from referee.render.video import simulate
from referee.review import TruthPerception, find_table, read_setup
from referee.session import GameSession
from referee.sources import CameraSource
from referee.speech import Announcer, RecordingSpeaker


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    simulate("crazy", seed=5, out=out, seconds=4.0, width=960, height=540, progress=False)
    return out


class VideoCamera:
    """A camera that is really a video file, and goes dark for a few reads after frame ``drop_at``."""

    def __init__(self, path, drop_at=None, dark_reads=4):
        self.cap = cv2.VideoCapture(str(path))
        self.read_count, self.drop_at, self.dark = 0, drop_at, dark_reads

    def isOpened(self):
        return True

    def set(self, *a):
        return True

    def read(self):
        self.read_count += 1
        if self.drop_at is not None and self.drop_at <= self.read_count < self.drop_at + self.dark:
            return False, None
        return self.cap.read()

    def release(self):
        pass


def make(sim, tmp_path, camera, speaker=None):
    truth = [json.loads(l) for l in (sim / "actions.jsonl").read_text().splitlines()]
    rounds = [a["round"] for a in truth if a["type"] == "choose"]
    speaker = speaker or RecordingSpeaker()
    ann = Announcer(speaker, max_routine=100, max_age_s=60)
    lost = []
    src = CameraSource(0, opener=lambda i: camera, sleep=lambda s: None,
                       on_lost=lambda s: (lost or ann.say("Camera lost. Retrying", 2), lost.append(s)))
    session = GameSession("crazy", read_setup(sim / "actions.jsonl"), out_dir=tmp_path, announcer=ann,
                          phrase=crazy_en, options={"rounds": rounds})
    mapper = find_table(src, None, session.layout)
    live = LiveReferee("crazy", session, mapper, TruthPerception(sim / "frames.jsonl"), crazy_en, Overlay(mapper))
    return live, src, ann, speaker, truth, lost


def test_live_loop_survives_a_camera_dropout_and_gets_the_plays(sim, tmp_path):
    cam = VideoCamera(sim / "video.mp4", drop_at=20)
    live, src, ann, speaker, truth, lost = make(sim, tmp_path, cam)
    run(live, src, show=False, max_frames=116)
    ann.close()
    truth_plays = [(a["player"], a["card"]) for a in truth if a["type"] == "play"]
    got = [(a["player"], a["card"]) for a in live.session.adapter.log if a["type"] == "play"]
    assert got == truth_plays
    assert len(lost) >= 1 and src.reconnects >= 1
    assert "Camera lost. Retrying" in speaker.phrases


def test_keys_pause_undo_and_quit(sim, tmp_path):
    cam = VideoCamera(sim / "video.mp4")
    live, src, ann, speaker, truth, _ = make(sim, tmp_path, cam)
    keys = iter([None] * 100 + ["u"] + [None] * 5 + [" "] + [None] * 5 + ["q"] + [None] * 100)
    frames = run(live, src, show=False, keys=lambda: next(keys))
    ann.close()
    assert frames == 113  # stopped at the q (100 + u + 5 + space + 5 + q)
    plays = [a for a in live.session.adapter.log if a["type"] == "play"]
    truth_plays = [a for a in truth if a["type"] == "play" and a["frame"] < 100]
    assert len(plays) == len(truth_plays) - 1  # the last play before the undo is gone
    assert live.paused


def test_the_camera_is_asked_for_more_pixels_with_standard_cards_unless_a_size_is_given():
    from referee.live import CAMERA_SIZE, camera_size

    assert camera_size("standard") == (1920, 1080)  # a court card's suit needs them (see CAMERA_SIZE_FOR_DECK)
    assert camera_size("rook") == camera_size(None) == CAMERA_SIZE == (1280, 720)
    assert camera_size("standard", 1280, 720) == (1280, 720)
    assert camera_size("rook", width=1920) == (1920, 720) and camera_size("standard", height=720) == (1920, 720)
