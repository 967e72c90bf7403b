"""`referee dataset build` and `contact-sheet`: layout, labels against sidecars, determinism, errors."""
import json

import cv2
import numpy as np
import pytest
import yaml

from referee.cli import main
from referee.dataset import DatasetError, Recipe, build
from referee.render.faces import card_classes

SMALL = dict(width=320, height=240, styles=2)


def files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "rook"
    summary = build(Recipe(deck="rook", images=6, seed=3, val_fraction=0.34, **SMALL), out, progress=False)
    return out, summary


def test_layout_and_data_yaml(built):
    out, summary = built
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert data["path"] == str(out.resolve())
    assert data["nc"] == 57 and list(data["names"].values()) == card_classes("rook") + ["back"]
    train = sorted((out / data["train"]).glob("*.jpg"))
    val = sorted((out / data["val"]).glob("*.jpg"))
    assert len(train) + len(val) == 6 and len(val) == summary["val"] == 2
    for img in train + val:
        split = img.parent.name
        assert (out / "labels" / split / f"{img.stem}.txt").exists()
        assert (out / "meta" / split / f"{img.stem}.json").exists()
        assert cv2.imread(str(img)).shape == (240, 320, 3)


def test_labels_are_the_sidecars_labelled_cards(built):
    out, _ = built
    total = 0
    for meta_path in sorted((out / "meta").glob("*/*.json")):
        meta = json.loads(meta_path.read_text())
        rows = [line.split() for line in (out / "labels" / meta_path.parent.name / f"{meta_path.stem}.txt").read_text().splitlines()]
        labelled = [o for o in meta["objects"] if o["kind"] == "card" and o["labelled"]]
        assert len(rows) == len(labelled)
        for row, obj in zip(rows, labelled):
            c, cx, cy, w, h = int(row[0]), *map(float, row[1:])
            assert c == obj["class_id"]
            assert obj["class"] == (obj["code"] if obj["face_up"] else "back")
            assert 0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1
            x0, y0, x1, y1 = obj["bbox"]
            assert abs(cx * 320 - (x0 + x1) / 2) < 0.01 and abs(w * 320 - (x1 - x0)) < 0.01
            assert obj["visible_fraction"] >= 0.25
            assert len(obj["corners"]) == 4
            # the visible box lies within the card's corner points (give or take a pixel)
            cs = np.array(obj["corners"])
            assert x0 >= cs[:, 0].min() - 1.5 and x1 <= cs[:, 0].max() + 1.5
            total += 1
        for obj in meta["objects"]:
            if obj["kind"] == "card" and not obj["labelled"] and obj["bbox"]:
                bw, bh = obj["bbox"][2] - obj["bbox"][0], obj["bbox"][3] - obj["bbox"][1]
                assert obj["visible_fraction"] < 0.25 or min(bw, bh) < 6
    assert total > 10


def test_same_seed_same_bytes_other_seed_other_images(built, tmp_path):
    out, _ = built
    again = tmp_path / "again"
    build(Recipe(deck="rook", images=6, seed=3, val_fraction=0.34, **SMALL), again, progress=False)
    a, b = files(out), files(again)
    a.pop("data.yaml"), b.pop("data.yaml")  # holds the absolute path
    assert a == b
    other = tmp_path / "other"
    build(Recipe(deck="rook", images=2, seed=4, val_fraction=0.34, **SMALL), other, progress=False)
    assert files(other)["images/train/000000.jpg"] != a["images/train/000000.jpg"]


def test_an_interrupted_build_goes_on_where_it_stopped(built, tmp_path):
    out, summary = built
    part = tmp_path / "part"
    build(Recipe(deck="rook", images=6, seed=3, val_fraction=0.34, **SMALL), part, progress=False)
    # as if killed after four images: no data.yaml yet, the last two examples missing
    (part / "data.yaml").unlink()
    for stem in ("000004", "000005"):
        for f in part.glob(f"*/*/{stem}.*"):
            f.unlink()
    kept = (part / "images" / "train" / "000000.jpg").stat().st_mtime_ns
    again = build(Recipe(deck="rook", images=6, seed=3, val_fraction=0.34, **SMALL), part, progress=False)
    assert (part / "images" / "train" / "000000.jpg").stat().st_mtime_ns == kept   # not drawn again
    a, b = files(out), files(part)
    a.pop("data.yaml"), b.pop("data.yaml")
    assert a == b and again["labels"] == summary["labels"]


