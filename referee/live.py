"""`referee play`: the referee at the table, live.

The capture loop never waits for speech (the Announcer speaks in its own thread) and never ends
because the camera hiccups: a camera that stops delivering frames is reopened and the loss is
announced. A window shows the camera image with zones, cards, a state panel and captions when a
display exists; otherwise it runs headless. Keys: space = pause, u = undo the last action,
q = quit; Crazy's round by key (r red, b black13, f first_last, e every_hand, c crazy) or --rounds.
Everything is logged as it happens, so `--resume DIR` continues a game after a crash.
"""
from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Callable

# The camera size asked for when --width and --height are not given. Standard cards need more pixels than
# Rook or Crazy Kick cards: at 1280x720 (the camera about 1.5 m above a 1 m table) a court card's suit is a pip
# about 3 px tall, and its spades are read as clubs. Stage 2 alone on four simulated games
# (scripts/bench_cls_video.py --deck standard --seeds 6001 6002 6005 6006 --every 3 --size WxH, session 19):
# faces in view read right 0.965 at 1280x720, 0.995 at 1920x1080.
CAMERA_SIZE = (1280, 720)
CAMERA_SIZE_FOR_DECK = {"standard": (1920, 1080)}


def camera_size(deck: str | None, width: int | None = None, height: int | None = None) -> tuple[int, int]:
    """The (width, height) to ask the camera for: what was given, else the deck's size (``CAMERA_SIZE_FOR_DECK``)."""
    w, h = CAMERA_SIZE_FOR_DECK.get(deck or "", CAMERA_SIZE)
    return (width or w, height or h)


CRAZY_KEYS = {"r": "red", "b": "black13", "f": "first_last", "e": "every_hand", "c": "crazy"}


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("darwin", "win32")


class LiveReferee:
    """One frame in, everything that follows out. Shared by `referee play` and its tests."""

    def __init__(self, game: str, session, mapper, perceiver, phrase, overlay=None, remap_every: int = 15):
        self.game, self.session, self.mapper, self.perceiver, self.phrase = game, session, mapper, perceiver, phrase
        self.overlay = overlay
        self.remap_every = remap_every
        self.paused = False
        self.warned = False
        self.frames = 0
        self.started = time.perf_counter()

    def process(self, frame):
        """Returns the drawn frame (or None without an overlay) and the new events."""
        from .review import to_table

        self.frames += 1
        if frame.index % self.remap_every == 0:
            status = self.mapper.update(frame.image, frame.t)
            if status.warning and not self.warned:  # once per episode, not every look
                self.warned = True
                print(f"referee: {status.warning}", file=sys.stderr)
                if self.session.announcer is not None:
                    self.session.announcer.say("Table markers covered", 2)
            elif status.state in ("ok", "moved"):
                self.warned = False
        cards = [] if self.paused else self.perceiver.perceive(frame)
        new = [] if self.paused else self.session.step(frame.index, frame.t, to_table(self.mapper, cards))
        if self.overlay is None:
            return None, new
        self.overlay.add_captions(frame.t, new, self.phrase)
        fps = self.frames / max(time.perf_counter() - self.started, 1e-6)
        panel = self._panel() + [f"{fps:.0f} fps" + ("  PAUSED" if self.paused else "")]
        return self.overlay.draw(frame.image, frame.t, cards, panel), new

    def _panel(self) -> list[str]:
        from .overlay import state_panel

        return state_panel(self.game, self.session.engine)

    def key(self, k: str, t: float | None = None) -> bool:
        """An operator key; False means quit."""
        if k == "q":
            return False
        if k == " ":
            self.paused = not self.paused
        elif k == "u":
            self.session.undo(t=t)
        elif self.game == "crazy" and k in CRAZY_KEYS:
            self.session.choose(CRAZY_KEYS[k], t=t)
        return True


def run(live: LiveReferee, source, show: bool, keys: Callable[[], str | None] | None = None,
        max_frames: int | None = None) -> int:
    """The capture loop. ``keys`` gives the next key pressed (None for none) when there is no window."""
    import cv2

    for frame in source:
        drawn, _ = live.process(frame)
        k = None
        if show and drawn is not None:
            cv2.imshow("referee", drawn)
            code = cv2.waitKey(1) & 0xFF
            k = chr(code) if code != 255 else None
        elif keys is not None:
            k = keys()
        if k and not live.key(k, frame.t):
            break
        if max_frames and live.frames >= max_frames:
            break
    if show:
        cv2.destroyAllWindows()
    return live.frames


