import pytest

from referee.calibration.layouts import fodbold_layout
from referee.calibration.table import TableMarkers

from .scene import canvas, look_at, render

# Three cameras over a 1 m playing area: straight down; tilted and turned; tilted with a barrel lens.
POSES = {
    "overhead": dict(eye_mm=(0, 0, -1350)),
    "tilted": dict(eye_mm=(100, 650, -1500), target_mm=(0, 60, 0), roll_deg=8),
    "lens": dict(eye_mm=(-150, 600, -1450), target_mm=(0, 60, 0), roll_deg=-5, dist=[-0.25, 0.08, 0.001, -0.001, 0]),
}


@pytest.fixture(scope="session")
def markers():
    return TableMarkers()


@pytest.fixture(scope="session")
def board_layout():
    return fodbold_layout()


@pytest.fixture(scope="session")
def scene(markers, board_layout):
    """pose name -> (camera, rendered image of the table with the colour-coded fodbold board)."""
    picture, to_canvas = canvas(markers, board_layout.grid)
    cache = {}

    def get(name):
        if name not in cache:
            cam = look_at(**POSES[name])
            cache[name] = (cam, render(cam, picture, to_canvas))
        return cache[name]
    return get