def test_style_seed_changes_only_the_card_designs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    build(Recipe(deck="standard", images=1, seed=1, val_fraction=0, **SMALL), a, progress=False)
    build(Recipe(deck="standard", images=1, seed=1, val_fraction=0, style_seed=99, **SMALL), b, progress=False)
    ma = json.loads((a / "meta/train/000000.json").read_text())
    mb = json.loads((b / "meta/train/000000.json").read_text())
    corners = [[o["corners"] for o in m["objects"] if o["kind"] == "card"] for m in (ma, mb)]
    assert corners[0] == corners[1]
    assert (a / "images/train/000000.jpg").read_bytes() != (b / "images/train/000000.jpg").read_bytes()


def test_clutter_changes_the_surface_and_adds_paper_but_not_the_cards(tmp_path):
    from referee.render.clutter import BUSY_KINDS, CLUTTER_KINDS

    a, b = tmp_path / "a", tmp_path / "b"
    build(Recipe(deck="standard", images=2, seed=1, val_fraction=0, view="table", **SMALL), a, progress=False)
    build(Recipe(deck="standard", images=2, seed=1, val_fraction=0, view="table", clutter=1.0, **SMALL), b,
          progress=False)
    for i in ("000000", "000001"):
        ma, mb = (json.loads((d / f"meta/train/{i}.json").read_text()) for d in (a, b))
        assert [o["corners"] for o in ma["objects"] if o["kind"] == "card"] == \
               [o["corners"] for o in mb["objects"] if o["kind"] == "card"]
        assert ma["table"]["kind"] not in BUSY_KINDS and mb["table"]["kind"] in BUSY_KINDS
        assert {p["kind"] for p in mb["scene"]["props"]} & set(CLUTTER_KINDS)
        assert not {p["kind"] for p in ma["scene"]["props"]} & set(CLUTTER_KINDS)
    # a share of 0 draws exactly what a recipe without clutter drew before the option existed
    c = tmp_path / "c"
    build(Recipe(deck="standard", images=2, seed=1, val_fraction=0, view="table", clutter=0.0, **SMALL), c,
          progress=False)
    pictures = [{k: v for k, v in files(d).items() if k.startswith(("images/", "labels/"))} for d in (a, c)]
    assert pictures[0] and pictures[0] == pictures[1]
    with pytest.raises(DatasetError, match="--clutter must be in"):
        Recipe(clutter=1.2).check()


def test_every_busy_surface_is_drawn_the_same_from_the_same_seed():
    from referee.render.clutter import BUSY_KINDS, busy_texture

    for kind in BUSY_KINDS:
        one, info = busy_texture(np.random.default_rng(3), kind, size=256)
        two, _ = busy_texture(np.random.default_rng(3), kind, size=256)
        assert one.shape == (256, 256, 3) and one.dtype == np.uint8 and info["kind"] == kind
        assert np.array_equal(one, two) and one.std() > 5  # a pattern, not a flat colour
    with pytest.raises(ValueError, match="unknown busy surface 'lava'"):
        busy_texture(np.random.default_rng(0), "lava")


def test_single_class_mode(tmp_path):
    build(Recipe(deck="standard", images=2, seed=0, classes="card", val_fraction=0, **SMALL), tmp_path / "c", progress=False)
    data = yaml.safe_load((tmp_path / "c/data.yaml").read_text())
    assert data["names"] == {0: "card"} and data["val"] == "images/train"
    rows = [line for p in (tmp_path / "c/labels/train").glob("*.txt") for line in p.read_text().splitlines()]
    assert rows and all(r.startswith("0 ") for r in rows)


