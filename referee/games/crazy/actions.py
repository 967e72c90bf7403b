"""The actions of a Crazy game, as they appear in an action log (one JSON object a line).

    {"type": "setup", "game": "crazy", "players": ["Ann", "Bob", "Cyd", "Dee"], "deck": "rook", "dealer": "Ann", "options": {}}
    {"type": "choose", "player": "Bob", "round": "red"}
    {"type": "deal", "hands": {"Ann": ["R14", "G7"], ...}}
    {"type": "play", "player": "Bob", "card": "G7"}
    {"type": "play", "player": "Cyd", "card": "?"}      # seen played, never read (``UNREAD``)

Schema errors (a missing field, a wrong type, a setup that cannot be dealt) are input errors with a
line number. Actions that are well-formed but impossible at the table (an unknown card, a play out of
turn) are not errors here: the engine records them as violations.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from ...actionlog import setup_first
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from .cards import ROOK, CardError, copies_for, default_removed, full_deck, parse_card

ROUND_TYPES = ("red", "black13", "first_last", "every_hand", "crazy")
UNREAD = "?"  # the card of a play the camera saw made but could not read (a person may correct it in the log)
MIN_PLAYERS, MAX_PLAYERS = 4, 12


class _Action(BaseModel):
    # Unknown fields are rejected so a typo ("plyer") is caught; t/frame/source are what a camera adds.
    model_config = ConfigDict(frozen=True, extra="forbid")
    t: Optional[float] = Field(None, description="seconds from the start of the game or video")
    frame: Optional[int] = Field(None, description="video frame the action was seen in")
    source: Optional[str] = Field(None, description="who wrote the action: camera, person, simulator")


class CrazyOptions(BaseModel):
    """House rules. Every field has the seed's default."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    one_high: bool = Field(False, description="Rook deck: the 1 ranks above the 14")
    black13: Optional[str] = Field(None, description="the card worth 100; default B13 (Rook) or KS (standard)")
    removed: Optional[list[str]] = Field(None, description="cards taken out, overriding the even-deal rule")
    moon_threshold: Optional[int] = Field(None, ge=1, description="crazy-round points that shoot the moon")
    moon_margin: int = Field(75, ge=0, description="default threshold = crazy-round points available - margin")


class Setup(_Action):
    type: Literal["setup"]
    game: Literal["crazy"] = "crazy"
    players: list[str] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS, description="clockwise seating order")
    deck: Literal["rook", "standard"] = ROOK
    dealer: str
    options: CrazyOptions = CrazyOptions()

    @field_validator("players")
    @classmethod
    def _distinct_names(cls, players: list[str]) -> list[str]:
        if any(not p.strip() for p in players):
            raise ValueError("player names must not be empty")
        if len(set(players)) != len(players):
            raise ValueError(f"player names must be distinct, got {players}")
        return players

    @model_validator(mode="after")
    def _dealable(self) -> "Setup":
        if self.dealer not in self.players:
            raise ValueError(f"dealer {self.dealer!r} is not one of the players {self.players}")
        opts = self.options
        if opts.black13 is not None:
            try:
                parse_card(opts.black13, self.deck)
            except CardError as e:
                raise ValueError(f"options.black13: {e}") from None
        if opts.removed is not None:
            pool = full_deck(self.deck) * copies_for(len(self.players))
            for code in opts.removed:
                try:
                    card = parse_card(code, self.deck)
                except CardError as e:
                    raise ValueError(f"options.removed: {e}") from None
                if card not in pool:
                    raise ValueError(f"options.removed: {code!r} is removed more often than the deck holds it")
                pool.remove(card)
            if len(pool) % len(self.players):
                raise ValueError(
                    f"options.removed leaves {len(pool)} cards, which do not deal evenly to {len(self.players)} players")
        return self

    def removed_cards(self):
        if self.options.removed is not None:
            return [parse_card(c, self.deck) for c in self.options.removed]
        return default_removed(self.deck, len(self.players))


class Choose(_Action):
    type: Literal["choose"]
    player: str
    round: Literal["red", "black13", "first_last", "every_hand", "crazy"]


class Deal(_Action):
    type: Literal["deal"]
    hands: dict[str, list[str]]


class Play(_Action):
    type: Literal["play"]
    player: str
    card: str = Field(description=f"a card code, or {UNREAD!r}: a card seen played but not read")


Action = Annotated[Union[Setup, Choose, Deal, Play], Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


check_order = setup_first  # the log starts with exactly one setup
