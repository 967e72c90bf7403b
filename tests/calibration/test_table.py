"""The table homography from the four corner markers, on rendered views with known camera poses."""
import json

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.calibration.files import CalibrationError
from referee.calibration.mapper import TableMapper
from referee.calibration.table import TableCalibration, calibrate_table
from referee.cli import main

from .conftest import POSES
from .scene import canvas, look_at, render

CENTRE = np.array([[0.0, 0.0]])
CORNERS = np.array([[-500.0, -500], [500, -500], [500, 500], [-500, 500]])
GRID = np.array([[x, y] for x in range(-500, 501, 100) for y in range(-500, 501, 100)], float)


def _mapper(cam, image, markers):
    return TableMapper(calibrate_table(image, markers, cam.intrinsics() if cam.dist is not None else None))


@pytest.mark.parametrize("pose", POSES)
def test_table_points_come_back_within_2mm_centre_5mm_corners(scene, markers, pose):
    cam, image = scene(pose)
    mapper = _mapper(cam, image, markers)
    err = lambda pts: np.linalg.norm(mapper.image_to_table(cam.project(pts)) - pts, axis=1)
    assert err(CENTRE).max() < 2.0
    assert err(CORNERS).max() < 5.0
    assert err(GRID).max() < 5.0
    # and back: table mm -> the pixel the camera really put it at
    assert np.abs(mapper.table_to_image(GRID) - cam.project(GRID)).max() < 1.0


def test_lens_distortion_is_taken_out(scene, markers):
    cam, image = scene("lens")
    edges = np.array([[0.0, -500], [500, 0], [0, 500], [-500, 0]])
    with_lens = TableMapper(calibrate_table(image, markers, cam.intrinsics()))
    without = TableMapper(calibrate_table(image, markers, None))
    err = lambda m: np.linalg.norm(m.image_to_table(cam.project(edges)) - edges, axis=1).max()
    assert err(with_lens) < 2.0
    assert err(without) > 10.0  # a plain homography cannot follow the bent edges


def test_a_marker_sheet_laid_down_turned_still_fits(markers):
    picture, to_canvas = canvas(markers, turn={1: 1, 3: 2})
    cam = look_at(**POSES["tilted"])
    table = calibrate_table(render(cam, picture, to_canvas), markers)
    assert table.residual_mm < 2.0
    assert np.linalg.norm(TableMapper(table).image_to_table(cam.project(GRID)) - GRID, axis=1).max() < 5.0


def test_a_covered_marker_is_named(markers):
    picture, to_canvas = canvas(markers, cover=[2])
    cam = look_at(**POSES["overhead"])
    with pytest.raises(CalibrationError, match=r"not found: id 2 \(bottom-right\); found \[0, 1, 3\]"):
        calibrate_table(render(cam, picture, to_canvas), markers, name="shot.png")


@pytest.mark.parametrize("pose", ["overhead", "lens"])
def test_calibrate_table_command(scene, tmp_path, capsys, pose):
    cam, image = scene(pose)
    cv2.imwrite(str(tmp_path / "shot.png"), image)
    extra = []
    if cam.dist is not None:
        cam.intrinsics().save(tmp_path / "camera.yaml")
        extra = ["--intrinsics", str(tmp_path / "camera.yaml")]
    out = tmp_path / "table.yaml"
    code = main(["calibrate", "table", str(tmp_path / "shot.png"), *extra, "--out", str(out),
                 "--preview", str(tmp_path / "top.png"), "--json"])
    assert code == 0
    got = json.loads(capsys.readouterr().out)
    assert got["residual_mm"] < 1.5 and got["undistorted"] == (cam.dist is not None)
    mapper = TableMapper.from_files(out)
    assert np.linalg.norm(mapper.image_to_table(cam.project(CORNERS)) - CORNERS, axis=1).max() < 5.0
    assert cv2.imread(str(tmp_path / "top.png")).shape == (1120, 1120, 3)  # 1000 mm + a 60 mm marker each side
    assert TableCalibration.load(out).camera_file == (extra[1] if extra else None)


def test_calibrate_table_command_errors(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    assert main(["calibrate", "table", str(blank), "--out", str(tmp_path / "t.yaml")]) == 2
    err = capsys.readouterr().err
    assert "blank.png: corner marker(s) not found: id 0 (top-left)" in err and not (tmp_path / "t.yaml").exists()
    assert main(["calibrate", "table", str(blank), "--ids", "0,1,2"]) == 2
    assert "four marker ids" in capsys.readouterr().err
    assert main(["calibrate", "table", str(blank), "--intrinsics", str(tmp_path / "none.yaml")]) == 2
    assert "none.yaml: no such camera calibration file" in capsys.readouterr().err


class _FakeCamera:
    """cv2.VideoCapture stand-in: plays the given frames, then fails."""
    def __init__(self, frames):
        self.frames = list(frames)

    def isOpened(self):
        return bool(self.frames)

    def read(self):
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def release(self):
        pass


def test_calibrate_table_from_a_live_camera(scene, tmp_path, capsys, monkeypatch):
    cam, image = scene("overhead")
    dark = np.zeros_like(image)
    monkeypatch.setattr(cv2, "VideoCapture", lambda index: _FakeCamera([dark, dark, image, dark]))
    assert main(["calibrate", "table", "--camera", "0", "--out", str(tmp_path / "t.yaml")]) == 0
    assert "found the four corner markers in camera 0" in capsys.readouterr().out
    mapper = TableMapper.from_files(tmp_path / "t.yaml")
    assert np.linalg.norm(mapper.image_to_table(cam.project(CORNERS)) - CORNERS, axis=1).max() < 5.0

    monkeypatch.setattr(cv2, "VideoCapture", lambda index: _FakeCamera([]))
    assert main(["calibrate", "table", "--camera", "3", "--out", str(tmp_path / "t.yaml")]) == 2
    assert "camera 3: cannot open it" in capsys.readouterr().err
    assert main(["calibrate", "camera", "--camera", "3", "--out", str(tmp_path / "c.yaml")]) == 2
    assert "camera 3: cannot open it" in capsys.readouterr().err


@settings(max_examples=60, deadline=None)
@given(x=st.floats(-520, 520), y=st.floats(-520, 520))
def test_table_to_image_and_back(scene, markers, x, y):
    cam, image = scene("lens")
    mapper = _cached_lens_mapper(cam, image, markers)
    back = mapper.image_to_table(mapper.table_to_image([[x, y]]))[0]
    assert np.hypot(back[0] - x, back[1] - y) < 0.01


_MAPPERS = {}


def _cached_lens_mapper(cam, image, markers):
    if "lens" not in _MAPPERS:
        _MAPPERS["lens"] = _mapper(cam, image, markers)
    return _MAPPERS["lens"]