def test_cli_build_and_contact_sheet(tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["dataset", "build", "--game", "crazy", "--deck", "standard", "--images", "3", "--seed", "2",
                 "--out", str(out), "--width", "320", "--height", "240", "--styles", "1", "--quiet"]) == 0
    assert "wrote 3 training and 0 validation images" in capsys.readouterr().out
    assert main(["dataset", "contact-sheet", str(out), "--out", str(tmp_path / "sheet.png"), "--tile", "100"]) == 0
    sheet = cv2.imread(str(tmp_path / "sheet.png"))
    assert sheet.shape == (4 * 75, 4 * 100, 3)
    # three images on a 4x4 sheet: the rest of it stays the dark background
    assert sheet[:75, :300].std() > 10 and (sheet[75:, :] == 40).all()


def test_cli_refuses_bad_input(tmp_path, capsys):
    assert main(["dataset", "build", "--images", "0", "--out", str(tmp_path / "x")]) == 2
    assert "--images must be at least 1" in capsys.readouterr().err
    out = tmp_path / "y"
    assert main(["dataset", "build", "--images", "1", "--out", str(out), "--quiet", "--width", "128", "--height", "96"]) == 0
    assert main(["dataset", "build", "--images", "1", "--out", str(out), "--quiet"]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert main(["dataset", "contact-sheet", str(tmp_path / "nothing"), "--out", str(tmp_path / "s.png")]) == 2
    assert "no data.yaml" in capsys.readouterr().err
    with pytest.raises(DatasetError, match="unknown deck"):
        Recipe(deck="tarot").check()


def test_faces_command_writes_every_card(tmp_path):
    out = tmp_path / "faces.png"
    assert main(["dataset", "faces", "--deck", "rook", "--styles", "2", "--width", "40", "--out", str(out)]) == 0
    img = cv2.imread(str(out))
    assert img is not None and img.shape[0] > img.shape[1] / 4


def test_worker_processes_give_the_same_dataset(tmp_path):
    r = Recipe(deck="rook", images=8, seed=5, **SMALL)
    build(r, tmp_path / "one", progress=False)
    build(r, tmp_path / "two", progress=False, workers=2)
    a, b = files(tmp_path / "one"), files(tmp_path / "two")
    a.pop("data.yaml"), b.pop("data.yaml")
    assert a == b


def test_crazy_kick_dataset_names_the_catalogue_cards(tmp_path, capsys):
    from referee.render.crazy_kick_faces import card_classes as kick_ids

    out = tmp_path / "kick"
    assert main(["dataset", "build", "--game", "crazy-kick", "--images", "3", "--seed", "1", "--out", str(out),
                 "--width", "320", "--height", "240", "--styles", "1", "--quiet"]) == 0
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert list(data["names"].values()) == kick_ids() + ["back"]
    metas = [json.loads(p.read_text()) for p in sorted((out / "meta").glob("*/*.json"))]
    cards = [o for m in metas for o in m["objects"] if o["kind"] == "card"]
    assert {o["group"] for o in cards} >= {"centre-pile"}
    assert all(o["class"] in kick_ids() or (o["class"] == "back" and not o["face_up"]) for o in cards)
    assert main(["dataset", "build", "--game", "crazy-kick", "--deck", "rook", "--images", "1", "--out", str(tmp_path / "k2")]) == 2
    assert "its own cards" in capsys.readouterr().err


@pytest.mark.slow
def test_ultralytics_trains_on_the_data_yaml_directly(tmp_path):
    from ultralytics import YOLO

    build(Recipe(deck="rook", images=8, seed=0, val_fraction=0.25, **SMALL), tmp_path / "ds", progress=False)
    model = YOLO("yolo11n.yaml")  # from the yaml: nothing is downloaded
    result = model.train(data=str(tmp_path / "ds/data.yaml"), epochs=1, imgsz=128, batch=4, workers=0, device="cpu",
                         project=str(tmp_path / "runs"), name="t", plots=False, verbose=False, amp=False)
    assert result is not None and (tmp_path / "runs/t/weights/last.pt").exists()
