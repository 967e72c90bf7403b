"""The detector benchmark (scripts/bench_detector.py) refuses to measure nothing."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from bench_detector import bench_real  # noqa: E402


def test_real_photos_folder_without_labels_is_a_clear_error(tmp_path):
    (tmp_path / "IMG_1.JPG").write_bytes(b"")  # a photo without its label file
    with pytest.raises(SystemExit, match="no labelled photos"):
        bench_real("crazy", tmp_path, 320)
