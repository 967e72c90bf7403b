"""`referee review`: the whole referee on a recording, as fast as it runs.

    VideoSource -> Perception (cards with labels, mapped to table mm) -> GameSession (tracker,
    adapter, rules engine, logs, speech) -> annotated.mp4, scoresheet.json/.csv, report.html

Perception has two backends: ``model`` (the shipped detector and card classifier) and ``truth``
(the simulator's per-frame ground truth in frames.jsonl beside the video: a test aid that measures
everything after the vision stage; never for real recordings).
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import numpy as np

from .sources import Frame, SourceError, VideoSource
from .tracker import TableDetection, TrackerSettings


class ReviewError(ValueError):
    pass


class Perception(Protocol):
    def perceive(self, frame: Frame) -> list[tuple[str, float, np.ndarray]]:
        """(label, confidence, 4x2 image corners) of every card seen in the frame."""


class TruthPerception:
    """The simulator's ground truth: what a perfect recogniser would say (frames.jsonl)."""

    def __init__(self, frames_jsonl: str | Path, min_visible: float = 0.25):
        path = Path(frames_jsonl)
        if not path.is_file():
            raise ReviewError(f"{path}: no such ground-truth file (written by `referee simulate`)")
        self.frames = {}
        for number, line in enumerate(path.read_text().splitlines(), 1):
            try:
                rec = json.loads(line)
                seen = [(c["class"], c["corners"], c.get("visible_fraction", 1.0)) for c in rec["cards"]]
                # fodbold's pieces and ball (the board is the layout, not an object in play): a
                # recogniser gives them as boxes of their visible pixels
                seen += [(o["class"], _box_corners(o["bbox"]), o.get("visible_fraction", 1.0))
                         for o in rec.get("objects", []) if o.get("kind") in ("piece", "ball") and o.get("bbox")]
                self.frames[int(rec["frame"])] = seen
            except (ValueError, KeyError, TypeError) as e:
                raise ReviewError(f"{path}:{number}: not a ground-truth frame record ({e})") from None
        self.min_visible = min_visible

    def perceive(self, frame: Frame):
        return [(label, 1.0, np.asarray(corners, np.float32))
                for label, corners, visible in self.frames.get(frame.index, [])
                if visible >= self.min_visible and label != "back"]


def _box_corners(bbox) -> list[list[float]]:
    x0, y0, x1, y1 = (float(v) for v in bbox)
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


# Operator calls: what the camera cannot see, said by a person (live: a key; review: --calls FILE).
# An action log's actions of these types are taken as the operator's calls at their times.
OPERATOR_ACTIONS = {"crazy-kick": {"ball_out": lambda a: ["ball_out"]},
                    "fodbold": {"roll": lambda a: ["roll", a["team"], int(a["value"])]}}


def read_calls(path: str | Path, game: str) -> list[dict]:
    """Timed operator calls, ``[{"t": seconds, "call": [name, args...]}]`` in time order, from a JSON list
    or JSON lines of such records, or from an action log (a simulator's actions.jsonl): its actions
    the camera cannot see (Crazy Kick ``ball_out``, fodbold ``roll``) at their times."""
    p = Path(path)
    if not p.is_file():
        raise ReviewError(f"{p}: no such calls file")
    text = p.read_text(encoding="utf-8").strip()
    try:
        records = json.loads(text) if text.startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]
    except ValueError as e:
        raise ReviewError(f"{p}: not JSON ({e})") from None
    calls = []
    known = OPERATOR_ACTIONS.get(game, {})
    for number, r in enumerate(records, 1):
        if not isinstance(r, dict):
            raise ReviewError(f"{p}:{number}: expected an object")
        try:
            if "call" in r:
                call = r["call"] if isinstance(r["call"], list) else [r["call"]]
                calls.append({"t": float(r["t"]), "call": [str(call[0]), *call[1:]]})
            elif r.get("type") in known:
                calls.append({"t": float(r["t"]), "call": known[r["type"]](r)})
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise ReviewError(f"{p}:{number}: not an operator call ({e!r}); expected {{\"t\": 12.5, "
                              f"\"call\": [\"ball_out\"]}}") from None
    return sorted(calls, key=lambda c: c["t"])


DETECTOR_PX_PER_MM = 0.6   # what the detectors were trained at: 640 px views of 400-750 mm, input 384 px
VIEW_MARGIN_MM = {"crazy-kick": 60.0, "fodbold": 160.0}  # fodbold's cards lie beside the board


