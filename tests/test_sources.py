import cv2
import numpy as np
import pytest

from referee.sources import CameraSource, SourceError, VideoSource


def write_video(path, frames=12, size=(64, 48), fps=30):
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    for i in range(frames):
        img = np.full((size[1], size[0], 3), i * 20 % 255, np.uint8)
        w.write(img)
    w.release()
    return path


def test_video_frames_come_in_order_with_times(tmp_path):
    src = VideoSource(write_video(tmp_path / "v.mp4"))
    frames = list(src)
    assert [f.index for f in frames] == list(range(12)) and src.skipped == 0
    assert frames[3].t == pytest.approx(3 / 30) and frames[0].image.shape == (48, 64, 3)


def test_every_nth_frame_is_the_same_frame_and_all_are_counted(tmp_path):
    src = VideoSource(write_video(tmp_path / "v.mp4"))
    every = list(src)
    third = list(src.frames(every=3))
    assert [f.index for f in third] == [0, 3, 6, 9] and src.passed == 12
    for f in third:
        assert f.t == every[f.index].t and np.array_equal(f.image, every[f.index].image)


def test_frames_decoded_ahead_in_a_thread_are_the_same_frames_and_counts(tmp_path):
    import threading

    src = VideoSource(write_video(tmp_path / "v.mp4", frames=40))
    plain = list(src.frames(every=3))
    seen = []
    for f in src.frames(every=3, ahead=4):
        seen.append((f.index, f.t, f.image.copy(), src.passed))
    assert [i for i, *_ in seen] == [f.index for f in plain] and src.passed == 40
    assert all(np.array_equal(img, f.image) and t == f.t for (_, t, img, _), f in zip(seen, plain))
    assert [p for *_, p in seen] == [f.index + 1 for f in plain]  # passed: up to the frame given, not beyond
    # a caller that stops early stops the decoding thread
    frames = src.frames(every=1, ahead=2)
    assert next(frames).index == 0
    frames.close()
    assert not any(t.name == "video-decode" for t in threading.enumerate())


def test_missing_and_corrupt_videos_are_clear_errors(tmp_path):
    with pytest.raises(SourceError, match="no such video file"):
        VideoSource(tmp_path / "none.mp4")
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00" * 5000)
    with pytest.raises(SourceError, match="not a video"):
        VideoSource(bad)


class FakeCapture:
    """A camera that delivers frames, then nothing for a while, then frames again."""

    def __init__(self, script):
        self.script = script

    def isOpened(self):
        return True

    def set(self, *a):
        return True

    def read(self):
        ok = self.script.pop(0) if self.script else True
        return (True, np.zeros((4, 4, 3), np.uint8)) if ok else (False, None)

    def release(self):
        pass


def test_a_camera_that_stops_is_retried_and_announced_never_the_end():
    script = [True, True, False, False, False, True, True]
    lost, back = [], []
    clock = iter(float(i) for i in range(1000))
    src = CameraSource(0, on_lost=lost.append, on_back=lambda: back.append(1),
                       opener=lambda i: FakeCapture(script), clock=lambda: next(clock), sleep=lambda s: None)
    frames = []
    for f in src:
        frames.append(f)
        if len(frames) == 4:
            src.stop()
    assert len(frames) == 4 and [f.index for f in frames] == [0, 1, 2, 3]
    assert len(lost) == 3 and lost[0] == 0 and lost[-1] > 0 and back == [1]
    assert src.reconnects == 3


def test_a_camera_that_cannot_open_is_a_clear_error():
    class Closed(FakeCapture):
        def isOpened(self):
            return False

    with pytest.raises(SourceError, match="camera 3 cannot be opened"):
        next(iter(CameraSource(3, opener=lambda i: Closed([]))))
