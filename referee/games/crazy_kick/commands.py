"""``referee cards crazy-kick [--catalog FILE] [--json] [--check]``: show or check a card catalogue."""
from __future__ import annotations

import json
import sys

CARD_GAMES = ("crazy-kick",)


def _cards(args) -> int:
    from .catalogue import CatalogError, design_problems, load_catalog

    try:
        cat = load_catalog(args.catalog)
    except CatalogError as e:
        print(f"referee cards: {e}", file=sys.stderr)
        return 2
    problems = design_problems(cat) if args.check else []
    if args.json:
        print(json.dumps(cat.to_list(), indent=1, ensure_ascii=False))
    elif not args.check:
        for c in cat:
            if c.is_goal:
                print(f"{c.id}  {c.team:5}  GOAL  {c.player:2} {c.name}")
            else:
                passes = ", ".join(cat.name(c.team, n) for n in c.passes)
                tackles = ", ".join(cat.name("white" if c.team == "red" else "red", n) for n in c.tackles)
                print(f"{c.id}  {c.team:5}  {c.player:2} {c.name:8}  passes to {passes:16}  tackled by {tackles}")
    if args.check:
        for p in problems:
            print(p, file=sys.stderr)
        print(f"{len(cat)} cards: " + ("the design checks pass" if not problems else f"{len(problems)} problems"),
              file=sys.stderr)
        return 1 if problems else 0
    return 0


def register(sub) -> None:
    c = sub.add_parser("cards", help="list a game's card catalogue (and check its design)")
    c.add_argument("game", choices=CARD_GAMES)
    c.add_argument("--catalog", metavar="FILE", help="a catalogue file (YAML or JSON); default: the bundled one")
    c.add_argument("--json", action="store_true", help="print the catalogue as a JSON list")
    c.add_argument("--check", action="store_true",
                   help="check the design: every card reachable from a goalkeeper, a goal reachable from every card")
    c.set_defaults(func=_cards)
