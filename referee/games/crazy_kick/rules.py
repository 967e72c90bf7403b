"""The Crazy Kick rules engine: pure Python, deterministic, no I/O.

``CrazyKickGame(setup, catalog).apply(action) -> [Event]`` checks one action against the rules,
updates the state and says what happened: who passed to whom, who tackled whom, goals and the
score. An illegal card is a recorded violation with a plain reason and does not go onto the pile
(the player takes it back); the game goes on. The rules, the rulebook's paragraph numbers and every
decision it leaves open are in docs/rules/crazy-kick.md.
"""
from __future__ import annotations

import random
from typing import Iterable, Sequence

from ..base import NOTABLE, ROUTINE, URGENT, Event, Violation, violation_event
from .actions import BallOut, Deal, Play, Setup, Table
from .catalogue import TEAMS, Catalog, KickCard, default_catalog, may_follow, other

CARDS_LAID_OUT = 3  # rule 5: three at a time, with 2, 4, 6 or 8 players


def layout_counts(teams: dict[str, list[str]]) -> dict[str, int]:
    """How many cards (piles) each player lays out: rule 5 and the box for 3, 5 and 7 players."""
    sizes = {t: len(teams[t]) for t in TEAMS}
    n = sum(sizes.values())
    if n % 2 == 0:
        return {p: CARDS_LAID_OUT for t in TEAMS for p in teams[t]}
    small = min(TEAMS, key=lambda t: sizes[t])
    counts = {}
    for t in TEAMS:
        if n == 3:
            k = 4 if t == small else 2   # the player alone lays out 4, the pair 2 each
        else:
            k = 3 if t == small else 2   # 5 and 7 players: the smaller team 3 each, the larger 2 each
        counts.update({p: k for p in teams[t]})
    return counts


def deal_hands(catalog: Catalog, teams: dict[str, list[str]], rng: random.Random,
               exclude: Iterable[str] = ()) -> dict[str, list[str]]:
    """Rules 2-3: each team shuffles its own cards and shares them out evenly among its players
    (a team of one takes them all). ``exclude``: cards not dealt (goal cards set aside)."""
    skip = set(exclude)
    hands: dict[str, list[str]] = {}
    for t in TEAMS:
        ids = [c.id for c in catalog.team_cards(t) if c.id not in skip]
        rng.shuffle(ids)
        k = len(teams[t])
        for i, player in enumerate(teams[t]):
            hands[player] = ids[i::k]
    return hands


