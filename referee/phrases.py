"""What the referee says for each event, per game and language.

One function per game takes an Event and returns a short phrase (or None for events not spoken).
Phrases are short on purpose: the table is playing, and the next card comes within a second.
"""
from __future__ import annotations

from typing import Callable

from .games.base import Event

_ROOK = {"R": "red", "Y": "yellow", "G": "green", "B": "black"}
_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_ROUND_NAMES = {"red": "the red round", "black13": "the black 13 round", "first_last": "the first and last round",
                "every_hand": "the every hand round", "crazy": "the crazy round"}
_CRAZY_VIOLATIONS = {
    "revoke": "Revoke by {player}", "out_of_turn": "Not your turn, {player}", "unknown_card": "Unknown card",
    "card_already_played": "That card was already played", "card_not_in_deck": "That card is not in the deck",
    "card_not_in_hand": "That card was not in {player}'s hand", "unknown_player": "Unknown player",
    "bad_round_choice": "That round cannot be chosen now", "no_round": "Choose a round first",
    "bad_deal": "Bad deal", "game_over": "The game is over",
}


def spoken_card(code: str) -> str:
    """'G7' -> 'green 7', '10H' -> '10 of hearts', 'KS' -> 'king of spades'."""
    if code[:1] in _ROOK and code[1:].isdigit():
        return f"{_ROOK[code[0]]} {code[1:]}"
    rank, suit = code[:-1], code[-1]
    if suit in _SUITS:
        return f"{_RANKS.get(rank, rank)} of {_SUITS[suit]}"
    return code


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def crazy_en(e: Event) -> str | None:
    d = e.data
    if e.type == "round_chosen":
        return f"Round {d['number']}: {d['chooser']} chooses {_ROUND_NAMES[d['round']]}"
    if e.type == "card_played":
        if d.get("unread"):
            return f"{d['player']}, a card I could not read"
        return f"{d['player']}, {spoken_card(d['card'])}"
    if e.type == "trick_won":
        if d.get("unsure"):  # a card of it was not read: what it carried is not counted
            return f"{d['player']} takes the trick, " + (f"at least {_points(d['points'])}" if d["points"]
                                                          else "points unknown")
        return f"{d['player']} takes the trick" + (f", {_points(d['points'])}" if d["points"] else "")
    if e.type == "card_deduced":
        return f"The card not read was {d['player']}'s {spoken_card(d['card'])}"
    if e.type == "round_over":
        return f"End of {_ROUND_NAMES[d['round']]}" + (", the black 13 has fallen" if d.get("ended_by_black13") else "")
    if e.type == "moon":
        return f"{d['player']} shoots the moon!"
    if e.type == "game_over":
        w = d["winners"]
        return ("Game over. " + (f"{w[0]} wins" if len(w) == 1 else " and ".join(w) + " share the win")
                + f" with {_points(d['totals'][w[0]])}")
    if e.type == "violation":
        text = _CRAZY_VIOLATIONS.get(d["violation"], "Foul")
        return text.format(player=d.get("player") or "player")
    return None


# ---- Crazy Kick ----------------------------------------------------------------------------------

_KICK_VIOLATIONS = {
    "unknown_card": "Unknown card", "unknown_player": "Unknown player", "card_in_play": "That card is already in play",
    "wrong_team": "Wrong team's card, {player}", "not_his_card": "Not your card, {player}",
    "not_on_top": "Top cards only, {player}", "no_keeper": "A keeper starts", "not_on_card": "Not on the card",
    "bad_ball_out": "The ball is not out", "layout": "Check your piles, {player}", "bad_deal": "Bad deal",
    "game_over": "The game is over", "bad_action": "Not allowed",
}


def _kick_score(score: dict) -> str:
    r, w = score["red"], score["white"]
    if r == w:
        return f"{r}-{w}"
    lead = "red" if r > w else "white"
    return f"{lead} leads {max(r, w)}-{min(r, w)}"


def crazy_kick_en(e: Event) -> str | None:
    """Crazy Kick in English. ``deal`` and ``table`` are bookkeeping (the camera writes a table
    after every change of the pile tops) and are not spoken."""
    d = e.data
    if e.type == "kickoff":
        return f"{d['keeper']} kicks off for {d['team']}"
    if e.type == "pass":
        return f"{d['from']} to {d['to']}"
    if e.type == "tackle":
        return f"{d['by']} tackles {d['from']}!"
    if e.type == "goal":
        return f"Goal! {d['scorer']} scores, " + _kick_score(d["score"])
    if e.type == "game_over":
        s = d["score"]
        return f"Final whistle: {d['winner']} wins {max(s.values())}-{min(s.values())}"
    if e.type == "ball_out":
        return f"Ball out, play on from {d['ball']}"
    if e.type == "play_on":
        return f"I missed a card. Play on from {d['ball']}"
    if e.type == "violation":
        kind = d["violation"]
        detail = d.get("detail") or ""
        if kind in ("not_on_card", "no_keeper") and "can't" in detail.split(":")[0]:
            return detail.split(":")[0]  # "Leon can't take a pass from Mario"
        return _KICK_VIOLATIONS.get(kind, "Foul").format(player=d.get("player") or "player")
    return None


