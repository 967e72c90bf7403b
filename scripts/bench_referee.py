"""The referee's figures on simulated games from seeds not used in development: how many of the true
actions it found (recall), how many of its actions were true (precision), whether the final score
was exactly right, true fouls called (of those the plays prove: ``provable``) and false violation
calls per 1,000 actions (a call that names no player, where the camera could not tell who laid
the card, counts as the true call of its type it stands for), latency and speed.
``--fouls RATE`` makes the simulated players foul (the simulator's rate); ``--players N`` seats more;
``--deck standard`` plays Crazy with standard cards (default: the Rook deck).

    .venv/bin/python scripts/bench_referee.py --game crazy --videos 3 --seconds 30 --perception model
    .venv/bin/python scripts/bench_referee.py --game crazy --perception truth   # everything after vision

Prints a table (one row per video and a total). Videos are made in a temporary folder (or --keep DIR).
An action matches a true one when its type, player, card, piece, square and team are the same; Crazy
Kick's twin goal cards (faces the same but for the small printed id, ``referee.recognize.face_names``)
count as one card. Latency runs from the frame the simulator laid the card (set the piece down) to the
frame of the action logged for it; and, closer to what issue 8 asks, from the first frame from then in which
it is in view (a hand may rest on a card it laid: ``first_in_view``) to the time it was first said in the
event journal (``announced``: a play put right or put in by a later correction is said only then, while
its action keeps the frame it was seen in). Both are of what a camera sees: a fodbold piece that stays
put is listed apart (``stayed``). True actions missed in the last half second (``END_S``, the latency asked) are
counted apart too: a card that lands then cannot lie still long enough before the recording ends; they
still count against recall, and a second recall column counts only the true actions before the last
half second (the ones a referee answering within the latency asked must have found).
"""
from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.recognize import face_names  # noqa: E402
from referee.render.video import simulate  # noqa: E402
from referee.review import ReviewError, read_calls, read_setup, review  # noqa: E402
from referee.session import game_parts  # noqa: E402

END_S = 0.5  # the latency asked (issue 8): a play later than this before the end is missed by any referee
SEEDS = range(9001, 9100)  # for benchmarks only, never tests (9001-9004 were looked at in session 5)


def versions() -> str:
    """The installed versions the reads depend on (constraints.txt pins them): figures from another
    install are not comparable."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in ("numpy", "opencv-python", "onnxruntime", "ultralytics", "torch"):
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            out.append(f"{name} not installed")
    return "installed: " + ", ".join(out)


def seen_actions(path: Path) -> list[dict]:
    """The actions a camera can see (not the setup, deals or operator calls)."""
    rows = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    return [a for a in rows if a["type"] in ("play", "move", "draw", "shot")]


def key(a: dict, faces: dict[str, str] | None = None) -> tuple:
    # fodbold's "from" is left out: the camera gives it only when it saw the piece leave its square
    a = {**a, "card": (faces or {}).get(a["card"], a["card"])} if "card" in a else a
    return tuple(a.get(k) for k in ("type", "player", "card", "piece", "to", "team") if k in a)


def stayed(a: dict) -> bool:
    """A fodbold piece that stayed put ("or fewer" squares: none): nothing on the table changes, so no
    camera sees it; the referee knows it only when the other team shows its next card. Its latency is
    counted apart from that of the plays a camera sees (issue 8 asks it from a card lying still)."""
    return a["type"] == "move" and a.get("from") is not None and a.get("from") == a.get("to")


IN_VIEW = 0.5  # a card or piece at least this visible (the simulator's visible_fraction) is in view


def in_view_frames(path: Path) -> dict[str, list[int]]:
    """For each card id or piece (``red-4``) in the simulator's frames.jsonl, the frames in which it is
    in view (``IN_VIEW``)."""
    seen: dict[str, list[int]] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        f = json.loads(line)
        for obj in f.get("cards", []) + f.get("objects", []):
            if obj.get("visible_fraction", 0.0) >= IN_VIEW:
                seen.setdefault(obj["class"], []).append(f["frame"])
    return seen


def first_in_view(a: dict, seen: dict[str, list[int]]) -> int:
    """The first frame from the action's own (the card laid, the piece set down) in which its card or piece
    is in view: a hand that lays a card may rest on it a moment, and nothing can see it before the hand
    goes. The action's frame when the simulator shows neither (a card covered at once by the next)."""
    name = a.get("card") or (f"{a['team']}-{a['piece']}" if a.get("piece") is not None else None)
    return next((f for f in seen.get(name, []) if f >= a["frame"]), a["frame"])


