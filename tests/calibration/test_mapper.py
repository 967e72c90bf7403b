"""TableMapper: top-down pictures, board squares and zones, and the markers watched while a game runs."""
import cv2
import numpy as np
import pytest

from referee.calibration.files import CalibrationError
from referee.calibration.layouts import crazy_layout
from referee.calibration.mapper import RectifiedView, TableMapper
from referee.calibration.table import calibrate_table

from .conftest import POSES
from .scene import canvas, decode_square, look_at, render


def _mapper(cam, image, markers, layout=None):
    return TableMapper(calibrate_table(image, markers, cam.intrinsics() if cam.dist is not None else None), layout)


@pytest.mark.parametrize("pose", POSES)
def test_rendered_fodbold_board_maps_every_square_centre_to_its_square(scene, markers, board_layout, pose):
    cam, image = scene(pose)
    mapper = _mapper(cam, image, markers, board_layout)
    grid = board_layout.grid
    names = grid.names()
    assert len(names) == grid.columns * grid.rows + len(grid.extra)
    centres = np.array([grid.centre(n) for n in names])
    found = [loc.square for loc in mapper.locate(cam.project(centres))]
    assert found == names


@pytest.mark.parametrize("pose", POSES)
def test_rectified_picture_shows_each_square_where_the_layout_puts_it(scene, markers, board_layout, pose):
    cam, image = scene(pose)
    mapper = _mapper(cam, image, markers, board_layout)
    top = mapper.rectify(image, mm_per_px=1.0)
    assert top.shape[:2] == (1000, 1000)  # 1 m at 1 mm a pixel: every card one size
    to_px = mapper.table_to_rectified(1.0)
    grid = board_layout.grid
    wrong = []
    for name in grid.names():
        u, v = (to_px @ np.array([*grid.centre(name), 1.0]))[:2]
        if grid.name(*decode_square(top[int(round(v)), int(round(u))])) != name:
            wrong.append(name)
    assert wrong == []
    assert mapper.rectify(image, mm_per_px=2.0).shape[:2] == (500, 500)


def test_crazy_seats_from_image_points(scene, markers):
    cam, image = scene("tilted")
    layout = crazy_layout(7)
    mapper = _mapper(cam, image, markers, layout)
    seats = layout.zones_in("seat")
    locs = mapper.locate(cam.project([s.anchor for s in seats] + [(30.0, -40.0)]))
    assert [loc.zone for loc in locs] == [f"seat{k}" for k in range(1, 8)] + ["trick"]


def test_bumped_camera_is_corrected_and_a_covered_marker_keeps_the_last_good_homography(markers):
    plain, to_canvas = canvas(markers)
    covered, _ = canvas(markers, cover=[2])
    before = look_at(**POSES["tilted"])
    bumped = look_at(eye_mm=(130, 630, -1490), target_mm=(10, 50, 0), roll_deg=9)  # knocked a little
    mapper = TableMapper(calibrate_table(render(before, plain, to_canvas), markers))
    first = mapper.homography.copy()
    pts = np.array([[0.0, 0.0], [-500, -500], [500, 500], [300, -200]])

    s = mapper.update(render(before, plain, to_canvas), t=0.0)
    assert s.state == "ok" and s.shift_px < 1.0 and np.array_equal(mapper.homography, first)

    # a hand over the bottom-right marker while the camera is knocked: keep the last good homography, say so
    s = mapper.update(render(bumped, covered, to_canvas), t=1.0)
    assert s.state == "partial" and s.kept_last_good and s.missing == [2] and s.seen == [0, 1, 3]
    assert "id 2 (bottom-right) not seen" in s.message and "keeping the last good table homography" in s.message
    assert "camera may have moved" in s.message
    assert np.array_equal(mapper.homography, first) and s.warning is None

    # hand gone: all four seen elsewhere -> the homography follows the camera
    s = mapper.update(render(bumped, plain, to_canvas), t=2.0)
    assert s.state == "moved" and s.shift_px > 5 and "homography updated" in s.message
    assert np.linalg.norm(mapper.image_to_table(bumped.project(pts)) - pts, axis=1).max() < 2.0
    assert np.linalg.norm(mapper.image_to_table(before.project(pts)) - pts, axis=1).max() > 10.0


def test_markers_lost_for_long_give_a_warning(markers):
    plain, to_canvas = canvas(markers)
    cam = look_at(**POSES["overhead"])
    mapper = TableMapper(calibrate_table(render(cam, plain, to_canvas), markers), lost_warning_s=5.0)
    first = mapper.homography.copy()
    dark = np.zeros((960, 1280, 3), np.uint8)
    assert mapper.update(render(cam, plain, to_canvas), t=10.0).state == "ok"
    statuses = [mapper.update(dark, t=10.0 + dt) for dt in (1, 3, 5.5, 8)]
    assert [s.state for s in statuses] == ["lost"] * 4
    assert [s.warning is not None for s in statuses] == [False, False, True, True]
    assert "not all seen for 8.0 s" in statuses[-1].warning
    assert np.array_equal(mapper.homography, first)
    back = mapper.update(render(cam, plain, to_canvas), t=20.0)
    assert back.state == "ok" and back.warning is None and back.seconds_since_good == 0


