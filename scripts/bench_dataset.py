"""Seconds per synthetic training image: `referee dataset build` timed per deck and worker count.

    .venv/bin/python scripts/bench_dataset.py [--images 100] [--workers 1 2] [--views camera table]
                                              [--sets crazy/rook crazy/standard crazy-kick fodbold]

Prints a table (and the time 1,000 images would take). A benchmark, not a test: the numbers depend
on the machine and on what else runs on it.
"""
from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from referee.dataset import Recipe, build


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--images", type=int, default=100)
    p.add_argument("--workers", type=int, nargs="+", default=[1])
    p.add_argument("--sets", nargs="+", default=["crazy/rook", "crazy/standard", "crazy-kick", "fodbold"],
                   help="game or game/deck")
    p.add_argument("--views", nargs="+", default=["camera"], choices=["camera", "table"])
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, {a.images} images per row, "
          f"seed {a.seed}; camera view 640x480, table view 640x640 (from a 1280x960 camera)\n")
    rows = []
    for spec in a.sets:
        game, _, deck = spec.partition("/")
        for view in a.views:
            for workers in a.workers:
                with tempfile.TemporaryDirectory() as tmp:
                    t = time.perf_counter()
                    r = Recipe(game=game, deck=deck or game, images=a.images, seed=a.seed, view=view,
                               width=640, height=640 if view == "table" else 480)
                    s = build(r, Path(tmp) / "ds", workers=workers, progress=False)
                    wall = time.perf_counter() - t
                    size = sum(f.stat().st_size for f in (Path(tmp) / "ds").rglob("*") if f.is_file())
                per = wall / a.images
                rows.append((spec, view, str(workers), f"{per:.3f}", f"{60 / per:.0f}", f"{1000 * per / 60:.1f}",
                             f"{s['labels'] / a.images:.1f}", f"{size / a.images / 1024:.0f}"))
    head = ("dataset", "view", "workers", "s/image", "images/min", "min per 1,000", "labels/image", "KiB/image")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
    main()