def announced(path: Path, faces: dict[str, str] | None = None) -> dict[tuple, list[float]]:
    """When each play was first said, from the event journal (events.jsonl): for each event's key (its card,
    a twin goal card by its first twin's name in ``faces``; a fodbold piece's move; a foul's player), the
    times it was written, in the review's own time. Events restated after a correction keep the time of
    their action, so the time of a line is the latest time written up to it (a correction's note holds
    when it was made)."""
    out: dict[tuple, list[float]] = {}
    now = 0.0
    for line in path.read_text().splitlines() if path.is_file() else []:
        if not line.strip():
            continue
        e = json.loads(line)
        now = max(now, float(e.get("t") or 0.0))
        key = event_key(e, faces)
        if key is not None:
            out.setdefault(key, []).append(now)
    return out


def event_key(e: dict, faces: dict[str, str] | None = None) -> tuple | None:
    if e.get("type") == "moved":  # fodbold
        return ("move", e.get("team"), e.get("piece"), e.get("square_to"))
    if e.get("type") == "violation":  # a foul is said by its player, not its card
        return ("foul", e.get("player"))
    card = e.get("card")
    return ("card", (faces or {}).get(card, card)) if card and e.get("type") != "table" else None


def said_at(a: dict, said: dict[tuple, list[float]], logged: float, faces: dict[str, str] | None = None) -> float:
    """The first time its card (or fodbold move), or a foul of its player, was said from when the action
    matched to it was logged (``logged``, s; nothing is said before the camera makes the action); ``logged``
    when nothing was."""
    if a["type"] == "move":
        keys = [("move", a.get("team"), a.get("piece"), a.get("to"))]
    else:
        keys = [("card", (faces or {}).get(a.get("card"), a.get("card"))), ("foul", a.get("player"))]
    since = max(a["t"], logged) - 0.05  # the journal's times are rounded to 0.1 s
    first = min(next((x for x in said.get(k, []) if x >= since), float("inf")) for k in keys)
    return logged if first == float("inf") else first


def operator_calls(path: Path) -> dict:
    rows = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    return {"rounds": [a["round"] for a in rows if a["type"] == "choose"]}


def violations(sheet: dict) -> Counter:
    return Counter((v.get("type"), v.get("player")) for v in sheet.get("violations", []))


def named(calls: Counter, truth: Counter) -> Counter:
    """``calls`` with each one that names no player (the camera could not tell who laid the card) given the
    player of a true call of that type left unmatched, so a foul called without a name is not false."""
    out = Counter({k: n for k, n in calls.items() if k[1] is not None})
    spare = truth - out
    for (kind, _), n in ((k, n) for k, n in calls.items() if k[1] is None):
        for _ in range(n):
            match = next((k for k in spare if k[0] == kind and spare[k] > 0), None)
            key = match or (kind, None)
            out[key] += 1
            if match:
                spare[match] -= 1
    return out


def provable(game: str, path: Path) -> dict:
    """The scoresheet of the true actions without what no camera sees (the deal: Crazy's hands), so
    what a referee that saw every play right could call. A Crazy revoke is proven only when the player
    later plays the colour he showed out of; the simulator knows the hands and calls it at once."""
    parts = game_parts(game)
    rows = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    engine = parts.engine(parts.parse(rows[0]))
    for a in rows[1:]:
        if a["type"] != "deal":
            engine.apply(parts.parse(a))
    return engine.scoresheet()


def totals(sheet: dict):
    return sheet.get("totals") or sheet.get("score")


def match(truth: list[dict], got: list[dict], faces: dict[str, str] | None = None):
    """(difflib matcher, [(true action, reviewed action)] of the matched ones): actions aligned on ``key``."""
    sm = difflib.SequenceMatcher(a=[key(a, faces) for a in truth], b=[key(a, faces) for a in got], autojunk=False)
    return sm, [(truth[b.a + k], got[b.b + k]) for b in sm.get_matching_blocks() for k in range(b.size)]


def latencies(t: dict, g: dict, fps: float, seen: dict, said: dict, faces: dict[str, str] | None = None):
    """(logged, said) seconds for a true action ``t`` matched by ``g``: from the frame it was laid to the frame of
    its action, and from the first frame it was in view to the time it was first said."""
    logged = (g["frame"] - t["frame"]) / fps
    return logged, max(0.0, said_at(t, said, g["frame"] / fps, faces) - first_in_view(t, seen) / fps)