def view_bounds(game: str, layout, view_mm: float = 640.0) -> tuple[float, float, float, float]:
    """The part of the table the recogniser looks at (x0, y0, x1, y1 mm). Crazy: a ``view_mm`` square
    around the trick area (cards are played there). Crazy Kick and fodbold: every zone of the layout
    (centre pile, player piles, goal areas; the board) and a margin for what lies beside them."""
    if game == "crazy" or layout is None or not layout.zones:
        half = view_mm / 2
        return (-half, -half, half, half)
    pts = np.concatenate([z.polygon for z in layout.zones])
    m = VIEW_MARGIN_MM.get(game, 60.0)
    (x0, y0), (x1, y1) = pts.min(axis=0) - m, pts.max(axis=0) + m
    return (float(x0), float(y0), float(x1), float(y1))


class ModelPerception:
    """The shipped two-stage recogniser (an oriented detector, then a classifier on each card warped
    upright or piece cut out), run on the rectified top-down view of the table, the view it was trained
    on. Only the part of the table where play happens is looked at (``view_bounds``, ``mm_per_px``); the
    detector's input grows with that view so a card keeps its pixels (``DETECTOR_PX_PER_MM``); the
    corners come back in camera pixels for the overlay."""

    def __init__(self, game: str, deck: str | None, mm_per_px: float = 1.0, view_mm: float = 640.0,
                 incremental: bool = True):
        try:
            from .detector import DetectorError
            from .incremental import IncrementalRecognizer, settings_for
            from .recognize import CardRecognizer
        except ImportError as e:
            raise ReviewError(f"the card recogniser cannot load ({e}); use --perception truth on a "
                              "simulated video") from None
        try:
            self.recognizer = CardRecognizer(game, deck or "rook")
        except DetectorError as e:
            raise ReviewError(f"{e} (train the models with `referee train --game {game}`)") from None
        # re-read only the part of the view that changed since the last look (referee.incremental)
        self.reader = IncrementalRecognizer(self.recognizer, settings_for(game)) if incremental else self.recognizer
        self.game, self.mm_per_px, self.view_mm, self.incremental = game, mm_per_px, view_mm, incremental
        self.bounds = view_bounds(game, None, view_mm)
        self.mapper = None  # set once the table is calibrated (``attach``)

    def attach(self, mapper) -> None:
        """Look at the calibrated table: the view follows the mapper's layout, the detector's input its size."""
        from .detector import DetectorError

        self.mapper = mapper
        if hasattr(self.reader, "reset"):
            self.reader.reset()  # another view: nothing read before carries over
        self.bounds = view_bounds(self.game, getattr(mapper, "layout", None), self.view_mm)
        x0, y0, x1, y1 = self.bounds
        wanted = max(384, int(np.ceil(max(x1 - x0, y1 - y0) * DETECTOR_PX_PER_MM / 32)) * 32)
        try:
            self.recognizer.detector.set_imgsz(wanted)
        except DetectorError as e:  # a fixed-size export: run it at its size
            print(f"note: {e}", file=sys.stderr)

    def perceive(self, frame: Frame):
        import cv2

        from .calibration.mapper import RectifiedView

        if self.mapper is None:
            raise ReviewError("the table must be calibrated before cards can be recognised")
        if self.incremental:  # the view is made only where it is read: most looks read a window or two
            view = RectifiedView(self.mapper, frame.image, self.mm_per_px, self.bounds)
        else:
            view = self.mapper.rectify(frame.image, mm_per_px=self.mm_per_px, bounds=self.bounds)
        to_mm = np.linalg.inv(self.mapper.table_to_rectified(self.mm_per_px, self.bounds))
        out = []
        for card in self.reader.recognize(view):
            mm = cv2.perspectiveTransform(np.asarray(card.corners, np.float64).reshape(1, -1, 2), to_mm)[0]
            out.append((card.label, card.confidence, self.mapper.table_to_image(mm).astype(np.float32)))
        return out


def to_table(mapper, cards) -> list[TableDetection]:
    if not cards:
        return []
    centres = np.array([np.asarray(c, np.float32).reshape(-1, 2).mean(axis=0) for _, _, c in cards])
    xy = mapper.image_to_table(centres)
    return [TableDetection(label, float(x), float(y), float(conf)) for (label, conf, _), (x, y) in zip(cards, xy)]


