"""Reading the board and deck files (YAML). The only module of this game that touches files."""
from __future__ import annotations

from pathlib import Path

import yaml

from .board import Board, BoardError, board_from_dict
from .cards import DeckError, Decks, decks_from_dict

DATA = Path(__file__).with_name("data")
DEFAULT_BOARD = DATA / "board.yaml"
DEFAULT_DECKS = DATA / "decks.yaml"


def _read(path: Path, error):
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise error(f"{path}: cannot read it: {e}") from None


def load_board(path: str | Path | None = None) -> Board:
    """The board in ``path`` (YAML), or the default board. Raises BoardError on a bad file."""
    p = Path(path) if path is not None else DEFAULT_BOARD
    return board_from_dict(_read(p, BoardError), name=str(p))


def load_decks(path: str | Path | None = None) -> Decks:
    """The pass and shot cards in ``path`` (YAML), or the default decks. Raises DeckError on a bad file."""
    p = Path(path) if path is not None else DEFAULT_DECKS
    return decks_from_dict(_read(p, DeckError), name=str(p))
