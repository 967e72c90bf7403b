"""`referee simulate`: a short video whose action log replays to the truth."""
import json

import cv2
import numpy as np
import pytest

from referee.cli import main
from referee.games.crazy import load_log, replay
from referee.render.video import SimulateError, simulate


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    summary = simulate("crazy", 11, out, fouls=0.5, seconds=2.0, width=320, height=240, progress=False)
    return out, summary


def test_two_second_video_has_sixty_frames(video):
    out, summary = video
    cap = cv2.VideoCapture(str(out / "video.mp4"))
    frames = 0
    while cap.read()[0]:
        frames += 1
    assert frames == summary["frames"] == 60
    assert len((out / "frames.jsonl").read_text().splitlines()) == 60


def test_action_log_replays_to_the_truth(video):
    out, summary = video
    truth = json.loads((out / "truth.json").read_text())
    game, events = replay(load_log(out / "actions.jsonl"))
    assert game.scoresheet() == truth["scoresheet"]
    assert [e.to_dict() for e in events] == truth["events"]
    plays = [json.loads(line) for line in (out / "actions.jsonl").read_text().splitlines()]
    plays = [a for a in plays if a["type"] == "play"]
    assert summary["plays"] == len(plays) >= 1
    assert all(0 < a["t"] <= 2.0 and a["source"] == "simulator" for a in plays)


def test_each_played_card_shows_in_the_trick_after_its_time(video):
    out, _ = video
    frames = [json.loads(line) for line in (out / "frames.jsonl").read_text().splitlines()]
    plays = [json.loads(line) for line in (out / "actions.jsonl").read_text().splitlines()]
    for a in (a for a in plays if a["type"] == "play"):
        seen = [f["frame"] for f in frames[a["frame"]:a["frame"] + 10]
                if any(c["class"] == a["card"] and c["group"] == "trick" for c in f["cards"])]
        assert seen, a
        before = [f for f in frames[:max(0, a["frame"] - 25)]
                  if any(c["class"] == a["card"] and c["group"] == "trick" for c in f["cards"])]
        assert not before, a


def test_same_seed_same_truth(video, tmp_path):
    out, _ = video
    simulate("crazy", 11, tmp_path, fouls=0.5, seconds=2.0, width=320, height=240, progress=False)
    assert (tmp_path / "actions.jsonl").read_text() == (out / "actions.jsonl").read_text()
    assert (tmp_path / "frames.jsonl").read_text() == (out / "frames.jsonl").read_text()


def test_bad_arguments(tmp_path, capsys):
    with pytest.raises(SimulateError, match="fouls"):
        simulate("crazy", 0, tmp_path, fouls=2.0)
    with pytest.raises(SimulateError, match="simulated videos exist for"):
        simulate("chess", 0, tmp_path)
    assert main(["simulate", "--out", str(tmp_path), "--seconds", "0"]) == 2
    assert "--seconds must be positive" in capsys.readouterr().err


def test_crazy_kick_video_replays_to_the_truth(tmp_path):
    from referee.games.crazy_kick import load_log as kick_log, replay as kick_replay

    s = simulate("crazy-kick", 5, tmp_path, fouls=0.3, seconds=4.0, width=240, height=180, progress=False)
    truth = json.loads((tmp_path / "truth.json").read_text())
    game, events = kick_replay(kick_log(tmp_path / "actions.jsonl"))
    assert game.scoresheet() == truth["scoresheet"] and s["frames"] == 120
    assert [e.to_dict() for e in events] == truth["events"]
    plays = [json.loads(line) for line in (tmp_path / "actions.jsonl").read_text().splitlines()]
    plays = [a for a in plays if a["type"] == "play"]
    assert plays and all(a["t"] <= 4.0 for a in plays)
    frames = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    # a card laid on the centre pile shows there in the frames after it lands
    landed = [a for a in plays if any(c["class"] == a["card"] and c["group"] == "centre-pile"
                                      for f in frames[a["frame"]:a["frame"] + 5] for c in f["cards"])]
    assert landed


