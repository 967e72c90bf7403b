"""The default catalogue matches the rulebook and plays well; the loader and the design checker."""
import json
from collections import Counter

import pytest

from referee.games.crazy_kick.catalogue import (DEFAULT_CATALOG, TEAMS, CatalogError, catalog_from_data,
                                                default_catalog, design_problems, load_catalog, may_follow)

from .helpers import MINI_DATA

CAT = default_catalog()


def follow_graph(cat):
    """Edges computed pair by pair from the placing rule alone (independent of the checker's index)."""
    cards = list(cat)
    return {a.id: [b.id for b in cards if may_follow(a, b)] for a in cards}


def reach(graph, start):
    seen, todo = set(), list(start)
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo += graph[x]
    return seen


# ---- the default deck matches the rulebook and the issue ----------------------------------------

def test_120_cards_60_red_60_white_with_unique_ids():
    assert len(CAT) == 120
    assert Counter(c.team for c in CAT) == {"red": 60, "white": 60}
    assert len({c.id for c in CAT}) == 120


def test_eleven_named_players_a_team_keepers_alex_and_stefan():
    for t in TEAMS:
        assert sorted(CAT.rosters[t]) == list(range(1, 12))
    assert (CAT.rosters["red"][1], CAT.rosters["white"][1]) == ("Alex", "Stefan")
    names = [n for t in TEAMS for n in CAT.rosters[t].values()]
    assert len(set(names)) == 22  # every name can be called out without doubt (rule 9)
    assert {"Dennis", "Mario", "Paul", "Leon", "Luca"} <= set(names)


def test_eight_goal_cards_a_team_the_rest_player_cards_with_1_2_passes_and_1_2_tackles():
    for t in TEAMS:
        goals = [c for c in CAT.team_cards(t) if c.is_goal]
        assert len(goals) == 8 and all(not c.passes and not c.tackles and c.player != 1 for c in goals)
    for c in CAT:
        if not c.is_goal:
            assert 1 <= len(c.passes) <= 2 and 1 <= len(c.tackles) <= 2, c
            assert c.player not in c.passes and len(set(c.passes)) == len(c.passes)


def test_enough_goalkeeper_cards_to_start_attacks():
    for t in TEAMS:
        keepers = [c for c in CAT.team_cards(t) if c.is_keeper]
        assert len(keepers) >= 4, t  # with 3 cards laid out each, a keeper shows within a few turns


def test_every_card_can_be_reached_from_a_goalkeeper_card():
    graph = follow_graph(CAT)
    assert reach(graph, [c.id for c in CAT if c.is_keeper]) == {c.id for c in CAT}


def test_a_goal_of_each_team_is_reachable_from_every_attack():
    graph = follow_graph(CAT)
    goals = {t: {c.id for c in CAT.team_cards(t) if c.is_goal} for t in TEAMS}
    for c in CAT:
        if not c.is_goal:
            ahead = reach(graph, [c.id])
            assert all(ahead & goals[t] for t in TEAMS), c.id


def test_no_dead_cards_and_no_dead_corners():
    graph = follow_graph(CAT)
    has_pred = {b for a in graph for b in graph[a]}
    for c in CAT:
        assert c.is_keeper or c.id in has_pred, f"{c.id} can never be laid"
        if not c.is_goal:
            assert graph[c.id], f"nothing can follow {c.id}"
    for c in CAT:
        for n in c.passes:
            assert any(x.team == c.team and x.player == n for x in CAT if x.id != c.id)
        for n in c.tackles:
            assert any(x.team != c.team and x.player == n and not x.is_goal for x in CAT)


def test_the_teams_are_fair_the_same_shape_on_both_sides():
    shape = {t: sorted((c.kind, c.player, c.passes, c.tackles) for c in CAT.team_cards(t)) for t in TEAMS}
    assert shape["red"] == shape["white"]


def test_the_design_checker_passes_the_default_and_the_mini_catalogue():
    assert design_problems(CAT) == []
    assert design_problems(catalog_from_data(MINI_DATA)) == []


# ---- the checker catches broken decks -----------------------------------------------------------

def mini_without(*ids, **changes):
    data = json.loads(json.dumps(MINI_DATA))
    data["cards"] = [c for c in data["cards"] if c["id"] not in ids]
    for c in data["cards"]:
        c.update(changes.get(c["id"], {}))
    return catalog_from_data(data)


@pytest.mark.parametrize("drop,changes,problem", [
    (("WG", "WH"), {}, "white has no goal card"),
    (("R1", "W1"), {}, "no goalkeeper card"),
    ((), {"R3": {"player": 1}}, "W1: Leon tackles, but has no card"),  # Leon's only card becomes Alex's
    (("R2",), {}, "RG (red Leon) can never be played"),  # nothing passes to Leon any more ...
    (("R2",), {}, "R1: no red goal can follow"),          # ... so red can never score
])
def test_design_problems_are_reported(drop, changes, problem):
    problems = design_problems(mini_without(*drop, **changes))
    assert any(problem in p for p in problems), problems


def test_a_corner_naming_a_player_without_a_card_is_reported():
    data = json.loads(json.dumps(MINI_DATA))
    data["teams"]["white"]["players"][4] = "Dennis"
    data["cards"][0]["tackles"] = [4]  # Dennis tackles Alex, but Dennis has no card
    assert any("Dennis tackles, but has no card" in p for p in design_problems(catalog_from_data(data)))


# ---- loading ------------------------------------------------------------------------------------

def test_the_json_list_that_cards_prints_loads_back_as_the_same_catalogue(tmp_path):
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(CAT.to_list()))
    again = load_catalog(p)
    assert again.to_list() == CAT.to_list() and again.rosters == CAT.rosters


def test_the_bundled_file_is_yaml_and_loads_by_path():
    assert DEFAULT_CATALOG.suffix == ".yaml"
    assert load_catalog(DEFAULT_CATALOG).to_list() == CAT.to_list()


@pytest.mark.parametrize("change,message", [
    (lambda d: d["cards"].append(dict(d["cards"][0])), "appears twice"),
    (lambda d: d["cards"][0].update(team="blue"), "team must be one of"),
    (lambda d: d["cards"][0].update(player=12), "red has no player number 12"),
    (lambda d: d["cards"][0].update(passes=[1]), "cannot pass to red number 1"),
    (lambda d: d["cards"][4].update(passes=[2]), "a goal card has no corners"),
    (lambda d: d["cards"][0].update(name="Bert"), "name 'Bert'"),
    (lambda d: d["cards"][0].update(passes="two"), "expected a list of player numbers"),
    (lambda d: d.pop("teams"), "teams.red.players"),
])
def test_bad_catalogues_raise_a_clear_error(change, message):
    data = json.loads(json.dumps(MINI_DATA))
    change(data)
    with pytest.raises(CatalogError, match=message):
        catalog_from_data(data)


def test_unreadable_files_raise_catalog_errors(tmp_path):
    with pytest.raises(CatalogError, match="cannot read"):
        load_catalog(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards: [ {id: R1")
    with pytest.raises(CatalogError, match="not valid YAML"):
        load_catalog(bad)
