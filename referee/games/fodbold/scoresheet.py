"""The printed Fodbold scoresheet: the score, the goals, the final position, the violations."""
from __future__ import annotations

from tabulate import tabulate


def format_scoresheet(sheet: dict, board=None) -> str:
    teams = sheet["teams"]
    score = sheet["score"]
    lines = [f"Fodbold on the {sheet['board']} board: red ({teams['red']}) {score['red']} - "
             f"{score['blue']} blue ({teams['blue']})", ""]
    if sheet["goals"]:
        rows = [[i, g["team"], g["piece"], g["kind"], f"{g['score']['red']}-{g['score']['blue']}",
                 "" if g["t"] is None else f"{g['t']:.1f}"] for i, g in enumerate(sheet["goals"], start=1)]
        lines += [tabulate(rows, headers=["#", "team", "scorer", "shot", "score", "t"], tablefmt="simple"), ""]
    else:
        lines += ["No goals.", ""]
    if sheet["complete"]:
        w = sheet["winner"]
        lines.append(f"Winner: {w} ({teams[w]})." if w else "Draw.")
    else:
        lines.append(f"Game not finished after {sheet['turns']} turns; cards left: red {sheet['cards_left']['red']}, "
                     f"blue {sheet['cards_left']['blue']}.")
    lines.append(f"Position: {sheet['position']}")
    if sheet["violations"]:
        lines += ["", f"Violations ({len(sheet['violations'])}):"]
        for v in sheet["violations"]:
            when = "" if v["t"] is None else f"t={v['t']:.1f} "
            who = f" by {v['player']}" if v["player"] else ""
            lines.append(f"  {when}{v['type']}{who}: {v['detail']}")
    return "\n".join(lines)
