"""`referee train` end to end on a handful of rendered table views at a tiny size: both stages train one
epoch, the weights are shipped with ONNX files and model cards, and the two backends of the recognizer
built from them agree. Also the training-set adapters (oriented boxes, upright crops) on their own."""
import json

import numpy as np
import pytest

from referee.cli import main

pytest.importorskip("ultralytics")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("train")
    argv = ["train", "--game", "crazy", "--deck", "rook", "--images", "6", "--seed", "5", "--epochs", "1",
            "--imgsz", "64", "--batch", "4", "--cls-epochs", "1", "--cls-imgsz", "32", "--cls-batch", "16",
            "--copies", "1", "--face-styles", "2", "--face-copies", "1", "--workers", "0", "--datasets", str(root / "datasets"), "--runs", str(root / "runs"),
            "--out", str(root / "models")]
    assert main(argv) == 0
    return root


def test_train_ships_both_stages_with_model_cards(trained):
    models = trained / "models"
    for name in ("crazy-card", "crazy-rook-cls"):
        assert (models / f"{name}.pt").stat().st_size < 15e6
        assert (models / f"{name}.onnx").is_file()
        card = (models / f"{name}.md").read_text()
        assert "- command: `referee train --game crazy --deck rook --stage all --images 6 --seed 5 --epochs 1" in card
        assert "1 epochs" in card and "seed 5" in card and "## Classes" in card
    assert "B14" in (models / "crazy-rook-cls.md").read_text() and "val_top1" in (models / "crazy-rook-cls.md").read_text()
    assert "own val split: same seed and card designs" in (models / "crazy-rook-cls.md").read_text()
    assert "| mAP50(B) |" in (models / "crazy-card.md").read_text()
    # the rendered scenes and the adapted sets stay under --datasets, the runs under --runs
    assert (trained / "datasets" / "crazy-rook-table-s5-n6" / "data.yaml").is_file()
    assert (trained / "runs" / "crazy-card" / "weights" / "last.pt").is_file()


def test_both_backends_of_the_trained_recognizer_agree(trained):
    import cv2

    from referee.recognize import CardRecognizer

    models = trained / "models"
    image = cv2.imread(str(sorted((trained / "datasets" / "crazy-rook-table-s5-n6" / "images").glob("*/*.jpg"))[0]))
    kw = dict(detector=models / "crazy-card.pt", classifier=models / "crazy-rook-cls.pt", conf=0.0)
    onnx, torch_ = CardRecognizer(backend="onnx", **kw), CardRecognizer(backend="torch", **kw)
    assert onnx.classifier.imgsz == 32 and onnx.detector.imgsz == 64
    tensor = np.random.default_rng(0).random((1, 3, 64, 64), dtype=np.float32)
    assert np.abs(onnx.detector.raw(tensor) - torch_.detector.raw(tensor)).max() < 1e-3
    crops = [np.random.default_rng(k).integers(0, 255, (32, 32, 3), dtype=np.uint8) for k in range(3)]
    np.testing.assert_allclose(onnx.classifier.probabilities(crops), torch_.classifier.probabilities(crops),
                               atol=1e-4)
    a, b = onnx.recognize(image), torch_.recognize(image)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x.corners, y.corners, atol=0.5)
    assert all(c.label in onnx.classifier.names for c in a)


def test_resume_without_a_run_is_a_clear_error(tmp_path, capsys):
    argv = ["train", "--game", "crazy", "--deck", "rook", "--stage", "detect", "--images", "2", "--resume",
            "--datasets", str(tmp_path / "d"), "--runs", str(tmp_path / "r"), "--out", str(tmp_path / "m")]
    assert main(argv) == 2
    assert "nothing to resume" in capsys.readouterr().err


def test_an_unknown_classifier_of_a_game_is_refused(capsys):
    assert main(["train", "--game", "fodbold", "--deck", "rook"]) == 2
    assert "fodbold has no classifier 'rook'; expected card, piece" in capsys.readouterr().err


@pytest.fixture(scope="module")
def fodbold_trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("train-fodbold")
    argv = ["train", "--game", "fodbold", "--images", "4", "--seed", "5", "--epochs", "1", "--imgsz", "64",
            "--batch", "4", "--cls-epochs", "1", "--cls-imgsz", "32", "--cls-batch", "16", "--copies", "1",
            "--face-styles", "1", "--face-copies", "1", "--workers", "0", "--datasets", str(root / "datasets"),
            "--runs", str(root / "runs"), "--out", str(root / "models")]
    assert main(argv) == 0
    return root


