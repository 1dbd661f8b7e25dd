#!/usr/bin/env python3
"""Training throughput of anqi's net in Python PyTorch, for comparison with `anqi train --bench`
and `anqi train --bench-train N` (scripts/bench-train runs both).

Builds the same architecture (scripts/export_torchscript.py), the same loss (policy
cross-entropy over the legal slots, gathered as in models/src/train.rs, plus win/draw/loss
cross-entropy against a target distribution, weighted by the config's value_weight) and the same
optimiser (AdamW, beta2 0.999, eps 1e-8; or SGD with momentum), on a synthetic batch of the
configured size with the shapes of models::train::SyntheticShape::typical (45 legal slots, the
last 5 padding, 20 visited slots per sample), and reports optimiser steps per second as
samples/s. Like the Rust trainer, each step reads both losses back (a device sync). The last
line is JSON.

    .venv/bin/python scripts/bench_train.py --config configs/train/quick.toml [--steps N | --seconds S]
        [--threads T] [--device cpu|cuda]
"""
import argparse
import json
import os
import sys
import time
import tomllib

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_torchscript import Net  # noqa: E402

PLANES, ACTIONS = 58, 24411
LEGAL, PADDING, TARGETS = 45, 5, 20


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True)
    ap.add_argument("--seconds", type=float, default=10.0, help="time this long (unless --steps)")
    ap.add_argument("--steps", type=int, default=None, help="time exactly this many optimiser steps")
    ap.add_argument("--threads", type=int, default=None, help="default: the config's threads (0: all cores)")
    ap.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    threads = args.threads if args.threads is not None else cfg.get("threads", 0)
    if threads > 0:
        torch.set_num_threads(threads)
    dev = torch.device(args.device)
    n = cfg["train"]["batch_size"]
    a = cfg["net"]
    net = Net(PLANES, a["blocks"], a["channels"], a.get("policy_channels", 16), a.get("value_channels", 4), a.get("value_hidden", 64)).to(dev)
    net.train()
    o = cfg["optimizer"]
    value_weight = o.get("value_weight", 1.0)
    if o.get("kind", "adam") == "adam":
        opt = torch.optim.AdamW(net.parameters(), lr=o["lr"], betas=(o.get("momentum", 0.9), 0.999), eps=1e-8, weight_decay=o.get("weight_decay", 1e-4))
    else:
        opt = torch.optim.SGD(net.parameters(), lr=o["lr"], momentum=o.get("momentum", 0.9), weight_decay=o.get("weight_decay", 1e-4))
    g = torch.Generator().manual_seed(0)
    x = (torch.rand(n, PLANES, 10, 9, generator=g) < 0.05).float().to(dev)
    legal_idx = torch.randint(0, ACTIONS, (n, LEGAL), generator=g)
    legal_pad = torch.zeros(n, LEGAL, dtype=torch.bool)
    legal_pad[:, LEGAL - PADDING :] = True
    target_idx = legal_idx[:, :TARGETS].clone().to(dev)
    legal_idx, legal_pad = legal_idx.to(dev), legal_pad.to(dev)
    target_p = torch.softmax(torch.randn(n, TARGETS, generator=g), 1).to(dev)
    value = torch.nn.functional.one_hot(torch.randint(0, 3, (n,), generator=g), 3).float().to(dev)

    def step():
        logits, v = net(x)
        legal = logits.gather(1, legal_idx).masked_fill(legal_pad, float("-inf"))
        lse = legal.logsumexp(1, keepdim=True)
        logp = logits.gather(1, target_idx) - lse
        policy = -(logp * target_p).sum(1).mean()
        vloss = -(v.log_softmax(1) * value).sum(1).mean()
        loss = policy + value_weight * vloss
        opt.zero_grad(set_to_none=False)
        loss.backward()
        opt.step()
        return policy.item() + value_weight * vloss.item()

    for _ in range(4):
        step()
    t = time.time()
    steps = 0
    last = 0.0
    while (steps < args.steps) if args.steps is not None else (time.time() - t < args.seconds):
        last = step()
        steps += 1
    secs = time.time() - t
    rate = steps * n / secs
    print(
        f"python torch {torch.__version__}: net {a['blocks']}x{a['channels']}, batch {n}, {steps} steps in {secs:.2f}s: "
        f"{rate:.0f} samples/s ({1000 * secs / max(steps, 1):.1f} ms/step), {torch.get_num_threads()} threads, {dev}, final loss {last:.3f}"
    )
    print(
        json.dumps(
            {
                "python_train_samples_per_s": rate,
                "steps": steps,
                "seconds": secs,
                "train_batch": n,
                "threads": torch.get_num_threads(),
                "device": str(dev),
                "torch": torch.__version__,
                "final_loss": last,
            }
        )
    )


if __name__ == "__main__":
    main()
