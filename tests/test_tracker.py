"""The tracker stepped frame by frame through its lifecycle."""
from dataclasses import replace

import pytest

from referee.tracker import TableDetection as D
from referee.tracker import Tracker, TrackerSettings

S = TrackerSettings(confirm_frames=3, hold_frames=10, max_distance_mm=60, still_mm=4, still_frames=4, label_votes=5)


def step(tracker, frames):
    """Feed frames (lists of detections) and return {frame: [(kind, label), ...]} for frames with output."""
    out = {}
    for dets in frames:
        obs = tracker.update(tracker.frame + 1, dets)
        if obs:
            out[tracker.frame] = [(o.kind, o.label) for o in obs]
    return out


def test_a_card_is_reported_once_when_it_has_lain_still_long_enough():
    t = Tracker(S)
    out = step(t, [[D("G7", 100, 100)]] * 10)
    assert out == {3: [("appeared", "G7")]}  # frames 0-3: four still positions


def test_a_single_frame_false_detection_never_appears():
    t = Tracker(S)
    out = step(t, [[D("R3", 300, 300)]] + [[]] * 20)
    assert out == {} and t.tracks == []


def test_a_hand_covering_a_card_shorter_than_hold_frames_changes_nothing():
    t = Tracker(S)
    step(t, [[D("G7", 100, 100)]] * 6)
    out = step(t, [[]] * 9 + [[D("G7", 101, 100)]] * 6)
    assert out == {}
    assert len(t.confirmed) == 1


def test_a_card_gone_for_hold_frames_vanishes_once():
    t = Tracker(S)
    step(t, [[D("G7", 100, 100)]] * 6)
    out = step(t, [[]] * 15)
    assert list(out.values()) == [[("vanished", "G7")]]
    assert list(out)[0] == 5 + 10  # last seen at frame 5, gone after 10 unseen frames


def test_a_sliding_card_is_reported_where_it_comes_to_rest():
    t = Tracker(S)
    path = [[D("B13", 50 + 25 * i, 200)] for i in range(8)] + [[D("B13", 225, 200)]] * 6
    tracker_out = []
    for dets in path:
        tracker_out += t.update(t.frame + 1, dets)
    assert [(o.kind, o.label, round(o.x)) for o in tracker_out] == [("appeared", "B13", 225)]


def test_a_misread_label_in_a_few_frames_does_not_change_the_card():
    t = Tracker(S)
    frames = [[D("G7", 100, 100)]] * 6 + [[D("G1", 100, 100)], [D("G7", 100, 100)], [D("G1", 100, 100)]] + \
             [[D("G7", 100, 100)]] * 4
    out = step(t, frames)
    assert out == {3: [("appeared", "G7")]} and len(t.tracks) == 1


def test_a_new_card_on_top_of_a_pile_is_a_relabel():
    t = Tracker(S)
    out = step(t, [[D("red-5", 0, 0)]] * 6 + [[D("white-3", 1, 0)]] * 6)
    assert out[3] == [("appeared", "red-5")]
    assert [v for k, v in out.items() if k > 3] == [[("relabelled", "white-3")]]


def test_a_relabel_carries_the_reads_that_led_to_it():
    # a card read for one look on a pile before the next covered it shows in the relabel's reads
    t = Tracker(S)
    frames = [[D("red-5", 0, 0)]] * 6 + [[D("red-7", 1, 0)]] + [[D("white-3", 1, 0)]] * 5
    obs = [o for dets in frames for o in t.update(t.frame + 1, dets)]
    relabel = next(o for o in obs if o.kind == "relabelled")
    assert relabel.reads == ("red-5", "red-7", "white-3", "white-3", "white-3")


def test_two_cards_side_by_side_keep_their_identities():
    t = Tracker(S)
    frames = [[D("G7", 100, 100), D("G8", 140, 100)]] * 8
    out = step(t, frames)
    assert sorted(out[3]) == [("appeared", "G7"), ("appeared", "G8")]
    assert {tr.label for tr in t.tracks} == {"G7", "G8"} and len(t.tracks) == 2