def test_fodbold_trains_a_three_kind_detector_and_a_classifier_per_kind(fodbold_trained):
    import cv2

    from referee.recognize import CardRecognizer

    models = fodbold_trained / "models"
    for name in ("fodbold-objects", "fodbold-card-cls", "fodbold-piece-cls"):
        assert (models / f"{name}.onnx").is_file() and (models / f"{name}.md").is_file()
    assert "card, piece, ball" in (models / "fodbold-objects.md").read_text()
    piece_card = (models / "fodbold-piece-cls.md").read_text()
    assert "red-1" in piece_card and "blue-11" in piece_card and "R01" not in piece_card.split("## Classes")[1]
    labels = [line.split()[0] for f in (fodbold_trained / "datasets").glob("fodbold-objects-obb-*/labels/*/*.txt")
              for line in f.read_text().splitlines()]
    assert {"0", "1", "2"} <= set(labels)       # cards, pieces and the ball are all labelled
    image = cv2.imread(str(sorted((fodbold_trained / "datasets").glob("fodbold-table-*/images/*/*.jpg"))[0]))
    kw = dict(models=models, conf=0.0)
    rec = CardRecognizer("fodbold", backend="onnx", **kw)
    assert set(rec.stage2) == {"card", "piece"} and rec.detector.names == ("card", "piece", "ball")
    # the detector export takes other input sizes (a larger view of the table)
    assert CardRecognizer("fodbold", backend="onnx", imgsz=96, **kw).detector.imgsz == 96
    found = rec.recognize(image)
    names = {"card": set(rec.stage2["card"].names), "piece": set(rec.stage2["piece"].names), "ball": {"ball"}}
    assert found and all(c.label in names[c.kind] for c in found)


def test_piece_crops_are_square_cutouts_around_each_piece(tmp_path):
    from referee.cardsets import make_crop_set
    from referee.dataset import Recipe, build
    from referee.train import classifier_classes

    src = tmp_path / "scenes"
    build(Recipe(game="fodbold", deck="fodbold", images=4, seed=3, width=480, height=480, view="table",
                 val_fraction=0.5), src, progress=False)
    classes = classifier_classes("fodbold", "piece")
    counts = make_crop_set(src, tmp_path / "crops", classes, size=32, copies=2, seed=0, kind="piece")
    pieces = sum(1 for m in (src / "meta" / "train").glob("*.json") for o in json.loads(m.read_text())["objects"]
                 if o["kind"] == "piece" and o["labelled"] and o["visible_fraction"] >= 0.4)
    assert counts["train"] == 2 * pieces > 0
    assert {d.name for d in (tmp_path / "crops" / "train").iterdir()} == set(classes)


def test_obb_labels_and_crops_come_from_the_sidecar_corners(tmp_path):
    import cv2

    from referee.cardsets import make_crop_set, make_obb_set
    from referee.dataset import Recipe, build

    src = tmp_path / "scenes"
    build(Recipe(deck="standard", images=4, seed=3, width=320, height=320, view="table", val_fraction=0.5), src,
          progress=False)
    data = make_obb_set([src], tmp_path / "obb")
    labels = sorted((tmp_path / "obb" / "labels").glob("*/*.txt"))
    assert data.is_file() and len(labels) == 4
    n_labelled = sum(sum(o.get("labelled", False) for o in json.loads(m.read_text())["objects"])
                     for m in (src / "meta").glob("*/*.json"))
    rows = [line.split() for f in labels for line in f.read_text().splitlines()]
    assert 0 < len(rows) <= n_labelled
    values = np.array([[float(v) for v in r[1:]] for r in rows])
    assert values.shape[1] == 8 and values.min() >= 0 and values.max() <= 1
    counts = make_crop_set(src, tmp_path / "crops", classes=_standard_classes(), size=48, copies=2, seed=0)
    assert counts["train"] > 0 and counts["train"] % 2 == 0
    crop = cv2.imread(str(next((tmp_path / "crops" / "train").glob("*/*.png"))))
    assert crop.shape == (48, 48, 3) and crop.std() > 5   # a card, not an empty square


def _standard_classes():
    from referee.render.faces import BACK, card_classes

    return card_classes("standard") + [BACK]


