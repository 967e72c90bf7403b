"""Crazy Kick and Fodbold refereed frame by frame with table detections, as the camera would."""
from referee.calibration.layouts import fodbold_layout
from referee.eventlog import read_jsonl_tolerant
from referee.games import crazy_kick, fodbold
from referee.games.fodbold.actions import ACTION_ADAPTER as FODBOLD_ACTIONS
from referee.phrases import phrasebook
from referee.session import GameSession
from referee.speech import Announcer, RecordingSpeaker
from referee.tracker import TableDetection as D
from referee.tracker import TrackerSettings

FAST = TrackerSettings(confirm_frames=2, hold_frames=6, still_frames=3, label_votes=3)


class Table:
    """What lies on the table, frame after frame: label -> (x, y)."""

    def __init__(self, session, things=None, fps=30):
        self.session, self.things, self.frame, self.fps = session, dict(things or {}), -1, fps

    def run(self, frames=6):
        out = []
        for _ in range(frames):
            self.frame += 1
            dets = [D(label, x, y) for label, (x, y) in self.things.items()]
            out += self.session.step(self.frame, self.frame / self.fps, dets)
        return out

    def carry(self, label, to, hidden=2, replaces=None):
        """A hand lifts ``label`` (hidden for a few frames) and puts it down at ``to``; ``replaces``:
        the label that was showing there (now covered)."""
        self.things.pop(label, None)
        self.run(hidden)
        if replaces is not None:
            self.things.pop(replaces, None)
        self.things[label] = to
        return self.run(8)


# ---- Crazy Kick -------------------------------------------------------------------------------

KICK_SETUP = {"type": "setup", "game": "crazy-kick", "teams": {"red": ["Ann", "Bob"], "white": ["Cyd", "Dee"]},
              "options": {}}
KICK_PILES = {"Ann": (-150, 300), "Bob": (150, 300), "Cyd": (-150, -300), "Dee": (150, -300)}


def test_crazy_kick_from_pile_tops_to_plays_speech_and_a_ball_out(tmp_path):
    speaker = RecordingSpeaker()
    ann = Announcer(speaker, max_routine=50, max_age_s=60)  # nothing dropped, however slow the worker
    s = GameSession("crazy-kick", KICK_SETUP, out_dir=tmp_path, announcer=ann, phrase=phrasebook("crazy-kick"),
                    tracker_settings=FAST)
    cat = s.engine.catalog
    keeper = "R01"  # Alex, passes to 2 and 3
    mate = next(c.id for c in cat if c.team == "red" and c.player in cat[keeper].passes and not c.is_goal)
    table = Table(s, {keeper: (KICK_PILES["Ann"][0] - 40, 300), mate: (KICK_PILES["Bob"][0], 300)})
    table.run(6)
    assert s.engine.tops == {"Ann": [keeper, None, None], "Bob": [mate, None, None]}
    table.carry(keeper, (0, 0))                   # Ann kicks off
    table.carry(mate, (4, -3), replaces=keeper)   # Bob's card lands right on it: a pass
    assert [(e.type, e.data.get("player")) for e in s.events if e.type in ("kickoff", "pass")] == [
        ("kickoff", "Ann"), ("pass", "Bob")]
    assert s.engine.top.id == mate and s.engine.violations == []
    s.choose("ball_out", t=table.frame / 30)
    ann.close()
    s.close()
    assert s.events[-1].type == "ball_out"
    assert f"{cat[keeper].name} kicks off for red" in speaker.phrases
    assert f"{cat[keeper].name} to {cat[mate].name}" in speaker.phrases
    # the action log on disk is a Crazy Kick log that replays to the same score
    game, _ = crazy_kick.replay(crazy_kick.load_log(tmp_path / "actions.jsonl"))
    assert game.scoresheet() == s.scoresheet()
    events, bad = read_jsonl_tolerant(tmp_path / "events.jsonl")
    assert bad == [] and [e["type"] for e in events].count("pass") == 1


def test_crazy_kick_undo_takes_back_the_last_play_not_the_pile_tops(tmp_path):
    s = GameSession("crazy-kick", KICK_SETUP, out_dir=tmp_path, tracker_settings=FAST)
    table = Table(s, {"R01": KICK_PILES["Ann"], "R10": KICK_PILES["Bob"]})
    table.run(6)
    table.carry("R01", (0, 0))
    assert s.engine.top.id == "R01" and s.adapter.log[-1]["type"] == "table"  # Ann's pile emptied after it
    s.undo()
    assert s.engine.top is None and s.engine.attacks == 0
    assert [a["type"] for a in s.adapter.log] == ["table", "table", "table"]
    assert len((tmp_path / "actions.jsonl").read_text().splitlines()) == 4


