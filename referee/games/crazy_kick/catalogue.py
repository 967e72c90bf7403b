"""The Crazy Kick card catalogue: which cards a deck holds. Data, not code.

The real deck's card list is not published and editions differ in player names, so the rules engine
is driven by a catalogue that a user can replace with the list of their own copy. A catalogue file
(YAML or JSON) is either

    teams:                       # both teams, players numbered 1-11 (1 is the goalkeeper)
      red:   {players: {1: Alex, 2: Jonas, ...}}
      white: {players: {1: Stefan, ...}}
    cards:                       # one entry a card; names come from the team's roster
      - {id: R01, team: red, kind: player, player: 1, passes: [2, 3], tackles: [9]}
      - {id: R53, team: red, kind: goal, player: 9}

or the JSON list that ``referee cards crazy-kick --json`` prints (each card with its ``name``).
``passes`` are team-mates (same team), ``tackles`` opponents (the other team), by number.

Loading a file is the only I/O here; ``Catalog`` itself is plain data for the pure engine.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

TEAMS = ("red", "white")
GOALKEEPER = 1
PLAYER, GOAL = "player", "goal"
DEFAULT_CATALOG = Path(__file__).with_name("data") / "catalogue.yaml"


class CatalogError(ValueError):
    """A catalogue file that cannot be used: a missing field, an unknown number, a duplicate id."""


def other(team: str) -> str:
    return TEAMS[1 - TEAMS.index(team)]


@dataclass(frozen=True)
class KickCard:
    id: str
    team: str
    kind: str              # "player" or "goal"
    player: int            # the number in the middle (the player with the ball, or the scorer)
    name: str
    passes: tuple[int, ...] = ()   # team-mates he can pass to
    tackles: tuple[int, ...] = ()  # opponents who can tackle him

    @property
    def is_goal(self) -> bool:
        return self.kind == GOAL

    @property
    def is_keeper(self) -> bool:
        return self.kind == PLAYER and self.player == GOALKEEPER

    def to_dict(self) -> dict:
        return {"id": self.id, "team": self.team, "kind": self.kind, "player": self.player, "name": self.name,
                "passes": list(self.passes), "tackles": list(self.tackles)}


class Catalog:
    """The cards of one deck, by id, with the two teams' rosters (number -> name)."""

    def __init__(self, cards: Iterable[KickCard], rosters: dict[str, dict[int, str]], source: str = "default"):
        self.cards: dict[str, KickCard] = {}
        for c in cards:
            if c.id in self.cards:
                raise CatalogError(f"card id {c.id!r} appears twice")
            self.cards[c.id] = c
        self.rosters = {t: dict(sorted(rosters[t].items())) for t in TEAMS}
        self.source = source
        # Index for the engine: (team, number) -> the player cards showing him with the ball.
        self.by_player: dict[tuple[str, int], list[KickCard]] = defaultdict(list)
        for c in self.cards.values():
            if c.kind == PLAYER:
                self.by_player[(c.team, c.player)].append(c)

    def __getitem__(self, card_id: str) -> KickCard:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards.values())

    def name(self, team: str, number: int) -> str:
        return self.rosters[team].get(number, f"{team} {number}")

    def team_cards(self, team: str) -> list[KickCard]:
        return [c for c in self.cards.values() if c.team == team]

    def keepers(self) -> dict[str, str]:
        return {t: self.name(t, GOALKEEPER) for t in TEAMS}

    def to_list(self) -> list[dict]:
        return [c.to_dict() for c in self.cards.values()]

    def same_faces(self) -> dict[str, str]:
        """Card id -> the first id of a card whose face is the same but for its small printed id. The
        goal cards come in such twins (R53/R54, R55/R56, R57/R58 and the white ones: the same scorer);
        no camera reads the printed id at a table's distance, and the rules treat twins alike."""
        first: dict[tuple, str] = {}
        return {c.id: first.setdefault((c.team, c.kind, c.player, c.name, tuple(c.passes), tuple(c.tackles)), c.id)
                for c in self.cards.values()}


# ---- legality on the centre pile: used by the engine and by the design checks ------------------

def may_follow(top: KickCard | None, card: KickCard) -> bool:
    """Whether ``card`` may be laid on ``top`` (None: an empty pile)."""
    if top is None:
        return card.is_keeper
    if top.is_goal:
        return False  # a goal card never stays on the pile: the attack is over
    if card.is_goal:
        return card.team == top.team and card.player in top.passes
    if card.team == top.team:
        return card.player in top.passes
    return card.player in top.tackles


# ---- loading ------------------------------------------------------------------------------------

