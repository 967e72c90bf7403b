"""The actions of a Fodbold game, as they appear in an action log (one JSON object a line).

    {"type": "setup", "game": "fodbold", "teams": {"red": "Ann", "blue": "Bob"}, "first": null}
    {"type": "roll", "team": "red", "value": 3}
    {"type": "draw", "team": "red", "card": "R06"}
    {"type": "move", "team": "red", "piece": 7, "from": "c9", "to": "c14"}
    {"type": "shot", "team": "red", "card": "S04"}

Schema errors are input errors with a line number; actions that are well-formed but impossible
at the table (a piece moved too far, a card not on the card drawn) are violations in the engine.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from ...actionlog import setup_first
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from .board import BoardError, parse_square

Team = Literal["red", "blue"]


class _Action(BaseModel):
    # Unknown fields are rejected so a typo is caught; t/frame/source are what a camera adds.
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    t: Optional[float] = Field(None, description="seconds from the start of the game or video")
    frame: Optional[int] = Field(None, description="video frame the action was seen in")
    source: Optional[str] = Field(None, description="who wrote the action: camera, person, simulator")


class FodboldOptions(BaseModel):
    """Settings for the decisions the rule text leaves open (docs/rules/fodbold.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    offside_counts: Literal["outfield", "all"] = Field(
        "outfield", description="which defenders set the offside line: outfield pieces (2-11) or all, keeper too")
    offside_on_shot: bool = Field(
        True, description="a shot is offside when an unmarked team-mate of the shooter stands offside")
    stalling_back_passes: int = Field(2, ge=1, description="backward passes in a row while attacking that are stalling")
    lofted_margin: int = Field(2, ge=0, description="a lofted shot scores from the distance up to distance + this")


class Setup(_Action):
    type: Literal["setup"]
    game: Literal["fodbold"] = "fodbold"
    teams: dict[Team, str] = Field(default_factory=lambda: {"red": "red", "blue": "blue"},
                                   description="who plays each colour")
    first: Optional[Team] = Field(None, description="who kicks off; null: decided by die rolls")
    board: Optional[str] = Field(None, description="board YAML file (relative to the log); null: the default board")
    decks: Optional[str] = Field(None, description="decks YAML file (relative to the log); null: the default cards")
    position: Optional[str] = Field(None, description="start from this one-line position instead of the kick-off")
    options: FodboldOptions = FodboldOptions()

    @field_validator("teams")
    @classmethod
    def _both_teams(cls, teams: dict[str, str]) -> dict[str, str]:
        # A missing name is the colour itself, so scoresheets can always name both sides.
        return {"red": teams.get("red") or "red", "blue": teams.get("blue") or "blue"}


class Roll(_Action):
    type: Literal["roll"]
    team: Team
    value: int = Field(ge=1, le=6)


class Draw(_Action):
    type: Literal["draw"]
    team: Team
    card: str


def _square(v: str) -> str:
    try:
        parse_square(v)
    except BoardError as e:
        raise ValueError(str(e)) from None
    return v.strip().lower()


class Move(_Action):
    type: Literal["move"]
    team: Team
    piece: int = Field(ge=1, le=11)
    from_: Optional[str] = Field(None, alias="from", description="where the camera saw the piece start (checked)")
    to: str

    @field_validator("to", "from_")
    @classmethod
    def _squares(cls, v):
        return None if v is None else _square(v)


class Shot(_Action):
    type: Literal["shot"]
    team: Team
    card: str


Action = Annotated[Union[Setup, Roll, Draw, Move, Shot], Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


check_order = setup_first  # the log starts with exactly one setup
