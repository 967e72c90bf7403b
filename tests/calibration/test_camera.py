"""Camera intrinsics from ChArUco photos: the real photos against OpenCV's published calibration."""
import json

import numpy as np
import pytest

from referee.calibration.camera import CameraIntrinsics, CharucoSpec, calibrate_from_images, read_images
from referee.calibration.files import CalibrationError
from referee.cli import main

from conftest import SHARED  # tests/ is on sys.path (pytest puts a rootdir conftest's folder there)

CHARUCO = SHARED / "data" / "charuco"
PHOTOS = [CHARUCO / f"img_0{i}.jpg" for i in range(4)]
needs_photos = pytest.mark.skipif(not all(p.exists() for p in PHOTOS),
                                  reason=f"the real ChArUco photos are not there ({CHARUCO}/img_00..img_03.jpg)")
BOARD = ["--charuco", "5x7", "--square", "0.04", "--marker", "0.02", "--dict", "DICT_6X6_250"]


@needs_photos
def test_real_photos_match_opencvs_published_calibration(tmp_path, capsys):
    out = tmp_path / "camera.yaml"
    assert main(["calibrate", "camera", *BOARD, *map(str, PHOTOS), "--out", str(out), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["fx"] == pytest.approx(452.51, rel=0.02)
    assert got["fy"] == pytest.approx(456.77, rel=0.02)
    assert np.hypot(got["cx"] - 317.70, got["cy"] - 277.75) < 8
    assert got["rms_px"] < 0.3
    assert len(got["distortion"]) == 5 and got["views"] == 4
    # the file written says the same
    cam = CameraIntrinsics.load(out)
    assert cam.fx == pytest.approx(got["fx"], abs=1e-3) and cam.image_size == (640, 480)


@needs_photos
def test_wrong_board_description_is_a_clear_error(tmp_path, capsys):
    # a 6x6 board of another dictionary is not in these photos
    code = main(["calibrate", "camera", "--charuco", "5x7", "--dict", "DICT_4X4_50", *map(str, PHOTOS),
                 "--out", str(tmp_path / "c.yaml")])
    err = capsys.readouterr().err
    assert code == 2 and "usable photo" in err and "--dict" in err
    assert not (tmp_path / "c.yaml").exists()


@needs_photos
def test_too_few_photos():
    with pytest.raises(CalibrationError, match="need at least 3"):
        calibrate_from_images(read_images(PHOTOS[:2]), CharucoSpec(5, 7, 0.04, 0.02))


def test_bad_arguments_are_clear_errors(tmp_path, capsys):
    assert main(["calibrate", "camera", "--charuco", "5by7", str(tmp_path / "x.jpg")]) == 2
    assert "COLSxROWS" in capsys.readouterr().err
    assert main(["calibrate", "camera", "--marker", "0.05", str(tmp_path / "x.jpg")]) == 2
    assert "smaller than the square" in capsys.readouterr().err
    assert main(["calibrate", "camera", "--dict", "DICT_9X9", str(tmp_path / "x.jpg")]) == 2
    assert "unknown ArUco dictionary" in capsys.readouterr().err
    assert main(["calibrate", "camera", str(tmp_path / "missing.jpg")]) == 2
    assert "missing.jpg: cannot read it as an image" in capsys.readouterr().err
    assert main(["calibrate", "camera"]) == 2
    assert "either photos of the board or --camera" in capsys.readouterr().err


def test_intrinsics_scale_with_resolution():
    cam = CameraIntrinsics(np.array([[450.0, 0, 320], [0, 455, 240], [0, 0, 1]]), np.zeros(5), (640, 480))
    big = cam.scaled_to((1280, 960))
    assert (big.fx, big.fy, big.cx, big.cy) == (900, 910, 640, 480)
    with pytest.raises(CalibrationError, match="aspect ratio"):
        cam.scaled_to((1280, 720))
