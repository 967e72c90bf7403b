"""`referee demo` (what `make demo` runs): the whole referee on a built-in game, no camera needed.

It simulates a short game of Crazy with the bundled simulator (a rendered video with four corner
markers and a ground-truth action log), reviews the video with the shipped models, speaks what
happens (or writes the speech to a WAV file where there is no audio device), writes the report,
and prints the referee's scoresheet beside the truth.
"""
from __future__ import annotations

import difflib
import glob
import json
import shutil
import sys
import time
from pathlib import Path


def audio_device() -> bool:
    """A sound card to speak through (Linux: an ALSA playback device; elsewhere assume one)."""
    if sys.platform != "linux":
        return True
    return bool(glob.glob("/dev/snd/pcmC*D*p"))


def choose_speaker(out: Path, mute: bool):
    from .speech import Pyttsx3Speaker, WavSpeaker

    if mute:
        return None, "muted (--mute)"
    if shutil.which("espeak-ng") is None and sys.platform == "linux":
        return None, "muted: the speech engine espeak-ng is not installed (sudo apt-get install espeak-ng)"
    if audio_device():
        return Pyttsx3Speaker(), "speaking aloud"
    return WavSpeaker(out / "speech.wav"), f"no audio device: speech written to {out / 'speech.wav'}"


def _models_present(deck: str) -> bool:
    from .recognize import classifier_path, detector_path

    return detector_path("crazy").with_suffix(".onnx").is_file() or detector_path("crazy").is_file() and (
        classifier_path("crazy", deck).is_file() or classifier_path("crazy", deck).with_suffix(".onnx").is_file())


def run_demo(out: Path, seed: int = 7, seconds: float = 15.0, mute: bool = False, perception: str | None = None) -> int:
    from .games import crazy
    from .render.video import simulate
    from .review import ReviewError, read_setup, review

    out.mkdir(parents=True, exist_ok=True)
    sim, rev = out / "simulated", out / "review"
    print(f"1/3 simulating {seconds:g} s of a game of Crazy (seed {seed}) into {sim} ...", flush=True)
    t0 = time.perf_counter()
    simulate("crazy", seed=seed, out=sim, seconds=seconds, width=1280, height=720, progress=True)
    print(f"    {time.perf_counter() - t0:.0f} s", flush=True)
    try:
        models = _models_present("rook")
    except ImportError:
        models = False
    if perception is None:
        perception = "model" if models else "truth"
    if perception == "truth":
        print("    NOTE: no shipped card models found in models/; reviewing with the simulator's ground truth "
              "for what the camera sees (everything after the vision stage is the real referee)", flush=True)
    speaker, how = choose_speaker(rev, mute)
    rev.mkdir(parents=True, exist_ok=True)
    print(f"2/3 reviewing the video with perception '{perception}', {how} ...", flush=True)
    truth_log = [json.loads(l) for l in (sim / "actions.jsonl").read_text().splitlines()]
    rounds = [a["round"] for a in truth_log if a["type"] == "choose"]  # the operator's calls: not visible
    try:
        result = review("crazy", sim / "video.mp4", rev, read_setup(sim / "actions.jsonl"), perception=perception,
                        options={"rounds": rounds}, speaker=speaker)
    except ReviewError as e:
        print(f"referee demo: {e}", file=sys.stderr)
        return 2
    print("3/3 the referee's scoresheet, beside the truth\n")
    truth_game, _ = crazy.replay(crazy.load_log(sim / "actions.jsonl"))
    ours = crazy.format_scoresheet(result["scoresheet"]).splitlines()
    theirs = crazy.format_scoresheet(truth_game.scoresheet()).splitlines()
    width = max(len(l) for l in ours) + 4
    print(f"{'REFEREE (from the video)':<{width}}TRUTH (the simulator's log)")
    for i in range(max(len(ours), len(theirs))):
        a = ours[i] if i < len(ours) else ""
        b = theirs[i] if i < len(theirs) else ""
        print(f"{a:<{width}}{b}")
    truth_plays = [(a["player"], a["card"]) for a in truth_log if a["type"] == "play"]
    got = [(a["player"], a["card"]) for a in map(json.loads, (rev / "actions.jsonl").read_text().splitlines())
           if a["type"] == "play"]
    right = sum(b.size for b in difflib.SequenceMatcher(a=truth_plays, b=got, autojunk=False).get_matching_blocks())
    s = result["stats"]
    print(f"\n{right} of {len(truth_plays)} plays read right, {len(got) - right} of the {len(got)} plays it saw were "
          f"wrong (player or card); reviewed at {s['speed']}.")
    if perception == "model" and right < len(truth_plays):
        print("The card recogniser is still an early model (models/README.md has its measured accuracy); "
              "`referee demo --perception truth` shows the referee with perfect eyes.")
    print(f"Report: {rev / 'report.html'}  Annotated video: {rev / 'annotated.mp4'}")
    return 0


def _cmd(args) -> int:
    return run_demo(Path(args.out), seed=args.seed, seconds=args.seconds, mute=args.mute, perception=args.perception)


def register(sub) -> None:
    d = sub.add_parser("demo", help="simulate a short game and referee it (what `make demo` runs)")
    d.add_argument("--out", default="runs/demo", help="where the video, logs and report go (default runs/demo)")
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--seconds", type=float, default=15.0)
    d.add_argument("--mute", action="store_true")
    d.add_argument("--perception", choices=["model", "truth"], help="default: model when the models are there")
    d.set_defaults(func=_cmd)