def test_a_piece_lifted_and_put_down_elsewhere_is_a_move():
    t = Tracker(S)
    frames = [[D("red-9", 100, 100)]] * 6 + [[]] * 3 + [[D("red-9", 200, 150)]] * 6
    obs = []
    for dets in frames:
        obs += t.update(t.frame + 1, dets)
    assert [(o.kind, o.label) for o in obs] == [("appeared", "red-9"), ("moved", "red-9")]
    assert obs[1].from_xy == pytest.approx((100, 100)) and (obs[1].x, obs[1].y) == pytest.approx((200, 150))


def test_with_rest_reid_mm_a_hidden_resting_card_is_found_again_only_at_its_place():
    # seed 9022: a card sliding in, misread with the label of a resting card a hand hid, took that
    # card's track (a "move" of a card in the trick); the card, seen again, became a new object
    frames = [[D("Y4", 100, 100)]] * 6 + [[]] * 3 + [[D("Y4", 180, 110)]] * 6
    frames += [[D("Y4", 180, 110), D("Y4", 100, 100)]] * 6

    def run(settings):
        t, obs = Tracker(settings), []
        for dets in frames:
            obs += t.update(t.frame + 1, dets)
        return [(o.kind, o.track_id, round(o.x)) for o in obs]

    assert run(S) == [("appeared", 1, 100), ("moved", 1, 180), ("appeared", 2, 100)]
    assert run(replace(S, rest_reid_mm=25)) == [("appeared", 1, 100), ("appeared", 2, 180)]


def colour(label):
    return label.split("-")[0]


def test_a_piece_whose_number_is_misread_on_the_way_keeps_its_track_with_kind_of():
    # read as a 6 from the moment it is picked up; only the colour is the kind
    frames = [[D("red-9", 100, 100)]] * 6 + [[D("red-6", 100 + 20 * i, 100)] for i in range(1, 6)]
    frames += [[D("red-6", 200, 100)]] * 6
    t = Tracker(S, kind_of=colour)
    obs = []
    for dets in frames:
        obs += t.update(t.frame + 1, dets)
    assert [(o.kind, o.track_id) for o in obs] == [("appeared", 1), ("moved", 1), ("relabelled", 1)]
    plain = Tracker(S)  # without kind_of it is a new object, and the piece that left vanishes later
    obs = []
    for dets in frames + [[D("red-6", 200, 100)]] * 12:
        obs += plain.update(plain.frame + 1, dets)
    assert [(o.kind, o.track_id) for o in obs] == [("appeared", 1), ("appeared", 2), ("vanished", 1)]


def test_low_confidence_detections_are_ignored():
    t = Tracker(S)
    assert step(t, [[D("G7", 100, 100, confidence=0.1)]] * 10) == {}


def test_an_unsure_read_of_a_card_at_its_place_keeps_it_in_view():
    # a card read surely and unsurely in turn (a hand near it: Crazy 9030's last card of a trick):
    # each sure read alone would start a new tentative track that never reaches confirm_frames
    sure, unsure = [D("R11", 100, 100, confidence=0.7)], [D("R11", 101, 100, confidence=0.45)]
    assert step(Tracker(S), [sure, unsure] * 3) == {4: [("appeared", "R11")]}
    assert step(Tracker(S), [sure, []] * 6) == {}  # not seen at all in between: dropped as noise


def test_an_unsure_read_of_another_card_or_elsewhere_is_no_sighting():
    sure = [D("R11", 100, 100, confidence=0.7)]
    other = [D("R12", 100, 100, confidence=0.45)]
    away = [D("R11", 120, 100, confidence=0.45)]   # farther than still_mm
    faint = [D("R11", 100, 100, confidence=0.2)]   # under sighting_floor
    for between in (other, away, faint):
        assert step(Tracker(S), [sure, between] * 6) == {}


def test_seen_now_tells_a_card_in_view_from_one_only_held():
    t = Tracker(S)
    for f in range(6):
        t.update(f, [D("R11", 100, 100, confidence=0.7)])
    tid = t.tracks[0].id
    assert t.seen_now(tid) and not t.seen_now(tid + 1)
    t.update(6, [])  # a hand over it: still held, no longer seen
    assert t.tracks and not t.seen_now(tid)
    t.update(7, [D("R11", 101, 100, confidence=0.4)])  # a faint read of itself at its place: in view
    assert t.seen_now(tid)


