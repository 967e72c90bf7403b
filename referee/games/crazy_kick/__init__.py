"""Crazy Kick: a real-time football card game for 2-8 players in two teams (red and white), 120 cards.

The deck is described by a catalogue file (``catalogue.py``; the default is ``data/catalogue.yaml``)."""
from __future__ import annotations

from pathlib import Path

from ...actionlog import ActionLogError, parse_actions
from .actions import ACTION_ADAPTER, OrderCheck
from .catalogue import Catalog, CatalogError, default_catalog, load_catalog
from .rules import CrazyKickGame, deal_hands, layout_counts, replay
from .scoresheet import format_scoresheet


def load_log(path):
    """Parse and validate a Crazy Kick action log; raise ActionLogError with the line on bad input.

    A setup that names a catalogue file gets it resolved against the log's folder and checked here,
    so a missing or broken catalogue is an input error, not a crash mid-replay."""
    actions = parse_actions(path, ACTION_ADAPTER, OrderCheck())
    setup = actions[0]
    if setup.catalog is not None:
        cat_path = Path(setup.catalog)
        if not cat_path.is_absolute():
            cat_path = Path(path).resolve().parent / cat_path
        try:
            load_catalog(cat_path)
        except CatalogError as e:
            from ...actionlog import read_jsonl

            line = read_jsonl(path)[0][0]
            raise ActionLogError(str(path), line, f"catalog: {e}") from None
        actions[0] = setup.model_copy(update={"catalog": str(cat_path)})
    return actions


__all__ = ["CrazyKickGame", "Catalog", "replay", "load_log", "format_scoresheet", "load_catalog",
           "default_catalog", "deal_hands", "layout_counts"]