def find_table(source: VideoSource, calibration: str | None, layout, search_frames: int = 90):
    """The TableMapper: from a calibration file, or from the corner markers in the video's first frames."""
    from .calibration.files import CalibrationError
    from .calibration.mapper import TableMapper
    from .calibration.table import TableCalibration, TableMarkers, calibrate_table

    if calibration:
        try:
            return TableMapper(TableCalibration.load(calibration), layout)
        except CalibrationError as e:
            raise ReviewError(str(e)) from None
    last = None
    for frame in source:
        if frame.index >= search_frames:
            break
        try:
            return TableMapper(calibrate_table(frame.image, TableMarkers()), layout)
        except CalibrationError as e:
            last = e
    raise ReviewError(f"{source.path}: the four table markers were not found in the first {search_frames} frames "
                      f"({last.message if last else 'no frames'}); calibrate with `referee calibrate table` and pass "
                      "--calibration FILE")


# Frames a second the recogniser looks at in a review: a card slides in and settles over about half a
# second, so 10 looks a second see every play (measured: scripts/bench_referee.py, crazy, every 3rd frame of
# 30 fps found as many plays as every frame, with fewer false calls), at a third of the work.
MODEL_RATE = 10.0


# Frames decoded ahead of the recogniser in a thread of their own (``VideoSource.frames``): decoding a
# 720p frame and grabbing the two skipped ones overlaps the recognition of the last.
DECODE_AHEAD = 4


def auto_stride(fps: float, perception: str) -> int:
    return max(1, round((fps or 30.0) / MODEL_RATE)) if perception == "model" else 1


