"""The detector's two backends on a small untrained model made here (no download, no training):
same raw output, same detections; the Detections type checks itself."""
import json

import numpy as np
import pytest

from referee.cli import main
from referee.detector import (DetectorError, Detections, OnnxDetector, TorchDetector, export_onnx, letterbox,
                              load_detector)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    torch = pytest.importorskip("torch")
    from ultralytics.nn.tasks import DetectionModel

    torch.manual_seed(0)
    model = DetectionModel("yolo11n.yaml", nc=3, verbose=False)
    model.names = {0: "card", 1: "piece", 2: "ball"}
    path = tmp_path_factory.mktemp("model") / "tiny.pt"
    torch.save({"model": model, "train_args": {"imgsz": 320}}, path)
    export_onnx(path)
    return path


@pytest.fixture
def image():
    return np.random.default_rng(0).integers(0, 255, (360, 640, 3), dtype=np.uint8)


def test_backends_give_the_same_raw_output_and_detections(tiny_model, image):
    t = TorchDetector(tiny_model, conf=0.001)
    o = OnnxDetector(tiny_model.with_suffix(".onnx"), conf=0.001)
    assert t.names == o.names == ("card", "piece", "ball") and t.imgsz == o.imgsz == 320
    tensor, _, _ = letterbox(image, 320)
    assert np.abs(t.raw(tensor) - o.raw(tensor)).max() < 1e-3
    a, b = t.detect(image), o.detect(image)
    assert len(a) == len(b) > 0
    np.testing.assert_allclose(a.xyxy, b.xyxy, atol=0.5)
    np.testing.assert_array_equal(a.class_id, b.class_id)
    assert (a.xyxy[:, [0, 2]] <= 640).all() and (a.xyxy[:, [1, 3]] <= 360).all()


def test_auto_prefers_onnx_beside_the_weights(tiny_model):
    assert isinstance(load_detector(tiny_model), OnnxDetector)
    assert isinstance(load_detector(tiny_model, backend="torch"), TorchDetector)


def test_letterbox_maps_boxes_back_to_image_pixels():
    img = np.zeros((100, 200, 3), np.uint8)
    tensor, scale, pad = letterbox(img, 320)
    assert tensor.shape == (1, 3, 320, 320) and scale == pytest.approx(1.6) and pad == (0, 80)
    # one fake anchor: a 32x32 box centred at (160, 160) in model pixels, class 1 at 0.9
    raw = np.zeros((1, 6, 1), np.float32)
    raw[0, :, 0] = [160, 160, 32, 32, 0.0, 0.9]
    from referee.detector import postprocess

    d = postprocess(raw, ("a", "b"), scale, pad, (100, 200), conf=0.25, iou=0.7)
    assert d.labels == ["b"]
    np.testing.assert_allclose(d.xyxy[0], [90, 40, 110, 60], atol=1e-4)


def test_a_rectangular_letterbox_pads_only_to_the_stride_and_maps_boxes_back_the_same():
    img = np.zeros((100, 200, 3), np.uint8)
    img[40:60, 90:110] = 255
    tensor, scale, pad = letterbox(img, 320, stride=32)
    assert tensor.shape == (1, 3, 160, 320) and scale == pytest.approx(1.6) and pad == (0, 0)
    # the white square lies where the scale and padding put it
    rows, cols = np.nonzero(tensor[0, 0] > 0.5)
    assert (rows.mean(), cols.mean()) == pytest.approx((50 * 1.6 - 0.5, 100 * 1.6 - 0.5), abs=0.01)
    tensor, scale, pad = letterbox(np.zeros((90, 200, 3), np.uint8), 320, stride=32)
    assert tensor.shape == (1, 3, 160, 320) and pad == (0, 8)  # 144 px of picture, 8 px above and below


def test_detections_validate_and_filter():
    d = Detections(np.array([[0, 0, 10, 10], [5, 5, 20, 20]], np.float32), np.array([0.9, 0.2], np.float32),
                   np.array([0, 1]), ("card", "piece"))
    strong = d[d.confidence > 0.5]
    assert len(strong) == 1 and strong.labels == ["card"]
    assert d.to_json()[1]["label"] == "piece"
    with pytest.raises(ValueError, match="class ids"):
        Detections(np.zeros((1, 4)), np.ones(1), np.array([5]), ("card",))
    with pytest.raises(ValueError, match="shape"):
        Detections(np.zeros((2, 3)), np.ones(2), np.zeros(2, int), ("card",))


def test_missing_or_wrong_model_files_are_clear_errors(tmp_path):
    with pytest.raises(DetectorError, match="no such model file"):
        load_detector(tmp_path / "nope.pt")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(DetectorError, match="cannot load"):
        OnnxDetector(bad)


def test_detect_command_json_and_save(tiny_model, image, tmp_path, capsys):
    import cv2

    img_path = tmp_path / "table.png"
    cv2.imwrite(str(img_path), image)
    (tmp_path / "broken.png").write_bytes(b"xx")
    rc = main(["detect", "--model", str(tiny_model), "--conf", "0.001", "--json", "--save", str(tmp_path / "out"),
               str(img_path), str(tmp_path / "broken.png")])
    captured = capsys.readouterr()
    assert rc == 0 and "broken.png: not a readable image" in captured.err
    results = json.loads(captured.out)
    assert results[0]["image"] == str(img_path) and results[0]["detections"]
    assert (tmp_path / "out" / "table.png").is_file()
