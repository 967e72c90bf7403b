"""Every face of both decks, in several random styles: drawn, distinct, and with ink where it belongs."""
from dataclasses import replace

import numpy as np
import pytest

from referee.games.crazy.cards import full_deck
from referee.render.faces import (ASPECT, BACK, FaceCache, card_classes, random_style, render_back,
                                  render_face)

STYLES = 3


@pytest.fixture(scope="module", params=["rook", "standard"])
def deck_faces(request):
    deck = request.param
    rng = np.random.default_rng(123)
    styles = [random_style(rng, deck) for _ in range(STYLES)]
    return deck, styles, {(s, code): render_face(deck, code, st, 120)
                          for s, st in enumerate(styles) for code in card_classes(deck)}


def test_classes_follow_the_deck_module():
    assert card_classes("rook") == [c.code("rook") for c in full_deck("rook")]
    assert len(card_classes("rook")) == 56 and len(card_classes("standard")) == 52
    with pytest.raises(ValueError, match="unknown deck"):
        card_classes("tarot")


def test_every_face_is_drawn_with_ink_and_rounded_corners(deck_faces):
    deck, styles, faces = deck_faces
    assert len(faces) == STYLES * len(card_classes(deck))
    for (s, code), (img, alpha) in faces.items():
        assert img.shape == (round(120 * ASPECT), 120, 3) and img.dtype == np.uint8
        assert alpha.shape == img.shape[:2]
        assert alpha[0, 0] < 128 and alpha[alpha.shape[0] // 2, alpha.shape[1] // 2] == 255, code
        paper = np.array(styles[s].paper, float)
        ink = np.abs(img.astype(float) - paper).sum(2) > 90
        assert 0.01 < ink.mean() < 0.8, (s, code, ink.mean())
        # the corner index is printed twice, point-symmetric: top-left and bottom-right both have ink
        h, w = ink.shape
        assert ink[: h // 5, : w // 4].mean() > 0.01 and ink[-h // 5:, -w // 4:].mean() > 0.01, (s, code)


def test_faces_of_one_style_are_all_different(deck_faces):
    deck, _, faces = deck_faces
    for s in range(STYLES):
        imgs = [faces[(s, code)][0].astype(int) for code in card_classes(deck)]
        for i in range(len(imgs)):
            for j in range(i + 1, len(imgs)):
                # clubs and spades court cards differ only in their small pips: count clearly changed pixels
                changed = int((np.abs(imgs[i] - imgs[j]).sum(2) > 100).sum())
                assert changed > 30, (s, card_classes(deck)[i], card_classes(deck)[j], changed)


def test_styles_differ_and_are_reproducible():
    a = [random_style(np.random.default_rng(7), "rook") for _ in range(2)]
    assert a[0] == a[1]
    b = random_style(np.random.default_rng(8), "rook")
    assert b != a[0]
    fa, _ = render_face("rook", "G7", a[0])
    fb, _ = render_face("rook", "G7", b)
    assert np.abs(fa.astype(int) - fb.astype(int)).mean() > 2


def test_backs_hide_the_orientation():
    for seed in range(10):
        style = replace(random_style(np.random.default_rng(seed), "standard"), wear=0.0)  # specks fall anywhere
        img, alpha = render_back(style, 120)
        assert img.shape[:2] == alpha.shape
        # a back looks the same turned half round (within the odd pixel of anti-aliasing)
        diff = float(np.abs(img.astype(int) - img[::-1, ::-1].astype(int)).mean())
        assert diff < 4, (style.back_pattern, diff)


def test_bad_codes_and_style_deck_mismatch_are_refused():
    style = random_style(np.random.default_rng(0), "rook")
    with pytest.raises(ValueError, match="not a Rook card"):
        render_face("rook", "Z9", style)
    with pytest.raises(ValueError, match="style is for the rook deck"):
        render_face("standard", "KS", style)


def test_face_cache_returns_the_same_arrays():
    styles = [random_style(np.random.default_rng(s), "rook") for s in range(2)]
    cache = FaceCache("rook", styles, 80)
    assert cache.get(1, "R3")[0] is cache.get(1, "R3")[0]
    assert cache.get(0, BACK)[0].shape == (round(80 * ASPECT), 80, 3)


def test_unlike_courts_change_only_the_court_pictures_and_leave_the_index():
    """A design whose court pictures do not tell the rank (for training a classifier to read the corner
    index): its number cards and corner indices are the design's own, its court pictures differ."""
    from referee.cardsets import face_designs
    from referee.render.faces import COURT_HEADGEAR, unlike_courts

    style = random_style(np.random.default_rng(5), "standard")
    other = unlike_courts(style, np.random.default_rng([1, 2]))
    assert unlike_courts(style, np.random.default_rng([1, 2])) == other  # seeded: the same design again
    assert set(other.court_heads) <= set(COURT_HEADGEAR) and other.court_ornaments > 0
    assert replace(other, court_heads=style.court_heads, court_ornaments=0) == style
    for code in ("9H", "AS", "10C"):
        assert np.array_equal(render_face("standard", code, style, 120)[0],
                              render_face("standard", code, other, 120)[0])
    for code in ("JH", "QS", "KD"):
        a, b = render_face("standard", code, style, 120)[0], render_face("standard", code, other, 120)[0]
        h, w = a.shape[:2]
        assert not np.array_equal(a, b)
        corner = (slice(0, int(h * 0.14)), slice(0, int(w * 0.2)))  # the rank and suit in the corner
        assert np.array_equal(a[corner], b[corner])
    # designs drawn for training: the base designs stay those drawn without the option
    plain = face_designs("standard", 6, np.random.default_rng(3))
    mixed = face_designs("standard", 6, np.random.default_rng(3), unlike=0.5, seed=3)
    changed = [i for i in range(6) if mixed.styles[i] != plain.styles[i]]
    assert changed and len(changed) < 6
    for i in range(6):
        assert replace(mixed.styles[i], court_heads=plain.styles[i].court_heads, court_ornaments=0) == plain.styles[i]
