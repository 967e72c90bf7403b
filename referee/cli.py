"""The ``referee`` command. Each subcommand imports what it needs only when it runs, so
``referee --help`` and the rules-only commands start without loading OpenCV or torch."""
from __future__ import annotations

import argparse
import json
import sys

import importlib

from .games import GAMES, game_module

# Modules that add subcommands (one line each; see build_parser).
COMMAND_MODULES: list[str] = [
    "referee.detector_cli",
    "referee.calibration.commands",
    "referee.games.crazy_kick.commands",
    "referee.printing",
    "referee.dataset",
    "referee.evaluate",
    "referee.render.video",
    "referee.review",
    "referee.live",
    "referee.demo",
    "referee.train",
    "referee.quantize",
]


def _replay(args) -> int:
    from .actionlog import ActionLogError

    mod = game_module(args.game)
    try:
        actions = mod.load_log(args.actions)
    except ActionLogError as e:
        print(f"referee replay: {e}", file=sys.stderr)
        return 2
    game, _ = mod.replay(actions)
    sheet = game.scoresheet()
    print(json.dumps(sheet, indent=2, ensure_ascii=False) if args.json else mod.format_scoresheet(sheet))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="referee", description="A camera referee for tabletop games.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    r = sub.add_parser("replay", help="score a game from its action log (JSON Lines)")
    r.add_argument("game", choices=GAMES)
    r.add_argument("actions", help="the action log, one JSON object per line")
    r.add_argument("--json", action="store_true", help="print the scoresheet as one JSON object")
    r.set_defaults(func=_replay)

    # Each stage adds its own subcommands from its own module: ``register(subparsers)``.
    # Keep those modules light at import time (import cv2/torch inside the command functions).
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
