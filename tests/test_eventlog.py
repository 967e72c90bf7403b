import json

from referee.eventlog import JsonlWriter, read_jsonl_tolerant


def test_lines_are_on_disk_as_soon_as_written(tmp_path):
    path = tmp_path / "events.jsonl"
    w = JsonlWriter(path)
    w.write({"type": "card_played", "player": "Bob"})
    # read back while the writer is still open, as a crash would leave it
    assert json.loads(path.read_text().splitlines()[0])["player"] == "Bob"
    w.close()


def test_a_cut_last_line_is_reported_and_appending_goes_on_cleanly(tmp_path):
    path = tmp_path / "events.jsonl"
    with JsonlWriter(path) as w:
        w.write({"n": 1})
        w.write({"n": 2})
    with open(path, "a") as f:
        f.write('{"n": 3, "pla')  # the process died mid-line
    records, bad = read_jsonl_tolerant(path)
    assert [r["n"] for r in records] == [1, 2] and bad == [3]
    with JsonlWriter(path) as w:  # resume
        w.write({"n": 4})
    records, bad = read_jsonl_tolerant(path)
    assert [r["n"] for r in records] == [1, 2, 4] and bad == [3]
