"""CardNet: the small CNN of stage 2, which names a card from its upright crop.

Why not YOLO11n-cls: on the same 64 px crops it learnt the Rook colours (98 %) but not the numbers (33 %
top-1 after 4 epochs, flat from the third; measured 2026-11-30, see models/README.md). Its head pools the
2 x 2 final map globally, so *where* a glyph is (the big number in the centre, the index in a corner) is
lost. CardNet keeps the layout: six 3x3 conv layers down to a 4 x 4 map, flattened, two dense layers.
At width 16 (the default): about 0.25 M parameters, 16 MFLOPs a 64 px crop, 1 MB.

Files: NAME.pt is ``torch.save`` of a dict (``cardnet`` format version, class ``names``, ``imgsz``,
``state_dict``, ``epoch``, ``metrics``, and while training ``optimizer``); NAME.onnx is the same network
with softmax, dynamic batch, and ``names``, ``imgsz``, ``task=classify`` in its metadata.
"""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

FORMAT = 1
# what a checkpoint (weights/last.pt) holds beside the network, to resume; a shipped file leaves it out
TRAINING_STATE = ("optimizer", "scheduler", "best_acc", "history")


def build(nc: int, imgsz: int = 64, width: int = 16):
    import torch.nn as nn

    def block(cin, cout, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    if imgsz % 16:
        raise ValueError(f"CardNet needs a crop size divisible by 16, not {imgsz}")
    side, w = imgsz // 16, width
    return nn.Sequential(
        block(3, w, 2), block(w, 2 * w, 2), block(2 * w, 2 * w, 1), block(2 * w, 4 * w, 2), block(4 * w, 4 * w, 1),
        block(4 * w, 4 * w, 2), nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * w * side * side, 8 * w),
        nn.ReLU(inplace=True), nn.Dropout(0.2), nn.Linear(8 * w, nc))


def load(path: str | Path):
    """(network in eval mode returning probabilities, names, imgsz) from a CardNet .pt."""
    import torch

    ckpt = torch.load(str(path), map_location="cpu", weights_only=False)
    if not isinstance(ckpt, dict) or ckpt.get("cardnet") != FORMAT:
        raise ValueError(f"{path}: not a CardNet file")
    net = build(len(ckpt["names"]), ckpt["imgsz"], ckpt.get("width", 32))
    net.load_state_dict(ckpt["state_dict"])
    return _WithSoftmax(net).eval(), tuple(ckpt["names"]), int(ckpt["imgsz"])


def is_cardnet(path: str | Path) -> bool:
    import torch

    try:
        ckpt = torch.load(str(path), map_location="cpu", weights_only=False)
    except Exception:
        return False
    return isinstance(ckpt, dict) and ckpt.get("cardnet") == FORMAT


