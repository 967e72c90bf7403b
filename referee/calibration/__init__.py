"""Calibration: where things are on the table, in millimetres.

- ``camera``: camera intrinsics from ChArUco photos (``referee calibrate camera``).
- ``table``: the four corner markers and the image -> table-millimetre homography (``referee calibrate table``).
- ``layouts``: each game's zones (seats, trick area, piles, goal-card areas) and board grid, in table mm.
- ``mapper``: ``TableMapper``, image <-> table points, top-down rectification, zone lookup and live
  re-detection of the markers.
- ``sheets``: printable ChArUco boards and corner-marker sheets (``referee print ...``).
- ``files``: the YAML files a person can read, and ``CalibrationError`` for broken or missing ones.

This package's ``__init__`` and ``commands`` import nothing heavy, so ``referee --help`` stays fast;
the modules that need OpenCV import it at their top.
"""
from __future__ import annotations

from .files import CalibrationError

__all__ = ["CalibrationError"]