def test_crazy_kick_takes_a_card_read_unsurely_on_the_pile_and_crazy_does_not(tmp_path):
    """Crazy Kick's tracker floor is 0.4 (a card half under the next is read at 0.3-0.6): a card read at
    0.45 look after look is played. Crazy keeps the floor of 0.5."""
    s = GameSession("crazy-kick", KICK_SETUP, out_dir=tmp_path / "kick", tracker_settings=FAST)
    for f in range(8):
        s.step(f, f / 30, [D("R01", 0, 0, 0.45)])
    assert [e.type for e in s.events] == ["kickoff"]
    s.close()
    crazy = GameSession("crazy", {"type": "setup", "game": "crazy", "players": ["Ann", "Bob", "Cyd", "Dee"],
                                  "dealer": "Ann"}, out_dir=tmp_path / "crazy", tracker_settings=FAST)
    assert crazy.tracker.settings.min_confidence == 0.5 and s.tracker.settings.min_confidence == 0.4
    crazy.close()


# ---- Fodbold ----------------------------------------------------------------------------------

FOD_SETUP = {"type": "setup", "game": "fodbold", "teams": {"red": "Ann", "blue": "Bob"}, "first": "red"}
GRID = fodbold_layout().grid


def start_pieces(engine):
    return {f"{team}-{n}": GRID.centre(fodbold.square_name(sq)) for (team, n), sq in engine.pos.squares.items()}


def test_fodbold_draws_and_moves_spoken_in_danish(tmp_path):
    speaker = RecordingSpeaker()
    ann = Announcer(speaker, max_routine=50, max_age_s=60)  # nothing dropped, however slow the worker
    s = GameSession("fodbold", FOD_SETUP, out_dir=tmp_path, announcer=ann, phrase=phrasebook("fodbold", "da"),
                    tracker_settings=FAST)
    table = Table(s, {**start_pieces(s.engine), "ball": GRID.centre("g10")})
    assert table.run(8) == []  # everything where it starts: nothing happened
    table.things["R06"] = (420, 300)  # red draws 7 or 9 and shows it
    table.run(6)
    table.carry("red-7", GRID.centre("c11"))  # the pass to 7, who runs two squares
    table.things["B03"] = (420, -300)  # blue draws 4 or 9
    table.run(6)
    table.carry("blue-4", GRID.centre("e15"))
    ann.close()
    s.close()
    assert [e.type for e in s.events] == ["card_drawn", "pass", "moved", "card_drawn", "moved"]
    assert s.engine.pos.holder == ("red", 7) and s.engine.pos.to_play == "red"
    assert "Tilbageaflevering til rød 7" in speaker.phrases  # 9 on g10 to 7 on c9: backwards
    assert "Blå 4 til e15" in speaker.phrases
    game, _ = fodbold.replay(fodbold.load_log(tmp_path / "actions.jsonl"))
    assert game.fen() == s.engine.fen()


def test_fodbold_a_move_and_the_next_card_seen_in_one_look_are_taken_in_game_order(tmp_path):
    """The pass receiver is carried far under a hand and found again only when blue's next card is
    shown: both in one look. The move came first (else it would be red moving out of turn)."""
    s = GameSession("fodbold", FOD_SETUP, out_dir=tmp_path, tracker_settings=FAST)
    table = Table(s, {**start_pieces(s.engine), "ball": GRID.centre("g10")})
    table.run(8)
    table.things["R06"] = (420, 300)  # red draws 7 or 9 and shows it
    table.run(6)
    table.things.pop("red-7")
    table.run(10)  # hidden longer than hold_frames: its track is gone
    table.things["B03"] = (420, -300)  # blue's card and red 7 on c11 come into view together
    table.things["red-7"] = GRID.centre("c11")
    table.run(8)
    s.close()
    assert [a["type"] for a in s.adapter.log] == ["draw", "move", "draw"]
    assert s.engine.violations == [] and s.engine.pos.squares[("red", 7)] == fodbold.parse_square("c11")
    assert s.engine.pos.to_play == "blue" and s.engine.phase == "move"


