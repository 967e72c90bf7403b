"""The printed Crazy scoresheet: rounds x players, totals, winner, violations."""
from __future__ import annotations

from tabulate import tabulate


def format_scoresheet(sheet: dict) -> str:
    players = sheet["players"]
    rows = []
    for r in sheet["rounds"]:
        label = r["round"] + ("" if r["complete"] else " (in play)") + (" *" if r.get("unsure") else "")
        rows.append([r["number"], label, r["dealer"], r["chooser"], *(r["points"][p] for p in players)])
    totals = sheet["totals"]
    rows.append(["", "total", "", "", *(totals[p] for p in players)])
    head = (f"Crazy, {sheet['deck']} deck, {len(players)} players, {sheet['cards_per_player']} cards each"
            + (f", removed {' '.join(sheet['removed'])}" if sheet["removed"] else ""))
    lines = [head, "", tabulate(rows, headers=["#", "round", "dealer", "chooser", *players],
                                 tablefmt="simple", colalign=("right", "left", "left", "left") + ("right",) * len(players))]
    lines.append("")
    if sheet["moon"]:
        lines.append(f"{sheet['moon']} shot the moon (threshold {sheet['moon_threshold']}) and wins outright.")
    elif sheet["complete"]:
        w = sheet["winners"]
        lines.append(("Winner: " if len(w) == 1 else "Shared win: ") + ", ".join(w)
                     + f" with {totals[w[0]]} points (lowest total wins).")
    else:
        lines.append(f"Game not finished: {len(sheet['rounds'])} of 5 rounds started.")
    if sheet.get("unsure"):
        lines.append("* a card was played unread: that round's points count only the cards read, or a "
                     "trick's winner is not known yet.")
    if sheet["violations"]:
        lines += ["", f"Violations ({len(sheet['violations'])}):"]
        for v in sheet["violations"]:
            where = " ".join(x for x in (f"round {v['round']}" if v["round"] else "",
                                         f"trick {v['trick']}" if v["trick"] else "") if x)
            who = f" by {v['player']}" if v["player"] else ""
            lines.append(f"  {where or 'between rounds'}: {v['type']}{who}: {v['detail']}")
    return "\n".join(lines)
