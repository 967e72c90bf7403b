"""`referee eval`: the AP arithmetic on hand-made readings, and the command on a rendered set."""
import json

import numpy as np
import pytest

from referee.cli import main
from referee.evaluate import average_precision, match


def sq(x, y, s=10.0):
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


def test_perfect_readings_score_one_and_a_misnamed_card_loses_its_class():
    truths = [("A", sq(0, 0), False), ("B", sq(50, 0), False)]
    perfect = average_precision([([("A", 0.9, sq(0, 0)), ("B", 0.8, sq(50, 0))], truths)])
    assert perfect["map50"] == pytest.approx(1.0) and perfect["map"] == pytest.approx(1.0)
    wrong = average_precision([([("A", 0.9, sq(0, 0)), ("A", 0.8, sq(50, 0))], truths)])
    assert wrong["per_class"]["B"] == (0.0, 0.0)
    assert wrong["map50"] == pytest.approx(0.5)       # A found (1.0), B never (0.0)


def test_a_loose_box_counts_at_iou_half_but_not_at_the_strict_thresholds():
    truths = [("A", sq(0, 0), False)]
    loose = average_precision([([("A", 0.9, sq(1.5, 1.5))], truths)])   # IoU 0.56
    assert loose["map50"] == pytest.approx(1.0)
    assert 0.0 < loose["map"] < 0.25


def test_readings_of_mostly_hidden_objects_are_neither_right_nor_wrong():
    truths = [("A", sq(0, 0), False), ("B", sq(50, 0), True)]     # B is ignored (under other cards)
    r = average_precision([([("A", 0.9, sq(0, 0)), ("C", 0.95, sq(50, 0))], truths)])
    assert r["map50"] == pytest.approx(1.0) and set(r["per_class"]) == {"A"}


def test_match_takes_the_surest_reading_first():
    iou = np.array([[0.6, 0.0], [0.7, 0.0]])
    assert match(iou, [0.2, 0.9]) == {0: 1}


@pytest.mark.skipif(not __import__("referee.recognize", fromlist=["x"]).detector_path("crazy").is_file(),
                    reason="shipped crazy models missing")
def test_eval_command_prints_the_figures_for_a_rendered_set(tmp_path, capsys):
    from referee.dataset import Recipe, build

    build(Recipe(deck="rook", images=3, seed=77, style_seed=78, width=640, height=640, view="table",
                 val_fraction=0.0), tmp_path / "set", progress=False)
    assert main(["eval", "--game", "crazy", "--data", str(tmp_path / "set"), "--json", "--quiet"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["images"] == 3 and r["objects"] > 0
    assert 0 <= r["map50_95"] <= r["map50"] <= 1 and 0 <= r["identity_accuracy"] <= 1
    assert sum(c["objects"] for c in r["per_class"].values()) == r["objects"]


def test_eval_refuses_a_camera_view_set_and_a_folder_without_labels(tmp_path, capsys):
    from referee.dataset import Recipe, build

    assert main(["eval", "--game", "crazy", "--data", str(tmp_path), "--quiet"]) == 2
    assert "no meta/ folder" in capsys.readouterr().err
    build(Recipe(deck="rook", images=1, seed=1, width=320, height=240, val_fraction=0.0), tmp_path / "cam",
          progress=False)
    if not __import__("referee.recognize", fromlist=["x"]).detector_path("crazy").is_file():
        pytest.skip("shipped crazy models missing")
    assert main(["eval", "--game", "crazy", "--data", str(tmp_path / "cam"), "--quiet"]) == 2
    assert "a camera picture" in capsys.readouterr().err


def _one_card_set(root, code: str):
    """A labelled set of one 200x200 view holding one whole card ``code``."""
    import cv2

    (root / "meta" / "val").mkdir(parents=True)
    (root / "images" / "val").mkdir(parents=True)
    cv2.imwrite(str(root / "images" / "val" / "000000.jpg"), np.zeros((200, 200, 3), np.uint8))
    card = {"kind": "card", "code": code, "face_up": True, "labelled": True, "visible_fraction": 1.0,
            "corners": sq(50, 50, 60).tolist()}
    (root / "meta" / "val" / "000000.json").write_text(json.dumps(
        {"width": 200, "height": 200, "view": {"kind": "table"}, "objects": [card]}))
    return root


class _Reads:
    """A recogniser that finds the set's one card and names it ``label``."""

    def __init__(self, label: str):
        from types import SimpleNamespace

        self.label = label
        self.detector = SimpleNamespace(names=("card",))

    def recognize(self, image):
        from referee.recognize import RecognizedCard

        return [RecognizedCard(self.label, 0.9, sq(50, 50, 60).astype(np.float32), 0.9, 1.0)]


def test_crazy_kick_twin_goal_cards_are_scored_as_one_name_and_other_cards_are_not(tmp_path):
    from referee.evaluate import evaluate
    from referee.recognize import face_names
    from referee.games.crazy_kick.catalogue import default_catalog

    faces = face_names("crazy-kick")
    cat = default_catalog()
    twins = {}
    for card_id, first in faces.items():
        twins.setdefault(first, []).append(card_id)
    pairs = [ids for ids in twins.values() if len(ids) > 1]
    assert ["R55", "R56"] in pairs and len(pairs) == 6
    for a, b in pairs:  # the same face but for the id: the same scorer of the same team
        assert (cat[a].team, cat[a].player, cat[a].is_goal) == (cat[b].team, cat[b].player, True)
    assert face_names("crazy") == {} and face_names("fodbold") == {}

    data = _one_card_set(tmp_path / "set", "R56")
    assert evaluate(_Reads("R55"), data, progress=False)["identity_accuracy"] == 0.0   # names are exact
    twin = evaluate(_Reads("R55"), data, progress=False, faces=faces)
    assert twin["identity_accuracy"] == 1.0 and twin["map50"] == pytest.approx(1.0)
    other = evaluate(_Reads("R57"), data, progress=False, faces=faces)              # another scorer
    assert other["identity_accuracy"] == 0.0 and other["map50"] == 0.0