def run_one(game: str, seed: int, seconds: float, size: tuple[int, int], perception: str, work: Path,
            stride: int | None = None, incremental: bool = True, fouls: float = 0.0, players: int = 4,
            deck: str = "rook") -> dict:
    variant = ((f"-fouls{fouls:g}" if fouls else "") + (f"-{players}p" if players != 4 else "")
               + (f"-{deck}" if deck != "rook" else ""))
    sim = work / f"{game}-{seed}-{seconds:g}s-{size[0]}x{size[1]}{variant}"
    t0 = time.perf_counter()
    if not (sim / "truth.json").is_file():  # a kept video is reused (--keep): the same frames for every setting
        simulate(game, seed=seed, out=sim, seconds=seconds, width=size[0], height=size[1], progress=False,
                 fouls=fouls, players=players, deck=deck)
    sim_s = time.perf_counter() - t0
    # the size in the name: reviews of one game filmed at two sizes in one --keep folder stay apart
    out = work / (f"{game}-{seed}{variant}-{size[0]}x{size[1]}-review-{perception}-stride{stride or 'auto'}"
                  f"{'' if incremental else '-whole'}")
    # what a camera cannot see comes from the operator: Crazy's rounds, fodbold's die, Crazy Kick's ball out
    res = review(game, sim / "video.mp4", out, read_setup(sim / "actions.jsonl"), perception=perception,
                 options=operator_calls(sim / "actions.jsonl"), calls=read_calls(sim / "actions.jsonl", game),
                 annotate=False, progress=False, stride=stride, incremental=incremental)
    truth, got = seen_actions(sim / "actions.jsonl"), seen_actions(out / "actions.jsonl")
    faces = face_names(game)
    pairs = match(truth, got, faces)[1]
    matched = len(pairs)
    info = json.loads((sim / "truth.json").read_text())
    fps = info["fps"]
    # a card that lands in the last END_S of the recording cannot be seen lying still in time
    seen_true = {id(t) for t, _ in pairs}
    late = [a for a in truth if a.get("frame", 0) >= info["frames"] - END_S * fps]
    at_end = sum(1 for a in late if id(a) not in seen_true)
    in_time = len(truth) - len(late)  # the plays a referee can be asked for: lying still END_S before the end
    matched_in_time = sum(1 for t, _ in pairs if t.get("frame", 0) < info["frames"] - END_S * fps)
    timed = [(t, g) for t, g in pairs if "frame" in t and "frame" in g]
    seen_plays = [(t, g) for t, g in timed if not stayed(t)]
    lat_stay = [(g["frame"] - t["frame"]) / fps for t, g in timed if stayed(t)]
    seen = in_view_frames(sim / "frames.jsonl") if (sim / "frames.jsonl").is_file() else {}
    said = announced(out / "events.jsonl", faces)
    lat, lat_view = zip(*(latencies(t, g, fps, seen, said, faces) for t, g in seen_plays)) if seen_plays else ((), ())
    lat, lat_view = list(lat), list(lat_view)
    truth_sheet = json.loads((sim / "truth.json").read_text())["scoresheet"]
    called = named(violations(res["scoresheet"]), violations(truth_sheet))
    false_calls = sum((called - violations(truth_sheet)).values())
    true_fouls = sum(violations(truth_sheet).values())
    fair = violations(provable(game, sim / "actions.jsonl")) & violations(truth_sheet)
    fouls_called = sum((called & fair).values())
    stats = res["stats"]
    return {"seed": seed, "truth": len(truth), "found": len(got), "matched": matched, "at_end": at_end,
            "in_time": in_time, "matched_in_time": matched_in_time,
            "score_ok": totals(res["scoresheet"]) == totals(truth_sheet), "false_calls": false_calls,
            "true_fouls": true_fouls, "provable": sum(fair.values()), "fouls_called": fouls_called,
            "latency": lat, "latency_view": lat_view, "latency_stay": lat_stay,
            "speed": stats["video seconds"] / max(stats["review seconds"], 1e-9),
            "ms_per_frame": 1000 * stats["review seconds"] / max(stats["frames"], 1), "sim_s": sim_s}