def test_face_crops_are_the_same_from_any_number_of_workers(tmp_path):
    from referee.cardsets import add_face_crops

    classes = ["R1", "Y7", "B14"]
    one = add_face_crops("rook", tmp_path / "one", classes, 32, styles=3, per_card=2, seed=4, workers=1)
    two = add_face_crops("rook", tmp_path / "two", classes, 32, styles=3, per_card=2, seed=4, workers=2)
    assert one == two == 3 * 3 * 2
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.png"))
    assert files == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*.png"))
    for f in files:
        assert (tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes(), f


def _crop_folder(root, n=8, size=32):
    import cv2

    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        for c, colour in (("a", 40), ("b", 200)):
            (root / split / c).mkdir(parents=True)
            for k in range(n):
                img = np.clip(rng.normal(colour, 20, (size, size, 3)), 0, 255).astype(np.uint8)
                cv2.imwrite(str(root / split / c / f"{k}.png"), img)
    return root


def test_the_classifier_stops_after_the_epoch_that_passes_its_time_limit(tmp_path):
    from referee import cardnet

    data = _crop_folder(tmp_path / "crops")
    best, metrics, _ = cardnet.train(data, tmp_path / "run", epochs=3, imgsz=32, batch=8, seed=1, log=lambda m: None,
                                     hours=1e-9)
    assert metrics["epochs_run"] == 1 and best.is_file()
    assert len(json.loads((tmp_path / "run" / "results.json").read_text())) == 1
    _, metrics, _ = cardnet.train(data, tmp_path / "run2", epochs=2, imgsz=32, batch=8, seed=1, log=lambda m: None)
    assert metrics["epochs_run"] == 2


def test_a_classifier_at_another_crop_size_starts_from_the_convolutions_of_a_smaller_one(tmp_path):
    import torch

    from referee import cardnet

    small, _, _ = cardnet.train(_crop_folder(tmp_path / "c32"), tmp_path / "r32", epochs=1, imgsz=32, batch=8,
                                seed=1, log=lambda m: None, width=8)
    said = []
    big, _, _ = cardnet.train(_crop_folder(tmp_path / "c48", size=48), tmp_path / "r48", epochs=1, imgsz=48, batch=8,
                              seed=1, log=said.append, init=small, lr=1e-12)
    a, b = (torch.load(p, weights_only=False) for p in (small, big))
    assert b["imgsz"] == 48 and b["width"] == 8
    # the first convolution is carried over (a learning rate of 1e-12 leaves it as it was) ...
    assert torch.allclose(a["state_dict"]["0.0.weight"], b["state_dict"]["0.0.weight"], atol=1e-6)
    # ... the first dense layer, whose input grows with the crop, starts afresh
    assert a["state_dict"]["8.weight"].shape != b["state_dict"]["8.weight"].shape
    assert any("trained at 32 px" in m and "8.weight start afresh" in m for m in said)
    (tmp_path / "c3" / "train" / "c").mkdir(parents=True)  # a third class: not the same classifier
    _crop_folder(tmp_path / "c3")
    with pytest.raises(ValueError, match="not a CardNet of these 3 classes"):
        cardnet.train(tmp_path / "c3", tmp_path / "r3", epochs=1, imgsz=32, batch=8, seed=1, log=lambda m: None,
                      init=small)


def test_clutter_outside_zero_to_one_is_refused(capsys):
    assert main(["train", "--game", "crazy", "--clutter", "1.5"]) == 2
    assert "--clutter is a share of the table views, from 0 to 1, not 1.5" in capsys.readouterr().err


def test_fewer_than_one_design_is_refused(capsys):
    assert main(["train", "--game", "fodbold", "--styles", "0"]) == 2
    assert "--styles must be 1 or more, not 0" in capsys.readouterr().err


def test_more_designs_draw_the_views_in_them_under_a_folder_of_their_own(tmp_path):
    from referee.train import ensure_scenes

    def styles_used(folder):
        return {json.loads(p.read_text())["scene"]["info"]["style"] for p in folder.glob("meta/*/*.json")}

    plain, recipe = ensure_scenes("fodbold", "fodbold", 12, 3, root=tmp_path, val=0.0)
    many, many_recipe = ensure_scenes("fodbold", "fodbold", 12, 3, root=tmp_path, val=0.0, styles=40)
    # the default keeps the folder name of the datasets built before the option existed
    assert plain.name == "fodbold-table-s3-n12" and "styles" not in recipe
    assert many.name == "fodbold-table-s3-sty40-n12" and many_recipe["styles"] == 40
    assert json.loads((many / "recipe.json").read_text())["styles"] == 40
    assert max(styles_used(plain)) < 6 and max(styles_used(many)) >= 6


def test_a_gpu_that_is_not_there_is_a_clear_error():
    import torch

    from referee import cardnet

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(ValueError, match="no CUDA GPU"):
        cardnet.torch_device("cuda")
    assert str(cardnet.torch_device("cpu")) == "cpu"


@pytest.mark.parametrize("hours", ["0", "-1", "soon"])
def test_a_time_limit_must_be_a_positive_number(hours, capsys):
    with pytest.raises(SystemExit):
        main(["train", "--game", "crazy", "--hours", hours])
    assert "--hours" in capsys.readouterr().err


def test_an_int8_copy_of_the_detector_keeps_its_metadata_and_is_the_auto_backend(trained, tmp_path):
    import shutil

    import cv2

    from referee.quantize import QuantizeError, quantize_detector
    from referee.recognize import CardRecognizer, int8_path

    models = tmp_path / "models"
    shutil.copytree(trained / "models", models)
    views = [cv2.imread(str(p)) for p in sorted((trained / "datasets" / "crazy-rook-table-s5-n6" / "images").glob("*/*.jpg"))]
    with pytest.raises(QuantizeError, match="no calibration views"):
        quantize_detector(models / "crazy-card.onnx", int8_path(models / "crazy-card.pt"), [], 64)
    out = quantize_detector(models / "crazy-card.onnx", int8_path(models / "crazy-card.pt"), views, 64)
    assert out == models / "crazy-card.int8.onnx" and not list(models.glob("*.pre.onnx"))
    kw = dict(detector=models / "crazy-card.pt", classifier=models / "crazy-rook-cls.pt", conf=0.0)
    auto, flt = CardRecognizer(backend="auto", **kw), CardRecognizer(backend="onnx", **kw)
    assert auto.detector.backend == "int8" and flt.detector.backend == "onnx"
    assert auto.classifier.backend == "onnx"  # no INT8 classifier: the float one
    assert auto.detector.names == flt.detector.names and auto.detector.imgsz == flt.detector.imgsz == 64
    tensor = cv2.resize(views[0], (64, 64))[None, :, :, ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255
    a, b = auto.detector.raw(np.ascontiguousarray(tensor)), flt.detector.raw(np.ascontiguousarray(tensor))
    assert a.shape == b.shape
    # boxes (pixels of a 64 px input) within a few pixels on average: quantised, not broken
    assert np.abs(a[0, :4] - b[0, :4]).mean() < 4


def _video_with_cards(folder, frames=12):
    """A tiny video.mp4 and frames.jsonl as `referee simulate` writes them: a red card (R5) lying still,
    fully in view; a blue one (B9) a quarter in view; a back in a hand."""
    import cv2

    folder.mkdir(parents=True)
    red = [[40, 30], [76, 30], [76, 80], [40, 80]]
    blue = [[120, 30], [156, 30], [156, 80], [120, 80]]
    back = [[200, 30], [236, 30], [236, 80], [200, 80]]
    writer = cv2.VideoWriter(str(folder / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 30, (320, 128))
    rows = []
    for i in range(frames):
        img = np.full((128, 320, 3), 90, np.uint8)
        for quad, colour in ((red, (30, 30, 220)), (blue, (220, 40, 40)), (back, (30, 200, 30))):
            cv2.fillConvexPoly(img, np.array(quad, np.int32), colour)
        writer.write(img)
        rows.append({"frame": i, "t": i / 30, "cards": [
            {"class": "R5", "corners": red, "visible_fraction": 1.0},
            {"class": "B9", "corners": blue, "visible_fraction": 0.25},
            {"class": "back", "corners": back, "visible_fraction": 1.0}]})
    writer.release()
    (folder / "frames.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def test_video_crops_are_the_cards_of_a_simulated_game_through_their_true_corners(tmp_path):
    import cv2

    from referee.cardsets import add_video_crops

    video = _video_with_cards(tmp_path / "seed-1")
    n = add_video_crops([video], tmp_path / "crops", ["R5", "B9", "back"], 32, seed=0, every=4, backs=0.0)
    red = sorted((tmp_path / "crops" / "train" / "R5").glob("*.png"))
    # frames 0, 4 and 8; the blue card is too little in view, the backs are all left out here
    assert n == len(red) == 3
    assert not (tmp_path / "crops" / "train" / "B9").exists() and not (tmp_path / "crops" / "train" / "back").exists()
    crop = cv2.imread(str(red[0])).reshape(-1, 3).mean(axis=0)
    assert crop[2] > 150 and crop[0] < 90          # the red card fills the crop (BGR), not the grey table
    assert add_video_crops([video], tmp_path / "all", ["R5", "back"], 32, every=4, backs=1.0) == 6
    with pytest.raises(FileNotFoundError, match="referee simulate"):
        add_video_crops([tmp_path / "nothing"], tmp_path / "x", ["R5"], 32)


def test_low_resolution_face_crops_are_blurred_as_a_distant_camera_sees_a_card(tmp_path):
    import cv2

    from referee.cardsets import add_face_crops

    def sharpness(folder):
        crops = [cv2.imread(str(f), cv2.IMREAD_GRAYSCALE) for f in sorted(folder.rglob("*.png"))]
        return float(np.mean([cv2.Laplacian(c, cv2.CV_64F).var() for c in crops]))

    classes = ["R1", "Y7", "B14", "G10"]
    assert add_face_crops("rook", tmp_path / "near", classes, 64, styles=3, per_card=3, seed=2) == 36
    assert add_face_crops("rook", tmp_path / "far", classes, 64, styles=3, per_card=3, seed=2, lowres=1.0) == 36
    assert sharpness(tmp_path / "far") < 0.6 * sharpness(tmp_path / "near")


@pytest.mark.parametrize("flag, value", [("--face-lowres", "1.5"), ("--videos", "-2")])
def test_video_and_low_resolution_options_are_checked(flag, value, capsys):
    assert main(["train", "--game", "crazy", "--deck", "rook", "--stage", "classify", flag, value]) == 2
    assert flag in capsys.readouterr().err


def test_the_last_eighth_of_the_videos_validates_on_designs_not_trained_on(tmp_path):
    from referee.cardsets import add_video_set

    videos = [_video_with_cards(tmp_path / f"seed-{k}", frames=4) for k in range(9)]
    train, val, held = add_video_set(videos, tmp_path / "crops", ["R5", "B9"], 32, seed=1)
    assert held == 1 and val == 2 and train == 8 * 2     # frames 0 and 2 of each video, the red card only
    assert {p.name.split("_")[1] for p in (tmp_path / "crops" / "val" / "R5").glob("*.png")} == {"seed-8"}
    assert "seed-8" not in {p.name.split("_")[1] for p in (tmp_path / "crops" / "train" / "R5").glob("*.png")}


def test_the_last_epoch_can_be_shipped_without_its_optimizer(tmp_path):
    import torch

    from referee import cardnet

    data = _crop_folder(tmp_path / "crops")
    best, _, _ = cardnet.train(data, tmp_path / "run", epochs=2, imgsz=32, batch=8, seed=1, log=lambda m: None)
    shipped = cardnet.strip_checkpoint(best.parent / "last.pt", tmp_path / "x-cls.pt")
    saved, last = torch.load(shipped, weights_only=False), torch.load(best.parent / "last.pt", weights_only=False)
    assert "optimizer" not in saved and saved["epoch"] == 2
    assert all(torch.equal(saved["state_dict"][k], v) for k, v in last["state_dict"].items())
    net, names, imgsz = cardnet.load(shipped)
    assert names == ("a", "b") and imgsz == 32
    with pytest.raises(ValueError, match="not a CardNet checkpoint"):
        cardnet.strip_checkpoint(_not_cardnet(tmp_path), tmp_path / "y.pt")


def _not_cardnet(tmp_path):
    import torch

    torch.save({"weights": 1}, tmp_path / "other.pt")
    return tmp_path / "other.pt"


def test_train_with_videos_adds_their_cards_and_says_so_on_the_card(tmp_path, capsys):
    import shutil

    videos = tmp_path / "datasets" / "crazy-rook-videos"
    for seed in range(5001, 5009):   # already made: nothing is simulated
        _video_with_cards(videos / f"seed-{seed}", frames=4)
    argv = ["train", "--game", "crazy", "--deck", "rook", "--stage", "classify", "--images", "4", "--seed", "5",
            "--cls-epochs", "1", "--cls-imgsz", "32", "--cls-batch", "16", "--copies", "1", "--face-styles", "1",
            "--face-copies", "1", "--videos", "8", "--workers", "0", "--datasets", str(tmp_path / "datasets"),
            "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "models")]
    assert main(argv) == 0
    card = (tmp_path / "models" / "crazy-rook-cls.md").read_text()
    crops = next((tmp_path / "datasets").glob("crazy-rook-cls-crops32-*-v8"))
    # the red card of frames 0 and 2 of the first 7 videos, and the backs kept (a tenth, at random)
    assert len(list((crops / "train" / "R5").glob("vid_*.png"))) == 14
    found = len(list((crops / "train").glob("*/vid_*.png")))
    assert f"plus {found} crops of the cards of 8 simulated 1280x720 game videos (seeds 5001-5008, one frame in 2" in card
    assert "the 2 crops of the last 1 videos" in card and "--videos 8" in card
    assert "its video cards are of games and designs not trained on" in card  # its val split is not all seen designs
    # a crop set already made is reused: its videos are not needed (nor made) again
    shutil.rmtree(videos)
    capsys.readouterr()
    assert main(argv) == 0
    assert "simulating" not in capsys.readouterr().err and not videos.exists()
