"""The classifier video benchmark (scripts/bench_cls_video.py) reads cards as the recogniser does."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from bench_cls_video import read  # noqa: E402


class TopHeavy:
    """A fake classifier: 0.9 'up' when a crop's top half is the brighter, else 0.9 'down'."""
    names = ["up", "down"]

    def probabilities(self, crops):
        up = np.array([c[: len(c) // 2].mean() > c[len(c) // 2:].mean() for c in crops])
        return np.where(up[:, None], [[0.9, 0.1]], [[0.1, 0.9]]).astype(np.float32)


def test_both_ways_averages_each_crop_with_itself_turned_half_round():
    crop = np.zeros((8, 8, 3), np.uint8)
    crop[:4] = 255
    crops = [crop] * 300  # more than one batch
    one_way = read(TopHeavy(), crops, both_ways=False)
    assert one_way.shape == (300, 2) and np.allclose(one_way, [0.9, 0.1])
    assert np.allclose(read(TopHeavy(), crops, both_ways=True, sure=1.01), [0.5, 0.5])
    # read surely enough one way up (``recognize.SURE_ONE_WAY``), a crop is not read the other way
    assert np.allclose(read(TopHeavy(), crops, both_ways=True, sure=0.9), [0.9, 0.1])