# ---- Fodbold --------------------------------------------------------------------------------------

_FODBOLD_WORDS = {
    "en": {"red": "red", "blue": "blue"},
    "da": {"red": "rød", "blue": "blå"},
}

_FODBOLD_VIOLATIONS = {
    "en": {
        "out_of_turn": "not your turn", "no_kickoff_roll": "roll for the kick-off first", "bad_roll": "no roll now",
        "move_expected": "move a player first", "no_card": "draw a card first", "unknown_card": "unknown card",
        "card_already_drawn": "that card was drawn before", "unknown_piece": "that player is not on the board",
        "off_board": "off the board", "wrong_square": "wrong square", "not_on_card": "not on the card",
        "wrong_piece": "wrong player", "marked": "that player is marked", "marker_must_move": "the marker must move",
        "too_far": "too far", "blocked": "no jumping", "occupied": "square taken", "bad_mark": "no marking there",
        "remark": "not straight back", "solo_into_penalty_area": "shoot before the penalty area",
        "no_ball": "no ball, no shot", "no_shot_chance": "too far out to shoot", "game_over": "the game is over",
        "bad_action": "not allowed", "foul": "foul",
    },
    "da": {
        "out_of_turn": "ikke jeres tur", "no_kickoff_roll": "slå først om afspark",
        "bad_roll": "der skal ikke slås nu",
        "move_expected": "flyt en spiller først", "no_card": "træk et kort først", "unknown_card": "ukendt kort",
        "card_already_drawn": "det kort er trukket før", "unknown_piece": "den spiller er ikke på banen",
        "off_board": "uden for banen", "wrong_square": "forkert felt", "not_on_card": "ikke på kortet",
        "wrong_piece": "forkert spiller", "marked": "den spiller er dækket op",
        "marker_must_move": "den der dækker op skal flytte", "too_far": "for langt", "blocked": "ingen hop",
        "occupied": "feltet er optaget", "bad_mark": "der må ikke dækkes op der", "remark": "ikke straks tilbage",
        "solo_into_penalty_area": "skyd før feltet", "no_ball": "ingen bold, intet skud",
        "no_shot_chance": "for langt ude til at skyde", "game_over": "kampen er slut", "bad_action": "ikke tilladt",
        "foul": "ulovligt",
    },
}

# Every phrase in both languages: {t} team, {T} team capitalised, {p} piece number, ...
_FODBOLD = {
    "en": {
        "kicks_off": "{T} rolls {value}: {t} kicks off", "roll_again": "{T} rolls {value}: roll again",
        "kickoff": "{T} kicks off", "card_drawn": "{T} draws {players}", "pass": "Pass to {t} {p}",
        "back": "Back pass to {t} {p}", "back_pass": "Back pass {count} of {limit}", "solo": "{T} {p} goes solo",
        "moved": "{T} {p} to {to}", "stays": "{T} {p} stays", "marked": "{T} {p} marks {o} {q}",
        "released": "{O} {q} is free", "bad_pass": "Bad pass: {o} wins the ball", "no_move": "No move for {t}",
        "ball_won": "{T} {p} wins the ball", "free_kick": "Free kick, {t} {p}",
        "shot": "{T} {p} shoots", "missed": "{T} {p} shoots: wide", "short": "{T} {p} shoots: saved",
        "over_bar": "{T} {p} shoots: over the bar", "goal_lead": "Goal! {L} leads {hi}-{lo}",
        "goal_behind": "Goal for {t}! {L} leads {hi}-{lo}", "goal_level": "Goal for {t}! {hi}-{lo}",
        "goal_kick": "Goal kick, {t}", "shot_deck_reshuffled": "{T}'s shot cards are reshuffled",
        "cards_out": "{T} has no cards left", "last_chance": "Last chance for {t}",
        "won": "Game over: {t} wins {hi}-{lo}", "draw": "Game over: a draw, {hi}-{lo}",
        "offside": "Offside: {who}", "stalling": "Stalling: {o}'s ball", "and": "and",
    },
    "da": {
        "kicks_off": "{T} slår {value}: {t} har afspark", "roll_again": "{T} slår {value}: slå igen",
        "kickoff": "{T} har afspark", "card_drawn": "{T} trækker {players}", "pass": "Aflevering til {t} {p}",
        "back": "Tilbageaflevering til {t} {p}", "back_pass": "Tilbageaflevering {count} af {limit}",
        "solo": "Sololøb, {t} {p}", "moved": "{T} {p} til {to}", "stays": "{T} {p} bliver stående",
        "marked": "{T} {p} dækker {o} {q} op", "released": "{O} {q} er fri",
        "bad_pass": "Dårlig aflevering: {o} får bolden", "no_move": "{T} kan ikke flytte",
        "ball_won": "{T} {p} vinder bolden", "free_kick": "Frispark, {t} {p}",
        "shot": "{T} {p} skyder", "missed": "{T} {p} skyder: forbi", "short": "{T} {p} skyder: grebet",
        "over_bar": "{T} {p} skyder: over mål", "goal_lead": "Mål! {L} fører {hi}-{lo}",
        "goal_behind": "Mål til {t}! {L} fører {hi}-{lo}", "goal_level": "Mål til {t}! {hi}-{lo}",
        "goal_kick": "Målspark, {t}", "shot_deck_reshuffled": "{T}s skudkort blandes igen",
        "cards_out": "{T} har ikke flere kort", "last_chance": "Sidste chance til {t}",
        "won": "Slut! {T} vinder {hi}-{lo}", "draw": "Slut! Uafgjort {hi}-{lo}",
        "offside": "Offside: {who}", "stalling": "Nøl: {o} får bolden", "and": "og",
    },
}


