"""The card faces: the renderer the print-and-play deck and the synthetic data share."""
import numpy as np
import pytest

from referee.games.crazy_kick.catalogue import default_catalog
from referee.printing import SheetLayout, render_page
from referee.render.crazy_kick_faces import TEAM_FILL, card_face

CAT = default_catalog()


def share_near(img, bgr, tol=40):
    return float((np.abs(img.astype(int) - np.array(bgr)).max(axis=2) < tol).mean())


@pytest.mark.parametrize("size,shape", [((126, None), (176, 126, 3)), ((200, 280), (280, 200, 3))])
def test_face_is_a_bgr_uint8_array_of_the_asked_size(size, shape):
    face = card_face(CAT["R01"], *size)
    assert face.shape == shape and face.dtype == np.uint8


def test_red_cards_are_red_and_white_cards_white():
    assert share_near(card_face(CAT["R20"], 252), TEAM_FILL["red"]) > 0.5
    assert share_near(card_face(CAT["W20"], 252), TEAM_FILL["white"]) > 0.5
    assert share_near(card_face(CAT["W20"], 252), TEAM_FILL["red"]) < 0.1  # unless a red player tackles


def test_corner_chips_are_in_the_named_players_team_colour():
    face = card_face(CAT["R05"], 252)  # Alex: passes to Felix and Tim (red), Paul and Luca (white) tackle
    h, w = face.shape[:2]
    top_left, bottom_right = face[int(h * 0.05):int(h * 0.2), int(w * 0.06):int(w * 0.45)], \
        face[int(h * 0.72):int(h * 0.88), int(w * 0.55):int(w * 0.94)]
    assert share_near(top_left, TEAM_FILL["red"]) > 0.5       # a team-mate on red
    assert share_near(bottom_right, TEAM_FILL["white"]) > 0.4  # an opponent on white
    white_card = card_face(CAT["W05"], 252)                   # Stefan: Mario and Leon (red) tackle him
    assert share_near(white_card[int(h * 0.72):int(h * 0.88), int(w * 0.55):int(w * 0.94)], TEAM_FILL["red"]) > 0.4


def test_every_card_has_its_own_face_and_drawing_is_deterministic():
    faces = {c.id: card_face(c, 126).tobytes() for c in CAT}
    assert len(set(faces.values())) == 120
    assert card_face(CAT["R53"], 126).tobytes() == faces["R53"]


def test_goal_cards_are_marked():
    goal, player = card_face(CAT["R53"], 252), card_face(CAT["R38"], 252)  # both Mario
    h = goal.shape[0]
    band = slice(int(h * 0.24), int(h * 0.50))  # the net on a goal card: many thin white lines on red
    assert share_near(goal[band], (255, 255, 255), 60) > share_near(player[band], (255, 255, 255), 60) + 0.05


def test_a_page_holds_nine_cards_at_real_size():
    layout = SheetLayout(dpi=60)
    faces = [card_face(c, *layout.card_px()) for c in list(CAT)[:9]]
    page = render_page(faces, layout)
    assert page.shape[:2] == (layout.px(297), layout.px(210))
    x0, y0, _, _ = layout.card_box_px(0)
    _, _, x1, y1 = layout.card_box_px(8)
    assert abs((x1 - x0) - layout.px(189)) <= 1 and abs((y1 - y0) - layout.px(264)) <= 1
    assert (page[y0:y1, x0:x1] == 255).all(axis=2).mean() < 0.05  # the grid is all card


def test_faces_by_id_match_the_card_faces_and_classes_are_the_ids():
    from referee.render.crazy_kick_faces import card_classes, face_by_id

    assert card_classes()[:2] == ["R01", "R02"] and len(card_classes()) == 120
    assert (face_by_id("W07", 100) == card_face(CAT["W07"], 100)).all()
    with pytest.raises(KeyError):
        face_by_id("X1", 100)
