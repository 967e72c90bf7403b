"""Fodbold: the Danish football board game for two players; numbered pieces on a board of squares,
pass cards and shot cards. Rules and decisions: docs/rules/fodbold.md."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...actionlog import ActionLogError, parse_actions
from .actions import ACTION_ADAPTER, Setup, check_order
from .board import Board, BoardError, parse_square, square_name
from .cards import DeckError, Decks
from .loader import DEFAULT_BOARD, DEFAULT_DECKS, load_board, load_decks
from .position import Position, PositionError, parse_position, render, start_position
from .rules import FodboldGame
from .rules import replay as _replay
from .scoresheet import format_scoresheet

DEMO_LOG = Path(__file__).with_name("data") / "demo_game.jsonl"


def load_log(path) -> list:
    """Parse and validate a Fodbold action log; raise ActionLogError with the line on bad input.
    Board and deck files named in the setup are resolved against the log's folder and checked here."""
    base = Path(path).resolve().parent
    resolved: dict[str, str] = {}

    def check(index: int, action, line: int) -> None:
        check_order(index, action, line)
        if isinstance(action, Setup):
            try:
                for key in ("board", "decks"):
                    value = getattr(action, key)
                    if value is not None:
                        resolved[key] = str(base / value)
                board = load_board(resolved.get("board"))
                decks = load_decks(resolved.get("decks"))
                if action.position:
                    FodboldGame(action.model_copy(update=resolved), board, decks)
            except (BoardError, DeckError, PositionError) as e:
                raise ValueError(str(e)) from None

    actions = parse_actions(path, ACTION_ADAPTER, check)
    if resolved:
        actions[0] = actions[0].model_copy(update=resolved)
    return actions


def replay(actions: Sequence, board: Board | None = None, decks: Decks | None = None):
    """Play a parsed action log; the board and decks come from the setup's files (or the defaults)
    unless given. Returns (game, events)."""
    setup = actions[0]
    board = board or load_board(setup.board)
    decks = decks or load_decks(setup.decks)
    return _replay(actions, board, decks)


__all__ = ["FodboldGame", "replay", "load_log", "format_scoresheet", "load_board", "load_decks", "Board",
           "Decks", "Position", "parse_position", "render", "start_position", "square_name", "parse_square",
           "ActionLogError", "DEFAULT_BOARD", "DEFAULT_DECKS", "DEMO_LOG"]
