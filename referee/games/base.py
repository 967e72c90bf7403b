"""What every rules engine shares: the Event and Violation values that leave the rules layer.

Only Actions go into a rules engine and only Events come out: never frames, arrays or files.
An engine never raises on a bad action from the table: it records a Violation (also sent as an
Event of type "violation") and goes on, because a referee that stops mid-game is worse than none.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Violation:
    """A rule broken or an impossible action seen. ``round`` and ``trick`` are 1-based positions
    where the game has them (None where it does not)."""

    type: str
    player: str | None
    detail: str
    round: int | None = None
    trick: int | None = None
    t: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """Something that happened, for the announcer, the event log, the overlay and the report.
    ``priority`` orders speech: 0 routine, 1 notable (a trick or round won), 2 urgent (a foul, a goal)."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    t: float | None = None
    priority: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {**self.data, "type": self.type, "t": self.t, "priority": self.priority}


ROUTINE, NOTABLE, URGENT = 0, 1, 2


def violation_event(v: Violation) -> Event:
    """The event for a violation; its kind is under "violation" (the event's own type is "violation")."""
    data = v.to_dict()
    data["violation"] = data.pop("type")
    return Event("violation", data, t=v.t, priority=URGENT)
