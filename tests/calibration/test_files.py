"""The calibration files: readable YAML, and a clear error for a broken or missing one."""
import numpy as np
import pytest

from referee.calibration.camera import CameraIntrinsics
from referee.calibration.files import CalibrationError
from referee.calibration.layouts import crazy_layout
from referee.calibration.table import TableCalibration, TableMarkers

CAM = CameraIntrinsics(np.array([[900.0, 0, 640], [0, 905, 480], [0, 0, 1]]), np.array([-0.2, 0.05, 0, 0, 0.01]), (1280, 960), 0.21)
TABLE = TableCalibration(np.array([[1.2, 0.01, -700], [0.02, 1.25, -560], [1e-5, 2e-5, 1]]), TableMarkers(900, 700, 50),
                         (1280, 960), CAM, 0.4, "calibration/camera.yaml")


def test_camera_file_round_trip(tmp_path):
    path = CAM.save(tmp_path / "camera.yaml")
    text = path.read_text()
    assert text.startswith("# Referee camera calibration") and "camera_matrix:\n- [900.0, 0.0, 640.0]" in text
    back = CameraIntrinsics.load(path)
    assert np.allclose(back.camera_matrix, CAM.camera_matrix) and np.allclose(back.distortion, CAM.distortion)
    assert back.image_size == (1280, 960) and back.rms_px == pytest.approx(0.21)


def test_table_file_round_trip(tmp_path):
    back = TableCalibration.load(TABLE.save(tmp_path / "t" / "table.yaml"))
    assert np.allclose(back.homography, TABLE.homography, rtol=1e-8)
    assert back.markers == TABLE.markers and back.image_size == (1280, 960)
    assert np.allclose(back.intrinsics.camera_matrix, CAM.camera_matrix) and back.camera_file == "calibration/camera.yaml"


def _broken(tmp_path, good: str, old: str, new: str):
    p = tmp_path / "broken.yaml"
    text = good.replace(old, new)
    assert text != good
    p.write_text(text)
    return p


@pytest.mark.parametrize("old,new,message", [
    ("kind: camera", "kind: table", "expected 'kind: camera', got 'kind: table'"),
    ("rms_px", "rms", "unexpected field 'rms'"),
    ("- [0.0, 905.0, 480.0]\n", "", "camera_matrix"),
    ("image_size: [1280, 960]", "image_size: [1280, wide]", "image_size"),
    ("kind: camera", "kind: camera\n  bad: [", "not valid YAML"),
    ("distortion:", "lens:", "missing field 'distortion'"),
])
def test_broken_camera_file(tmp_path, old, new, message):
    good = CAM.save(tmp_path / "good.yaml").read_text()
    with pytest.raises(CalibrationError) as e:
        CameraIntrinsics.load(_broken(tmp_path, good, old, new))
    assert message in str(e.value) and "broken.yaml" in str(e.value)


@pytest.mark.parametrize("old,new,message", [
    ("play_area_mm: [900.0, 700.0]", "play_area_mm: [900.0, 800.0]", "centres_mm do not match"),
    ("dictionary: DICT_4X4_50", "dictionary: DICT_NOPE", "unknown ArUco dictionary"),
    ("ids: [0, 1, 2, 3]", "ids: [0, 1, 1, 3]", "four different ids"),
    ("homography:\n- [1.2", "homography:\n- [0.0", None),  # still invertible: loads
    ("homography:", "homographie:", "missing field 'homography'"),
])
def test_broken_table_file(tmp_path, old, new, message):
    good = TABLE.save(tmp_path / "good.yaml").read_text()
    path = _broken(tmp_path, good, old, new)
    if message is None:
        TableCalibration.load(path)
        return
    with pytest.raises(CalibrationError) as e:
        TableCalibration.load(path)
    assert message in str(e.value) and "broken.yaml" in str(e.value)


def test_missing_files_say_how_to_make_them(tmp_path):
    with pytest.raises(CalibrationError, match="no such camera calibration file; make it with `referee calibrate camera`"):
        CameraIntrinsics.load(tmp_path / "nope.yaml")
    with pytest.raises(CalibrationError, match="no such table calibration file; make it with `referee calibrate table`"):
        TableCalibration.load(tmp_path / "nope.yaml")
    with pytest.raises(CalibrationError, match="no such layout file"):
        crazy_layout(4, tmp_path / "nope.yaml")


def test_unwritable_place_is_a_clear_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(CalibrationError, match="camera.yaml: cannot write it"):
        CAM.save(tmp_path / "file" / "camera.yaml")