def test_an_object_read_too_briefly_to_report_is_kept_as_a_glimpse():
    t = Tracker(S)
    step(t, [[D("Y13", 0, 60, confidence=0.79)], []])  # one look, then gone: no object
    assert [(g.label, g.x, g.y, g.frame, g.confidence) for g in t.glimpses] == [("Y13", 0, 60, 0, 0.79)]
    # confirmed but never at rest (carried across), then gone: a glimpse too; a card that lay there: none
    t = Tracker(S)
    moving = [[D("G4", 10 * k, 0), D("R1", 200, 200)] for k in range(6)]
    step(t, moving + [[]] * (S.hold_frames + 1))
    assert [g.label for g in t.glimpses] == ["G4"] and t.glimpses[0].frame == 5


def test_another_label_read_on_a_known_object_is_a_glimpse():
    t = Tracker(S)
    step(t, [[D("G12", 0, 0)]] * 6 + [[D("G13", 3, 2, confidence=0.89)]])  # a card laid on it, not yet voted in
    assert [(g.label, g.frame, g.confidence) for g in t.glimpses] == [("G13", 6, 0.89)]


def test_with_rest_reid_mm_a_card_at_rest_is_not_dragged_along_by_a_card_sliding_over_it():
    # Crazy 9075: Bob's G12 (misread G14 under a hand) followed Fay's real G14 sliding over it to rest
    # 52 mm away; her card never appeared
    slide = [[D("G14", 10 * k, 0)] for k in range(6)] + [[D("G14", 52, 0)]] * 6
    t = Tracker(replace(S, rest_reid_mm=25))
    out = step(t, [[D("G14", 0, 0)]] * 6 + slide)
    assert [o for v in out.values() for o in v] == [("appeared", "G14"), ("appeared", "G14")]
    t = Tracker(S)  # without it an object may be carried off (a piece moved)
    out = step(t, [[D("G14", 0, 0)]] * 6 + slide)
    assert [o for v in out.values() for o in v] == [("appeared", "G14"), ("moved", "G14")]


def test_a_kind_may_have_a_floor_of_its_own():
    # a kind read down to a lower floor than the rest (fodbold: face-down cards)
    s = replace(S, min_confidence=0.5, kind_floors=(("red", 0.25),))
    t = Tracker(s, kind_of=colour)
    out = step(t, [[D("red-9", 100, 100, confidence=0.3), D("G7", 300, 100, confidence=0.3)]] * 10)
    assert out == {3: [("appeared", "red-9")]}    # the card at 0.3 stays under the 0.5 floor
    assert step(Tracker(s, kind_of=colour), [[D("red-9", 100, 100, confidence=0.2)]] * 10) == {}


def test_frames_must_come_in_order():
    t = Tracker(S)
    t.update(5, [])
    with pytest.raises(ValueError, match="in order"):
        t.update(5, [])


