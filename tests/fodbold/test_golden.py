"""Golden scripted games: every event of each log is compared with a reviewed .expected file, and
the moments each game is there for are asserted outright.

After a deliberate rules change, regenerate with FODBOLD_REGEN=1 and review the diff line by line."""
import os
from pathlib import Path

import pytest

from referee.games.fodbold import format_scoresheet, load_log, replay

GOLDEN = Path(__file__).with_name("golden")
GAMES = ["kickoff_goal_marking", "bad_pass_offside", "end_of_cards"]


def transcript(name):
    game, events = replay(load_log(GOLDEN / f"{name}.jsonl"))
    lines = []
    for e in events:
        data = {k: v for k, v in e.data.items() if k not in ("round", "trick", "t")}
        lines.append(f"{e.t} {e.type} " + " ".join(f"{k}={data[k]}" for k in sorted(data)))
    return game, events, "\n".join(lines) + "\n\n" + format_scoresheet(game.scoresheet()) + "\n"


@pytest.mark.parametrize("name", GAMES)
def test_golden_transcript(name):
    _, _, text = transcript(name)
    expected = GOLDEN / f"{name}.expected"
    if os.environ.get("FODBOLD_REGEN"):
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")


def _find(events, type_, **data):
    return [e for e in events if e.type == type_ and all(e.data.get(k) == v for k, v in data.items())]


def test_golden_kickoff_goal_marking():
    game, events, _ = transcript("kickoff_goal_marking")
    assert _find(events, "kickoff", team="red") and _find(events, "roll", result="roll_again")
    assert _find(events, "shot", team="red", kind="lofted", result="goal", distance=6, number=8)
    assert _find(events, "marked", team="red", piece=10, player=7)
    assert _find(events, "released", team="red", piece=10, player=7)
    assert [v.type for v in game.violations] == ["marked", "stalling", "marker_must_move"]
    assert _find(events, "ball_won", team="red", piece=4)  # the lowest number on red's card after the stalling
    assert _find(events, "shot", team="red", result="over_bar", number=10, distance=6)
    assert game.pos.holder == ("blue", 1) and game.pos.score == {"red": 1, "blue": 0} and not game.over


def test_golden_bad_pass_offside():
    game, events, _ = transcript("bad_pass_offside")
    assert _find(events, "bad_pass", team="red", card="R01")
    assert _find(events, "ball_won", team="blue", piece=2)
    assert [v.detail for v in game.violations] == ["Offside: blue 11 was behind red 4 when he received the ball"]
    assert _find(events, "free_kick", team="red", piece=4)
    assert _find(events, "no_move", team="blue")
    assert _find(events, "goal", team="red", piece=9) and game.pos.holder == ("blue", 9)


def test_golden_end_of_cards():
    game, events, _ = transcript("end_of_cards")
    types = [e.type for e in events]
    assert types.index("cards_out") < types.index("last_chance") < types.index("goal") < types.index("game_over")
    sheet = game.scoresheet()
    assert sheet["complete"] and sheet["winner"] == "red" and sheet["score"] == {"red": 1, "blue": 0}
    assert sheet["cards_left"] == {"red": 0, "blue": 0}
    assert [v["type"] for v in sheet["violations"]] == ["game_over"]