def test_what_the_adapter_holds_back_at_the_end_is_applied_logged_and_said(tmp_path):
    """``GameSession.finish``: the review calls it when the recording ends."""
    speaker = RecordingSpeaker()
    ann = Announcer(speaker, max_routine=50, max_age_s=60)
    s = GameSession("fodbold", FOD_SETUP, out_dir=tmp_path, announcer=ann, phrase=phrasebook("fodbold"),
                    tracker_settings=FAST)
    s.adapter.log.append({"type": "draw", "team": "red", "card": "R06", "t": 1.0, "source": "camera"})
    s._apply(s.adapter.log[-1])
    held = {"type": "move", "team": "red", "piece": 7, "to": "c11", "t": 2.0, "source": "camera"}
    s.adapter.finish = lambda frame, t: [s.adapter._emit(dict(held), t, frame, None)]
    events = s.finish(90, 3.0)
    ann.close()
    s.close()
    assert [e.type for e in events] == ["pass", "moved"] and s.engine.pos.to_play == "blue"
    assert fodbold.load_log(tmp_path / "actions.jsonl")[-1].frame == 90
    assert any("c11" in p for p in speaker.phrases)
    crazy = GameSession("crazy", {"type": "setup", "game": "crazy", "players": ["Ann", "Bob", "Cyd", "Dee"],
                                  "dealer": "Ann"}, out_dir=tmp_path / "crazy")
    assert crazy.finish(10, 1.0) == []   # an adapter that holds nothing back


def test_fodbold_a_nudged_piece_is_no_call_and_the_roll_is_the_operators(tmp_path):
    s = GameSession("fodbold", {**FOD_SETUP, "first": None}, out_dir=tmp_path, tracker_settings=FAST)
    table = Table(s, start_pieces(s.engine))
    table.run(8)
    x, y = GRID.centre("b17")
    table.things["blue-5"] = (x, y + 40)  # knocked one square by a hand
    table.run(8)
    assert s.events == [] and s.adapter.log == []
    events = s.choose("roll", "blue", 5, t=1.0)
    assert [e.type for e in events] == ["roll", "kickoff"] and events[0].data["result"] == "kicks_off"
    assert s.engine.pos.to_play == "blue"


def test_fodbold_a_whole_simulated_game_seen_frame_by_frame(tmp_path):
    """A simulated game played out as detections: each card shown on its team's discard spot
    (covering the one before), pieces lifted and put down, the ball token following the ball,
    refused moves put back, the pieces set up again after a goal. The camera's action log is the
    game's, and the referee makes exactly the game's calls."""
    import random

    from referee.games.fodbold.simulate import random_game

    board, decks = fodbold.load_board(), fodbold.load_decks()
    log = random_game(random.Random(8), board, decks, fouls=0.15, first="red")  # goals, offside, stalling, marks
    truth, _ = fodbold.replay([FODBOLD_ACTIONS.validate_python(a) for a in log])
    s = GameSession("fodbold", log[0], out_dir=tmp_path, tracker_settings=FAST)
    phys = {f"{t}-{n}": sq for (t, n), sq in s.engine.pos.squares.items()}
    table = Table(s, {label: GRID.centre(fodbold.square_name(sq)) for label, sq in phys.items()})
    table.things["ball"] = GRID.centre("g10")
    spot = {"red": (440, 300), "blue": (440, -300)}
    shown = {"red": None, "blue": None}
    table.run(8)

    def put(label, sq):
        table.carry(label, GRID.centre(fodbold.square_name(sq)))
        phys[label] = sq

    def tidy():
        for (t, n), sq in s.engine.pos.squares.items():
            if phys[f"{t}-{n}"] != sq:
                put(f"{t}-{n}", sq)
        holder = s.engine.pos.holder
        where = GRID.centre(fodbold.square_name(s.engine.pos.squares[holder])) if holder else None
        if where is not None and table.things["ball"] != where:
            table.carry("ball", where)

    for a in log[1:]:
        if a["type"] in ("draw", "shot"):
            team = a["team"]
            if shown[team] is not None:
                table.things.pop(shown[team])
            table.things[a["card"]] = spot[team]
            shown[team] = a["card"]
            table.run(6)
        else:
            label, to = f"{a['team']}-{a['piece']}", board.parse(a["to"])
            if to == phys[label]:  # stays put: only the ball token shows a pass to him
                if s.engine.ball_team() == a["team"] and not s.engine.pos.turnover:
                    table.carry("ball", GRID.centre(a["to"]))
                continue
            put(label, to)
        tidy()
    s.close()

    def strip(x):
        return {k: v for k, v in x.items() if k not in ("t", "frame", "source", "from")}

    want, got = [strip(x) for x in log[1:]], [strip(x) for x in s.adapter.log]
    if want[-1]["type"] == "move" and len(got) == len(want) - 1:
        want = want[:-1]  # a last player who stayed put: no card after him shows it
    assert got == want
    assert [v.type for v in s.engine.violations] == [v.type for v in truth.violations]


