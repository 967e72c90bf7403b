"""Labels against the drawn pixels: every card of every deck is rendered on a plain table, and each
label's box, corners and identity are checked against what the image shows (not against the id map
the labels were made from)."""
import math

import cv2
import numpy as np
import pytest

from referee.render.camera import random_camera, top_down_camera
from referee.render.faces import CARD_H_MM, CARD_W_MM, FaceCache, card_classes, random_style
from referee.render.render import MIN_VISIBLE, render_scene
from referee.render.scene import Arm, CardPlacement, Scene

TABLE = (200, 60, 20)  # a blue no card is printed in


def plain_table():
    return np.full((64, 64, 3), TABLE, np.uint8)


def grid_scene(deck, codes, angle=0.0, pitch=(80.0, 105.0), cols=8):
    rows = math.ceil(len(codes) / cols)
    cards = []
    for k, code in enumerate(codes):
        r, c = divmod(k, cols)
        x = (c - (cols - 1) / 2) * pitch[0]
        y = ((rows - 1) / 2 - r) * pitch[1]
        cards.append(CardPlacement(code, True, (x, y), angle, "loose", 0))
    return Scene("crazy", deck, cards), (cols * pitch[0], rows * pitch[1])


def drawn_mask(img):
    return np.abs(img.astype(int) - TABLE).sum(2) > 40