def _fodbold(e: Event, lang: str) -> str | None:
    d, say, words = e.data, _FODBOLD[lang], _FODBOLD_WORDS[lang]
    team = d.get("team") or d.get("player")
    t = words.get(team, team or "")
    o = words.get("blue" if team == "red" else "red") if team in words else ""
    f = {"t": t, "T": t.capitalize(), "o": o, "O": o.capitalize(), "p": d.get("piece"), "q": d.get("player")}

    def lead(score: dict) -> dict:
        hi, lo = max(score.values()), min(score.values())
        leader = max(score, key=score.get)
        return {"hi": hi, "lo": lo, "L": words[leader].capitalize(), "leader": leader if hi > lo else None}

    k = e.type
    if k == "roll":
        return say[d["result"]].format(value=d["value"], **f)
    if k in ("kickoff", "solo", "released", "bad_pass", "no_move", "ball_won", "free_kick", "goal_kick",
             "shot_deck_reshuffled", "cards_out", "last_chance", "marked"):
        return say[k].format(**f)
    if k == "card_drawn":
        players = [str(n) for n in d["players"]]
        named = players[0] if len(players) == 1 else ", ".join(players[:-1]) + f" {say['and']} " + players[-1]
        return say[k].format(players=named, **f)
    if k == "pass":
        f["p"] = d["receiver"]
        return say["back" if d["direction"] == "backward" else "pass"].format(**f)
    if k == "back_pass":
        return say[k].format(count=d["count"], limit=d["limit"])
    if k == "moved":
        return (say["stays"] if d["squares"] == 0 else say["moved"]).format(to=d["square_to"], **f)
    if k == "shot":
        return say["shot" if d["result"] == "goal" else d["result"]].format(**f)
    if k == "goal":
        s = lead(d["score"])
        key = "goal_level" if s["leader"] is None else "goal_lead" if s["leader"] == team else "goal_behind"
        return say[key].format(**s, **f)
    if k == "game_over":
        s = lead(d["score"])
        winner = d.get("winner")
        if winner is None:
            return say["draw"].format(**s)
        return say["won"].format(hi=s["hi"], lo=s["lo"], t=words[winner], T=words[winner].capitalize())
    if k == "violation":
        kind = d["violation"]
        if kind == "offside":
            # the engine's detail: "Offside: red 9 was behind blue 3 ..."
            detail = d.get("detail") or ""
            who = detail.removeprefix("Offside: ").split(" was ")[0] if detail.startswith("Offside: ") else ""
            parts = who.split()
            if len(parts) == 2 and parts[0] in words and parts[1].isdigit():
                return say["offside"].format(who=f"{words[parts[0]]} {parts[1]}")
            return say["offside"].format(who=t)
        if kind == "stalling":
            return say["stalling"].format(**f)
        text = _FODBOLD_VIOLATIONS[lang].get(kind, _FODBOLD_VIOLATIONS[lang]["foul"])
        return f"{t.capitalize()}: {text}" if t else text.capitalize()
    return None


def fodbold_en(e: Event) -> str | None:
    return _fodbold(e, "en")


def fodbold_da(e: Event) -> str | None:
    """Fodbold in Danish, the language of its rules: "Mål! Rød fører 2-1", "Offside: rød 9"."""
    return _fodbold(e, "da")


PHRASEBOOKS: dict[tuple[str, str], Callable[[Event], str | None]] = {
    ("crazy", "en"): crazy_en,
    ("crazy-kick", "en"): crazy_kick_en,
    ("fodbold", "en"): fodbold_en,
    ("fodbold", "da"): fodbold_da,
}


def phrasebook(game: str, lang: str = "en") -> Callable[[Event], str | None]:
    try:
        return PHRASEBOOKS[(game, lang)]
    except KeyError:
        langs = sorted(l for g, l in PHRASEBOOKS if g == game)
        raise ValueError(f"no {lang!r} phrases for {game}; available: {langs or 'none'}") from None