def _WithSoftmax(net):
    import torch.nn as nn

    class WithSoftmax(nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.net = inner

        def forward(self, x):
            return self.net(x).softmax(1)

    return WithSoftmax(net)


def read_crops(folder: Path, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """All crops of one split (folder/CLASS/*.png) as uint8 (N, S, S, 3) BGR and class ids."""
    import cv2

    images, labels = [], []
    for i, name in enumerate(names):
        for f in sorted((folder / name).glob("*.png")):
            images.append(cv2.imread(str(f)))
            labels.append(i)
    if not images:
        raise ValueError(f"{folder}: no crops")
    return np.stack(images), np.array(labels, np.int64)


def _to_tensor(batch: np.ndarray):
    import torch

    return torch.from_numpy(np.ascontiguousarray(batch[..., ::-1].transpose(0, 3, 1, 2))).float().div_(255)


def _augment(x, g):
    """Light, exposure, colour balance, a shift of up to 3 px, and a random erased patch now and then. The
    random numbers come from ``g`` on the CPU (the same for any device); the arithmetic runs where ``x`` is."""
    import torch

    n, dev = x.shape[0], x.device
    gain = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3, generator=g).to(dev)
    offset = torch.empty(n, 1, 1, 1).uniform_(-0.1, 0.1, generator=g).to(dev)
    x = x * gain + offset
    x = x * torch.empty(n, 3, 1, 1).uniform_(0.92, 1.08, generator=g).to(dev)
    dx, dy = (int(v) for v in torch.randint(-3, 4, (2,), generator=g))
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    s = x.shape[-1]
    for k in torch.nonzero(torch.rand(n, generator=g) < 0.2).flatten().tolist():
        h, w = (int(v) for v in torch.randint(s // 8, s // 3, (2,), generator=g))
        y0, x0 = (int(v) for v in torch.randint(0, s - max(h, w), (2,), generator=g))
        x[k, :, y0:y0 + h, x0:x0 + w] = torch.rand(3, 1, 1, generator=g).to(dev)
    return x.clamp_(0, 1)


def evaluate(net, images: np.ndarray, labels: np.ndarray, batch: int = 256, device: str = "cpu") -> float:
    import torch

    net.eval()
    right = 0
    with torch.inference_mode():
        for i in range(0, len(images), batch):
            out = net(_to_tensor(images[i:i + batch]).to(device)).argmax(1).cpu().numpy()
            right += int((out == labels[i:i + batch]).sum())
    return right / len(labels)


def train(data: Path, run_dir: Path, epochs: int, imgsz: int, batch: int, seed: int, lr: float = 3e-3,
          resume: bool = False, log=print, width: int = 16, init: Path | None = None, device: str = "cpu",
          hours: float | None = None) -> tuple[Path, dict, float]:
    """Train on data/{train,val}/CLASS/*.png. Checkpoints run_dir/weights/{last,best}.pt every epoch and a
    results.json; ``resume`` continues from last.pt. ``device``: cpu, cuda or a GPU index. ``hours``: stop
    after the epoch that passes this much training time (the learning-rate schedule still plans ``epochs``).
    Returns (best.pt, metrics, minutes)."""
    import torch

    device = torch_device(device)

    names = sorted(p.name for p in (data / "train").iterdir() if p.is_dir())
    t0 = time.time()
    log(f"reading crops from {data} ...")
    xtr, ytr = read_crops(data / "train", names)
    xva, yva = read_crops(data / "val", names)
    log(f"{len(xtr)} training and {len(xva)} validation crops, {len(names)} classes")
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    net = build(len(names), imgsz, width)
    if init is not None:  # fine-tune: start from a CardNet of the same classes
        ckpt = torch.load(str(init), map_location="cpu", weights_only=False)
        if ckpt.get("cardnet") != FORMAT or list(ckpt["names"]) != names:
            raise ValueError(f"{init}: not a CardNet of these {len(names)} classes")
        width = ckpt.get("width", 32)
        net = build(len(names), imgsz, width)
        if ckpt["imgsz"] == imgsz:
            net.load_state_dict(ckpt["state_dict"])
            log(f"starting from {init}")
        else:  # another crop size: the convolutions carry over, the first dense layer (its input grows) starts afresh
            own = net.state_dict()
            kept = {k: v for k, v in ckpt["state_dict"].items() if k in own and own[k].shape == v.shape}
            net.load_state_dict(kept, strict=False)
            log(f"starting from {init} (trained at {ckpt['imgsz']} px): {len(kept)} of {len(own)} tensors carried "
                f"over; {', '.join(sorted(set(own) - set(kept)))} start afresh")
    net = net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * math.ceil(len(xtr) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    weights = run_dir / "weights"
    weights.mkdir(parents=True, exist_ok=True)
    start, best_acc, history = 0, -1.0, []
    if resume:
        last = weights / "last.pt"
        if not last.is_file():
            raise FileNotFoundError(f"nothing to resume: {last} does not exist")
        ckpt = torch.load(str(last), map_location="cpu", weights_only=False)
        net.load_state_dict(ckpt["state_dict"])
        opt.load_state_dict(ckpt["optimizer"])
        sched.load_state_dict(ckpt["scheduler"])
        start, best_acc, history = ckpt["epoch"], ckpt["best_acc"], ckpt["history"]
        log(f"resuming after epoch {start}")
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    rng = np.random.default_rng([seed, 17])
    for epoch in range(start, epochs):
        net.train()
        order = rng.permutation(len(xtr))
        total, right, seen, t_ep = 0.0, 0, 0, time.time()
        nb = math.ceil(len(order) / batch)
        for b in range(nb):
            idx = order[b * batch:(b + 1) * batch]
            x, y = _augment(_to_tensor(xtr[idx]).to(device), g), torch.from_numpy(ytr[idx]).to(device)
            out = net(x)
            loss = loss_fn(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            right += int((out.argmax(1) == y).sum())
            seen += len(idx)
            if b % 20 == 0 or b == nb - 1:
                print(f"\repoch {epoch + 1}/{epochs} {b + 1}/{nb} loss {total / seen:.3f} acc {right / seen:.3f} "
                      f"{time.time() - t_ep:.0f}s", end="", file=sys.stderr, flush=True)
        val_acc = evaluate(net, xva, yva, device=device)
        history.append({"epoch": epoch + 1, "train_loss": round(total / seen, 4), "train_acc": round(right / seen, 4),
                        "val_top1": round(val_acc, 4), "seconds": round(time.time() - t_ep, 1)})
        print(file=sys.stderr)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / seen:.3f}, train acc {right / seen:.3f}, val top-1 "
            f"{val_acc:.4f} ({time.time() - t_ep:.0f} s)")
        state = {"cardnet": FORMAT, "names": names, "imgsz": imgsz, "width": width,
                 "state_dict": {k: v.cpu() for k, v in net.state_dict().items()},
                 "epoch": epoch + 1, "metrics": {"val_top1": round(val_acc, 4)}}
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save(state, weights / "best.pt")
        torch.save({**state, "optimizer": opt.state_dict(), "scheduler": sched.state_dict(), "best_acc": best_acc,
                    "history": history}, weights / "last.pt")
        (run_dir / "results.json").write_text(json.dumps(history, indent=1))
        if hours is not None and time.time() - t0 > hours * 3600 and epoch + 1 < epochs:
            log(f"stopping after epoch {epoch + 1} of {epochs}: the time limit of {hours:g} h is spent")
            break
    return weights / "best.pt", {"val_top1": round(best_acc, 4), "epochs_run": len(history)}, (time.time() - t0) / 60


def strip_checkpoint(last: Path, out: Path) -> Path:
    """A training checkpoint (weights/last.pt) as a shipped CardNet file: without the optimizer, the
    scheduler and the history."""
    import torch

    ckpt = torch.load(str(last), map_location="cpu", weights_only=False)
    if not isinstance(ckpt, dict) or ckpt.get("cardnet") != FORMAT:
        raise ValueError(f"{last}: not a CardNet checkpoint")
    for key in TRAINING_STATE:
        ckpt.pop(key, None)
    torch.save(ckpt, str(out))
    return Path(out)


def torch_device(name: str):
    """'cpu', 'cuda' or a GPU index ('0') as a torch.device; a clear error when no such GPU exists."""
    import torch

    name = str(name)
    if name == "cpu":
        return torch.device("cpu")
    if not torch.cuda.is_available():
        raise ValueError(f"device {name!r}: torch sees no CUDA GPU here (use --device cpu)")
    return torch.device(f"cuda:{name}" if name.isdigit() else name)


def export_onnx(pt: Path) -> Path:
    """NAME.onnx beside NAME.pt: softmax output, dynamic batch, names/imgsz/task in the metadata."""
    import onnx
    import torch

    net, names, imgsz = load(pt)
    out = Path(pt).with_suffix(".onnx")
    torch.onnx.export(net, torch.zeros(1, 3, imgsz, imgsz), str(out), input_names=["images"], output_names=["probs"],
                      dynamic_axes={"images": {0: "batch"}, "probs": {0: "batch"}}, opset_version=17, dynamo=False)
    model = onnx.load(str(out))
    for key, value in {"names": repr(dict(enumerate(names))), "imgsz": repr([imgsz, imgsz]), "task": "classify",
                       "arch": "CardNet"}.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(out))
    return out
