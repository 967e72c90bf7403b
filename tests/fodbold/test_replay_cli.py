"""`referee replay fodbold` end to end: the JSON and text scoresheets, user files, malformed logs."""
import json
import random
import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.games.fodbold.simulate import random_game

from .helpers import BOARD, DECKS

GOLDEN = Path(__file__).with_name("golden")
SETUP = {"type": "setup", "game": "fodbold", "teams": {"red": "Ann", "blue": "Bob"}}


def test_json_scoresheet_has_score_winner_events_and_violations(write_log, capsys):
    log = random_game(random.Random(5), BOARD, DECKS)
    log.insert(5, {"type": "draw", "team": "red", "card": "R99"})  # never a legal draw: recorded, not fatal
    assert main(["replay", "fodbold", str(write_log(log)), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert {"score", "winner", "events", "violations", "goals", "position", "complete"} <= set(sheet)
    assert sheet["complete"] and sum(sheet["score"].values()) == len(sheet["goals"])
    assert sum(e["type"] == "goal" for e in sheet["events"]) == len(sheet["goals"])
    v = [v for v in sheet["violations"] if v["type"] in ("out_of_turn", "move_expected", "unknown_card")]
    assert len(v) == 1 and {"type", "player", "detail", "t"} <= set(v[0])
    assert all({"type", "t", "priority"} <= set(e) for e in sheet["events"])


def test_text_scoresheet(capsys):
    assert main(["replay", "fodbold", str(GOLDEN / "end_of_cards.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "red (Ann) 1 - 0 blue (Bob)" in out and "Winner: red (Ann)." in out and "game_over by blue" in out


def test_the_setup_may_name_board_and_deck_files_next_to_the_log(tmp_path, capsys):
    shutil.copy(GOLDEN / "short_decks.yaml", tmp_path / "my_cards.yaml")
    log = tmp_path / "game.jsonl"
    log.write_text(json.dumps({**SETUP, "first": "red", "decks": "my_cards.yaml"}) + "\n"
                   + json.dumps({"type": "draw", "team": "red", "card": "R01"}) + "\n"
                   + json.dumps({"type": "draw", "team": "red", "card": "R2"}) + "\n")
    assert main(["replay", "fodbold", str(log), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert [v["type"] for v in sheet["violations"]] == ["unknown_card"]  # R01 is a default card, not one of these
    assert sheet["cards_left"] == {"red": 2, "blue": 3}


BAD_BOARD = "columns: 13\nrows: 20\n"


@pytest.mark.parametrize("lines,line_no,message", [
    ([SETUP, '{"type": "draw", "team": "red", '], 2, "not valid JSON"),
    ([SETUP, {"type": "draw", "team": "red"}], 2, "missing field 'card'"),
    ([SETUP, {"type": "kick", "team": "red"}], 2, "unknown action type 'kick'"),
    ([SETUP, {"type": "draw", "team": "green", "card": "R01"}], 2, "team"),
    ([SETUP, {"type": "move", "team": "red", "piece": 12, "to": "g12"}], 2, "piece"),
    ([SETUP, {"type": "move", "team": "red", "piece": 9, "to": "12g"}], 2, "bad square name"),
    ([SETUP, {"type": "roll", "team": "red", "value": 7}], 2, "value"),
    ([SETUP, {"type": "draw", "team": "red", "crad": "R01"}], 2, "unexpected field 'crad'"),
    ([{"type": "draw", "team": "red", "card": "R01"}], 1, "first action must be 'setup'"),
    ([SETUP, SETUP], 2, "second 'setup'"),
    ([{**SETUP, "position": "1g1,9g10/1g20 red 0-0"}], 1, "no piece has the ball"),
    ([{**SETUP, "decks": "nowhere.yaml"}], 1, "no such file"),
    ([{**SETUP, "options": {"offside_counts": "some"}}], 1, "offside_counts"),
])
def test_malformed_logs_exit_non_zero_with_the_line_and_print_nothing(write_log, capsys, lines, line_no, message):
    path = write_log(lines)
    assert main(["replay", "fodbold", str(path)]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:{line_no}:" in captured.err and message in captured.err


def test_a_bad_board_file_is_an_error_on_the_setup_line(tmp_path, capsys):
    (tmp_path / "b.yaml").write_text(BAD_BOARD)
    log = tmp_path / "game.jsonl"
    log.write_text("# a comment line\n" + json.dumps({**SETUP, "board": "b.yaml"}) + "\n")
    assert main(["replay", "fodbold", str(log)]) == 2
    err = capsys.readouterr().err
    assert f"{log}:2:" in err and "'halves' must have exactly the keys red and blue" in err


def test_a_missing_team_name_is_the_colour(write_log, capsys):
    assert main(["replay", "fodbold", str(write_log([{**SETUP, "teams": {"red": "Ann"}}])), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["teams"] == {"red": "Ann", "blue": "blue"} and not sheet["complete"] and sheet["winner"] is None


def test_the_bundled_demo_game_replays_to_the_end(capsys):
    from referee.games.fodbold import DEMO_LOG

    assert main(["replay", "fodbold", str(DEMO_LOG)]) == 0
    out = capsys.readouterr().out
    assert "red (red) 1 - 2 blue (blue)" in out and "Winner: blue (blue)." in out and "Violations" not in out