def test_fodbold_plan_lifts_the_moving_piece_and_carries_it():
    from referee.games.fodbold.loader import load_board
    from referee.render.fodbold import BoardPlacement, random_board_style
    from referee.render.video import MOVE, fodbold_scene, plan_fodbold

    board = load_board()
    plan = plan_fodbold(3, 0.0, 30.0)
    assert plan.moves, "seed 3 moves a piece in its first 30 seconds"
    t, piece, a, b = plan.moves[0]
    bp = BoardPlacement((0.0, 0.0), 20.0, random_board_style(np.random.default_rng(0)))
    skin = {"red": ((150, 180, 225), (90, 30, 30)), "blue": ((120, 150, 200), (30, 90, 30))}
    before, mid, after = (fodbold_scene(plan, board, bp, x, skin) for x in (t - MOVE - 0.1, t - MOVE / 2, t + 0.1))

    def find(fs):
        return next(p for p in fs.pieces if (p.team, p.number) == piece)

    assert find(before).square == a and find(after).square == b
    assert find(before).lift_mm == 0 and find(mid).lift_mm > 30 and mid.scene.arms and not after.scene.arms
    pa, pb = (np.array(bp.square_mm(board, s)) for s in (a, b))
    assert np.allclose(find(mid).pos_mm, (pa + pb) / 2, atol=1.0)


def test_fodbold_video_replays_to_the_truth(tmp_path):
    from referee.games.fodbold import load_log as fb_log, replay as fb_replay

    simulate("fodbold", 3, tmp_path, seconds=16.0, width=160, height=120, progress=False)
    truth = json.loads((tmp_path / "truth.json").read_text())
    game, events = fb_replay(fb_log(tmp_path / "actions.jsonl"))
    assert [e.to_dict() for e in events] == truth["events"]
    frames = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    assert len(frames) == 480 and any(f["objects"] for f in frames)


def test_crazy_kick_table_lies_where_the_calibration_layout_expects_it():
    """Each player's piles in his pile zone, the centre pile on the centre, goal cards in the team's
    goal area: mapped back through the marker frame into the calibration's table millimetres."""
    from referee.calibration.layouts import crazy_kick_layout
    from referee.games.crazy_kick.adapter import SIDES
    from referee.render.markers import MarkerFrame
    from referee.render.video import kick_table, plan_kick

    for players in (2, 3, 4, 5, 8):
        plan = plan_kick(1, players, 0.0, 1.0)
        frame = MarkerFrame((23.0, -11.0), 2.1)
        table = kick_table(plan, frame)
        layout = crazy_kick_layout(len(plan.teams["red"]), len(plan.teams["white"]))
        side = {team: s for s, team in SIDES.items()}
        for team, names in plan.teams.items():
            for k, p in enumerate(names, 1):
                zone = layout.zone(f"pile{side[team]}{k}")
                slots = frame.to_calib(np.array(table.seats[p].slots))
                assert len(slots) == plan.layout_counts[p]
                # inside his own zone, a card's width (63 mm) apart or more, left to right
                assert all(layout.zone_at(xy) is zone for xy in slots), (players, p, slots)
                assert np.all(np.diff(slots[:, 0]) >= 55)
            goal = frame.to_calib(np.array([table.goals[team][0]]))[0]
            assert layout.zone_at(goal).name == f"goal{side[team]}"
        assert np.allclose(frame.to_calib(np.array([table.centre]))[0], (0, 0), atol=1e-6)


def test_fodbold_board_lies_on_the_calibration_grid():
    """Every square's centre on the rendered board is the same square for the calibration's grid."""
    from referee.calibration.layouts import fodbold_layout
    from referee.games.fodbold.board import square_name
    from referee.games.fodbold.loader import load_board
    from referee.render.fodbold import board_image, random_board_style
    from referee.render.markers import MarkerFrame
    from referee.render.video import fodbold_placement

    board = load_board()
    grid = fodbold_layout(board=board).grid
    frame = MarkerFrame((-17.0, 30.0), -0.7)
    style = random_board_style(np.random.default_rng(4))
    bp = fodbold_placement(board, frame, style)
    assert style.square_mm == grid.square_mm
    squares = [(x, y) for x in range(board.columns) for y in range(board.rows + 2)]
    for sq in squares:
        name = square_name(sq)
        if 1 <= sq[1] <= board.rows or name in grid.extra:
            xy = frame.to_calib(np.array([bp.square_mm(board, sq)]))[0]
            assert grid.square_at(xy) == name and np.allclose(xy, grid.centre(name), atol=1e-6), (name, xy)
    # the printed board agrees: the goal squares are the image's first and last square rows
    img = board_image(board, style, px_per_mm=2.0)
    s, m = style.square_mm * 2, style.margin_mm * 2
    goals = [q for squares in board.goals.values() for q in squares]
    assert {q[1] for q in goals} == {0, board.rows + 1}
    for x, y in goals:  # the net (light grey), not grass
        assert img[int(m + (board.rows + 1.5 - y) * s), int(m + (x + 0.3) * s)].min() > 100, (x, y)


