"""Crazy: a Hearts-like trick-taking game with a Rook deck (or standard cards), five rounds."""
from __future__ import annotations

from pathlib import Path

from ...actionlog import parse_actions
from .actions import ACTION_ADAPTER, check_order
from .rules import CrazyGame, replay
from .scoresheet import format_scoresheet

DEMO_LOG = Path(__file__).with_name("data") / "demo_game.jsonl"


def load_log(path):
    """Parse and validate a Crazy action log; raise ActionLogError with the line on bad input."""
    return parse_actions(path, ACTION_ADAPTER, check_order)


__all__ = ["CrazyGame", "replay", "load_log", "format_scoresheet", "DEMO_LOG"]
