"""The commands: referee replay crazy-kick, referee cards crazy-kick, referee print crazy-kick."""
import json
import re

import pytest

from referee.cli import main
from referee.games.crazy_kick.catalogue import DEFAULT_CATALOG

from .helpers import MINI_DATA

SAMPLE = DEFAULT_CATALOG.with_name("sample_game.jsonl")


def test_replay_prints_the_scoresheet(capsys):
    assert main(["replay", "crazy-kick", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Score: red 5 - 2 white. Red wins" in out
    assert re.search(r"2:04\.5\s+red\s+Oskar\s+Max\s+R57", out)
    assert "Leon can't take a pass from Alex: not on Alex's card" in out


def test_replay_json_has_score_winner_goals_with_times_and_violations(capsys):
    assert main(["replay", "crazy-kick", str(SAMPLE), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["score"] == {"red": 5, "white": 2} and sheet["winner"] == "red"
    assert [g["t"] for g in sheet["goals"]] == [6.0, 25.5, 45.5, 64.0, 84.0, 104.0, 124.5]
    assert [v["type"] for v in sheet["violations"]] == ["not_on_card", "game_over"]


@pytest.mark.parametrize("rows,line,message", [
    ([{"type": "play", "t": 1, "card": "R01"}], 1, "first action must be 'setup'"),
    ([{"type": "setup", "teams": {"red": ["A"], "white": ["B"]}}, '{"type": "play", "t": 1', ], 2, "not valid JSON"),
    ([{"type": "setup", "teams": {"red": ["A"], "white": ["B"]}}, {"type": "play", "card": "R01"}], 2,
     "missing field 't'"),
    ([{"type": "setup", "teams": {"red": ["A"], "white": ["B"]}}, {"type": "play", "t": 5, "card": "R01"},
      {"type": "play", "t": 4, "card": "R02"}], 3, "time runs backwards"),
    ([{"type": "setup", "teams": {"red": ["A", "C", "D"], "white": ["B"]}}], 1, "equal"),
    ([{"type": "setup", "teams": {"red": ["A"], "white": ["B"]}, "catalog": "nope.yaml"}], 1, "catalog: .*cannot read"),
])
def test_malformed_logs_stop_with_the_line_number(write_log, capsys, rows, line, message):
    path = write_log(rows)
    assert main(["replay", "crazy-kick", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}:" in err and re.search(message, err)


def test_replay_with_the_catalogue_named_in_the_setup(write_log, tmp_path, capsys):
    (tmp_path / "mini.json").write_text(json.dumps(MINI_DATA))
    path = write_log([{"type": "setup", "teams": {"red": ["A"], "white": ["B"]}, "catalog": "mini.json"},
                      {"type": "play", "t": 1, "card": "R1"}, {"type": "play", "t": 2, "card": "R2"},
                      {"type": "play", "t": 3, "card": "RG"}])
    assert main(["replay", "crazy-kick", str(path), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["score"] == {"red": 1, "white": 0} and sheet["goals"][0]["scorer"] == "Leon"
    assert sheet["catalog"].endswith("mini.json")


def test_cards_json_lists_the_catalogue(capsys):
    assert main(["cards", "crazy-kick", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert len(cards) == 120
    assert set(cards[0]) == {"id", "team", "kind", "player", "name", "passes", "tackles"}
    assert cards[0]["kind"] == "player" and cards[0]["player"] == 1 and cards[0]["name"] == "Alex"
    assert sum(c["kind"] == "goal" for c in cards) == 16


def test_cards_with_another_catalogue_and_the_design_check(tmp_path, capsys):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(MINI_DATA))
    assert main(["cards", "crazy-kick", "--catalog", str(mine), "--json"]) == 0
    assert [c["id"] for c in json.loads(capsys.readouterr().out)][:2] == ["R1", "R2"]
    assert main(["cards", "crazy-kick", "--catalog", str(mine), "--check"]) == 0
    broken = dict(MINI_DATA, cards=[c for c in MINI_DATA["cards"] if c["id"] not in ("WG", "WH")])
    mine.write_text(json.dumps(broken))
    assert main(["cards", "crazy-kick", "--catalog", str(mine), "--check"]) == 1
    assert "white has no goal card" in capsys.readouterr().err
    assert main(["cards", "crazy-kick", "--catalog", str(tmp_path / "none.yaml")]) == 2


def _pdf_pages(data: bytes):
    """(MediaBox, decoded page image) for each page, read from the PDF's own objects."""
    from io import BytesIO

    from PIL import Image

    boxes = [tuple(float(x) for x in m.split()) for m in re.findall(rb"/MediaBox \[\s*([\d.\s]+?)\s*\]", data)]
    images = []
    for m in re.finditer(rb"/Filter /DCTDecode.*?stream\r?\n", data, re.S):
        start = m.end()
        end = data.index(b"endstream", start)
        images.append(Image.open(BytesIO(data[start:end])).convert("RGB"))
    return boxes, images


def test_print_writes_a_2_page_pdf_for_a_small_deck_at_real_size_with_cut_marks(tmp_path, capsys):
    import numpy as np

    from referee.games.crazy_kick.catalogue import catalog_from_data
    from referee.printing import SheetLayout
    from referee.render.crazy_kick_faces import card_face

    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(MINI_DATA))  # 11 cards: a full page of 9 and two more
    out = tmp_path / "deck.pdf"
    assert main(["print", "crazy-kick", "--catalog", str(mine), "--out", str(out), "--dpi", "100"]) == 0
    assert "2 A4 pages" in capsys.readouterr().out
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    boxes, images = _pdf_pages(data)
    assert len(images) == 2
    for box in boxes:  # A4 is 595.28 x 841.89 pt; pixel rounding at 100 dpi stays within a millimetre
        assert abs(box[2] - 595.28) < 3 and abs(box[3] - 841.89) < 3
    layout = SheetLayout(dpi=100)
    page = np.asarray(images[0]).astype(int)
    cat = catalog_from_data(MINI_DATA)
    for i, card in enumerate(list(cat)[:9]):
        x0, y0, x1, y1 = layout.card_box_px(i)
        assert (x1 - x0, y1 - y0) == (layout.px(63), layout.px(88))
        face = card_face(card, x1 - x0, y1 - y0, catalog=cat)[:, :, ::-1].astype(int)
        assert np.abs(page[y0:y1, x0:x1] - face).mean() < 12  # the right face in the right place (JPEG noise)
    x0, y0, _, _ = layout.card_box_px(0)
    mark = page[y0 - layout.px(4):y0 - layout.px(2), x0 - 1:x0 + 2]  # the mark above the first card's left edge
    assert mark.min() < 80
    blank = page[y0 - layout.px(4):y0 - layout.px(2), x0 + layout.px(20):x0 + layout.px(22)]
    assert blank.min() > 200  # and only there
    second = np.asarray(images[1]).astype(int)
    x0, y0, x1, y1 = layout.card_box_px(1)
    assert second[y0 + 5:y1 - 5, x0 + 5:x1 - 5].min() < 80      # the last page holds two cards ...
    x0, y0, x1, y1 = layout.card_box_px(2)
    assert second[y0 + 5:y1 - 5, x0 + 5:x1 - 5].min() > 230     # ... and the third slot is empty paper


def test_cards_text_lists_every_card_with_its_corners_by_name(capsys):
    assert main(["cards", "crazy-kick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 120
    assert re.match(r"R01\s+red\s+1 Alex\s+passes to Jonas, Felix\s+tackled by Paul$", lines[0])
    assert re.match(r"W60\s+white\s+GOAL\s+8 Dennis$", lines[-1])
