"""One sub-package per game, each with the same shape: actions (the log schema), rules (the pure
engine), a scoresheet, and ``load_log`` / ``replay`` / ``format_scoresheet`` at its top."""
from __future__ import annotations

import importlib

GAMES = ("crazy", "crazy-kick", "fodbold")


def game_module(name: str):
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(GAMES)}")
    return importlib.import_module(f"referee.games.{name.replace('-', '_')}")