def _ints(value, where: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise CatalogError(f"{where}: expected a list of player numbers, got {value!r}")
    return tuple(value)


def catalog_from_data(data, source: str = "<data>") -> Catalog:
    """Build a Catalog from parsed YAML/JSON (either format in the module docstring)."""
    if isinstance(data, list):
        rosters: dict[str, dict[int, str]] = {t: {} for t in TEAMS}
        for c in data:
            if isinstance(c, dict) and c.get("team") in TEAMS and isinstance(c.get("player"), int) and c.get("name"):
                rosters[c["team"]].setdefault(c["player"], str(c["name"]))
        raw_cards = data
    elif isinstance(data, dict) and "cards" in data:
        teams = data.get("teams") or {}
        rosters = {}
        for t in TEAMS:
            players = (teams.get(t) or {}).get("players")
            if not isinstance(players, dict) or not players:
                raise CatalogError(f"teams.{t}.players: expected a mapping of number to name")
            try:
                rosters[t] = {int(k): str(v) for k, v in players.items()}
            except (TypeError, ValueError):
                raise CatalogError(f"teams.{t}.players: the keys must be player numbers") from None
        raw_cards = data["cards"]
        if not isinstance(raw_cards, list):
            raise CatalogError("cards: expected a list")
    else:
        raise CatalogError("expected a mapping with 'teams' and 'cards', or a list of cards")
    cards = []
    for i, c in enumerate(raw_cards):
        where = f"cards[{i}]"
        if not isinstance(c, dict):
            raise CatalogError(f"{where}: expected a mapping")
        for key in ("id", "team", "player"):
            if key not in c:
                raise CatalogError(f"{where}: missing '{key}'")
        cid, team, kind = str(c["id"]), c["team"], c.get("kind", PLAYER)
        where = f"card {cid}"
        if team not in TEAMS:
            raise CatalogError(f"{where}: team must be one of {TEAMS}, got {team!r}")
        if kind not in (PLAYER, GOAL):
            raise CatalogError(f"{where}: kind must be 'player' or 'goal', got {kind!r}")
        (number,) = _ints(c["player"], f"{where}.player") or (None,)
        passes, tackles = _ints(c.get("passes"), f"{where}.passes"), _ints(c.get("tackles"), f"{where}.tackles")
        if number not in rosters[team]:
            raise CatalogError(f"{where}: {team} has no player number {number}")
        for n in passes:
            if n not in rosters[team] or n == number:
                raise CatalogError(f"{where}: cannot pass to {team} number {n}")
        for n in tackles:
            if n not in rosters[other(team)]:
                raise CatalogError(f"{where}: {other(team)} has no player number {n} to tackle")
        if kind == GOAL and (passes or tackles):
            raise CatalogError(f"{where}: a goal card has no corners")
        if kind == PLAYER and not (passes or tackles):
            raise CatalogError(f"{where}: a player card needs at least one corner")
        if "name" in c and str(c["name"]) != rosters[team][number]:
            raise CatalogError(f"{where}: name {c['name']!r} but {team} number {number} is {rosters[team][number]!r}")
        cards.append(KickCard(cid, team, kind, number, rosters[team][number], passes, tackles))
    if not cards:
        raise CatalogError("the catalogue holds no cards")
    return Catalog(cards, rosters, source)


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Read a catalogue file (YAML or JSON); None gives the bundled default catalogue."""
    if path is None:
        return default_catalog()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise CatalogError(f"{path}: cannot read it ({e.strerror or e})") from None
    try:
        if p.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            import yaml  # YAML is a superset of JSON: .yaml, .yml and anything else

            data = yaml.safe_load(text)
    except Exception as e:  # noqa: BLE001 - a parser error of either library, reported with the file
        raise CatalogError(f"{path}: not valid YAML/JSON ({e})") from None
    try:
        return catalog_from_data(data, str(path))
    except CatalogError as e:
        raise CatalogError(f"{path}: {e}") from None


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    cat = load_catalog(DEFAULT_CATALOG)
    cat.source = "default"
    return cat


# ---- design checks: is a catalogue playable? ---------------------------------------------------

def successors(cat: Catalog, card: KickCard) -> list[KickCard]:
    """The cards that may be laid on ``card``."""
    out = []
    if card.is_goal:
        return out
    for n in card.passes:
        out += cat.by_player.get((card.team, n), [])
        out += [c for c in cat.team_cards(card.team) if c.is_goal and c.player == n]
    for n in card.tackles:
        out += cat.by_player.get((other(card.team), n), [])
    return out


def reachable(cat: Catalog, start: Iterable[KickCard]) -> set[str]:
    seen: set[str] = set()
    todo = [c.id for c in start]
    while todo:
        cid = todo.pop()
        if cid in seen:
            continue
        seen.add(cid)
        todo += [s.id for s in successors(cat, cat[cid]) if s.id not in seen]
    return seen


def design_problems(cat: Catalog) -> list[str]:
    """Everything that would make the deck play badly; empty for a good catalogue.

    Checks: both teams have a goalkeeper card and a goal card; every card can be reached from a
    goalkeeper card; from every player card both teams can still reach a goal; every corner names
    a player who has a card (no dead corners); every goal card's scorer is a pass target somewhere."""
    problems = []
    for t in TEAMS:
        if not any(c.is_keeper for c in cat.team_cards(t)):
            problems.append(f"{t} has no goalkeeper card: no attack can start with {t}")
        if not any(c.is_goal for c in cat.team_cards(t)):
            problems.append(f"{t} has no goal card: {t} can never score")
    keepers = [c for c in cat if c.is_keeper]
    seen = reachable(cat, keepers)
    for c in cat:
        if c.id not in seen:
            problems.append(f"{c.id} ({c.team} {c.name}) can never be played: no path from a goalkeeper card")
    goals = {t: {c.id for c in cat.team_cards(t) if c.is_goal} for t in TEAMS}
    for c in cat:
        if c.is_goal:
            continue
        for n in c.passes:
            if not cat.by_player.get((c.team, n)) and not any(cat[g].player == n for g in goals[c.team]):
                problems.append(f"{c.id}: passes to {cat.name(c.team, n)}, who has no card")
        for n in c.tackles:
            if not cat.by_player.get((other(c.team), n)):
                problems.append(f"{c.id}: {cat.name(other(c.team), n)} tackles, but has no card")
        ahead = reachable(cat, [c])
        for t in TEAMS:
            if goals[t] and not ahead & goals[t]:
                problems.append(f"{c.id}: no {t} goal can follow {c.name} with the ball")
    return problems
