"""The actions of a Crazy Kick game, as they appear in an action log (one JSON object a line).

    {"type": "setup", "game": "crazy-kick", "teams": {"red": ["Ann", "Bob"], "white": ["Cyd", "Dee"]}, "options": {}}
    {"type": "deal", "hands": {"Ann": ["R01", "R17", ...], ...}}              optional: who holds which cards
    {"type": "table", "t": 0.0, "piles": {"Ann": ["R05", "R33", "R12"], ...}}  optional: the top card of each pile
    {"type": "play", "t": 3.2, "card": "R05", "player": "Ann"}               a card laid on the centre pile
    {"type": "ball_out", "t": 41.0}                                           both teams agreed the ball is out

Schema errors (a missing field, a wrong type, a bad team split, time running backwards) are input
errors with a line number. Well-formed actions that break a rule (a card that is not on the top
card's corners, an unknown card id) are not errors here: the engine records them as violations.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from ...actionlog import setup_first
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from .catalogue import TEAMS

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_TEAM = 4


class _Action(BaseModel):
    # Unknown fields are rejected so a typo ("crad") is caught; frame/source are what a camera adds.
    model_config = ConfigDict(frozen=True, extra="forbid")
    frame: Optional[int] = Field(None, description="video frame the action was seen in")
    source: Optional[str] = Field(None, description="who wrote the action: camera, person, simulator")


class KickOptions(BaseModel):
    """House rules and the decisions the rulebook leaves open. Every field has the documented default."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    goals_to_win: int = Field(5, ge=1, description="rule 13: the first team to this many goals wins")
    ball_out: Literal["strict", "agreed"] = Field(
        "strict", description="strict: a ball out is only right when no card outside the centre pile could be "
                              "played (the rulebook's reason); agreed: any ball out both teams agree on is fine")
    goal_after: Literal["pass", "any"] = Field(
        "pass", description="pass: a goal card for X needs a team card on top that passes to X; any: any card "
                            "of the scorer's team on top")
    track_piles: bool = Field(
        False, description="the log has a 'table' action after every change of the pile tops (as the camera "
                           "writes it), so a card laid from under another pile top is a violation")


class Setup(_Action):
    type: Literal["setup"]
    game: Literal["crazy-kick"] = "crazy-kick"
    t: Optional[float] = Field(None, ge=0)
    teams: dict[Literal["red", "white"], list[str]] = Field(description="players of each team")
    catalog: Optional[str] = Field(None, description="catalogue file, relative to the log; default: the bundled one")
    options: KickOptions = KickOptions()

    @field_validator("teams")
    @classmethod
    def _teams(cls, teams: dict[str, list[str]]) -> dict[str, list[str]]:
        if set(teams) != set(TEAMS):
            raise ValueError(f"name both teams, red and white, got {sorted(teams)}")
        players = teams["red"] + teams["white"]
        if any(not p.strip() for p in players):
            raise ValueError("player names must not be empty")
        if len(set(players)) != len(players):
            raise ValueError(f"player names must be distinct, got {players}")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"Crazy Kick is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
        red, white = len(teams["red"]), len(teams["white"])
        # Rule 1: even tables split evenly (1-4 a side); odd tables (3, 5, 7) are one player apart.
        if min(red, white) < 1 or abs(red - white) > 1:
            raise ValueError(f"teams of {red} and {white}: with {red + white} players the teams are "
                             + ("equal" if (red + white) % 2 == 0 else "one player apart"))
        return {t: teams[t] for t in TEAMS}

    @property
    def players(self) -> list[str]:
        return self.teams["red"] + self.teams["white"]


class Deal(_Action):
    type: Literal["deal"]
    t: Optional[float] = Field(None, ge=0)
    hands: dict[str, list[str]]


class Table(_Action):
    type: Literal["table"]
    t: float = Field(ge=0, description="seconds from the start of the game or video")
    piles: dict[str, list[Optional[str]]] = Field(description="per player, the top card of each pile (null: unseen)")


class Play(_Action):
    type: Literal["play"]
    t: float = Field(ge=0, description="seconds from the start of the game or video")
    card: str
    player: Optional[str] = Field(None, description="who laid it, when seen")
    missed_before: bool = Field(False, description="the camera missed a card before this one (the table played "
                                "on from this card): it is laid without asking whether it follows the top")
    unseen: bool = Field(False, description="the camera did not see this card on the centre pile: it left its "
                         "player's pile, and the card laid next follows it but not the card the camera saw before")


class BallOut(_Action):
    type: Literal["ball_out"]
    t: float = Field(ge=0, description="seconds from the start of the game or video")
    visible: Optional[list[str]] = Field(None, description="top cards of all piles when it was called, when seen")


Action = Annotated[Union[Setup, Deal, Table, Play, BallOut], Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


class OrderCheck:
    """The log starts with exactly one setup and its times never run backwards."""

    def __init__(self) -> None:
        self.last_t: float | None = None

    def __call__(self, index: int, action, line: int) -> None:
        setup_first(index, action, line)
        if action.t is not None:
            if self.last_t is not None and action.t < self.last_t:
                raise ValueError(f"time runs backwards: t={action.t} after t={self.last_t}")
            self.last_t = action.t