def test_fodbold_refused_move_goes_there_and_back_and_a_goal_is_set_up_after_a_pause():
    """What a table does: a piece moved too far lies there a moment (the camera sees the move the
    engine refuses), then is put back; after a goal the shot card shows before the pieces go back to
    their kick-off squares (else the camera would see pieces move before the shot)."""
    from referee.games.fodbold.loader import load_board
    from referee.render.fodbold import BoardPlacement, random_board_style
    from referee.render.video import GOAL_PAUSE, MOVE, REFUSED_HOLD, fodbold_scene, plan_fodbold

    board = load_board()
    bp = BoardPlacement((0.0, 0.0), 0.0, random_board_style(np.random.default_rng(0)))
    skin = {"red": ((150, 180, 225), (90, 30, 30)), "blue": ((120, 150, 200), (30, 90, 30))}
    plan = plan_fodbold(12, 0.3, 30.0)
    assert plan.refused and plan.goals, "seed 12 with fouls 0.3 has a refused move and a goal"
    t, piece, a, b = plan.refused[0]

    def square(tt):
        return next(p.square for p in fodbold_scene(plan, board, bp, tt, skin).pieces if (p.team, p.number) == piece)

    assert square(t - MOVE - 0.05) == a and square(t + REFUSED_HOLD / 2) == b
    assert square(t + REFUSED_HOLD + MOVE + 0.05) == a
    tg = plan.goals[0]
    k = next(i for i, s in enumerate(plan.states) if s[0] == tg)
    before, after = plan.states[k - 1][1], plan.states[k][1]
    assert before != after  # the goal set the pieces up again

    def squares(tt):
        return {(p.team, p.number): p.square for p in fodbold_scene(plan, board, bp, tt, skin).pieces}

    assert squares(tg + GOAL_PAUSE / 2) == before and squares(tg + GOAL_PAUSE + 0.05) == after


def test_the_simulated_camera_sees_every_corner_marker_sheet_whole():
    """Seed 9168 (standard cards, 1280x720): the camera's tilt and principal point put the bottom-left marker's
    edge out of view, and the video could not be calibrated. ``aligned_camera`` raises the camera until every
    sheet, quiet zone included, lies inside the image; a camera that sees them all is left as drawn."""
    import math

    from referee.calibration.table import TableMarkers
    from referee.render.markers import MarkerFrame, marker_sheet, sheet_corners
    from referee.render.video import MARKER_MARGIN_PX, aligned_camera

    markers = TableMarkers()
    # the sheet's corners, as drawn: its image is the black square plus the quiet zone on every side
    img, _, square = marker_sheet(markers.dictionary, markers.ids[0])
    mm_per_px = markers.size_mm / (square[1, 0] - square[0, 0])
    first = sheet_corners(markers)[:4]
    assert np.allclose(first[1] - first[0], [img.shape[1] * mm_per_px, 0])
    raised = 0
    for seed in range(60):
        for width, height in ((1280, 720), (640, 480)):
            rng = np.random.default_rng(seed)
            frame = MarkerFrame((float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50))),
                                float(rng.uniform(0, 2 * math.pi)))
            camera = aligned_camera(rng, width, height, frame)
            sheets = frame.to_render(sheet_corners(markers))
            uv = camera.project(np.column_stack([sheets, np.zeros(len(sheets))]))
            m = MARKER_MARGIN_PX
            assert (uv[:, 0] >= m).all() and (uv[:, 0] <= width - 1 - m).all(), (seed, width)
            assert (uv[:, 1] >= m).all() and (uv[:, 1] <= height - 1 - m).all(), (seed, width)
            h0 = 560.0 / (min(width, height) / 2 / camera.info["focal_px"])
            raised += camera.info["height_mm"] > h0 * (1 + 1.6 * math.tan(math.radians(camera.info["tilt_deg"]))) * 1.08
    assert 0 < raised < 60, raised  # some needed raising; most are left as drawn
