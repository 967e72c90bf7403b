"""The printed Crazy Kick scoresheet: the score, the winner, the goals with their times, violations."""
from __future__ import annotations

from tabulate import tabulate


def _clock(t) -> str:
    if t is None:
        return "-"
    m, s = divmod(float(t), 60)
    return f"{int(m)}:{s:04.1f}"


def format_scoresheet(sheet: dict) -> str:
    teams, score = sheet["teams"], sheet["score"]
    n = len(teams["red"]) + len(teams["white"])
    lines = [f"Crazy Kick, {n} players: red ({', '.join(teams['red'])}) v white ({', '.join(teams['white'])})"
             + ("" if sheet["catalog"] == "default" else f", catalogue {sheet['catalog']}"),
             "", f"Score: red {score['red']} - {score['white']} white"]
    if sheet["complete"]:
        lines[-1] += f". {sheet['winner'].capitalize()} wins (first to {sheet['goals_to_win']})."
    else:
        lines[-1] += f". Game not finished (first to {sheet['goals_to_win']} wins)."
    if sheet["goals"]:
        rows = [[_clock(g["t"]), g["team"], g["scorer"], g["assist"], g["card"], g["player"] or "",
                 f"{g['score']['red']}-{g['score']['white']}"] for g in sheet["goals"]]
        lines += ["", tabulate(rows, headers=["time", "team", "scorer", "pass from", "card", "laid by", "score"],
                               tablefmt="simple")]
    lines += ["", f"{sheet['attacks']} attacks, {sheet['cards_played']} cards played, "
                  f"{len(sheet['ball_outs'])} ball outs."]
    if sheet["violations"]:
        lines += ["", f"Violations ({len(sheet['violations'])}):"]
        for v in sheet["violations"]:
            who = f" by {v['player']}" if v["player"] else ""
            lines.append(f"  {_clock(v['t'])}: {v['type']}{who}: {v['detail']}")
    return "\n".join(lines)