def spread(lat: list[float]) -> str:
    return f"{statistics.median(lat):.2f} / {max(lat):.2f}" if lat else "- / -"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="crazy", choices=["crazy", "crazy-kick", "fodbold"])
    p.add_argument("--videos", type=int, default=3)
    p.add_argument("--first-seed", type=int, default=SEEDS[0],
                   help="the first seed (then the next ones); seeds already looked at while developing are "
                        "no longer held out: start past them")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--perception", default="model", choices=["model", "truth"])
    p.add_argument("--stride", type=int, default=None,
                   help="review every n-th frame (review --stride; default as review: about 10 a second with the "
                        "models, every frame with the truth)")
    p.add_argument("--read-whole", action="store_true",
                   help="read the whole table view on every look (review --read-whole), not only what changed")
    p.add_argument("--fouls", type=float, default=0.0,
                   help="the simulator's foul rate (simulate --fouls): true fouls the referee must call")
    p.add_argument("--players", type=int, default=4, help="players at the table (Crazy 4-12, Crazy Kick 2-8)")
    p.add_argument("--deck", default="rook", choices=["rook", "standard"], help="Crazy's deck (default rook)")
    p.add_argument("--keep", help="keep the videos and reviews in this folder (and reuse videos already there)")
    args = p.parse_args(argv)
    if args.deck != "rook" and args.game != "crazy":
        p.error(f"--deck {args.deck}: only Crazy is played with another deck")
    size = tuple(int(v) for v in args.size.split("x"))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-referee-"))
    rows, failed = [], []
    for seed in range(args.first_seed, args.first_seed + args.videos):
        try:
            rows.append(run_one(args.game, seed, args.seconds, size, args.perception, work, args.stride,
                                not args.read_whole, args.fouls, args.players, args.deck))
        except ReviewError as e:  # one video the referee cannot review (say, a marker out of view) is reported
            failed.append((seed, str(e)))
            print(f"seed {seed}: review failed: {e}", file=sys.stderr)
    if not rows:
        print("no video could be reviewed", file=sys.stderr)
        return 1
    print(f"\n{args.game}, {args.videos} videos of {args.seconds:g} s at {args.size}, perception {args.perception}, "
          f"stride {args.stride or 'auto'}, {'whole views' if args.read_whole else 'changed parts re-read'}, "
          f"{args.players} players, fouls {args.fouls:g}{', ' + args.deck + ' deck' if args.game == 'crazy' else ''}\n")
    print(f"| seed | true actions | found | matched | missed in the last {END_S:g} s | recall | precision | "
          f"recall of those before | score exact | fouls called / provable (true) | false calls | latency median / max s | "
          "said, from in view, median / max s | review x real time | ms/frame |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        lat = r["latency"]
        print(f"| {r['seed']} | {r['truth']} | {r['found']} | {r['matched']} | {r['at_end']} | "
              f"{r['matched'] / max(r['truth'], 1):.3f} | "
              f"{r['matched'] / max(r['found'], 1):.3f} | {r['matched_in_time'] / max(r['in_time'], 1):.3f} | "
              f"{'yes' if r['score_ok'] else 'no'} | "
              f"{r['fouls_called']}/{r['provable']} ({r['true_fouls']}) | {r['false_calls']} | "
              f"{spread(lat)} | {spread(r['latency_view'])} | {r['speed']:.1f} | {r['ms_per_frame']:.0f} |")
    t, f, m = (sum(r[k] for r in rows) for k in ("truth", "found", "matched"))
    lat = [x for r in rows for x in r["latency"]]
    calls = sum(r["false_calls"] for r in rows)
    it, mit = sum(r["in_time"] for r in rows), sum(r["matched_in_time"] for r in rows)
    print(f"| all | {t} | {f} | {m} | {sum(r['at_end'] for r in rows)} | {m / max(t, 1):.3f} | {m / max(f, 1):.3f} | "
          f"{mit / max(it, 1):.3f} ({mit}/{it}) | "
          f"{sum(r['score_ok'] for r in rows)}/{len(rows)} | "
          f"{sum(r['fouls_called'] for r in rows)}/{sum(r['provable'] for r in rows)} "
          f"({sum(r['true_fouls'] for r in rows)}) | "
          f"{calls} ({1000 * calls / max(t, 1):.1f} per 1,000) | "
          f"{spread(lat)} | {spread([x for r in rows for x in r['latency_view']])} | "
          f"{statistics.mean(r['speed'] for r in rows):.1f} | {statistics.mean(r['ms_per_frame'] for r in rows):.0f} |")
    for seed, why in failed:
        print(f"\nseed {seed} was not reviewed, and is in no figure above: {why}")
    stays = [x for r in rows for x in r["latency_stay"]]
    if stays:
        print(f"\nLatency above: plays the camera sees. {len(stays)} pieces stayed put (matched), known only when "
              f"the other team showed its card: latency median / max {statistics.median(stays):.2f} / "
              f"{max(stays):.2f} s")
    print("\n" + versions())
    print(f"\nvideos in {work}" if args.keep else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
