"""Frame sources: where images come from. Each yields ``Frame(index, t, image)`` in order.

- ``VideoSource``: a recording. A frame that cannot be decoded is skipped and counted; a missing or
  unreadable file is a clear error before anything starts.
- ``CameraSource``: a live camera. A camera that stops delivering frames is retried (and the caller
  told, so it can be announced) and never ends the game; only ``stop()`` ends it.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np


class SourceError(RuntimeError):
    """A video or camera that cannot be used at all."""


@dataclass(frozen=True)
class Frame:
    index: int
    t: float          # seconds from the start
    image: np.ndarray


class VideoSource:
    """Frames of a video file, with the time of each from its frame rate."""

    def __init__(self, path: str | Path, max_bad_in_a_row: int = 30):
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        cap = cv2.VideoCapture(str(self.path))
        ok, first = cap.read() if cap.isOpened() else (False, None)
        if not ok or first is None:
            cap.release()
            raise SourceError(f"{self.path}: not a video OpenCV can decode (corrupt, empty or an unknown format)")
        self.fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        if not 1 <= self.fps <= 240:
            self.fps = 30.0
        self.frame_count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.size = (first.shape[1], first.shape[0])
        cap.release()
        self.max_bad_in_a_row = max_bad_in_a_row
        self.skipped = 0
        self.passed = 0

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def frames(self, every: int = 1, ahead: int = 0) -> Iterator[Frame]:
        """Every ``every``-th frame (index 0, every, 2 * every, ...). The frames between are only grabbed,
        not converted to pictures: retrieving a 720p frame costs about 1.5 ms, 0.6 s of a 20 s review that
        looks at every third. ``ahead`` > 0: decode in a thread, up to that many frames ahead of the
        caller (OpenCV lets go of Python while it decodes, so decoding overlaps the caller's work).
        ``self.passed`` counts the frames passed so far, looked at or not, up to the one last given."""
        self.passed = 0
        if ahead <= 0:
            for frame, passed, skipped in self._decode(every):
                self.passed, self.skipped = passed, skipped
                if frame is not None:
                    yield frame
            return
        done = threading.Event()
        out: queue.Queue = queue.Queue(maxsize=ahead)

        def offer(item) -> bool:  # False once the caller has stopped taking frames
            while not done.is_set():
                try:
                    out.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    continue
            return False

        def work():
            try:
                for item in self._decode(every):
                    if not offer(item):
                        return
                offer(None)
            except BaseException as e:  # handed to the caller, raised there
                offer(e)

        worker = threading.Thread(target=work, name="video-decode", daemon=True)
        worker.start()
        try:
            while (item := out.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                frame, self.passed, self.skipped = item
                if frame is not None:
                    yield frame
        finally:
            done.set()
            worker.join()

    def _decode(self, every: int) -> Iterator[tuple[Frame | None, int, int]]:
        """(frame, frames passed, frames skipped so far) for each frame looked at, and (None, passed,
        skipped) once at the end."""
        cap = cv2.VideoCapture(str(self.path))
        index, bad, skipped, passed = 0, 0, self.skipped, 0
        try:
            while True:
                if not cap.grab():
                    # grab() fails at the end, and on some damaged frames: look a little further
                    bad += 1
                    if bad > self.max_bad_in_a_row or (self.frame_count and index >= self.frame_count):
                        yield None, passed, skipped
                        return
                    skipped += 1
                    index += 1
                    continue
                passed = index + 1
                if index % every:
                    bad = 0
                    index += 1
                    continue
                ok, image = cap.retrieve()
                if not ok or image is None or image.shape[:2] != (self.size[1], self.size[0]):
                    skipped += 1
                    index += 1
                    continue
                bad = 0
                yield Frame(index, index / self.fps, image), passed, skipped
                index += 1
        finally:
            cap.release()


class CameraSource:
    """Frames of a live camera. When it stops delivering, ``on_lost(seconds)`` is called and the
    camera is reopened with a growing pause (up to ``max_backoff_s``) until frames come again."""

    def __init__(self, index: int, width: int | None = None, height: int | None = None,
                 on_lost: Callable[[float], None] | None = None, on_back: Callable[[], None] | None = None,
                 max_backoff_s: float = 5.0, opener: Callable[[int], object] = cv2.VideoCapture,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):
        self.index, self.width, self.height = index, width, height
        self.on_lost, self.on_back = on_lost, on_back
        self.max_backoff_s = max_backoff_s
        self._open, self._clock, self._sleep = opener, clock, sleep
        self._stopped = False
        self.reconnects = 0

    def stop(self) -> None:
        self._stopped = True

    def _connect(self):
        cap = self._open(self.index)
        if self.width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        if self.height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        return cap

    def __iter__(self) -> Iterator[Frame]:
        cap = self._connect()
        if not cap.isOpened():
            raise SourceError(f"camera {self.index} cannot be opened; check `ls /dev/video*` and that no other "
                              "program uses it")
        start = self._clock()
        index = 0
        lost_since = None
        backoff = 0.1
        try:
            while not self._stopped:
                ok, image = cap.read()
                if ok and image is not None:
                    if lost_since is not None:
                        lost_since, backoff = None, 0.1
                        if self.on_back:
                            self.on_back()
                    yield Frame(index, self._clock() - start, image)
                    index += 1
                    continue
                now = self._clock()
                if lost_since is None:
                    lost_since = now
                if self.on_lost:
                    self.on_lost(now - lost_since)
                self._sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff_s)
                cap.release()
                cap = self._connect()
                self.reconnects += 1
        finally:
            cap.release()
