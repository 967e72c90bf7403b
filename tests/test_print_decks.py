"""Print-and-play for the Crazy decks: every card of the deck, 9 to a page, in a renderer design."""
import argparse
import itertools

import numpy as np
import pytest

from referee.cli import main
from referee.printing import DECKS, SheetLayout


@pytest.mark.parametrize("deck,pages", [("rook", 7), ("standard", 6)])
def test_a_whole_deck_prints(deck, pages, tmp_path, capsys):
    out = tmp_path / f"{deck}.pdf"
    assert main(["print", deck, "--out", str(out), "--dpi", "100"]) == 0
    assert f"{pages} A4 pages" in capsys.readouterr().out
    assert out.read_bytes()[:5] == b"%PDF-"


def test_faces_are_card_sized_and_differ_by_card_and_by_design():
    lay = SheetLayout(dpi=100)
    w, h = lay.card_px()
    one = list(itertools.islice(DECKS["rook"](argparse.Namespace(style=0), w, h), 2))
    other = next(DECKS["rook"](argparse.Namespace(style=1), w, h))
    assert one[0].shape[1] == w and abs(one[0].shape[0] - h) <= 2
    assert not np.array_equal(one[0], one[1])
    assert not np.array_equal(one[0], other)
