"""Random legal games of Fodbold, for property tests and the video simulator.

Randomness only through the ``random.Random`` passed in: the same seed gives the same game. The
players here are keen but not clever: the team with the ball runs forward and shoots when it may;
the other team chases the ball and marks when it can.
"""
from __future__ import annotations

import random

from .actions import ACTION_ADAPTER
from .board import TEAMS, Board, square_name
from .cards import Decks
from .rules import FodboldGame, chebyshev


def random_game(rng: random.Random, board: Board, decks: Decks, options: dict | None = None,
                first: str | None = None, shoot: float = 0.6, fouls: float = 0.0,
                max_actions: int = 2000) -> list[dict]:
    """An action log (list of JSON-ready dicts) of a whole game of random play.

    ``fouls`` is the chance of a bad choice where the rules offer one (a pass to an offside team-mate,
    a backward pass that is stalling, a piece moved one square too far), so tests and simulated
    videos contain violations the referee must catch. With ``fouls=0`` offside and stalling happen
    only when every choice on the card is one."""
    setup = {"type": "setup", "game": "fodbold", "teams": {"red": "red", "blue": "blue"}, "first": first,
             "options": options or {}}
    game = FodboldGame(_parse(setup), board, decks)
    log = [setup]
    t = 0.0

    def act(obj: dict) -> None:
        nonlocal t
        t += round(rng.uniform(1.0, 6.0), 1)
        obj["t"] = round(t, 1)
        log.append(obj)
        game.apply(_parse(obj))

    while game.phase == "roll":
        act({"type": "roll", "team": rng.choice(TEAMS), "value": rng.randint(1, 6)})
    while game.phase != "over" and len(log) < max_actions:
        pos = game.pos
        team = pos.to_play
        if game.phase == "turn":
            cards = game.pass_cards_left(team)
            if game.shot_chance(team) and not pos.turnover and (not cards or rng.random() < shoot):
                act({"type": "shot", "team": team, "card": rng.choice(game.shot_cards_left(team))})
            else:
                act({"type": "draw", "team": team, "card": rng.choice(cards)})
            continue
        piece, dest = _choose_move(game, rng, fouls)
        act({"type": "move", "team": team, "piece": piece[1], "from": square_name(pos.squares[piece]),
             "to": square_name(dest)})
    return log


def _choose_move(game: FodboldGame, rng: random.Random, fouls: float):
    pos, board = game.pos, game.board
    team = pos.to_play
    movers = game.allowed_movers()
    with_ball = game.ball_team() == team and not pos.turnover
    if with_ball:
        fine = [p for p in movers if p == pos.holder or (game.offside(p) is None and not game.would_stall(p))]
        bad = [p for p in movers if p not in fine]
        movers = bad if bad and (not fine or rng.random() < fouls) else fine
    piece = rng.choice(movers)
    dests = game.destinations(piece)
    if piece == pos.holder:
        dests = [d for d in dests if game.solo_problem(piece, d) is None] or [pos.squares[piece]]
    if fouls and rng.random() < fouls:
        # One square beyond his reach, straight ahead, when that square is on the board.
        src = pos.squares[piece]
        step = 1 if team == "red" else -1
        far = (src[0], src[1] + step * (piece[1] + 1))
        if board.on_board(far):
            return piece, far
    if piece == pos.holder or (with_ball and rng.random() < 0.7):
        # Forward, mostly as far as he can go.
        if rng.random() < 0.6:
            best = max(board.depth(team, d) for d in dests)
            dests = [d for d in dests if board.depth(team, d) == best]
        return piece, rng.choice(dests)
    if not with_ball and pos.holder is not None:
        marks = [d for d in dests if pos.at(d) and d != pos.squares[piece]]
        if marks and rng.random() < 0.5:
            return piece, rng.choice(marks)
        target = pos.squares[pos.holder]
        if rng.random() < 0.7:
            near = min(chebyshev(d, target) for d in dests)
            dests = [d for d in dests if chebyshev(d, target) == near]
    return piece, rng.choice(dests)


def _parse(obj: dict):
    return ACTION_ADAPTER.validate_python(obj)