def tracker_settings_for(stride: int) -> TrackerSettings:
    """The tracker's frame counts for looking at every ``stride``-th frame: the same times in seconds."""
    base = TrackerSettings()
    scale = lambda n, least: max(least, -(-n // stride))  # noqa: E731 - ceil division
    confirm = scale(base.confirm_frames, 2)
    return replace(base, confirm_frames=confirm, still_frames=scale(base.still_frames, 2),
                   label_votes=scale(base.label_votes, 3), hold_frames=max(confirm + 1, base.hold_frames // stride))


def review(game: str, video: str | Path, out: str | Path, setup: dict, *, perception: str = "model",
           calibration: str | None = None, options: dict | None = None, speaker=None, annotate: bool = True,
           progress: bool = True, lang: str = "en", calls: list[dict] | None = None,
           stride: int | None = None, incremental: bool = True) -> dict:
    """Referee a recording; write everything to ``out``; return a summary (scoresheet and figures).
    ``calls``: the operator's calls (``read_calls``), each made at the first frame at or after its time.
    ``stride``: look at every n-th frame only (faster; the tracker's frame counts apply to the frames
    looked at are scaled to keep the same times in seconds). Default: with the models, about
    ``MODEL_RATE`` frames a second (every 3rd of a 30 fps video); with the ground truth, every frame.
    ``incremental``: the models re-read only the part of the table that changed (``referee.incremental``);
    False reads the whole view on every look."""
    if stride is not None and stride < 1:
        raise ReviewError(f"--stride must be at least 1, got {stride}")
    import cv2
    from tqdm import tqdm

    from .overlay import Overlay, state_panel
    from .phrases import phrasebook
    from .report import thumbnail, write_report, write_scoresheet
    from .session import GameSession, SessionError
    from .speech import Announcer

    out = Path(out)
    try:
        source = VideoSource(video)
    except SourceError as e:
        raise ReviewError(str(e)) from None
    if stride is None:
        stride = auto_stride(source.fps, perception)
    if perception == "truth":
        perceiver = TruthPerception(Path(video).with_name("frames.jsonl"))
    elif perception == "model":
        perceiver = ModelPerception(game, setup.get("deck"), incremental=incremental)
    else:
        raise ReviewError(f"unknown perception {perception!r}; expected model or truth")
    phrase = phrasebook(game, lang)
    announcer = Announcer(speaker) if speaker is not None else None
    try:
        settings = tracker_settings_for(stride)
        session = GameSession(game, setup, out_dir=out, announcer=announcer, phrase=phrase, options=options,
                              tracker_settings=settings)
    except SessionError as e:
        raise ReviewError(str(e)) from None
    mapper = find_table(source, calibration, session.layout)
    if hasattr(perceiver, "attach"):
        perceiver.attach(mapper)
    overlay = Overlay(mapper)
    writer = None
    if annotate:
        writer = cv2.VideoWriter(str(out / "annotated.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), source.fps / stride,
                                 source.size)
    thumbs: dict[int, str] = {}
    pending = sorted(calls or [], key=lambda c: c["t"])
    t0 = time.perf_counter()
    frames = 0
    bar = tqdm(total=source.frame_count or None, unit="frame", desc="review", disable=not progress)
    for frame in source.frames(every=stride, ahead=DECODE_AHEAD):
        bar.update(source.passed - frames)
        frames = source.passed
        if frame.index % (15 * stride) == 0:
            mapper.update(frame.image, frame.t)  # a bumped camera is corrected; a covered marker keeps the last fix
        cards = perceiver.perceive(frame)
        before = len(session.events)
        new = []
        while pending and pending[0]["t"] <= frame.t:
            call = pending.pop(0)
            try:
                new += session.choose(*call["call"], t=frame.t)
            except (ValueError, TypeError) as e:
                raise ReviewError(f"operator call {call['call']} at {call['t']} s: {e}") from None
        new += session.step(frame.index, frame.t, to_table(mapper, cards))
        overlay.add_captions(frame.t, new, phrase)
        if writer is not None or new:
            panel = state_panel(game, session.engine)
            drawn = overlay.draw(frame.image, frame.t, cards, panel)
            if writer is not None:
                writer.write(drawn)
            for i in range(before, before + len(new)):
                thumbs[i] = thumbnail(drawn)
    if frames:  # the recording ended: what waited to be sure is judged as last seen
        overlay.add_captions(frame.t, session.finish(frame.index, frame.t), phrase)
    bar.update(source.passed - frames)
    bar.close()
    frames = source.passed
    seconds = time.perf_counter() - t0
    if writer is not None:
        writer.release()
    if announcer is not None:
        announcer.close()
    session.close()
    sheet = session.scoresheet()
    write_scoresheet(sheet, out)
    video_s = frames / source.fps if source.fps else 0.0
    stats = {"frames": frames, "skipped frames": source.skipped, "video seconds": round(video_s, 1),
             "review seconds": round(seconds, 1), "speed": f"{video_s / seconds:.1f}x real time" if seconds else "-",
             "perception": perception, "every nth frame": stride, "actions": len(session.adapter.log)}
    reads = getattr(getattr(perceiver, "reader", None), "stats", None)
    if reads:  # how often the incremental reader read the view whole, in part, or not at all
        stats["looks read whole / in part / not at all"] = f"{reads['whole']} / {reads['part']} / {reads['none']}"
    write_report(out / "report.html", title=f"{game} review", subtitle=str(video), sheet=sheet, events=session.events,
                 phrase=phrase, thumbs=thumbs, stats=stats)
    return {"scoresheet": sheet, "stats": stats, "events": len(session.events)}


def read_setup(path: str | Path) -> dict:
    """A setup from a JSON file, or the first line of an action log (a simulator's actions.jsonl)."""
    p = Path(path)
    if not p.is_file():
        raise ReviewError(f"{p}: no such setup file")
    text = p.read_text(encoding="utf-8").strip()
    try:
        obj = json.loads(text.splitlines()[0]) if p.suffix == ".jsonl" else json.loads(text)
    except (ValueError, IndexError) as e:
        raise ReviewError(f"{p}: not a JSON setup ({e})") from None
    if not isinstance(obj, dict) or obj.get("type") != "setup":
        raise ReviewError(f"{p}: expected a setup action ({{\"type\": \"setup\", ...}})")
    return obj


PLAYERS_HELP = {"crazy": "--players Ann,Bob,Cyd,Dee (clockwise)",
                "crazy-kick": "--players Ann,Bob/Cyd,Dee (the red team / the white team)",
                "fodbold": "--players Ann/Bob (who plays red / who plays blue)"}


def setup_from_players(game: str, players: str | None, deck: str = "rook", dealer: str | None = None,
                       first: str | None = None) -> dict:
    """The setup action a game starts from, made from the command line's ``--players``."""
    if not players:
        raise ReviewError(f"say who plays: {PLAYERS_HELP[game]}, or --setup FILE")
    if game == "crazy":
        names = [n.strip() for n in players.split(",")]
        return {"type": "setup", "game": game, "players": names, "deck": deck, "dealer": dealer or names[0],
                "options": {}}
    sides = players.split("/")
    if len(sides) != 2 or not all(side.strip() for side in sides):
        raise ReviewError(f"--players {players!r}: give both sides, {PLAYERS_HELP[game]}")
    if game == "crazy-kick":
        red, white = ([n.strip() for n in side.split(",")] for side in sides)
        return {"type": "setup", "game": game, "teams": {"red": red, "white": white}}
    if first not in (None, "red", "blue"):
        raise ReviewError(f"--first {first!r}: red or blue (leave it out to take it from the die rolls)")
    return {"type": "setup", "game": game, "teams": {"red": sides[0].strip(), "blue": sides[1].strip()},
            "first": first}


def _cmd(args) -> int:
    from .speech import make_speaker

    try:
        if args.setup:
            setup = read_setup(args.setup)
        else:
            setup = setup_from_players(args.game, args.players, args.deck, args.dealer, args.first)
        options = {"rounds": args.rounds.split(",")} if args.rounds else {}
        calls = read_calls(args.calls, args.game) if args.calls else None
        speaker = None if args.mute and not args.speech_wav else make_speaker(
            mute=False, wav=args.speech_wav, voice=args.voice, rate=args.rate)
        result = review(args.game, args.video, args.out, setup, perception=args.perception,
                        calibration=args.calibration, options=options, speaker=speaker,
                        annotate=not args.no_video, lang=args.lang, calls=calls, stride=args.stride,
                        incremental=not args.read_whole)
    except ReviewError as e:
        print(f"referee review: {e}", file=sys.stderr)
        return 2
    from .games import game_module

    print(game_module(args.game).format_scoresheet(result["scoresheet"]))
    s = result["stats"]
    print(f"\n{s['frames']} frames ({s['skipped frames']} skipped) in {s['review seconds']} s: {s['speed']}; "
          f"wrote {args.out}/report.html")
    return 0


def register(sub) -> None:
    r = sub.add_parser("review", help="referee a recorded game video")
    r.add_argument("video")
    r.add_argument("--game", required=True, choices=["crazy", "crazy-kick", "fodbold"])
    r.add_argument("--out", required=True, help="folder for events, actions, scoresheet, annotated video, report")
    r.add_argument("--setup", help="a setup action (JSON), or an action log whose first line is the setup")
    r.add_argument("--players", help="instead of --setup. Crazy: Ann,Bob,Cyd,Dee (clockwise); Crazy Kick: "
                                      "Ann,Bob/Cyd,Dee (red team / white team); fodbold: Ann/Bob (red / blue)")
    r.add_argument("--dealer", help="Crazy: the first dealer (default: the first player)")
    r.add_argument("--first", choices=["red", "blue"], help="fodbold: who kicks off (default: from the die rolls)")
    r.add_argument("--deck", default="rook", choices=["rook", "standard"])
    r.add_argument("--rounds", help="Crazy: the round types in the order they were chosen, comma-separated")
    r.add_argument("--calls", metavar="FILE",
                   help="the operator's calls the camera cannot see, with their times (Crazy Kick ball out, fodbold "
                        "die rolls): JSON lines {\"t\": 12.5, \"call\": [\"roll\", \"red\", 3]}, or an action log "
                        "whose ball_out/roll actions are taken")
    r.add_argument("--calibration", help="table.yaml (default: find the corner markers in the video)")
    r.add_argument("--perception", default="model", choices=["model", "truth"],
                   help="model: the shipped recogniser; truth: a simulator's frames.jsonl (testing only)")
    r.add_argument("--no-video", action="store_true", help="skip annotated.mp4 (faster)")
    r.add_argument("--stride", type=int, default=None,
                   help="look at every n-th frame only (default: about 10 a second with the models, every frame "
                        "with --perception truth)")
    r.add_argument("--read-whole", action="store_true",
                   help="read the whole table view on every look (slower; by default only the part that changed "
                        "since the last look is read again)")
    r.add_argument("--mute", action="store_true", default=True, help="do not speak (default for reviews)")
    r.add_argument("--speech-wav", metavar="FILE", help="write what would be said to a WAV file")
    r.add_argument("--voice")
    r.add_argument("--rate", type=int)
    r.add_argument("--lang", default="en", help="phrase language (fodbold: en or da)")
    r.set_defaults(func=_cmd)
