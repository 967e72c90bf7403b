"""Speech: the referee says what happened, without ever holding up the camera loop.

pyttsx3 blocks for about a second per phrase, so phrases go through an ``Announcer``: a priority
queue served by its own worker thread. A foul or a goal goes first; a routine call ("Bob, green 7")
may be dropped when the queue lags, because a late routine call is noise; after a correction (an
undo) everything queued before it is dropped, so no stale call is spoken.

Speakers are small objects with one verb, ``speak(text)``, so tests use ``RecordingSpeaker`` and a
headless machine writes the speech to a WAV file with ``WavSpeaker``.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import tempfile
import threading
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from .games.base import NOTABLE, ROUTINE, URGENT, Event

log = logging.getLogger(__name__)

__all__ = ["Speaker", "RecordingSpeaker", "Pyttsx3Speaker", "WavSpeaker", "Announcer", "SpeechError",
           "ROUTINE", "NOTABLE", "URGENT", "make_speaker"]


class SpeechError(RuntimeError):
    """The speech engine is missing or failed to start."""


class Speaker(Protocol):
    def speak(self, text: str) -> None: ...  # blocks until said
    def close(self) -> None: ...


class RecordingSpeaker:
    """Keeps what would have been said (tests, --mute). ``delay`` imitates a slow engine."""

    def __init__(self, delay: float = 0.0):
        self.phrases: list[str] = []
        self.delay = delay

    def speak(self, text: str) -> None:
        if self.delay:
            time.sleep(self.delay)
        self.phrases.append(text)

    def close(self) -> None:
        pass


def _init_engine(voice: str | None, rate: int | None):
    try:
        import pyttsx3

        engine = pyttsx3.init()
    except Exception as e:  # pyttsx3 raises bare OSError/RuntimeError when espeak-ng is missing
        raise SpeechError(f"cannot start the speech engine ({e}); on Debian/Ubuntu: sudo apt-get install "
                          "espeak-ng, or run with --mute or --speech-wav FILE") from e
    if rate is not None:
        engine.setProperty("rate", rate)
    if voice is not None:
        voices = engine.getProperty("voices")
        match = [v for v in voices if voice in (v.id, v.name) or v.id.endswith("/" + voice)]
        if not match:
            names = ", ".join(sorted(v.id for v in voices)[:20])
            raise SpeechError(f"no voice {voice!r}; some that exist: {names}")
        engine.setProperty("voice", match[0].id)
    return engine


class Pyttsx3Speaker:
    """Speaks aloud through pyttsx3. The engine is created on first use, in the thread that speaks
    (pyttsx3 engines must stay on one thread)."""

    def __init__(self, voice: str | None = None, rate: int | None = None):
        self.voice, self.rate = voice, rate
        self._engine = None

    def speak(self, text: str) -> None:
        if self._engine is None:
            self._engine = _init_engine(self.voice, self.rate)
        self._engine.say(text)
        self._engine.runAndWait()

    def close(self) -> None:
        if self._engine is not None:
            self._engine.stop()


class WavSpeaker:
    """Writes everything that would be said into one WAV file, with a short pause between phrases
    (for review, and for machines without an audio device)."""

    def __init__(self, path: str | Path, voice: str | None = None, rate: int | None = None, gap_s: float = 0.3):
        self.path = Path(path)
        self.voice, self.rate, self.gap_s = voice, rate, gap_s
        self.phrases: list[str] = []
        self._engine = None
        self._out: wave.Wave_write | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="referee-speech-")

    def speak(self, text: str) -> None:
        if self._engine is None:
            self._engine = _init_engine(self.voice, self.rate)
        part = Path(self._tmp.name) / f"{len(self.phrases)}.wav"
        self._engine.save_to_file(text, str(part))
        self._engine.runAndWait()
        # espeak's first run may return before the file is written (seen: the first phrase of a game
        # lost with "No such file"): wait for it a little, then run the queue once more
        for _ in range(2):
            deadline = time.monotonic() + 2.0
            while not (part.is_file() and part.stat().st_size > 44) and time.monotonic() < deadline:
                time.sleep(0.02)
            if part.is_file():
                break
            self._engine.runAndWait()
        with wave.open(str(part), "rb") as w:
            params, frames = w.getparams(), w.readframes(w.getnframes())
        if self._out is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._out = wave.open(str(self.path), "wb")
            self._out.setnchannels(params.nchannels)
            self._out.setsampwidth(params.sampwidth)
            self._out.setframerate(params.framerate)
        elif (params.nchannels, params.sampwidth, params.framerate) != (
                self._out.getnchannels(), self._out.getsampwidth(), self._out.getframerate()):
            raise SpeechError(f"the speech engine changed its audio format mid-game: {params}")
        self._out.writeframes(frames)
        gap = int(self.gap_s * params.framerate) * params.nchannels * params.sampwidth
        self._out.writeframes(b"\x00" * gap)
        self.phrases.append(text)

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
        self._tmp.cleanup()


def make_speaker(mute: bool = False, wav: str | Path | None = None, voice: str | None = None,
                 rate: int | None = None) -> Speaker:
    """The speaker for the command-line flags --mute, --speech-wav, --voice, --rate."""
    if mute:
        return RecordingSpeaker()
    if wav is not None:
        return WavSpeaker(wav, voice=voice, rate=rate)
    return Pyttsx3Speaker(voice=voice, rate=rate)


@dataclass(order=True)
class _Item:
    key: tuple[int, int]  # (-priority, sequence): highest priority first, then first come
    text: str = field(compare=False)
    priority: int = field(compare=False)
    generation: int = field(compare=False)
    queued_at: float = field(compare=False)


class Announcer:
    """A priority queue of phrases, spoken one by one by a worker thread.

    ``max_routine`` bounds how many routine phrases may wait (the oldest is dropped beyond it);
    ``max_age_s`` drops a routine phrase that waited too long. Notable and urgent phrases are never
    dropped, except by ``correct()``, which drops everything queued before the correction."""

    def __init__(self, speaker: Speaker, max_routine: int = 3, max_age_s: float = 3.0,
                 clock: Callable[[], float] = time.monotonic):
        if max_routine < 1:
            raise ValueError(f"max_routine must be at least 1, got {max_routine}")
        if max_age_s <= 0:
            raise ValueError(f"max_age_s must be positive, got {max_age_s}")
        self.speaker, self.max_routine, self.max_age_s, self.clock = speaker, max_routine, max_age_s, clock
        self.spoken: list[str] = []
        self.dropped: list[str] = []
        self.errors: list[str] = []
        self._queue: list[_Item] = []
        self._seq = itertools.count()
        self._generation = 0
        self._cv = threading.Condition()
        self._closing = False
        self._busy = False
        self._thread = threading.Thread(target=self._run, name="referee-speech", daemon=True)
        self._thread.start()

    # ---- producer side (the capture loop): never blocks on speech ---------------------------

    def say(self, text: str, priority: int = ROUTINE) -> None:
        with self._cv:
            if self._closing:
                raise RuntimeError("the announcer is closed")
            heapq.heappush(self._queue, _Item((-priority, next(self._seq)), text, priority, self._generation,
                                              self.clock()))
            routine = [i for i in self._queue if i.priority == ROUTINE]
            if len(routine) > self.max_routine:
                oldest = min(routine, key=lambda i: i.key[1])
                self._queue.remove(oldest)
                heapq.heapify(self._queue)
                self.dropped.append(oldest.text)
            self._cv.notify()

    def announce(self, event: Event, phrase: Callable[[Event], str | None]) -> None:
        text = phrase(event)
        if text:
            self.say(text, event.priority)

    def correct(self) -> None:
        """A correction (undo) happened: nothing queued before it is still true, so drop it all."""
        with self._cv:
            self._generation += 1
            self.dropped.extend(i.text for i in self._queue)
            self._queue.clear()

    # ---- worker side -------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._queue and not self._closing:
                    self._cv.wait()
                if not self._queue:
                    return
                item = heapq.heappop(self._queue)
                if item.generation != self._generation or (
                        item.priority == ROUTINE and self.clock() - item.queued_at > self.max_age_s):
                    self.dropped.append(item.text)
                    continue
                self._busy = True
            try:
                self.speaker.speak(item.text)
                self.spoken.append(item.text)
            except Exception as e:  # a broken speech engine must not end the game
                log.warning("speech failed: %s", e)
                self.errors.append(f"{item.text!r}: {e}")
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until the queue is empty and nothing is being said (for tests and the end of a review)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while self._queue or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def close(self, drain: bool = True, timeout: float = 30.0) -> None:
        if drain:
            self.wait_idle(timeout)
        with self._cv:
            self._closing = True
            if not drain:
                self.dropped.extend(i.text for i in self._queue)
                self._queue.clear()
            self._cv.notify_all()
        self._thread.join(timeout)
        self.speaker.close()
