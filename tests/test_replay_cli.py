"""`referee replay crazy` end to end: the JSON scoresheet, the text scoresheet and bad input."""
import json
import random
import subprocess
import sys

import pytest

from referee.cli import main
from referee.games.crazy.simulate import random_game

SETUP = {"type": "setup", "game": "crazy", "players": ["Ann", "Bob", "Cyd", "Dee"], "deck": "rook", "dealer": "Ann",
         "options": {}}


def test_json_scoresheet_has_the_documented_fields(write_log, capsys):
    log = random_game(random.Random(3), ["Ann", "Bob", "Cyd", "Dee"], with_deal=False)
    assert log[1]["type"] == "choose" and log[1]["player"] == "Bob"
    log.insert(2, {"type": "play", "player": "Bob", "card": "B15"})  # an unknown card, recorded not fatal
    assert main(["replay", "crazy", str(write_log(log)), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in sheet["rounds"]][-1] == "crazy" and len(sheet["rounds"]) == 5
    r = sheet["rounds"][0]
    assert {"round", "dealer", "chooser", "points", "tricks"} <= set(r)
    assert {"leader", "cards", "winner"} <= set(r["tricks"][0])
    assert set(sheet["totals"]) == {"Ann", "Bob", "Cyd", "Dee"}
    assert sheet["winners"] and sheet["moon"] is None or sheet["moon"] in sheet["totals"]
    assert sum(sum(r["points"].values()) for r in sheet["rounds"]) >= sum(sheet["totals"].values())
    v = [v for v in sheet["violations"] if v["type"] == "unknown_card"]
    assert len(v) == 1 and {"type", "player", "trick", "detail"} <= set(v[0])


def test_text_scoresheet(write_log, capsys):
    log = random_game(random.Random(4), ["Ann", "Bob", "Cyd", "Dee"])
    assert main(["replay", "crazy", str(write_log(log))]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "total" in out and ("Winner" in out or "Shared win" in out or "moon" in out)


@pytest.mark.parametrize("lines,line_no,message", [
    ([SETUP, '{"type": "play", "player": "Bob", "card": '], 2, "not valid JSON"),
    ([SETUP, {"type": "play", "player": "Bob"}], 2, "missing field 'card'"),
    ([SETUP, {"type": "pass", "player": "Bob"}], 2, "unknown action type 'pass'"),
    ([SETUP, {"player": "Bob", "card": "G7"}], 2, "'type' field"),
    ([{"type": "play", "player": "Bob", "card": "G7"}], 1, "first action must be 'setup'"),
    ([SETUP, SETUP], 2, "second 'setup'"),
    ([{**SETUP, "dealer": "Zed"}], 1, "dealer 'Zed' is not one of the players"),
    ([{**SETUP, "players": ["Ann", "Bob", "Cyd"]}], 1, "at least 4"),
    ([{**SETUP, "options": {"removed": ["R1"]}}], 1, "do not deal evenly"),
    ([SETUP, {"type": "choose", "player": "Bob", "round": "blue"}], 2, "round"),
    ([SETUP, {"type": "play", "plyer": "Bob", "card": "G7"}], 2, "unexpected field 'plyer'"),
    ([SETUP, "[1, 2]"], 2, "expected a JSON object"),
])
def test_malformed_logs_exit_non_zero_with_the_line_and_print_nothing(write_log, capsys, lines, line_no, message):
    path = write_log(lines)
    assert main(["replay", "crazy", str(path)]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing half-written
    assert f"{path}:{line_no}:" in captured.err and message in captured.err


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["replay", "crazy", str(tmp_path / "nope.jsonl")]) != 0
    assert "no such file" in capsys.readouterr().err


def test_python_dash_m_replays_the_bundled_log():
    from referee.games.crazy import DEMO_LOG

    out = subprocess.run([sys.executable, "-m", "referee", "replay", "crazy", str(DEMO_LOG)], capture_output=True,
                         text=True, check=True).stdout
    assert "Crazy, rook deck" in out and "total" in out


def test_the_demo_simulates_reviews_and_prints_both_scoresheets(tmp_path):
    out = subprocess.run([sys.executable, "-m", "referee", "demo", "--seconds", "3", "--mute", "--perception", "truth",
                          "--out", str(tmp_path)], capture_output=True, text=True, check=True).stdout
    assert "REFEREE (from the video)" in out and "TRUTH" in out
    assert "plays read right" in out and (tmp_path / "review" / "report.html").is_file()
