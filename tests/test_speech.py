import threading
import time
import wave

import numpy as np
import pytest

from referee.phrases import crazy_en, phrasebook, spoken_card
from referee.speech import NOTABLE, ROUTINE, URGENT, Announcer, RecordingSpeaker, WavSpeaker


class GatedSpeaker(RecordingSpeaker):
    """Holds the first phrase until released, so tests control what is queued meanwhile."""

    def __init__(self):
        super().__init__()
        self.started = threading.Event()
        self.release = threading.Event()

    def speak(self, text):
        self.started.set()
        self.release.wait(5)
        super().speak(text)


def test_say_never_blocks_the_caller_on_a_slow_engine():
    speaker = RecordingSpeaker(delay=0.5)
    ann = Announcer(speaker)
    t0 = time.monotonic()
    for i in range(3):
        ann.say(f"phrase {i}", NOTABLE)
    assert time.monotonic() - t0 < 0.1
    ann.close()
    assert speaker.phrases == ["phrase 0", "phrase 1", "phrase 2"]


def test_urgent_goes_first_and_lagging_routine_calls_are_dropped():
    speaker = GatedSpeaker()
    ann = Announcer(speaker, max_routine=2)
    ann.say("first", ROUTINE)
    assert speaker.started.wait(2)
    for i in range(4):
        ann.say(f"card {i}", ROUTINE)
    ann.say("Revoke by Cyd", URGENT)
    ann.say("Ann takes the trick", NOTABLE)
    speaker.release.set()
    ann.close()
    assert speaker.phrases == ["first", "Revoke by Cyd", "Ann takes the trick", "card 2", "card 3"]
    assert ann.dropped == ["card 0", "card 1"]


def test_routine_calls_too_old_to_matter_are_dropped():
    now = [0.0]
    speaker = GatedSpeaker()
    ann = Announcer(speaker, max_age_s=2.0, clock=lambda: now[0])
    ann.say("first", NOTABLE)
    assert speaker.started.wait(2)
    ann.say("old card", ROUTINE)
    ann.say("old trick", NOTABLE)
    now[0] = 5.0
    speaker.release.set()
    ann.close()
    assert speaker.phrases == ["first", "old trick"] and ann.dropped == ["old card"]


def test_after_a_correction_no_stale_call_is_spoken():
    speaker = GatedSpeaker()
    ann = Announcer(speaker)
    ann.say("first", ROUTINE)
    assert speaker.started.wait(2)
    ann.say("Bob, green 7", ROUTINE)
    ann.say("Revoke by Bob", URGENT)
    ann.correct()  # the operator undid Bob's card
    ann.say("Bob, green 9", ROUTINE)
    speaker.release.set()
    ann.close()
    assert speaker.phrases == ["first", "Bob, green 9"]
    assert set(ann.dropped) == {"Bob, green 7", "Revoke by Bob"}


def test_a_failing_engine_is_recorded_not_fatal():
    class Broken(RecordingSpeaker):
        def speak(self, text):
            raise OSError("no audio device")

    ann = Announcer(Broken())
    ann.say("hello", URGENT)
    ann.close()
    assert ann.errors and "no audio device" in ann.errors[0]


@pytest.mark.parametrize("kwargs", [{"max_routine": 0}, {"max_age_s": 0}])
def test_announcer_settings_are_validated(kwargs):
    with pytest.raises(ValueError):
        Announcer(RecordingSpeaker(), **kwargs)


@pytest.mark.parametrize("code,words", [("G7", "green 7"), ("B13", "black 13"), ("10H", "10 of hearts"),
                                        ("KS", "king of spades"), ("AD", "ace of diamonds")])
def test_spoken_cards(code, words):
    assert spoken_card(code) == words


def test_every_crazy_event_type_has_a_phrase():
    from referee.games.crazy.simulate import random_game
    from referee.games.crazy.actions import ACTION_ADAPTER
    from referee.games.crazy.rules import replay
    import random

    log = random_game(random.Random(1), ["Ann", "Bob", "Cyd", "Dee"], fouls=0.3)
    _, events = replay([ACTION_ADAPTER.validate_python(a) for a in log])
    kinds = {e.type for e in events} - {"deal"}
    assert {"round_chosen", "card_played", "trick_won", "round_over", "game_over", "violation"} <= kinds
    for e in events:
        if e.type != "deal":
            assert crazy_en(e), e
    assert phrasebook("crazy") is crazy_en
    with pytest.raises(ValueError, match="no 'xx' phrases"):
        phrasebook("crazy", "xx")


@pytest.mark.speech
def test_really_speaks_to_a_wav_with_espeak_ng(tmp_path):
    path = tmp_path / "speech.wav"
    speaker = WavSpeaker(path)
    ann = Announcer(speaker)
    ann.say("Ann takes the trick, 20 points", NOTABLE)
    ann.say("Revoke by Cyd", URGENT)
    ann.close()
    assert sorted(speaker.phrases) == ["Ann takes the trick, 20 points", "Revoke by Cyd"]
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(float)
        seconds = w.getnframes() / w.getframerate()
    assert seconds > 1.0
    assert np.sqrt(np.mean(samples ** 2)) > 300  # not silence