def test_a_frame_of_another_resolution_is_refused(scene, markers):
    cam, image = scene("overhead")
    mapper = _mapper(cam, image, markers)
    with pytest.raises(CalibrationError, match="calibrated on 1280x960 images and this one is 640x480"):
        mapper.update(image[:480, :640])


@pytest.mark.parametrize("pose", POSES)
def test_a_part_of_the_rectified_picture_is_that_part_of_the_whole(scene, markers, board_layout, pose):
    cam, image = scene(pose)
    mapper = _mapper(cam, image, markers, board_layout)
    bounds = (-420.0, -380.0, 450.0, 400.0)
    whole = mapper.rectify(image, 1.0, bounds)
    for x0, y0, x1, y1 in [(0, 0, 120, 90), (301, 207, 512, 333), (whole.shape[1] - 70, whole.shape[0] - 40,
                                                                  whole.shape[1], whole.shape[0])]:
        part = mapper.rectify(image, 1.0, bounds, part=(x0, y0, x1, y1))
        assert part.shape == (y1 - y0, x1 - x0, 3)
        assert np.abs(part.astype(int) - whole[y0:y1, x0:x1]).max() <= 1  # the same pixels, but for rounding


@pytest.mark.parametrize("pose", POSES)
def test_block_means_rectified_at_half_a_block_are_close_to_the_rectified_pictures(scene, markers, board_layout,
                                                                                   pose):
    cam, image = scene(pose)
    mapper = _mapper(cam, image, markers, board_layout)
    bounds = (-420.0, -380.0, 450.0, 400.0)
    whole = mapper.rectify(image, 1.0, bounds)
    h, w = whole.shape[0] // 4 * 4, whole.shape[1] // 4 * 4
    exact = cv2.resize(whole[:h, :w], (w // 4, h // 4), interpolation=cv2.INTER_AREA).astype(int)
    means = mapper.rectify_means(image, 1.0, bounds, 4)
    assert means.shape == exact.shape
    diff = np.abs(means - exact)
    # measured: median 0, 90th percentile 1, 99th 7-10 for each pose. The means one block off give 4-6 at
    # the 90th percentile; warping straight to a block a pixel gave 16-22 at the 99th (the squares' edges
    # sampled too sparsely)
    assert np.median(diff) == 0 and np.percentile(diff, 90) <= 2 and np.percentile(diff, 99) <= 12


def test_a_rectified_view_is_made_only_where_it_is_asked_for(scene, markers, board_layout):
    cam, image = scene("tilted")
    mapper = _mapper(cam, image, markers, board_layout)
    view = RectifiedView(mapper, image, 1.0, (-420.0, -380.0, 450.0, 400.0))
    assert view.shape == (780, 870, 3)
    whole = mapper.rectify(image, 1.0, view.bounds)
    assert np.abs(view[100:300, 50:420].astype(int) - whole[100:300, 50:420]).max() <= 1
    assert view[10:10, 5:50].shape == (0, 45, 3)
    assert view._whole is None  # no part asked for so far made it whole
    assert np.array_equal(np.asarray(view), whole)
    assert np.array_equal(view[100:300, 50:420], whole[100:300, 50:420])  # now cut from the whole
    with pytest.raises(TypeError, match="two slices"):
        RectifiedView(mapper, image, 1.0, view.bounds)[5]


@pytest.mark.parametrize("pose", ["overhead", "tilted"])
def test_a_card_cut_from_a_rectified_view_comes_straight_from_the_camera_image(scene, markers, board_layout, pose):
    from referee.cardsets import object_crop

    cam, image = scene(pose)
    mapper = _mapper(cam, image, markers, board_layout)
    view = RectifiedView(mapper, image, 1.0, (-420.0, -380.0, 450.0, 400.0))
    whole = mapper.rectify(image, 1.0, view.bounds)
    corners = np.float32([[300, 200], [363, 212], [351, 300], [288, 288]])  # a card-sized quad, turned
    direct = object_crop("card", view, corners, 64)
    assert view._whole is None  # one warp from the camera image, no part of the view made
    two_steps = object_crop("card", whole, corners, 64)
    # one interpolation instead of two: the same picture, a little sharper
    assert direct.shape == two_steps.shape and np.abs(direct.astype(int) - two_steps).mean() < 2  # measured 0.2
    shifted = object_crop("card", whole, corners + 3, 64)  # 3 px off: a different crop (measured 7.8)
    assert np.abs(direct.astype(int) - shifted).mean() > 2 * np.abs(direct.astype(int) - two_steps).mean()
