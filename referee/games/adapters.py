"""What the game adapters share: the correction value and how an action seen by the camera is stamped."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable


@dataclass(frozen=True)
class Correction:
    """The action at ``index`` in the action log was replaced by ``action`` (a card read wrongly at
    first), or removed when ``action`` is None (a play the camera took back). The adapter has already
    changed its log; the session re-scores it. ``why``: what the event log says (default: the
    label read anew)."""

    index: int
    action: dict | None
    why: str | None = None


def camera_action(action: dict, t: float | None, frame: int | None) -> dict:
    """Stamp an action the camera produced with its time (s), video frame and source, in place."""
    if t is not None:
        action["t"] = round(float(t), 3)
    if frame is not None:
        action["frame"] = int(frame)
    action["source"] = "camera"
    return action


def replayed(game, actions: Iterable[dict], validate: Callable[[dict], object]):
    """``game`` after applying ``actions`` (each checked by ``validate``, the game's action adapter).
    The adapters ask "what if" of a fresh engine replayed this way: they never change their own game."""
    for a in actions:
        game.apply(validate(a))
    return game