def _cmd(args) -> int:
    from .calibration.files import CalibrationError
    from .overlay import Overlay
    from .phrases import phrasebook
    from .review import ModelPerception, ReviewError, find_table, read_setup, setup_from_players
    from .session import GameSession, SessionError
    from .sources import CameraSource, SourceError, VideoSource
    from .speech import URGENT, Announcer, make_speaker

    out = Path(args.out or f"runs/live-{datetime.now():%Y%m%d-%H%M%S}")
    speaker = make_speaker(mute=args.mute, wav=args.speech_wav, voice=args.voice, rate=args.rate)
    announcer = Announcer(speaker)
    phrase = phrasebook(args.game, args.lang)
    options = {"rounds": args.rounds.split(",")} if args.rounds else {}
    try:
        if args.resume:
            session = GameSession.resume(args.game, args.resume, announcer=announcer, phrase=phrase, options=options)
            out = Path(args.resume)
            announcer.say("Game resumed", URGENT)
        else:
            if args.setup:
                setup = read_setup(args.setup)
            else:
                setup = setup_from_players(args.game, args.players, args.deck, args.dealer, args.first)
            session = GameSession(args.game, setup, out_dir=out, announcer=announcer, phrase=phrase, options=options)
        lost_said = []

        def on_lost(seconds: float) -> None:
            if not lost_said:
                announcer.say("Camera lost. Retrying", URGENT)
                lost_said.append(seconds)

        def on_back() -> None:
            lost_said.clear()
            announcer.say("Camera back", URGENT)

        if args.video:  # a recording played as if live (testing a setup without a camera)
            source = VideoSource(args.video)
        else:
            width, height = camera_size(session.setup_dict.get("deck"), args.width, args.height)
            source = CameraSource(args.camera, width, height, on_lost=on_lost, on_back=on_back)
        mapper = find_table(source, args.calibration, session.layout)
        perceiver = ModelPerception(args.game, session.setup_dict.get("deck"))
        perceiver.attach(mapper)
    except (ReviewError, SessionError, SourceError, CalibrationError) as e:
        announcer.close(drain=False)
        print(f"referee play: {e}", file=sys.stderr)
        return 2
    show = has_display() and not args.headless
    live = LiveReferee(args.game, session, mapper, perceiver, phrase, Overlay(mapper) if show else None)
    print(f"refereeing {args.game}; logs in {out}; " + ("keys: space pause, u undo, q quit" if show else
                                                         "headless: Ctrl-C to stop"), file=sys.stderr)
    try:
        run(live, source, show, max_frames=args.frames)
    except KeyboardInterrupt:
        pass
    finally:
        announcer.close()
        session.close()
    from .games import game_module

    print(game_module(args.game).format_scoresheet(session.scoresheet()))
    seconds = time.perf_counter() - live.started
    print(f"\n{live.frames} frames in {seconds:.1f} s: {live.frames / max(seconds, 1e-6):.1f} frames a second",
          file=sys.stderr)
    return 0


def register(sub) -> None:
    p = sub.add_parser("play", help="referee a game live from a camera")
    p.add_argument("--game", required=True, choices=["crazy", "crazy-kick", "fodbold"])
    p.add_argument("--camera", type=int, default=0, help="camera index (default 0)")
    p.add_argument("--video", help="play a recording as if it were the camera")
    p.add_argument("--width", type=int, help="camera width asked for (default 1280; 1920 with standard cards)")
    p.add_argument("--height", type=int, help="camera height asked for (default 720; 1080 with standard cards)")
    p.add_argument("--calibration", help="table.yaml (default: find the corner markers in the first frames)")
    p.add_argument("--setup", help="a setup action (JSON) or an action log whose first line is the setup")
    p.add_argument("--players", help="instead of --setup. Crazy: Ann,Bob,Cyd,Dee (clockwise); Crazy Kick: "
                                      "Ann,Bob/Cyd,Dee (red team / white team); fodbold: Ann/Bob (red / blue)")
    p.add_argument("--dealer", help="Crazy: the first dealer (default: the first player)")
    p.add_argument("--first", choices=["red", "blue"], help="fodbold: who kicks off (default: from the die rolls)")
    p.add_argument("--deck", default="rook", choices=["rook", "standard"])
    p.add_argument("--rounds", help="Crazy: the rounds in the order they will be chosen (or choose by key)")
    p.add_argument("--out", help="folder for actions.jsonl and events.jsonl (default runs/live-TIME)")
    p.add_argument("--resume", metavar="DIR", help="continue the game logged in DIR after a crash")
    p.add_argument("--headless", action="store_true", help="no window even when a display exists")
    p.add_argument("--frames", type=int, help="stop after this many frames")
    p.add_argument("--mute", action="store_true")
    p.add_argument("--speech-wav", metavar="FILE", help="write what is said to a WAV file instead of speaking")
    p.add_argument("--voice")
    p.add_argument("--rate", type=int)
    p.add_argument("--lang", default="en", help="phrase language (fodbold: en or da)")
    p.set_defaults(func=_cmd)