class CrazyKickGame:
    """State of one game of Crazy Kick. Feed it actions with ``apply``; read ``scoresheet()``."""

    def __init__(self, setup: Setup, catalog: Catalog | None = None):
        self.setup = setup
        self.options = setup.options
        self.catalog = catalog or default_catalog()
        self.teams = {t: list(setup.teams[t]) for t in TEAMS}
        self.players = self.teams["red"] + self.teams["white"]
        self.team_of = {p: t for t in TEAMS for p in self.teams[t]}
        self.layout = layout_counts(self.teams)
        self.pile: list[KickCard] = []
        self.aside: dict[str, list[KickCard]] = {t: [] for t in TEAMS}   # goal cards scored (rule 11)
        self.owner: dict[str, str] = {}                 # card id -> player, once a deal is logged
        self.tops: dict[str, list[str | None]] = {}     # player -> top card of each pile, as last seen
        self.goals: list[dict] = []
        self.ball_outs: list[dict] = []
        self.attacks = 0
        self.cards_played = 0
        self.violations: list[Violation] = []
        self.over = False
        self.winner: str | None = None
        self._events: list[Event] = []

    # ---- what the table looks like --------------------------------------------------------------

    @property
    def top(self) -> KickCard | None:
        return self.pile[-1] if self.pile else None

    @property
    def score(self) -> dict[str, int]:
        return {t: len(self.aside[t]) for t in TEAMS}

    @property
    def ball(self) -> tuple[str, str] | None:
        """(team, name) of the player with the ball, None between attacks."""
        top = self.top
        return (top.team, top.name) if top else None

    def in_play(self, card_id: str) -> str | None:
        """Where a card is that cannot be laid again: 'pile', 'aside' or None (with a team)."""
        if any(c.id == card_id for c in self.pile):
            return "pile"
        if any(c.id == card_id for t in TEAMS for c in self.aside[t]):
            return "aside"
        return None

    def is_legal(self, card_id: str) -> bool:
        """Whether the card may be laid on the centre pile now (rules 6, 7 and 10)."""
        card = self.catalog.cards.get(card_id)
        return (card is not None and not self.over and self.in_play(card_id) is None
                and self._follows(self.top, card))

    def follows(self, top_id: str, card_id: str) -> bool:
        """Whether ``card_id`` may be laid on ``top_id`` (rules 6, 7 and 10), whatever the pile holds now."""
        top, card = self.catalog.cards.get(top_id), self.catalog.cards.get(card_id)
        return top is not None and card is not None and self._follows(top, card)

    def legal_cards(self, visible: Iterable[str | None] | None = None) -> list[str]:
        """The cards that may be laid now: among ``visible`` (the top cards of all piles), or, when
        None, among every card outside the centre pile and the goals set aside."""
        ids = self.catalog.cards if visible is None else [v for v in visible if v is not None]
        return [cid for cid in ids if self.is_legal(cid)]

    def any_legal_visible(self, visible: Iterable[str | None] | None = None) -> bool:
        """Whether any legal card shows; ``visible`` defaults to the pile tops last seen."""
        if visible is None:
            visible = [c for tops in self.tops.values() for c in tops]
        return bool(self.legal_cards(visible))

    def look_for(self) -> list[str]:
        """Rule 9: the names worth calling out: who may take the ball from the top card."""
        top = self.top
        if top is None:
            return list(self.catalog.keepers().values())
        if top.is_goal:
            return []
        return ([self.catalog.name(top.team, n) for n in top.passes]
                + [self.catalog.name(other(top.team), n) for n in top.tackles])

    def _follows(self, top: KickCard | None, card: KickCard) -> bool:
        if card.is_goal and top is not None and self.options.goal_after == "any":
            return card.team == top.team and not top.is_goal
        return may_follow(top, card)

    # ---- actions --------------------------------------------------------------------------------

    def apply(self, action) -> list[Event]:
        """Apply one action; return the events it caused (violations included)."""
        self._events = []
        if isinstance(action, Setup):
            self._violate("bad_action", None, "a second setup; a log holds one game", action)
        elif self.over and not isinstance(action, (Table, Deal)):
            who = getattr(action, "player", None)
            self._violate("game_over", who, f"the game is over ({self._score_text()}); "
                          f"'{action.type}' ignored", action)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, BallOut):
            self._ball_out(action)
        elif isinstance(action, Table):
            self._table(action)
        elif isinstance(action, Deal):
            self._deal(action)
        else:  # pragma: no cover - the schema admits nothing else
            raise TypeError(f"not a Crazy Kick action: {action!r}")
        return self._events

    def _emit(self, type_: str, action, priority: int = ROUTINE, **data) -> None:
        self._events.append(Event(type_, data, t=action.t, priority=priority))

    def _violate(self, type_: str, player: str | None, detail: str, action) -> None:
        v = Violation(type_, player, detail, round=self.attacks or None, t=action.t)
        self.violations.append(v)
        self._events.append(violation_event(v))

    def _label(self, card: KickCard) -> str:
        return f"{card.id} ({card.team} {'goal ' if card.is_goal else ''}{card.name})"

    def _score_text(self) -> str:
        s = self.score
        return f"red {s['red']} - {s['white']} white"

    def _play(self, a: Play) -> None:
        card = self.catalog.cards.get(a.card)
        who = a.player
        if card is None:
            self._violate("unknown_card", who, f"{a.card!r} is not a card of the {self.catalog.source} catalogue", a)
            return
        if who is not None and who not in self.team_of:
            self._violate("unknown_player", who, f"{who!r} is not at this table {self.players}", a)
            return
        where = self.in_play(card.id)
        if where is not None:
            self._violate("card_in_play", who, f"{self._label(card)} is already "
                          + ("on the centre pile" if where == "pile" else "set aside as a goal"), a)
            return
        if who is not None and self.team_of[who] != card.team:
            self._violate("wrong_team", who, f"{who} plays for {self.team_of[who]} and can't lay "
                          f"{self._label(card)}", a)
            return
        owner = self.owner.get(card.id)
        if who is not None and owner is not None and owner != who:
            self._violate("not_his_card", who, f"{self._label(card)} was dealt to {owner}, not {who}", a)
            return
        if a.missed_before and not card.is_goal:
            self._lay(card, a)  # the table played on from it: no follow check
            return
        tops = self.tops.get(who) if who is not None and self.options.track_piles else None
        if tops and None not in tops and card.id not in tops:
            # Only the top card of a pile may go to the middle; proven only when every top was seen.
            self._violate("not_on_top", who, f"{self._label(card)} is not on top of one of {who}'s piles "
                          f"({', '.join(tops)})", a)
            return
        reason = self._why_illegal(card)
        if reason:
            self._violate("not_on_card" if self.top is not None else "no_keeper", who, reason, a)
            return
        self._lay(card, a)

    def _why_illegal(self, card: KickCard) -> str | None:
        """A plain reason why ``card`` may not go on the pile now, or None when it may."""
        top = self.top
        if self._follows(top, card):
            return None
        keepers = " or ".join(self.catalog.keepers().values())
        if top is None:
            what = f"{card.name} can't score" if card.is_goal else f"{card.name} can't start the attack"
            return f"{what}: no ball in play; the first card must be a goalkeeper ({keepers})"
        holder = top.name
        if card.is_goal:
            if card.team != top.team:
                return f"{card.name} can't score: {holder} of {top.team} has the ball"
            return f"{card.name} can't score after {holder}: no pass to {card.name} on {holder}'s card"
        if card.team == top.team:
            return f"{card.name} can't take a pass from {holder}: not on {holder}'s card"
        return f"{card.name} can't tackle {holder}: not on {holder}'s card"

    def _lay(self, card: KickCard, a: Play) -> None:
        top = self.top
        self.pile.append(card)
        self.cards_played += 1
        self._seen_leaving(card.id, a.player)
        common = {"card": card.id, "player": a.player}
        if card.is_goal:
            self._goal(card, top, a)
            return
        if a.missed_before:
            # the table played on from this card, though it did not follow the top the camera knew:
            # the card(s) between were missed, so it is neither a kickoff, a pass nor a tackle
            if top is None:
                self.attacks += 1  # the goalkeeper that started this attack was missed
            self._emit("play_on", a, ROUTINE, team=card.team, ball=card.name, look_for=self.look_for(), **common)
            return
        if top is None:
            self.attacks += 1
            self._emit("kickoff", a, NOTABLE, team=card.team, keeper=card.name, attack=self.attacks,
                       ball=card.name, look_for=self.look_for(), **common)
        elif card.team == top.team:
            self._emit("pass", a, ROUTINE, team=card.team, **{"from": top.name}, to=card.name,
                       ball=card.name, look_for=self.look_for(), **common)
        else:
            self._emit("tackle", a, NOTABLE, team=card.team, by=card.name, **{"from": top.name},
                       ball=card.name, look_for=self.look_for(), **common)

    def _goal(self, card: KickCard, top: KickCard, a: Play) -> None:
        # Rules 10-12: the goal card is set aside and counts; the pile goes back to its teams.
        self.pile.pop()
        self.aside[card.team].append(card)
        returned = len(self.pile)
        self.pile = []
        self.tops = {}  # everyone picks up, shuffles and lays out again
        goal = {"team": card.team, "scorer": card.name, "number": card.player, "assist": top.name,
                "card": card.id, "player": a.player, "t": a.t, "attack": self.attacks, "score": self.score}
        self.goals.append(goal)
        self._emit("goal", a, URGENT, **{k: v for k, v in goal.items() if k != "t"}, returned=returned)
        if self.score[card.team] >= self.options.goals_to_win:
            self.over = True
            self.winner = card.team
            self._emit("game_over", a, URGENT, winner=card.team, score=self.score)

    def _seen_leaving(self, card_id: str, player: str | None) -> None:
        # The card left a pile: what lies under it is not known until the camera sees it.
        for p, tops in self.tops.items():
            if (player is None or p == player) and card_id in tops:
                tops[tops.index(card_id)] = None
                return

    def _ball_out(self, a: BallOut) -> None:
        top = self.top
        if top is None:
            self._violate("bad_ball_out", None, "no ball in play: the next attack starts with a goalkeeper", a)
            return
        if a.visible is not None:
            showing = self.legal_cards(a.visible)
            if showing:
                self._violate("bad_ball_out", None, f"the ball was not out: {self._names(showing)} showed "
                              f"and could take the ball from {top.name}", a)
        if self.options.ball_out == "strict":
            left = self.legal_cards()
            if left and not (a.visible is not None and self.legal_cards(a.visible)):
                self._violate("bad_ball_out", None, f"the ball was not out: {self._names(left)} could still "
                              f"take the ball from {top.name} (not on the centre pile)", a)
        # The table has agreed and redistributed: the referee follows it either way.
        returned = len(self.pile) - 1
        self.pile = [top]
        self.tops = {}
        out = {"t": a.t, "returned": returned, "ball": top.name, "team": top.team, "attack": self.attacks}
        self.ball_outs.append(out)
        self._emit("ball_out", a, NOTABLE, returned=returned, ball=top.name, team=top.team,
                   look_for=self.look_for())

    def _names(self, ids: list[str]) -> str:
        return ", ".join(f"{self.catalog[c].name} ({c})" for c in ids[:6]) + (" ..." if len(ids) > 6 else "")

    def _table(self, a: Table) -> None:
        for player, tops in a.piles.items():
            if player not in self.team_of:
                self._violate("unknown_player", player, f"{player!r} is not at this table {self.players}", a)
                continue
            team, k = self.team_of[player], self.layout[player]
            seen: list[str | None] = []
            for cid in tops:
                card = self.catalog.cards.get(cid) if cid is not None else None
                if cid is not None and card is None:
                    self._violate("unknown_card", player, f"{cid!r} on {player}'s piles is not a card of the "
                                  f"{self.catalog.source} catalogue", a)
                    cid = None
                elif card is not None and card.team != team:
                    self._violate("wrong_team", player, f"{player} plays for {team} and has {self._label(card)} "
                                  "on a pile", a)
                seen.append(cid)
            # Rule 5 and the box: the layout before the keeper comes is exact; later a pile may run
            # out (fewer), but a player never has more piles than he laid out.
            if (not self.pile and len(tops) != k) or len(tops) > k:
                self._violate("layout", player, f"{player} has {len(tops)} piles; {self._layout_text(player)}", a)
            self.tops[player] = seen
        self._emit("table", a, ROUTINE, piles={p: list(v) for p, v in self.tops.items()},
                   legal_visible=self.legal_cards([c for v in self.tops.values() for c in v]))

    def _layout_text(self, player: str) -> str:
        n, k = len(self.players), self.layout[player]
        size = len(self.teams[self.team_of[player]])
        if n % 2 == 0:
            return f"with {n} players everyone lays out {k}"
        if size == 1:
            return f"with {n} players the player alone lays out {k}"
        return f"with {n} players each player of the team of {size} lays out {k}"

    def _deal(self, a: Deal) -> None:
        if self.pile:
            self._violate("bad_deal", None, "hands dealt while the ball is in play; deal ignored", a)
            return
        set_aside = {c.id for t in TEAMS for c in self.aside[t]}
        owner: dict[str, str] = {}
        for player, ids in a.hands.items():
            if player not in self.team_of:
                self._violate("bad_deal", player, f"{player!r} is not at this table; deal ignored", a)
                return
            for cid in ids:
                card = self.catalog.cards.get(cid)
                problem = ("is not a card of the catalogue" if card is None else
                           f"is a {card.team} card, {player} plays for {self.team_of[player]}"
                           if card.team != self.team_of[player] else
                           "is dealt twice" if cid in owner else
                           "is set aside as a goal" if cid in set_aside else None)
                if problem:
                    self._violate("bad_deal", player, f"{cid} {problem}; deal ignored", a)
                    return
                owner[cid] = player
        for t in TEAMS:
            missing = [c.id for c in self.catalog.team_cards(t) if c.id not in owner and c.id not in set_aside]
            if missing:
                self._violate("bad_deal", None, f"{len(missing)} {t} cards not dealt ({', '.join(missing[:5])}"
                              f"{' ...' if len(missing) > 5 else ''}); deal ignored", a)
                return
            sizes = [len(a.hands.get(p, [])) for p in self.teams[t]]
            if max(sizes) - min(sizes) > 1:
                # Rule 3: the cards are shared out evenly within the team.
                self._violate("bad_deal", None, f"{t} hands of {sizes} cards are not an even split; deal ignored", a)
                return
        self.owner = owner
        self._emit("deal", a, ROUTINE, hands={p: len(v) for p, v in a.hands.items()})

    # ---- results --------------------------------------------------------------------------------

    def scoresheet(self) -> dict:
        """Everything a scoresheet shows, as plain JSON-ready data."""
        return {
            "game": "crazy-kick",
            "catalog": self.catalog.source,
            "teams": self.teams,
            "layout": self.layout,
            "goals_to_win": self.options.goals_to_win,
            "score": self.score,
            "complete": self.over,
            "winner": self.winner,
            "goals": [dict(g) for g in self.goals],
            "attacks": self.attacks,
            "cards_played": self.cards_played,
            "ball_outs": [dict(b) for b in self.ball_outs],
            "ball": self.top.name if self.top else None,
            "violations": [v.to_dict() for v in self.violations],
        }


def replay(actions: Sequence, catalog: Catalog | None = None) -> tuple[CrazyKickGame, list[Event]]:
    """Play a parsed action log (setup first) and return the game and every event. The catalogue
    is the one given, else the one the setup names (loaded by ``load_log``), else the default."""
    setup = actions[0]
    if catalog is None and setup.catalog is not None:
        from .catalogue import load_catalog  # the one file read, at the edge; the engine stays pure

        catalog = load_catalog(setup.catalog)
    game = CrazyKickGame(setup, catalog)
    events: list[Event] = []
    for action in actions[1:]:
        events.extend(game.apply(action))
    return game, events
