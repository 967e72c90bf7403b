"""Differential test: follow-colour legality and trick winners against OpenSpiel's hearts, an
independent implementation, on thousands of random tricks (standard deck, ranks 2..A mapped 1:1).

OpenSpiel's hearts has rules Crazy does not (the 2 of clubs leads the first trick, points may not
be led before hearts break); those are switched off by its parameters, and the first lead is skipped."""
import random

import pytest

from referee.games.crazy.cards import parse_card
from referee.games.crazy.rules import legal_follow, rank_of, trick_winner

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is a test extra: pip install -e '.[test]'")

PARAMS = {"pass_cards": False, "must_break_hearts": False, "no_pts_on_first_trick": False,
          "can_lead_any_club": True, "qs_breaks_hearts": False}


def to_code(spiel_card: str) -> str:
    rank, suit = spiel_card[:-1], spiel_card[-1]
    return ("10" if rank == "T" else rank) + suit


def hand_of(state, player):
    """Parse the 'Hand:' block ('S 63', 'H T76') of OpenSpiel's information state."""
    text = state.information_state_string(player)
    block = text.split("Hand:", 1)[1].split("\n\n", 1)[0]
    cards = []
    for line in block.strip().splitlines():
        suit, _, ranks = line.partition(" ")
        if ranks.strip() != "none":
            cards += [parse_card(to_code(r + suit), "standard") for r in ranks.strip()]
    return cards


def test_follow_colour_and_trick_winners_match_openspiel_hearts():
    game = pyspiel.load_game("hearts", PARAMS)
    rng = random.Random(20261129)
    tricks = legal_checks = 0
    for _ in range(400):
        state = game.new_initial_state()
        state.apply_action(0)  # "No Pass"
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        trick: list[tuple[int, object]] = []
        first_lead = True
        while not state.is_terminal():
            player = state.current_player()
            legal = {parse_card(to_code(state.action_to_string(a)), "standard") for a in state.legal_actions()}
            if not first_lead:
                led = trick[0][1].colour if trick else None
                assert set(legal_follow(hand_of(state, player), led)) == legal
                legal_checks += 1
            first_lead = False
            action = rng.choice(state.legal_actions())
            trick.append((player, parse_card(to_code(state.action_to_string(action)), "standard")))
            state.apply_action(action)
            if len(trick) == 4:
                if not state.is_terminal():
                    winner = trick[trick_winner([c for _, c in trick], lambda c: rank_of(c, "standard"))][0]
                    assert winner == state.current_player()
                    tricks += 1
                trick = []
    print(f"compared {tricks} trick winners and {legal_checks} legal-card sets with OpenSpiel hearts")
    assert tricks >= 4000 and legal_checks >= 16000
