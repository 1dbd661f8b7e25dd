#!/usr/bin/env python3
"""anqi's policy/value net in PyTorch (the same architecture and parameter names as
models/src/net.rs), and the TorchScript exporter used by `anqi export`.

    python export_torchscript.py --dir DIR

reads DIR/model.safetensors and DIR/model.json (written by `anqi export`), builds the net, loads
the weights, scripts it with torch.jit.script and saves DIR/model.pt; then reloads model.pt with
torch.jit.load and, if DIR/check.safetensors exists (inputs and the Rust net's outputs), checks
that the outputs agree. Exit status 1 on any mismatch.

The module maps observations [n, 58, 10, 9] (encoding v1, docs/encoding.md) to
(policy logits [n, 24411], win/draw/loss logits [n, 3]); for a net of another game (a RULES-more
game, #17 item 3) the sizes come from model.json's `encoding` (observation planes x rows x files,
policy board channels per point plus extra slots).
"""
import argparse
import json
import struct
import sys

import torch
from torch import nn
import torch.nn.functional as F

ENCODING_VERSION = 1
ROWS, FILES = 10, 9
POINTS = ROWS * FILES
BOARD_CHANNELS = 3 * POINTS + 1  # per from-point: (kind, to-point) moves, then the flip
EXTRA_SLOTS = 21  # demand, 3 answers, 10 layouts, 7 placement types

_DTYPES = {
    "F32": torch.float32,
    "F64": torch.float64,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}
_NAMES = {v: k for k, v in _DTYPES.items()}


def read_safetensors(path):
    """{name: tensor} from a safetensors file (no dependency on the safetensors package)."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        buf = bytearray(data[base + start : base + end])
        dtype = _DTYPES[info["dtype"]]
        t = torch.frombuffer(buf, dtype=dtype) if buf else torch.empty(0, dtype=dtype)
        out[name] = t.reshape(info["shape"]).clone()
    return out


def write_safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        b = t.detach().contiguous().cpu().numpy().tobytes()
        header[name] = {"dtype": _NAMES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


class ConvBn(nn.Module):
    def __init__(self, cin: int, cout: int, k: int):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return self.bn(self.conv(x))


class Block(nn.Module):
    def __init__(self, c: int):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + x)


class PolicyHead(nn.Module):
    def __init__(self, c: int, cp: int, board_channels: int = BOARD_CHANNELS):
        super().__init__()
        self.conv = nn.Conv2d(c, cp, 1, bias=False)
        self.bn = nn.BatchNorm2d(cp)
        self.out = nn.Conv2d(cp, board_channels, 1)

    def forward(self, h):
        p = F.relu(self.bn(self.conv(h)))
        return self.out(p).flatten(1)


class ValueHead(nn.Module):
    def __init__(self, c: int, cv: int, hidden: int, points: int = POINTS, extra: int = EXTRA_SLOTS):
        super().__init__()
        self.conv = nn.Conv2d(c, cv, 1, bias=False)
        self.bn = nn.BatchNorm2d(cv)
        self.fc1 = nn.Linear(cv * points, hidden)
        self.fc2 = nn.Linear(hidden, 3)
        self.extra = nn.Linear(hidden, extra)

    def forward(self, h):
        v = F.relu(self.bn(self.conv(h))).flatten(1)
        v = F.relu(self.fc1(v))
        return self.fc2(v), self.extra(v)


class Net(nn.Module):
    """The anqi policy/value net: observations -> (policy logits, win/draw/loss logits)."""

    def __init__(self, planes: int, blocks: int, channels: int, policy_channels: int = 16, value_channels: int = 4, value_hidden: int = 64,
                 points: int = POINTS, board_channels: int = BOARD_CHANNELS, extra: int = EXTRA_SLOTS):
        super().__init__()
        self.input = ConvBn(planes, channels, 3)
        self.tower = nn.ModuleList([Block(channels) for _ in range(blocks)])
        self.policy = PolicyHead(channels, policy_channels, board_channels)
        self.value = ValueHead(channels, value_channels, value_hidden, points, extra)

    def forward(self, x):
        h = F.relu(self.input(x))
        for b in self.tower:
            h = b(h)
        board = self.policy(h)
        wdl, extra = self.value(h)
        return torch.cat([board, extra], 1), wdl

    @staticmethod
    def from_meta(meta):
        a = meta["architecture"]
        e = meta.get("encoding")
        if not e:  # checkpoints from before encodings were recorded: the variants'
            return Net(meta["planes"], a["blocks"], a["channels"], a["policy_channels"], a["value_channels"], a["value_hidden"])
        o, p = e["observation"], e["policy"]
        return Net(o["planes"], a["blocks"], a["channels"], a["policy_channels"], a["value_channels"], a["value_hidden"],
                   o["rows"] * o["files"], p["board_channels"], p["extra"])


def load(dir_):
    with open(f"{dir_}/model.json") as f:
        meta = json.load(f)
    if meta.get("encoding_version") != ENCODING_VERSION:
        raise SystemExit(f"{dir_}/model.json: encoding version {meta.get('encoding_version')}, this script knows {ENCODING_VERSION}")
    net = Net.from_meta(meta)
    weights = read_safetensors(f"{dir_}/{meta['weights_file']}")
    if net.value.extra.out_features == 0:
        # A game without extra slots (e.g. missile): the Rust net has no such layer.
        weights.setdefault("value.extra.weight", net.value.extra.weight.detach().clone())
        weights.setdefault("value.extra.bias", net.value.extra.bias.detach().clone())
    missing, unexpected = net.load_state_dict(weights, strict=False)
    missing = [m for m in missing if not m.endswith("num_batches_tracked")]
    if missing or unexpected:
        raise SystemExit(f"{dir_}/{meta['weights_file']}: missing {missing}, unexpected {unexpected}")
    return net.eval(), meta


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="directory written by `anqi export`")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    args = ap.parse_args()
    torch.set_num_threads(max(1, torch.get_num_threads()))
    net, meta = load(args.dir)
    scripted = torch.jit.script(net)
    out = f"{args.dir}/model.pt"
    scripted.save(out)
    module = torch.jit.load(out)
    print(f"wrote {out} (TorchScript, step {meta['step']}, {meta['variant']}, torch {torch.__version__})")
    try:
        check = read_safetensors(f"{args.dir}/check.safetensors")
    except FileNotFoundError:
        return 0
    with torch.no_grad():
        policy, value = module(check["input"])
        eager_p, eager_v = net(check["input"])
    dp = (policy - check["policy"]).abs().max().item()
    dv = (value - check["value"]).abs().max().item()
    de = max((policy - eager_p).abs().max().item(), (value - eager_v).abs().max().item())
    ok = dp <= args.tolerance and dv <= args.tolerance
    n = check["input"].shape[0]
    print(
        f"check {'ok' if ok else 'FAILED'}: torch.jit.load(model.pt) on {n} fixed positions vs the Rust net: "
        f"max |policy diff| {dp:.2e}, max |value diff| {dv:.2e} (tolerance {args.tolerance:g}); scripted vs eager {de:.2e}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
