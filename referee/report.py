"""What a review leaves behind for people: the scoresheet as JSON and CSV, and a self-contained
HTML report (scoreboard, a timeline of events with thumbnails and times, violations marked),
made with a Jinja2 template that escapes every name."""
from __future__ import annotations

import base64
import csv
import json
from pathlib import Path
from typing import Callable

import cv2
import jinja2

from .games.base import Event

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("referee", "templates"),
                          autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)


def clock(t: float | None) -> str:
    if t is None:
        return ""
    m, s = divmod(float(t), 60)
    return f"{int(m)}:{s:04.1f}"


def thumbnail(image, width: int = 240, quality: int = 70) -> str:
    h, w = image.shape[:2]
    small = cv2.resize(image, (width, max(1, int(h * width / w))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return base64.b64encode(buf.tobytes()).decode("ascii") if ok else ""


def write_scoresheet(sheet: dict, out_dir: Path) -> None:
    """scoresheet.json (everything) and scoresheet.csv (one row per round or attack, totals last)."""
    (out_dir / "scoresheet.json").write_text(json.dumps(sheet, indent=2, ensure_ascii=False), encoding="utf-8")
    header, rows = score_table(sheet)
    with open(out_dir / "scoresheet.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(r["cells"] for r in rows)


def score_table(sheet: dict) -> tuple[list[str], list[dict]]:
    """Header and rows of the scoreboard, for any game's scoresheet."""
    if "rounds" in sheet and "players" in sheet:  # Crazy: rounds x players
        players = sheet["players"]
        # a round whose points rest on a card the camera did not read is marked: check it by hand
        rows = [{"cells": [f"{r['number']}. {r['round']}" + (" (a card unread)" if r.get("unsure") else ""),
                           *(r["points"][p] for p in players)], "winner": False}
                for r in sheet["rounds"]]
        rows.append({"cells": ["total", *(sheet["totals"][p] for p in players)], "winner": False})
        return ["round", *players], rows
    score = sheet.get("score", {})
    winner = sheet.get("winner")
    return ["team", "score"], [{"cells": [team, pts], "winner": team == winner} for team, pts in score.items()]


def result_line(sheet: dict) -> str:
    if sheet.get("moon"):
        return f"{sheet['moon']} shot the moon and wins."
    winners = sheet.get("winners") or ([sheet["winner"]] if sheet.get("winner") else [])
    unread = " A card was played unread: check the rounds marked." if sheet.get("unsure") else ""
    if not sheet.get("complete", bool(winners)):
        return "The game was not finished in this recording." + unread
    return ("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(map(str, winners)) + unread


def write_report(path: Path, *, title: str, subtitle: str, sheet: dict, events: list[Event],
                 phrase: Callable[[Event], str | None], thumbs: dict[int, str], stats: dict) -> None:
    header, rows = score_table(sheet)
    timeline = []
    for i, e in enumerate(events):
        text = phrase(e) or e.type.replace("_", " ")
        if e.type == "violation":
            text = f"{text}: {e.data.get('detail', '')}"
        css = "violation" if e.type == "violation" else ("notable" if e.priority else "")
        timeline.append({"time": clock(e.t), "text": text, "css": css, "thumb": thumbs.get(i), "frame": i})
    html = _ENV.get_template("report.html.j2").render(
        title=title, subtitle=subtitle, score_header=header, score_rows=rows, result=result_line(sheet),
        timeline=timeline, violations=sum(e.type == "violation" for e in events), stats=stats)
    path.write_text(html, encoding="utf-8")
