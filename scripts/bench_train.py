#!/usr/bin/env python3
"""Training throughput of anqi's net in Python PyTorch, for comparison with `anqi train --bench`.

Builds the same architecture (scripts/export_torchscript.py), the same loss (policy
cross-entropy over the legal slots, gathered as in models/src/train.rs, plus win/draw/loss
cross-entropy) and the same optimiser (AdamW, beta2 0.999, eps 1e-8; or SGD with momentum), on a
synthetic batch of the configured size with the shapes self-play produces (about 45 legal slots
and 20 visited slots per sample), and reports optimiser steps per second as samples/s. The last
line is JSON.

    .venv/bin/python scripts/bench_train.py --config configs/train/quick.toml [--seconds 10]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--threads", type=int, default=None, help="default: the config's threads (0: all cores)")
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    threads = args.threads if args.threads is not None else cfg.get("threads", 0)
    if threads > 0:
        torch.set_num_threads(threads)
    n = cfg["train"]["batch_size"]
    a = cfg["net"]
    net = Net(PLANES, a["blocks"], a["channels"], a.get("policy_channels", 16), a.get("value_channels", 4), a.get("value_hidden", 64))
    net.train()
    o = cfg["optimizer"]
    if o.get("kind", "adam") == "adam":
        opt = torch.optim.AdamW(net.parameters(), lr=o["lr"], betas=(o.get("momentum", 0.9), 0.999), eps=1e-8, weight_decay=o.get("weight_decay", 1e-4))
    else:
        opt = torch.optim.SGD(net.parameters(), lr=o["lr"], momentum=o.get("momentum", 0.9), weight_decay=o.get("weight_decay", 1e-4))
    g = torch.Generator().manual_seed(0)
    x = (torch.rand(n, PLANES, 10, 9, generator=g) < 0.05).float()
    L, T = 45, 20
    legal_idx = torch.randint(0, ACTIONS, (n, L), generator=g)
    legal_pad = torch.zeros(n, L, dtype=torch.bool)
    legal_pad[:, 40:] = True
    target_idx = legal_idx[:, :T].clone()
    target_p = torch.softmax(torch.randn(n, T, generator=g), 1)
    value = torch.randint(0, 3, (n,), generator=g)

    def step():
        logits, v = net(x)
        legal = logits.gather(1, legal_idx).masked_fill(legal_pad, float("-inf"))
        lse = legal.logsumexp(1, keepdim=True)
        logp = logits.gather(1, target_idx) - lse
        policy = -(logp * target_p).sum(1).mean()
        vloss = torch.nn.functional.cross_entropy(v, value)
        loss = policy + vloss
        opt.zero_grad(set_to_none=False)
        loss.backward()
        opt.step()
        return loss

    for _ in range(4):
        step()
    t = time.time()
    steps = 0
    while time.time() - t < args.seconds:
        step()
        steps += 1
    rate = steps * n / (time.time() - t)
    print(f"python torch {torch.__version__}: train batch {n}: {rate:.0f} samples/s ({1000 * n / rate:.1f} ms/step), {torch.get_num_threads()} threads")
    print(json.dumps({"python_train_samples_per_s": rate, "train_batch": n, "threads": torch.get_num_threads(), "torch": torch.__version__}))


if __name__ == "__main__":
    main()
