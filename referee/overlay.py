"""Drawing what the referee sees and knows on a frame: layout zones, recognised cards, a state
panel and the latest event captions (the live window and annotated.mp4 share it)."""
from __future__ import annotations

from collections import deque

import cv2
import numpy as np

_FONT = cv2.FONT_HERSHEY_SIMPLEX
_ZONE_COLOURS = {"trick": (0, 200, 255), "seat": (160, 160, 160), "centre": (0, 200, 255), "pile": (160, 160, 160),
                 "goal": (80, 220, 80), "board": (255, 200, 0)}


def _text(img, text, org, scale=0.5, colour=(255, 255, 255), thickness=1):
    cv2.putText(img, text, org, _FONT, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, _FONT, scale, colour, thickness, cv2.LINE_AA)


class Overlay:
    def __init__(self, mapper=None, captions: int = 3, caption_s: float = 4.0):
        self.mapper = mapper
        self.captions: deque = deque(maxlen=captions)
        self.caption_s = caption_s

    def add_caption(self, t: float, text: str, urgent: bool = False) -> None:
        self.captions.append((t, text, urgent))

    def add_captions(self, t: float, events, phrase) -> None:
        """A caption for each event ``phrase`` has words for; violations are urgent."""
        for e in events:
            text = phrase(e)
            if text:
                self.add_caption(t, text, e.type == "violation")

    def draw(self, image: np.ndarray, t: float, cards=(), panel: list[str] = ()) -> np.ndarray:
        """``cards``: (label, confidence, 4x2 image corners) as the recogniser gives them."""
        out = image.copy()
        if self.mapper is not None and self.mapper.layout is not None:
            for z in self.mapper.layout.zones:
                pts = self.mapper.table_to_image(z.polygon).astype(np.int32)
                cv2.polylines(out, [pts], True, _ZONE_COLOURS.get(z.group, (200, 200, 200)), 1, cv2.LINE_AA)
        for label, conf, corners in cards:
            pts = np.asarray(corners, np.float32).reshape(-1, 2).astype(np.int32)
            cv2.polylines(out, [pts], True, (0, 255, 0), 2, cv2.LINE_AA)
            x, y = pts.min(axis=0)
            _text(out, f"{label} {conf:.2f}" if conf is not None else label, (int(x), max(12, int(y) - 4)), 0.45,
                  (0, 255, 0))
        # the state panel, top left
        h = 18 * len(panel) + 10
        if panel:
            cv2.rectangle(out, (0, 0), (min(out.shape[1], 360), h), (0, 0, 0), -1)
            for i, line in enumerate(panel):
                _text(out, line, (8, 18 + 18 * i), 0.5)
        # captions of the last few seconds, bottom
        y = out.shape[0] - 12
        for ct, text, urgent in reversed(self.captions):
            if t - ct <= self.caption_s:
                _text(out, text, (10, y), 0.6, (80, 80, 255) if urgent else (255, 255, 255), 1)
                y -= 24
        return out


def crazy_panel(engine) -> list[str]:
    """Lines of the Crazy state panel: round, whose turn, totals."""
    r = engine.round
    lines = [f"Round {r.number}: {r.type}" if r else "No round chosen yet"]
    if engine.to_play:
        lines.append(f"To play: {engine.to_play}")
    elif len(engine.may_lead) > 1:  # the trick before holds an unread card: its winner leads
        lines.append(f"To lead: {' or '.join(engine.may_lead)}")
    totals = engine.totals()
    lines.append("  ".join(f"{p} {v}" for p, v in totals.items()))
    return lines


def kick_panel(engine) -> list[str]:
    """Lines of the Crazy Kick state panel: score, who has the ball, the centre pile's top card."""
    s = engine.score
    lines = [f"Red {s['red']} - {s['white']} White" + ("  (game over)" if engine.over else "")]
    ball = engine.ball
    top = engine.top
    lines.append(f"Ball: {ball[1]} ({ball[0]}), top {top.id}" if ball and top else "No ball: a goalkeeper starts")
    lines.append(f"Attack {engine.attacks}, {engine.cards_played} cards, {len(engine.violations)} fouls")
    return lines


def fodbold_panel(engine) -> list[str]:
    """Lines of the fodbold state panel: score, what the game waits for, who has the ball."""
    pos = engine.pos
    lines = [f"Red {pos.score['red']} - {pos.score['blue']} Blue"]
    phase = engine.phase
    if phase == "roll":
        lines.append("Kick-off: roll the die")
    elif phase == "over":
        lines.append("Game over")
    else:
        wait = "draw or shoot" if phase != "move" else f"move for {pos.card}" if pos.card else "move"
        lines.append(f"{pos.to_play} to play: {wait}")
    if pos.holder is not None:
        lines.append(f"Ball: {pos.holder[0]} {pos.holder[1]}")
    return lines


def state_panel(game: str, engine) -> list[str]:
    """The state panel of ``game``'s engine (none for a game without one)."""
    panel = {"crazy": crazy_panel, "crazy-kick": kick_panel, "fodbold": fodbold_panel}.get(game)
    return panel(engine) if panel is not None else []