def drawn_box(drawn, corners, grow=4):
    """Box of the drawn pixels near one card: inside its corner quadrilateral grown by ``grow`` px
    (so a neighbour's pixels never count)."""
    near = np.zeros(drawn.shape, np.uint8)
    cv2.fillConvexPoly(near, np.round(corners * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    near = cv2.dilate(near, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    ys, xs = np.nonzero(drawn & (near > 0))
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def deck_faces(deck, seed):
    """(faces, every card code) of one design of ``deck``."""
    if deck == "crazy-kick":
        from referee.render.kick import KickFaces, kick_classes

        return KickFaces(1, np.random.default_rng(seed)), kick_classes()[:-1]
    return FaceCache(deck, [random_style(np.random.default_rng(seed), deck)], 200), card_classes(deck)


@pytest.mark.parametrize("deck", ["rook", "standard", "crazy-kick"])
@pytest.mark.parametrize("angle", [0.0, 23.0])
def test_every_card_box_covers_exactly_its_drawn_pixels(deck, angle):
    faces, codes = deck_faces(deck, 5)
    scene, (w_mm, h_mm) = grid_scene(deck, codes, angle, pitch=(80.0, 105.0) if angle == 0 else (115.0, 125.0))
    cam = top_down_camera(int(w_mm / 0.8) + 20, int(h_mm / 0.8) + 20, 0.8)
    img, anns, _ = render_scene(scene, cam, faces, plain_table())
    drawn = drawn_mask(img)
    assert len(anns) == len(codes)
    tol = 1.5 if angle == 0 else 2.5  # rounded corners sit inside the corner points when turned
    for ann, card in zip(anns, scene.cards):
        assert ann.labelled and ann.label == card.code
        assert ann.visible_fraction > 0.95, (card.code, ann.visible_fraction)
        pix = drawn_box(drawn, ann.corners)
        assert np.allclose(ann.bbox, pix, atol=tol), (card.code, ann.bbox, pix)
        # the box of the corner points and the box of the pixels agree too
        cb = (*ann.corners.min(0), *ann.corners.max(0))
        assert np.allclose(cb, pix, atol=tol + 1), (card.code, cb, pix)


@pytest.mark.parametrize("deck", ["rook", "standard", "crazy-kick"])
def test_warping_by_the_corners_gives_the_upright_face_of_the_labelled_card(deck):
    faces, codes = deck_faces(deck, 9)
    rng = np.random.default_rng(1)
    scene, (w_mm, h_mm) = grid_scene(deck, codes, 0.0, pitch=(110.0, 110.0))
    for c in scene.cards:  # every card turned a different way
        c.angle_deg = float(rng.uniform(0, 360))
    cam = top_down_camera(int(w_mm / 0.6), int(h_mm / 0.6), 0.6)
    img, anns, _ = render_scene(scene, cam, faces, plain_table())
    size = (60, 84)
    dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    refs = np.stack([cv2.resize(faces.get(0, c)[0], size, interpolation=cv2.INTER_AREA) for c in codes]).astype(np.float32)
    for ann in anns:
        M = cv2.getPerspectiveTransform(ann.corners.astype(np.float32), dst)
        crop = cv2.warpPerspective(img, M, size).astype(np.float32)
        inner = (slice(6, -6), slice(6, -6))  # leave out the corners' table background
        d = np.abs(refs[:, inner[0], inner[1]] - crop[inner]).mean(axis=(1, 2, 3))
        # the labelled face matches best (Crazy Kick's goal cards of one scorer differ only in their
        # tiny printed id, so a twin may match as well: within a hair of the best)
        own = d[codes.index(ann.label)]
        assert own <= d.min() + 0.5, (ann.label, codes[int(d.argmin())], own, d.min())
        assert own < 20


def two_cards(dx, dy=0.0):
    return Scene("crazy", "rook", [CardPlacement("R5", True, (0.0, 0.0), 0.0, "trick"),
                                   CardPlacement("G9", True, (dx, dy), 0.0, "trick")])


def render_clean(scene, cam=None, deck="rook"):
    faces = FaceCache(deck, [random_style(np.random.default_rng(0), deck)], 200)
    cam = cam or top_down_camera(400, 300, 0.5)
    return render_scene(scene, cam, faces, plain_table())


def test_a_covered_card_gets_the_box_of_its_visible_part():
    img, anns, _ = render_clean(two_cards(CARD_W_MM / 2))
    under, top = anns
    assert abs(under.visible_fraction - 0.5) < 0.04
    assert top.visible_fraction > 0.97
    assert under.labelled
    # the box runs from the under card's left edge to the top card's left edge (a few px more:
    # the under card shows where the top card's corners are rounded)
    assert abs(under.bbox[0] - under.corners[:, 0].min()) < 1.5
    radius_px = 0.1 * (top.corners[1, 0] - top.corners[0, 0])
    assert top.corners[:, 0].min() - 0.5 <= under.bbox[2] <= top.corners[:, 0].min() + radius_px
    assert abs((under.bbox[3] - under.bbox[1]) - (top.bbox[3] - top.bbox[1])) < 1.5


def test_a_card_mostly_covered_is_in_the_sidecar_but_not_labelled():
    _, anns, _ = render_clean(two_cards(CARD_W_MM * 0.15, 2.0))
    under = anns[0]
    assert 0 < under.visible_fraction < MIN_VISIBLE
    assert under.bbox is not None and not under.labelled


def test_an_arm_over_a_card_hides_it():
    scene = Scene("crazy", "rook", [CardPlacement("Y2", True, (0.0, 0.0), 0.0, "trick")],
                  arms=[Arm((-400.0, 0.0), (10.0, 0.0), 0.0, 110.0, (150, 180, 225), (90, 30, 30), 0.4)])
    _, anns, ids = render_clean(scene)
    assert anns[0].visible_fraction < 0.05 and not anns[0].labelled
    assert (ids == -2).mean() > 0.1


def test_a_card_cut_by_the_frame_is_boxed_inside_the_frame():
    cam = top_down_camera(200, 200, 0.5)  # 100 x 100 mm of table
    scene = Scene("crazy", "rook", [CardPlacement("B14", True, (50.0, 0.0), 0.0, "loose")])
    img, anns, _ = render_clean(scene, cam)
    a = anns[0]
    assert abs(a.visible_fraction - 0.5) < 0.04
    assert a.bbox[2] == 200 and abs(a.bbox[0] - a.corners[:, 0].min()) < 1.5
    assert a.corners[:, 0].max() > 250  # the corners are kept outside the frame, unclipped


def test_lens_distortion_moves_labels_with_the_pixels():
    deck = "standard"
    codes = ["AS", "10H", "QD", "2C", "7S", "KH"]
    scene, _ = grid_scene(deck, codes, 0.0, cols=3)
    for seed in range(3):
        cam = random_camera(np.random.default_rng(seed), 480, 360, height_mm=(350, 400), tilt_deg=(10, 25))
        cam.k1, cam.k2 = (0.15, 0.02) if seed % 2 else (-0.12, -0.02)
        img, anns, _ = render_clean(scene, cam, deck)
        drawn = drawn_mask(img)
        for ann in anns:
            if not ann.labelled or ann.visible_fraction < 0.99:
                continue
            pix = drawn_box(drawn, ann.corners)
            assert np.allclose(ann.bbox, pix, atol=2.5), (seed, ann.label, ann.bbox, pix)
            # each corner point lies on the card's edge: just inside it there is card, not table
            centre = ann.corners.mean(0)
            for p in ann.corners:
                q = p + (centre - p) * 0.08
                assert drawn[int(q[1]), int(q[0])], (seed, ann.label, p)


def test_table_view_labels_follow_the_rectified_pixels():
    from referee.render.render import TableView, rectify

    deck = "rook"
    codes = ["R1", "Y14", "G7", "B9", "R12", "G2"]
    scene, _ = grid_scene(deck, codes, 15.0, pitch=(90.0, 110.0), cols=3)
    cam = random_camera(np.random.default_rng(3), 960, 720, height_mm=(600, 650), tilt_deg=(15, 25))
    cam.k1 = 0.1
    img, anns, ids = render_clean(scene, cam, deck)
    view = TableView((0.0, 0.0), 400.0, 30.0, 400, 400)
    top, tanns, _ = rectify(scene, cam, img, ids, view)
    drawn = drawn_mask(top)
    for ann in tanns:
        assert ann.labelled and ann.visible_fraction > 0.95
        pix = drawn_box(drawn, ann.corners)
        assert np.allclose(ann.bbox, pix, atol=2.5), (ann.label, ann.bbox, pix)
        # in the table view every card has its true size: 63 x 88 mm at 1 px/mm
        assert abs(np.linalg.norm(ann.corners[1] - ann.corners[0]) - CARD_W_MM) < 0.01
        assert abs(np.linalg.norm(ann.corners[3] - ann.corners[0]) - CARD_H_MM) < 0.01


def test_props_lie_under_the_cards_and_the_floor_shows_beyond_the_table_edge():
    from referee.render.scene import Prop, Table

    scene = Scene("crazy", "standard", [CardPlacement("QH", True, (0.0, 0.0), 10.0, "loose")],
                  props=[Prop("scoresheet", (20.0, 10.0), 0.0, (148.0, 210.0), 4)],
                  table=Table("round", radius_mm=180.0))
    cam = top_down_camera(400, 400, 1.0)  # 400 x 400 mm: the round table's edge is in view
    img, anns, ids = render_clean(scene, cam, "standard")
    a = anns[0]
    assert a.labelled and a.visible_fraction > 0.97  # the sheet is under the card, not over it
    assert (ids >= 0).sum() == a.visible_px and (ids == -1).any()
    floor, table = img[5, 5].astype(int), img[200, 320].astype(int)  # a corner; 120 mm right of the centre
    assert np.abs(floor - table).sum() > 60
