import pytest

from referee.games.crazy.cards import (Card, CardError, default_removed, full_deck, is_red, parse_card,
                                       removal_order)
from referee.games.crazy.rules import CrazyGame, rank_of

from .helpers import setup


def test_decks_have_the_seed_sizes():
    assert len(set(full_deck("rook"))) == 56  # 4 colours x 1-14, the Rook bird card taken out
    assert len(set(full_deck("standard"))) == 52


@pytest.mark.parametrize("code,deck,card", [
    ("B13", "rook", Card("B", 13)), ("r1", "rook", Card("R", 1)), ("Y14", "rook", Card("Y", 14)),
    ("10H", "standard", Card("H", 10)), ("KS", "standard", Card("S", 13)), ("AC", "standard", Card("C", 14)),
    ("2D", "standard", Card("D", 2)),
])
def test_card_codes_parse_and_print_back(code, deck, card):
    assert parse_card(code, deck) == card
    assert card.code(deck) == code.upper()


@pytest.mark.parametrize("code,deck", [("B15", "rook"), ("B0", "rook"), ("P3", "rook"), ("1H", "standard"),
                                       ("11H", "standard"), ("KX", "standard"), ("G7", "standard"), ("", "rook")])
def test_bad_card_codes_say_what_was_expected(code, deck):
    with pytest.raises(CardError, match="expected"):
        parse_card(code, deck)


def test_red_cards():
    assert is_red(Card("R", 5), "rook") and not is_red(Card("B", 5), "rook")
    assert is_red(Card("H", 5), "standard") and is_red(Card("D", 5), "standard")
    assert not is_red(Card("S", 5), "standard") and not is_red(Card("C", 5), "standard")


def test_ranks():
    assert rank_of(Card("G", 14), "rook") > rank_of(Card("G", 1), "rook")
    assert rank_of(Card("G", 1), "rook", one_high=True) > rank_of(Card("G", 14), "rook", one_high=True)
    order = [parse_card(c, "standard") for c in ["2H", "9H", "10H", "JH", "QH", "KH", "AH"]]
    assert [rank_of(c, "standard") for c in order] == sorted(rank_of(c, "standard") for c in order)


def test_removal_order_follows_the_seed_example():
    # "If needing to take out 6 cards, take out all four 1's and two of 2's, leaving in the red 2."
    codes = [c.code("rook") for c in removal_order("rook")[:6]]
    assert codes == ["Y1", "G1", "B1", "R1", "Y2", "G2"]
    assert [c.code("standard") for c in removal_order("standard")[:5]] == ["2C", "2S", "2D", "2H", "3C"]


# players -> (cards each, cards removed) from the seed's table and floor(cards / players) with two decks from 8.
ROOK_DEALS = {4: (14, []), 5: (11, ["Y1"]), 6: (9, ["Y1", "G1"]), 7: (8, []), 8: (14, []),
              9: (12, ["Y1", "Y1", "G1", "G1"]), 10: (11, ["Y1", "Y1"]), 11: (10, ["Y1", "Y1"]),
              12: (9, ["Y1", "Y1", "G1", "G1"])}
STANDARD_DEALS = {4: (13, []), 5: (10, ["2C", "2S"]), 6: (8, ["2C", "2S", "2D", "2H"]), 7: (7, ["2C", "2S", "2D"]),
                  8: (13, []), 9: (11, ["2C", "2C", "2S", "2S", "2D"]), 10: (10, ["2C", "2C", "2S", "2S"]),
                  11: (9, ["2C", "2C", "2S", "2S", "2D"]),
                  12: (8, ["2C", "2C", "2S", "2S", "2D", "2D", "2H", "2H"])}


@pytest.mark.parametrize("deck,table", [("rook", ROOK_DEALS), ("standard", STANDARD_DEALS)])
@pytest.mark.parametrize("players", range(4, 13))
def test_deal_sizes_for_4_to_12_players(deck, table, players):
    names = [f"P{i}" for i in range(players)]
    game = CrazyGame(setup(names, deck=deck))
    each, removed = table[players]
    assert game.cards_per_player == each
    assert [c.code(deck) for c in default_removed(deck, players)] == removed
    assert sum(game.in_play.values()) == each * players
    assert game.copies == (1 if players <= 7 else 2)


def test_explicit_removed_list_overrides_the_even_deal_rule():
    # The seed's pro tip: with 4 players take out all the 1s and 2s.
    tip = ["R1", "Y1", "G1", "B1", "R2", "Y2", "G2", "B2"]
    game = CrazyGame(setup(removed=tip))
    assert game.cards_per_player == 12
    assert all(game.in_play[parse_card(c, "rook")] == 0 for c in tip)
