import csv
import random

import numpy as np

from referee.games.crazy.actions import ACTION_ADAPTER
from referee.games.crazy.rules import replay
from referee.games.crazy.simulate import random_game
from referee.overlay import Overlay, crazy_panel
from referee.phrases import crazy_en
from referee.report import result_line, thumbnail, write_report, write_scoresheet

EVIL = ["<script>alert(1)</script>", "Bob & Co", "Cyd", "Dee"]


def game_with_fouls():
    log = random_game(random.Random(5), EVIL, fouls=0.2)
    return replay([ACTION_ADAPTER.validate_python(a) for a in log])


def test_report_escapes_names_marks_violations_and_embeds_thumbnails(tmp_path):
    game, events = game_with_fouls()
    thumbs = {0: thumbnail(np.zeros((120, 160, 3), np.uint8))}
    path = tmp_path / "report.html"
    write_report(path, title="crazy review", subtitle="test.mp4", sheet=game.scoresheet(), events=events,
                 phrase=crazy_en, thumbs=thumbs, stats={"frames": 10})
    html = path.read_text()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Bob &amp; Co" in html
    assert html.count('class="violation"') == sum(e.type == "violation" for e in events) > 0
    assert html.count("data:image/jpeg;base64,") == 1
    assert "src=\"http" not in html  # self-contained


def test_scoresheet_csv_has_a_row_per_round_and_totals(tmp_path):
    game, _ = game_with_fouls()
    sheet = game.scoresheet()
    write_scoresheet(sheet, tmp_path)
    rows = list(csv.reader(open(tmp_path / "scoresheet.csv")))
    assert rows[0] == ["round", *EVIL] and len(rows) == 1 + 5 + 1
    assert rows[-1][1:] == [str(sheet["totals"][p]) for p in EVIL]
    assert (tmp_path / "scoresheet.json").is_file()
    assert result_line(sheet).startswith(("Winner", "Shared win", EVIL[0], EVIL[1], "Cyd", "Dee"))


def test_overlay_draws_cards_panel_and_recent_captions_only():
    game, _ = game_with_fouls()
    img = np.zeros((240, 320, 3), np.uint8)
    ov = Overlay(captions=2, caption_s=2.0)
    ov.add_caption(0.0, "old news")
    ov.add_caption(9.0, "Revoke by Cyd", urgent=True)
    out = ov.draw(img, 10.0, cards=[("G7", 0.9, np.array([[50, 50], [90, 50], [90, 110], [50, 110]]))],
                  panel=crazy_panel(game))
    assert out.shape == img.shape and img.sum() == 0  # drawn on a copy
    assert out[50:111, 50:91].any()                 # the card outline
    assert out[:20, :200].any()                     # the panel
    bottom = out[-40:, :]
    assert (bottom[..., 2] > 200).any()             # the urgent caption is red
