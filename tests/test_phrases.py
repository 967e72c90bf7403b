"""Every event the Crazy Kick and Fodbold engines emit has a short phrase (Fodbold in English and Danish)."""
import random
import re
from pathlib import Path

import pytest

from referee.games.base import Event
from referee.phrases import PHRASEBOOKS, crazy_kick_en, fodbold_da, fodbold_en, phrasebook

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
KICK_SILENT = {"deal", "table"}  # bookkeeping: the camera writes a table after every change of the pile tops


def documented_violations(doc: str) -> set[str]:
    text = (DOCS / doc).read_text(encoding="utf-8")
    para = text.split("Violation types:")[1].split("\n\n")[0]
    return set(re.findall(r"`([a-z_]+)`", para))


@pytest.fixture(scope="module")
def kick_events():
    from referee.games.crazy_kick.actions import ACTION_ADAPTER
    from referee.games.crazy_kick.rules import replay
    from referee.games.crazy_kick.simulate import random_game

    events = []
    for seed, kw in enumerate([{"fouls": 0.3}, {"fouls": 0.2, "stuck_after": 2, "tables": "all"},
                               {"fouls": 0.1, "n_players": 5, "options": {"goals_to_win": 2}}]):
        log = random_game(random.Random(seed), **kw)
        events += replay([ACTION_ADAPTER.validate_python(a) for a in log])[1]
    return events


@pytest.fixture(scope="module")
def fodbold_events():
    from referee.games.fodbold import load_board, load_decks, replay
    from referee.games.fodbold.actions import ACTION_ADAPTER
    from referee.games.fodbold.simulate import random_game

    board, decks = load_board(), load_decks()
    events = []
    for seed in range(4):
        log = random_game(random.Random(seed), board, decks, fouls=0.3 if seed % 2 else 0.05, first=None)
        events += replay([ACTION_ADAPTER.validate_python(a) for a in log], board, decks)[1]
    return events


def test_every_crazy_kick_event_has_a_phrase(kick_events):
    kinds = {e.type for e in kick_events}
    assert {"kickoff", "pass", "tackle", "goal", "game_over", "ball_out", "violation"} <= kinds
    for e in kick_events:
        text = crazy_kick_en(e)
        if e.type in KICK_SILENT:
            assert text is None
        else:
            assert text and len(text) < 60, e
    assert phrasebook("crazy-kick") is crazy_kick_en


def test_every_fodbold_event_has_a_phrase_in_english_and_danish(fodbold_events):
    kinds = {e.type for e in fodbold_events}
    assert {"roll", "kickoff", "card_drawn", "pass", "moved", "shot", "goal", "goal_kick", "game_over",
            "violation", "marked", "released"} <= kinds
    for e in fodbold_events:
        en, da = fodbold_en(e), fodbold_da(e)
        assert en and da and len(en) < 60 and len(da) < 60, e
    assert phrasebook("fodbold", "da") is fodbold_da and phrasebook("fodbold", "en") is fodbold_en
    assert {lang for game, lang in PHRASEBOOKS if game == "fodbold"} == {"en", "da"}


def test_every_documented_violation_has_its_own_words():
    """A new violation kind in the rules docs needs a phrase, not the fallback 'Foul'."""
    for kind in documented_violations("crazy-kick.md"):
        text = crazy_kick_en(Event("violation", {"violation": kind, "player": "Ann", "detail": ""}))
        assert text and text != "Foul", kind
    for kind in documented_violations("fodbold.md"):
        for say, foul in ((fodbold_en, "Red: foul"), (fodbold_da, "Rød: ulovligt")):
            text = say(Event("violation", {"violation": kind, "player": "red", "detail": ""}))
            assert text and text != foul, (kind, text)
    assert crazy_kick_en(Event("violation", {"violation": "new_kind", "player": None})) == "Foul"


@pytest.mark.parametrize("event,en,da", [
    (Event("goal", {"team": "red", "piece": 9, "score": {"red": 2, "blue": 1}}), "Goal! Red leads 2-1",
     "Mål! Rød fører 2-1"),
    (Event("goal", {"team": "red", "piece": 9, "score": {"red": 1, "blue": 2}}), "Goal for red! Blue leads 2-1",
     "Mål til rød! Blå fører 2-1"),
    (Event("goal", {"team": "blue", "piece": 9, "score": {"red": 1, "blue": 1}}), "Goal for blue! 1-1",
     "Mål til blå! 1-1"),
    (Event("violation", {"violation": "offside", "player": "red",
                         "detail": "Offside: red 9 was behind blue 3 when he received the ball"}),
     "Offside: red 9", "Offside: rød 9"),
    (Event("violation", {"violation": "stalling", "player": "blue", "detail": "Stalling: ..."}),
     "Stalling: red's ball", "Nøl: rød får bolden"),
    (Event("marked", {"team": "blue", "piece": 4, "player": 7, "square": "c12"}), "Blue 4 marks red 7",
     "Blå 4 dækker rød 7 op"),
    (Event("pass", {"team": "red", "passer": 9, "receiver": 7, "square": "c9", "direction": "forward",
                    "card": "R06"}), "Pass to red 7", "Aflevering til rød 7"),
    (Event("game_over", {"score": {"red": 1, "blue": 3}, "winner": "blue"}), "Game over: blue wins 3-1",
     "Slut! Blå vinder 3-1"),
    (Event("game_over", {"score": {"red": 2, "blue": 2}, "winner": None}), "Game over: a draw, 2-2",
     "Slut! Uafgjort 2-2"),
    (Event("violation", {"violation": "too_far", "player": "blue", "detail": "..."}), "Blue: too far",
     "Blå: for langt"),
])
def test_fodbold_phrases(event, en, da):
    assert (fodbold_en(event), fodbold_da(event)) == (en, da)


@pytest.mark.parametrize("event,text", [
    (Event("goal", {"scorer": "Mario", "team": "red", "score": {"red": 2, "white": 1}}),
     "Goal! Mario scores, red leads 2-1"),
    (Event("goal", {"scorer": "Paul", "team": "white", "score": {"red": 1, "white": 1}}), "Goal! Paul scores, 1-1"),
    (Event("tackle", {"by": "Paul", "from": "Alex"}), "Paul tackles Alex!"),
    (Event("violation", {"violation": "not_on_card", "player": None,
                         "detail": "Leon can't take a pass from Mario: not on Mario's card"}),
     "Leon can't take a pass from Mario"),
    (Event("violation", {"violation": "wrong_team", "player": "Ann", "detail": "..."}), "Wrong team's card, Ann"),
    (Event("game_over", {"winner": "white", "score": {"red": 3, "white": 5}}), "Final whistle: white wins 5-3"),
])
def test_crazy_kick_phrases(event, text):
    assert crazy_kick_en(event) == text