def test_crazy_kick_a_whole_simulated_game_seen_frame_by_frame(tmp_path):
    """A simulated game (pile tops logged after every change) played out as detections at the
    simulator's times: pile tops showing, each card lifted off its pile (the card under it showing
    at once) and slapped on the centre pile over the top card, illegal cards taken back, goal cards
    set aside. The camera's plays and the referee's calls are the game's."""
    import random

    from referee.games.crazy_kick.actions import ACTION_ADAPTER as KICK_ACTIONS
    from referee.games.crazy_kick.simulate import random_game

    rng = random.Random(3)
    log = random_game(random.Random(3), n_players=4, fouls=0.2, tables="all", stuck_after=3,
                      options={"goals_to_win": 2})
    truth, _ = crazy_kick.replay([KICK_ACTIONS.validate_python(a) for a in log])
    s = GameSession("crazy-kick", log[0], out_dir=tmp_path, tracker_settings=FAST, options={"correction_frames": 3})
    teams = log[0]["teams"]
    anchor = {p: s.layout.zone(f"pile{side}{k + 1}").centre for side, team in (("A", "red"), ("B", "white"))
              for k, p in enumerate(teams[team])}
    table = Table(s, fps=60)  # the simulator's times at 60 frames a second
    piles, centre = {}, []  # (player, pile) -> card on top; the centre pile's cards, top last

    def pos(p, i):
        return (anchor[p][0] + (i - 1) * 45, anchor[p][1])

    def until(t):
        table.run(max(1, int(t * table.fps) - table.frame))

    def show_centre():
        for c in centre[:-1]:
            table.things.pop(c, None)  # covered
        if centre:
            table.things[centre[-1]] = (rng.uniform(-6, 6), rng.uniform(-6, 6))

    for k, a in enumerate(log):
        if a["type"] == "table":
            until(a["t"])
            new = {(p, i): c for p, tops in a["piles"].items() for i, c in enumerate(tops) if piles.get((p, i)) != c}
            for spot in new:
                table.things.pop(piles.get(spot), None)
            for (p, i), c in new.items():
                piles[(p, i)] = c
                if c is not None:
                    table.things[c] = pos(p, i)
        elif a["type"] == "ball_out":
            until(a["t"])
            s.choose("ball_out", t=a["t"])
            del centre[:-1]
        elif a["type"] == "play":
            until(a["t"])
            card, p = a["card"], a["player"]
            i = next(i for (q, i), c in piles.items() if q == p and c == card)
            nxt = log[k + 1] if k + 1 < len(log) and log[k + 1]["type"] == "table" else None
            under = nxt["piles"][p][i] if nxt else card
            table.things.pop(card)
            if under != card:  # the card under it shows as it is lifted
                piles[(p, i)] = under
                if under is not None:
                    table.things[under] = pos(p, i)
            table.run(2)
            centre.append(card)
            show_centre()
            table.run(6)
            if s.engine.in_play(card) is None:  # refused: taken back
                centre.pop()
                table.things.pop(card)
                show_centre()
                table.things[card] = pos(p, i)
                table.run(6)
            elif s.engine.catalog[card].is_goal:
                table.things.pop(card)
                table.run(2)
                table.things[card] = (-400 + 10 * len(s.engine.goals), 0)  # set aside
                for c in centre[:-1]:
                    table.things.pop(c, None)
                centre.clear()
                table.run(6)
    table.run(40)
    s.close()
    plays = [(a["card"], a["player"]) for a in log if a["type"] == "play"]
    assert [(a["card"], a.get("player")) for a in s.adapter.log if a["type"] == "play"] == plays
    assert [v.type for v in s.engine.violations] == [v.type for v in truth.violations]
    assert s.engine.score == truth.score and s.engine.over


def test_fodbold_reads_face_down_cards_down_to_a_lower_floor_than_faces_and_pieces(tmp_path):
    """A deck's back read at 0.2 is tracked (a face read on it is then known for a misread); a face
    card or a piece read at 0.2 is not."""
    from referee.session import BACK_FLOOR

    s = GameSession("fodbold", {"type": "setup", "game": "fodbold", "first": "red"}, out_dir=tmp_path,
                    tracker_settings=FAST)
    assert dict(s.tracker.settings.kind_floors) == {"back": BACK_FLOOR} and s.tracker.settings.min_confidence == 0.5
    seen = []
    for f in range(8):
        seen += s.tracker.update(f, [D("back", 400, 0, 0.2), D("R06", 400, 300, 0.2), D("red-7", 0, 0, 0.2)])
    assert [(o.kind, o.label) for o in seen] == [("appeared", "back")]
    s.close()
