"""Printable sheets: what is printed is found again, at the stated size."""
import re

import cv2
import numpy as np
from PIL import Image

from referee.calibration.camera import CharucoSpec, detect_charuco
from referee.cli import main


def test_print_charuco_png_is_detected_at_true_size(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert main(["print", "charuco", "--charuco", "5x7", "--square", "0.04", "--marker", "0.02", "--out", str(out), "--dpi", "100"]) == 0
    assert str(out) in capsys.readouterr().out
    page = cv2.imread(str(out))
    assert page.shape[:2] == (1169, 827)  # A4 at 100 dpi
    obj, img = detect_charuco(page, CharucoSpec(5, 7, 0.04, 0.02))
    assert len(obj) == 4 * 6  # every inner corner
    # neighbouring corners 40 mm apart on paper: 40 / 25.4 * 100 px
    i, j = np.argsort(obj[:, 0] + 10 * obj[:, 1])[:2]
    assert abs(np.linalg.norm(img[i] - img[j]) - 40 / 25.4 * 100) < 1.0


def test_print_charuco_too_big_for_the_paper(tmp_path, capsys):
    assert main(["print", "charuco", "--paper", "letter", "--out", str(tmp_path / "b.pdf")]) == 2
    assert "too big for letter" in capsys.readouterr().err


def test_print_table_markers_pdf_and_png(tmp_path):
    assert main(["print", "table-markers", "--out", str(tmp_path / "m.pdf"), "--dpi", "100"]) == 0
    pdf = (tmp_path / "m.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 4  # one page a marker
    assert main(["print", "table-markers", "--ids", "7,8,9,10", "--marker-size", "50", "--out", str(tmp_path / "m.png"), "--dpi", "100"]) == 0
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    for k, marker_id in enumerate([7, 8, 9, 10], start=1):
        path = tmp_path / f"m-{k}.png"
        assert round(Image.open(path).info["dpi"][0]) == 100  # the true size travels with it
        corners, ids, _ = det.detectMarkers(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE))
        assert ids.ravel().tolist() == [marker_id]
        side = np.linalg.norm(corners[0][0][0] - corners[0][0][1])
        assert abs(side - 50 / 25.4 * 100) < 1.5


def test_print_output_errors(tmp_path, capsys):
    assert main(["print", "table-markers", "--out", str(tmp_path / "m.svg")]) == 2
    assert "m.svg: the output must end in .pdf or .png" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["print", "charuco", "--out", str(tmp_path / "file" / "b.pdf")]) == 2
    assert "b.pdf: cannot write it" in capsys.readouterr().err
