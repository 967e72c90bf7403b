"""Train every model of the project in one short GPU lease (the library's device tool), within a deadline.

One call does it all, because each start of the machine costs minutes of a 15-minute budget:
render the table views on every core, then run the `referee train` recipes side by side (detectors and
card classifiers share the GPU; the CPU cores cut crops and feed the loaders), each with a time cap
(`--hours`) fitted to what is left, then copy the weights, model cards and logs to OUT (at most 8
files come back). Whatever is unfinished at the deadline is stopped; its best checkpoint still comes
back.

    python3 scripts/device_train.py --out $OUT --budget 480            # on the GPU machine
    python3 scripts/device_train.py --out /tmp/o --smoke --device cpu   # here: every step, tiny

Each job's exact `referee train` command is in its model card and in jobs.json.

How session 4 ran it (the tool carries at most 64 MiB: move models/*.onnx out of the checkout first;
the machine has torch, OpenCV and numpy but not ultralytics, its helpers or pydantic, so their wheels
travel in the git-ignored .whl/, and a stub stands in for polars, which ultralytics only uses to copy
results.csv into its checkpoints):

    pip download --no-deps --only-binary=:all: --python-version 3.12 --platform manylinux2014_x86_64 -d .whl \
        ultralytics==8.4.190 ultralytics-thop ultralytics-platform onnxslim pydantic==2.14.4 pydantic_core \
        annotated-types typing-inspection typing_extensions
    # run, carry [".whl"]:
    python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl && mkdir -p /tmp/site/polars \
      && echo 'def read_csv(*a, **k): raise ImportError("polars is not installed here")' > /tmp/site/polars/__init__.py \
      && export PYTHONPATH=/tmp/site && python3 scripts/device_train.py --out $OUT --budget 490 --cores $(nproc)

Session 22 ran `--plan real` the same way (only models/crazy-card.pt and models/crazy-standard-cls.pt left in
the checkout). Simulating the 16 training videos took 300 s there, not the 40 s planned, so the classifiers
never started within the budget; two more calls on the still-warm machine trained them from the data it had
rendered (`referee train ... --datasets /tmp/referee-train/datasets`, commands in their model cards). Next
time give the videos their own call, or fewer videos.

Session 23 ran `--plan styles --styles 120` the same way (only the four fodbold and Crazy Kick weights it
starts from left in models/): 1,500 views per game rendered in 129 s on 16 cores, then six jobs side by side
for 326 s (the detectors 30 epochs, the classifiers 7 and 12); 458 s in all.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder the results are copied to (the device tool's $OUT)")
    ap.add_argument("--work", default="/tmp/referee-train", help="datasets, runs and models go here")
    ap.add_argument("--budget", type=float, default=480, help="seconds until everything is stopped and copied")
    ap.add_argument("--device", default="0")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes: check every step quickly, on any machine")
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--plan", choices=("all", "real", "styles"), default="all",
                    help="all: session 4's, every model; real: session 22's, for the real photos (the Crazy detector "
                         "on views with busy surfaces and paper clutter, the standard classifier at 96 px); styles: "
                         "session 23's, Crazy Kick's and fodbold's detectors and fodbold's piece classifier on views "
                         "drawn in many more designs")
    ap.add_argument("--clutter", type=float, default=0.5, help="--plan real: share of views with clutter")
    ap.add_argument("--styles", type=int, default=120, help="--plan styles: designs the table views are drawn in")
    a = ap.parse_args()
    t0 = time.time()
    deadline = t0 + a.budget
    work, out = Path(a.work), Path(a.out)
    (work / "logs").mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "YOLO_OFFLINE": "1", "PYTHONUNBUFFERED": "1", "MPLBACKEND": "Agg",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
           "OMP_NUM_THREADS": "3"}  # seven jobs share the cores: no job may take them all
    s = a.smoke
    big, small = (8, 8) if s else (1000, 600)          # table views per deck: Crazy, the other games
    styles = 2 if s else 200                             # extra card designs for the classifiers
    cls_epochs = 1 if s else 30
    base = [sys.executable, "-m", "referee", "train", "--seed", "1", "--device", a.device,
            "--datasets", str(work / "datasets"), "--runs", str(work / "runs")]

    def log(msg):
        print(f"[{time.time() - t0:6.1f} s] {msg}", flush=True)

    def py(code, logname):  # a rendering step in its own process, logged
        return subprocess.run([sys.executable, "-c", "from pathlib import Path; from referee.train import "
                               "ensure_scenes, ensure_videos; " + code], env=env, cwd=REPO,
                              stdout=open(work / "logs" / logname, "w"), stderr=subprocess.STDOUT).returncode

    def render(game, deck, images, workers):
        return py(f"ensure_scenes({game!r}, {deck!r}, {images}, 1, root=Path({str(work / 'datasets')!r}), "
                  f"workers={workers})", f"render-{deck}.log")

    jobs: dict[str, dict] = {}

    def start(name, args, prep_s):
        left = deadline - time.time() - prep_s - 20
        hours = max(left, 30) / 3600
        # each job its own runs and models folder: two jobs may train the same model name
        cmd = base + args + ["--hours", f"{hours:.4f}", "--out", str(work / "models" / name),
                             "--runs", str(work / "runs" / name)]
        log(f"start {name}: {' '.join(cmd[3:])}")
        proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdout=open(work / "logs" / f"{name}.log", "w"),
                                stderr=subprocess.STDOUT)
        jobs[name] = {"cmd": cmd[2:], "proc": proc, "started_s": round(time.time() - t0, 1)}

    w = max(1, a.cores // 5)

    def detector(name, game, images):  # fine-tuned from the shipped weights, the epochs fitted into --hours
        start(name, ["--game", game, "--stage", "detect", "--images", str(images), "--epochs", "2" if s else "300",
                     "--imgsz", "384", "--batch", "32", "--workers", str(w), "--start-det", f"models/{name}.pt"],
              prep_s=15)

    def classifier(name, game, deck, images, prep_s):  # CardNet width 32 from scratch
        start(name, ["--game", game, *(["--deck", deck] if deck else []), "--stage", "classify",
                     "--images", str(images), "--cls-epochs", str(cls_epochs), "--cls-width", "32",
                     "--cls-batch", "128", "--face-styles", str(styles), "--workers", str(w)], prep_s=prep_s)

    if a.plan in ("real", "styles"):
        plan = real_plan if a.plan == "real" else styles_plan
        plan(a, s, start, py, root=str(work / "datasets"), log=log, big=big)
        wait_and_collect(jobs, deadline, work, out, log, t0)
        return 0
    log(f"{a.cores} cores; rendering the Crazy table views ({big} per deck)")
    for deck in ("rook", "standard"):
        log(f"render crazy/{deck}: rc {render('crazy', deck, big, a.cores)}")
    detector("crazy-card", "crazy", big)
    for deck in ("rook", "standard"):
        classifier(f"crazy-{deck}-cls", "crazy", deck, big, prep_s=120)
    log("rendering the Crazy Kick and fodbold table views")
    for game in ("crazy-kick", "fodbold"):
        log(f"render {game}: rc {render(game, game, small, max(2, a.cores // 2))}")
    classifier("crazy-kick-cls", "crazy-kick", None, small, prep_s=140)
    classifier("fodbold-card-cls", "fodbold", "card", small, prep_s=140)
    detector("crazy-kick-card", "crazy-kick", small)
    detector("fodbold-objects", "fodbold", small)
    wait_and_collect(jobs, deadline, work, out, log, t0)
    return 0


def real_plan(a, smoke: bool, start, py, root: str, log, big: int) -> None:
    """Session 22: for the real photos. Views with busy surfaces and paper clutter (a share ``--clutter``),
    the Crazy detector fine-tuned on them, and two standard-deck classifiers at 96 px (the corner index of
    a real court card is 5-6 px tall at 64) from the shipped 64 px weights, with and without court pictures
    that do not tell the rank. The views render first on every core; the detector starts, the training
    videos render beside it, then the classifiers start; the three jobs share the GPU."""
    for deck in ("rook", "standard"):
        rc = py(f"ensure_scenes('crazy', {deck!r}, {big}, 1, root=Path({root!r}), workers={a.cores}, "
                f"clutter={a.clutter})", f"render-{deck}.log")
        log(f"rendered crazy/{deck} (clutter {a.clutter}): rc {rc}")
    w = max(1, a.cores // 4)
    start("crazy-card", ["--game", "crazy", "--stage", "detect", "--images", str(big), "--clutter", str(a.clutter),
                         "--epochs", "2" if smoke else "300", "--imgsz", "384", "--batch", "32", "--workers", str(w),
                         "--start-det", "models/crazy-card.pt"], prep_s=40)
    videos = 2 if smoke else 16
    rc = py(f"ensure_videos('crazy', 'standard', {videos}, root=Path({root!r}), workers={max(1, a.cores - w)}, "
            f"seconds={4 if smoke else 20})", "render-videos.log")
    log(f"simulated {videos} standard-deck training videos: rc {rc}")
    for courts in ("0", "0.3"):
        start(f"crazy-standard-cls-96-uc{courts}",
              ["--game", "crazy", "--deck", "standard", "--stage", "classify", "--images", str(big),
               "--clutter", str(a.clutter), "--cls-imgsz", "96", "--cls-width", "32", "--cls-batch", "128",
               "--cls-epochs", "1" if smoke else "16", "--cls-ship", "last", "--copies", "2",
               "--face-styles", "2" if smoke else "200", "--face-copies", "3", "--face-lowres", "0.5",
               "--face-courts", courts, "--videos", str(videos), "--workers", str(w),
               "--start-cls", "models/crazy-standard-cls.pt"], prep_s=150)


def styles_plan(a, smoke: bool, start, py, root: str, log, big: int) -> None:
    """Session 23: the held-out views are drawn in designs never trained on (style seed 777), and the
    training views came in only 6 designs (boards, pieces, card faces) per game. Here they come in
    ``--styles`` designs: Crazy Kick's and fodbold's detectors fine-tuned from the shipped weights, and
    fodbold's piece classifier (which, unlike the card classifiers, saw no extra designs) and card classifier
    from their own. Each detector also has a twin trained at 480 px input instead of 384 (fodbold's pieces
    are about 9 px across at 384), to weigh its boxes against its speed."""
    images = 12 if smoke else 1500
    for game in ("crazy-kick", "fodbold"):
        rc = py(f"ensure_scenes({game!r}, {game!r}, {images}, 1, root=Path({root!r}), workers={a.cores}, "
                f"styles={a.styles})", f"render-{game}.log")
        log(f"rendered {game} in {a.styles} designs: rc {rc}")
    w = max(1, a.cores // 4)
    common = ["--images", str(images), "--styles", str(a.styles), "--workers", str(w)]
    for name, game in (("crazy-kick-card", "crazy-kick"), ("fodbold-objects", "fodbold")):
        for imgsz in (384, 480):  # 480: a twin that sees the small pieces at more pixels (and runs slower)
            start(name + ("" if imgsz == 384 else f"-{imgsz}"),
                  ["--game", game, "--stage", "detect", *common, "--epochs", "2" if smoke else "300",
                   "--imgsz", str(imgsz), "--batch", "32", "--start-det", f"models/{name}.pt"], prep_s=30)
    start("fodbold-piece-cls", ["--game", "fodbold", "--deck", "piece", "--stage", "classify", *common,
                                "--cls-imgsz", "48", "--cls-width", "16", "--cls-batch", "128", "--copies", "4",
                                "--cls-epochs", "1" if smoke else "40",
                                "--start-cls", "models/fodbold-piece-cls.pt"], prep_s=90)
    start("fodbold-card-cls", ["--game", "fodbold", "--deck", "card", "--stage", "classify", *common,
                               "--cls-imgsz", "64", "--cls-width", "32", "--cls-batch", "128", "--copies", "2",
                               "--face-styles", "2" if smoke else "200", "--face-copies", "3",
                               "--cls-epochs", "1" if smoke else "30",
                               "--start-cls", "models/fodbold-card-cls.pt"], prep_s=90)


def wait_and_collect(jobs: dict, deadline: float, work: Path, out: Path, log, t0: float) -> None:
    while time.time() < deadline and any(j["proc"].poll() is None for j in jobs.values()):
        time.sleep(2)
    for name, j in jobs.items():
        if j["proc"].poll() is None:
            log(f"deadline: stopping {name}")
            j["proc"].terminate()
    for j in jobs.values():
        try:
            j["proc"].wait(timeout=15)
        except subprocess.TimeoutExpired:
            j["proc"].kill()
    collect(work, out, jobs, log, t0)


def collect(work: Path, out: Path, jobs: dict, log, t0: float) -> None:
    """Weights (the shipped file, else the run's best checkpoint) one file each; cards, logs and histories
    in one tarball: the device tool brings back at most 8 files."""
    summary = {}
    for name, j in jobs.items():
        rc = j["proc"].returncode
        shipped = next(iter(sorted((work / "models" / name).glob("*.pt"))), None)
        best = next(iter(sorted((work / "runs" / name).rglob("weights/best.pt"))), None)
        src = shipped or best
        if src is not None:
            shutil.copy2(src, out / f"{name}.pt")
        summary[name] = {"rc": rc, "cmd": j["cmd"], "started_s": j["started_s"], "weights": src and str(src),
                         "shipped": shipped is not None}
        log(f"{name}: rc {rc}, weights {src}")
    (work / "jobs.json").write_text(json.dumps(summary, indent=1))
    with tarfile.open(out / "cards-logs.tar.gz", "w:gz") as tar:
        tar.add(work / "jobs.json", "jobs.json")
        tar.add(work / "logs", "logs")
        for name in jobs:
            for f in [*(work / "models" / name).glob("*.md"),
                      *(work / "runs" / name).rglob("results.*")]:
                tar.add(f, f"{name}/{f.name}")
    log(f"done in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