@pytest.mark.parametrize("kwargs,msg", [
    ({"confirm_frames": 0}, "confirm_frames"),
    ({"confirm_frames": 10, "hold_frames": 10}, "hold_frames must be larger"),
    ({"still_mm": 100}, "still_mm"),
    ({"reid_distance_mm": 10}, "reid_distance_mm"),
    ({"rest_reid_mm": 500}, "rest_reid_mm"),
    ({"relabel_share": 1.5}, "relabel_share"),
    ({"sighting_floor": 0.6}, "sighting_floor"),
    ({"kind_floors": (("piece-red", 1.0),)}, "kind_floors"),
    ({"kind_floors": ("piece-red",)}, "kind_floors"),
])
def test_settings_are_checked(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        TrackerSettings(**kwargs)


def test_a_card_played_beside_another_is_another_card_not_a_relabel():
    t = Tracker(S)
    frames = [[D("B8", -33, -13)]] * 6 + [[D("B8", -33, -13), D("B1", -2, -15)]] * 6
    out = step(t, frames)
    assert out == {3: [("appeared", "B8")], 9: [("appeared", "B1")]}


def test_a_card_that_vanishes_as_another_lands_beside_it_is_not_taken_over():
    t = Tracker(S)
    frames = [[D("B8", -33, -13)]] * 6 + [[D("B1", -2, -15)]] * 6
    out = step(t, frames)
    assert out[3] == [("appeared", "B8")] and ("appeared", "B1") in out[9]
    assert all(kind != "relabelled" for v in out.values() for kind, _ in v)


def test_a_card_sliding_over_another_on_its_way_does_not_take_it_over():
    t = Tracker(S)
    # B8 rests at (0, 0); B1 slides across it (covering it for two frames) and stops 40 mm further
    slide = [[D("B1", x, 0)] for x in (-40, -10)] + [[D("B1", x, 0)] for x in (8, 25)] + [[D("B8", 0, 0), D("B1", 40, 0)]] * 6
    out = step(t, [[D("B8", 0, 0)]] * 6 + slide)
    kinds = [k for v in out.values() for k in v]
    assert kinds == [("appeared", "B8"), ("appeared", "B1")]
    assert sorted(tr.label for tr in t.tracks if tr.confirmed) == ["B1", "B8"]


def test_a_relabel_needs_a_majority_of_the_last_reads_not_a_plurality():
    # votes G13, G14, G7 after G7 was reported: each read once, so no new label has won
    t = Tracker(S)
    out = step(t, [[D("G7", 0, 0)]] * 6 + [[D("G13", 0, 0)], [D("G14", 0, 0)], [D("G12", 0, 0)], [D("G1", 0, 0)],
                                           [D("G7", 0, 0)]] + [[D("G7", 0, 0)]] * 3)
    assert list(out.values()) == [[("appeared", "G7")]]


def test_relabel_share_one_needs_every_recent_read():
    frames = [[D("G10", 0, 0)]] * 6 + [[D("G13", 0, 0)]] + [[D("G14", 0, 0)]] * 4
    majority = step(Tracker(S), frames)  # G14 holds 3 of the last 5 reads after its third
    assert [v for k, v in majority.items() if k > 3] == [[("relabelled", "G14")]]
    every = Tracker(replace(S, relabel_share=1.0))
    assert [v for k, v in step(every, frames).items() if k > 3] == []  # only 4 of 5: the card stays a G10
    assert [v for k, v in step(every, [[D("G14", 0, 0)]]).items()] == [[("relabelled", "G14")]]  # the fifth


def test_a_moving_object_keeps_its_reported_label_until_the_new_one_is_agreed():
    t = Tracker(replace(S, relabel_share=1.0), kind_of=colour)
    frames = [[D("red-9", 100, 100)]] * 6 + [[D("red-9", 100 + 20 * i, 100)] for i in range(1, 5)]
    frames += [[D("red-6", 200, 100)]] * 5  # at rest after 4 reads there, 4 of the last 5: moved as a 9
    obs = []
    for dets in frames:
        obs += t.update(t.frame + 1, dets)
    assert [(o.kind, o.label) for o in obs] == [("appeared", "red-9"), ("moved", "red-9"), ("relabelled", "red-6")]


def test_what_vanished_is_reported_before_what_the_same_frame_shows():
    """A card gone from its pile for hold_frames, and in the same frame another relabelled: the adapter
    hears first that the card left (it may be the card the other one covers)."""
    t = Tracker(S)
    step(t, [[D("W42", 200, -300), D("W43", 0, 0)]] * 6)
    step(t, [[D("W43", 0, 0)]] * 7 + [[D("W50", 0, 0)]] * 2)   # W42 unseen since; W50 on the centre
    obs = t.update(t.frame + 1, [D("W50", 0, 0)])               # W42's 10th frame unseen, W50's 3rd vote
    assert [(o.kind, o.label) for o in obs] == [("vanished", "W42"), ("relabelled", "W50")]


def test_an_object_reports_since_when_it_was_first_read_where_it_lies():
    """A card glimpsed as it landed, then hidden by a hand, is reported only once it shows again: ``since``
    says it lay there from the glimpse (Crazy Kick 9247: a keeper read once, covered by the next card)."""
    t = Tracker(S)
    slide = [[D("R4", 100 - 30 * i, 100)] for i in range(3)]  # carried in, not yet where it lands
    frames = [[D("R4", 100, 100)]] * 6 + slide + [[D("R4", 12, 98)]] + [[]] * 5 + [[D("R4", 10, 100)]] * 6
    obs = []
    for dets in frames:
        obs += t.update(t.frame + 1, dets)
    assert [(o.kind, o.since) for o in obs] == [("appeared", 0), ("moved", 9)]  # frame 9: the glimpse
    assert obs[1].frame > 9 + 5
