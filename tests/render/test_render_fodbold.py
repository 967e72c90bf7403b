"""Fodbold: board, pieces (stacked too), ball and cards, labelled against the drawn pixels."""
import json

import numpy as np
import pytest
import yaml

from referee.cli import main
from referee.games.fodbold.loader import load_board, load_decks
from referee.render.camera import top_down_camera
from referee.render.fodbold import (BALL_ID, BOARD_ID, PIECE_BASE, FodboldDrawer, FodboldFaces, annotate_objects,
                                    board_image, compose_fodbold, fodbold_card_ids, fodbold_classes, random_board_style)
from referee.render.render import Effects, render_scene


@pytest.fixture(scope="module")
def board():
    return load_board()


def test_classes_name_every_piece_card_ball_and_board():
    names = fodbold_classes()
    assert names[:22] == [f"{t}-{n}" for t in ("red", "blue") for n in range(1, 12)]
    d = load_decks()
    assert set(fodbold_card_ids()) == set(d.passes["red"]) | set(d.passes["blue"]) | set(d.shots)
    assert {"ball", "board", "back"} <= set(names) and len(set(names)) == len(names)


def test_board_image_has_the_grid_of_the_board_file(board):
    style = random_board_style(np.random.default_rng(0))
    img = board_image(board, style, px_per_mm=2.0)
    s, m = style.square_mm * 2, style.margin_mm * 2
    assert img.shape[1] == round(board.columns * s + 2 * m) and img.shape[0] == round((board.rows + 2) * s + 2 * m)
    # count the grid lines crossing a row through the middle of square row 5 (lines are near white)
    y = int(m + (board.rows + 1 - 5 - 0.5) * s)
    x0, x1 = int(m) - 3, int(m + board.columns * s) + 4  # the pitch only: the frame carries labels
    bright = img[y, x0:x1, :].min(1) > 180
    rises = int(np.sum(bright[1:] & ~bright[:-1]))
    assert rises == board.columns + 1, rises


def render_top_down(seed, board):
    rng = np.random.default_rng(seed)
    styles = [random_board_style(rng)]
    fs = compose_fodbold(rng, styles, board)
    fs.scene.arms, fs.scene.props = [], []
    cam = top_down_camera(900, 900, 1.2, target=fs.board.centre, height_mm=2000)
    drawer = FodboldDrawer(fs, board, {})
    img, anns, ids = render_scene(fs.scene, cam, FodboldFaces(styles), np.full((64, 64, 3), (90, 90, 90), np.uint8),
                                  Effects(), underlay=drawer.underlay, overlay=drawer.overlay)
    return fs, cam, img, ids, annotate_objects(fs, board, drawer, ids, cam.project)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_piece_is_labelled_where_it_stands(seed, board):
    fs, cam, img, ids, objs = render_top_down(seed, board)
    pieces = [o for o in objs if o["kind"] == "piece"]
    assert len(pieces) == 22 and {o["class"] for o in pieces} == set(fodbold_classes()[:22])
    for o, p in zip(pieces, fs.pieces):
        marked = p.level == 0 and any(q.level == 1 and q.square == p.square for q in fs.pieces)
        if marked:  # seen from straight above, a marked piece hides under its marker: not labelled
            assert o["visible_fraction"] < 0.25 and not o["labelled"], o
            continue
        assert o["labelled"], o
        x0, y0, x1, y1 = o["bbox"]
        cx, cy = cam.project(np.array([p.pos_mm]))[0]
        assert x0 < cx < x1 and y0 < cy < y1, (o["class"], o["bbox"], (cx, cy))
        # the box holds the piece's team colour: red pieces are redder than blue ones
        patch = img[int(y0):int(y1), int(x0):int(x1)].reshape(-1, 3).astype(int)
        redness = (patch[:, 2] - patch[:, 0]).mean()
        assert (redness > 20) if p.team == "red" else (redness < -20), (o["class"], redness)
        width = (x1 - x0) * 1.2  # mm: the piece is 0.76 of a square across (its side shows a little too)
        assert 0.6 * fs.board.style.square_mm < width < 1.1 * fs.board.style.square_mm
    board_obj = next(o for o in objs if o["kind"] == "board")
    assert board_obj["labelled"] and board_obj["visible_fraction"] > 0.8
    ball = next(o for o in objs if o["kind"] == "ball")
    assert ball["visible_px"] > 0 and (ids == BALL_ID).sum() == ball["visible_px"]
    assert (ids == BOARD_ID).any() and (ids >= PIECE_BASE).any()


def test_fodbold_dataset(tmp_path):
    out = tmp_path / "fb"
    assert main(["dataset", "build", "--game", "fodbold", "--images", "2", "--seed", "4", "--out", str(out),
                 "--width", "480", "--height", "360", "--styles", "1", "--quiet"]) == 0
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert list(data["names"].values()) == fodbold_classes()
    meta = json.loads((out / "meta/train/000000.json").read_text())
    kinds = {o["kind"] for o in meta["objects"]}
    assert {"piece", "ball", "board"} <= kinds
    rows = (out / "labels/train/000000.txt").read_text().splitlines()
    assert len(rows) == sum(o["labelled"] for o in meta["objects"] if o["kind"] != "arm")
    assert main(["dataset", "build", "--game", "fodbold", "--images", "1", "--out", str(tmp_path / "c"),
                 "--classes", "card", "--quiet", "--width", "320", "--height", "240"]) == 0
    assert yaml.safe_load((tmp_path / "c/data.yaml").read_text())["names"] == {0: "card", 1: "piece", 2: "ball", 3: "board"}
