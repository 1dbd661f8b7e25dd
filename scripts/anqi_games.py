"""Games on a Ray cluster: the Ray side of `anqi tournament|ladder|experiment draw-rates --cluster
ADDRESS` (selfplay/src/ray_games.rs; docs/cluster.md, "Games on a cluster").

The anqi process that starts this program is the driver that owns the store. It writes every
missing game to our stdin as one JSON line `{"key": K, "task": T}` and closes it; we submit each as
a Ray task of one CPU that runs `ANQI game-task` in the driver's working directory (every node
mounts the checkout at the same path, as for `scripts/cluster`) with the task on stdin, and write
one line per finished task to stdout as it finishes:

    {"key": K, "ok": true, "out": TEXT, "node": NODE_ID, "seconds": S}
    {"key": K, "ok": false, "error": TEXT, "node": NODE_ID}

A task whose worker process or node dies is retried by Ray on another node (`--retries`); a game
that fails by itself (the game's own error, exit status != 0) is not retried but reported. Our exit
(the driver kills us when it has what it needs) ends the job and with it its tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

import ray


def _die_with_parent() -> None:
    """In the child before exec: be killed when the Ray worker dies (Linux PR_SET_PDEATHSIG), so
    a killed node leaves no game running."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@ray.remote(num_cpus=1)
def play(anqi: str, cwd: str, task: str) -> dict:
    """Plays one game in `anqi game-task`; returns its result text or its error."""
    t0 = time.time()
    node = ray.get_runtime_context().get_node_id()
    p = subprocess.run(
        [anqi, "game-task"],
        input=task,
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=_die_with_parent,
    )
    if p.returncode != 0:
        err = (p.stderr.strip() or f"exit status {p.returncode}")[-4000:]
        return {"ok": False, "error": err, "node": node}
    return {"ok": True, "out": p.stdout, "node": node, "seconds": round(time.time() - t0, 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--address", required=True, help="the Ray head (HOST:PORT or auto)")
    ap.add_argument("--anqi", required=True, help="the anqi binary every node runs")
    ap.add_argument("--cwd", required=True, help="the working directory of every game")
    ap.add_argument("--retries", type=int, default=5, help="retries of a task whose worker or node died")
    args = ap.parse_args()

    tasks = []
    for n, line in enumerate(sys.stdin, 1):
        if line.strip():
            try:
                t = json.loads(line)
                tasks.append((t["key"], json.dumps(t["task"])))
            except (ValueError, KeyError) as e:
                print(f"anqi_games: stdin line {n}: not a task: {e}", file=sys.stderr)
                return 2
    # Results go to the original stdout; Ray's own messages (it prints some to stdout, e.g. when
    # a node dies) go to stderr with our progress.
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    ray.init(address=args.address, logging_level="WARNING", log_to_driver=False)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
    print(f"cluster: {len(tasks)} games on {nodes} nodes, {cpus} CPUs", file=sys.stderr, flush=True)
    play_r = play.options(max_retries=args.retries, retry_exceptions=False)
    pending = {play_r.remote(args.anqi, args.cwd, t): k for k, t in tasks}
    refs = list(pending)
    while refs:
        done, refs = ray.wait(refs, num_returns=1)
        for ref in done:
            key = pending.pop(ref)
            try:
                r = ray.get(ref)
            except Exception as e:  # retries exhausted (nodes kept dying) or Ray itself failed
                r = {"ok": False, "error": f"ray: {type(e).__name__}: {e}"[-4000:], "node": ""}
            r["key"] = key
            try:
                print(json.dumps(r), file=out, flush=True)
            except BrokenPipeError:
                return 0  # the driver has what it needs
    return 0


if __name__ == "__main__":
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    sys.exit(main())
