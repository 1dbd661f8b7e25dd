"""Self-play training on a Ray cluster: one `anqi train` (trainer only) and N `anqi selfplay
--worker K` processes, each run by a Ray actor placed by resources, on a run directory that every
node mounts at the same path (docs/cluster.md).

The processes keep the shared-directory contract they already follow on one machine: workers write
atomically published shards to `RUN/shards/`, the trainer (`selfplay.source = "external"`) trains
on them and writes checkpoints, workers load the newest checkpoint before each shard. Ray places
the actors and restarts a failed one (`max_restarts`): an actor whose process dies, or whose node
dies, is started again and runs the same command, which resumes (the trainer from its last
checkpoint, a worker at its next free shard number). The driver (this program) prints progress and
per-worker samples/s, writes `RUN/cluster/status.json` on every poll and `RUN/cluster/summary.json`
at the end, stops the workers when the trainer has finished, and stops everything on Ctrl-C.

Run it as `scripts/cluster --config C --workers N --run-dir DIR` (see `--help`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import ray
from ray.exceptions import RayActorError

REPO = Path(__file__).resolve().parent.parent

# `anqi selfplay` prints one line per shard (selfplay/farm/src/worker.rs).
WORKER_LINE = re.compile(
    r"^worker (\d+) shard (\S+): (\d+) games, (\d+) samples in ([0-9.]+)s \(([0-9.]+) samples/s, (\d+) net evals, net step (\d+)"
)
# `anqi train` prints one line per iteration (selfplay/farm/src/run.rs).
TRAINER_ITER = re.compile(r"^iter\s+(\d+) step\s+(\d+)/(\d+) .*\| train ([0-9.]+) samples/s \| replay (\d+)")
TRAINER_EXTERNAL = re.compile(r"\| (\d+) new samples from workers, waited ([0-9.]+)s")
TRAINER_RESUME = re.compile(r"^resuming from (\S+) \(step (\d+), iteration (\d+)\)")
TRAINER_NEW = re.compile(r"^new run in ")
REFUSED = re.compile(r"^error: refusing shard (.*)$")


def _die_with_parent() -> None:
    """In the child before exec: be killed when the supervising thread's process dies (Linux
    PR_SET_PDEATHSIG), so a dead actor never leaves an orphan writing shards."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class Role:
    """One anqi process (the trainer or a worker) supervised inside a Ray actor.

    The constructor starts the process, so when Ray restarts the actor (after the process failed
    or the node died) the process starts again. `wait` returns the exit status of a process that
    ended by itself with status 0; one that failed ends the actor (`os._exit`) so that Ray
    restarts it, up to the actor's `max_restarts`."""

    def __init__(self, name: str, argv: list[str], cwd: str, log_path: str):
        ctx = ray.get_runtime_context()
        self.name = name
        self.argv = argv
        self.node_id = ctx.get_node_id()
        self.restarted = bool(ctx.was_current_actor_reconstructed)
        self.actor_pid = os.getpid()
        self.started_unix = time.time()
        self.stopping = False
        self.rc: int | None = None
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()
        self.stats = {
            "shards": 0,
            "samples": 0,
            "games": 0,
            "shard_seconds": 0.0,
            "last_samples_per_s": None,
            "net_step": None,
            "step": None,
            "total_steps": None,
            "iteration": None,
            "train_samples_per_s": None,
            "last_wait_s": None,
            "resumed_from_step": None,
            "new_run": False,
            "refused": [],
            "last_line": "",
        }
        self.running = threading.Event()
        self.done = threading.Event()
        # The supervising thread forks the process and lives until it ends: the death signal
        # (PR_SET_PDEATHSIG) follows the forking thread, not the process.
        threading.Thread(target=self._supervise, args=(cwd, log_path), daemon=True).start()
        self.running.wait(60)

    def _supervise(self, cwd: str, log_path: str) -> None:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "a", buffering=1) as log:
            log.write(
                f"=== {self.name} {'restarted' if self.restarted else 'started'} at {time.ctime()} "
                f"on node {self.node_id[:12]} (actor pid {self.actor_pid}): {' '.join(self.argv)}\n"
            )
            try:
                self.proc = subprocess.Popen(
                    self.argv,
                    cwd=cwd,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    text=True,
                    bufsize=1,
                    preexec_fn=_die_with_parent,
                )
            except OSError as e:
                log.write(f"=== could not start {self.argv[0]}: {e}\n")
                self.rc = 127
                self.running.set()
                self.done.set()
                return
            self.running.set()
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                log.write(line)
                self._parse(line.rstrip("\n"))
            self.rc = self.proc.wait()
            log.write(f"=== {self.name} exited with status {self.rc} at {time.ctime()}\n")
        self.done.set()

    def _parse(self, line: str) -> None:
        with self.lock:
            s = self.stats
            if line.strip():
                s["last_line"] = line[-300:]
            if m := WORKER_LINE.match(line):
                s["shards"] += 1
                s["games"] += int(m.group(3))
                s["samples"] += int(m.group(4))
                s["shard_seconds"] += float(m.group(5))
                s["last_samples_per_s"] = float(m.group(6))
                s["net_step"] = int(m.group(8))
            elif m := TRAINER_ITER.match(line):
                s["iteration"] = int(m.group(1))
                s["step"] = int(m.group(2))
                s["total_steps"] = int(m.group(3))
                s["train_samples_per_s"] = float(m.group(4))
                if e := TRAINER_EXTERNAL.search(line):
                    s["last_wait_s"] = float(e.group(2))
            elif m := TRAINER_RESUME.match(line):
                s["resumed_from_step"] = int(m.group(2))
                s["step"] = int(m.group(2))
            elif TRAINER_NEW.match(line):
                s["new_run"] = True
            elif m := REFUSED.match(line):
                s["refused"].append(m.group(1))

    def status(self) -> dict:
        """The process's progress so far (this incarnation of the actor only)."""
        with self.lock:
            stats = json.loads(json.dumps(self.stats))
        return {
            "name": self.name,
            "node_id": self.node_id,
            "actor_pid": self.actor_pid,
            "pid": self.proc.pid if self.proc else None,
            "restarted": self.restarted,
            "started_unix": self.started_unix,
            "running": self.rc is None,
            "rc": self.rc,
            **stats,
        }

    def wait(self) -> int:
        """Blocks until the process ends; returns 0, or ends the actor so Ray restarts it."""
        self.done.wait()
        if self.rc != 0 and not self.stopping:
            time.sleep(0.2)  # let the log line reach the shared file
            os._exit(1)
        return self.rc if self.rc is not None else -1

    def stop(self, grace_s: float = 10.0) -> int | None:
        """Ends the process: SIGTERM, then SIGKILL after `grace_s` seconds."""
        self.stopping = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(grace_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.done.wait(grace_s)
        return self.rc


def _atomic_json(path: Path, value) -> None:
    """Writes `value` as JSON to `path` through a temporary file and a rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(value, indent=2) + "\n")
    os.replace(tmp, path)


def _sets(values: list[str]) -> list[str]:
    """`KEY=VALUE` overrides as anqi's `--set` arguments."""
    out: list[str] = []
    for v in values:
        if "=" not in v:
            raise SystemExit(f"error: --set {v!r}: expected KEY=VALUE")
        out += ["--set", v]
    return out


def _resources(text: str | None, flag: str) -> dict:
    """A JSON object of custom Ray resources (name: amount) from the command line."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"error: {flag} {text!r}: not JSON ({e})")
    if not isinstance(value, dict) or not all(isinstance(v, (int, float)) for v in value.values()):
        raise SystemExit(f'error: {flag} {text!r}: expected an object of numbers, e.g. {{"selfplay": 1}}')
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; `--trainer-resources` and `--worker-resources` come back parsed."""
    p = argparse.ArgumentParser(
        prog="scripts/cluster",
        description="Run a self-play training job on a Ray cluster: one trainer and N self-play workers "
        "as Ray actors on a run directory every node mounts (docs/cluster.md).",
    )
    p.add_argument("--config", required=True, type=Path, help="training configuration (TOML)")
    p.add_argument("--workers", required=True, type=int, help="self-play workers")
    p.add_argument("--run-dir", type=Path, help="run directory on the shared mount (default: the config's run_dir)")
    p.add_argument("--address", default=os.environ.get("RAY_ADDRESS", "auto"), help="Ray cluster address (default: $RAY_ADDRESS or auto)")
    p.add_argument("--anqi", type=Path, default=REPO / "target/release/anqi", help="the anqi binary, at this path on every node (anqi-torch beside it)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="configuration override for every process")
    p.add_argument("--trainer-set", action="append", default=[], metavar="KEY=VALUE", help="override for the trainer only (e.g. device=cuda)")
    p.add_argument("--worker-set", action="append", default=[], metavar="KEY=VALUE", help="override for the workers only")
    p.add_argument("--trainer-cpus", type=float, default=1)
    p.add_argument("--trainer-gpus", type=float, default=0)
    p.add_argument("--trainer-resources", help='custom Ray resources of the trainer, JSON (e.g. {"trainer": 1})')
    p.add_argument("--worker-cpus", type=float, default=1)
    p.add_argument("--worker-gpus", type=float, default=0)
    p.add_argument("--worker-resources", help="custom Ray resources of each worker, JSON")
    p.add_argument("--first-worker", type=int, default=1, help="number of the first worker (shard names w<K>-…)")
    p.add_argument("--max-restarts", type=int, default=10, help="restarts of each actor (Ray max_restarts)")
    p.add_argument("--poll", type=float, default=5.0, help="seconds between progress reports")
    p.add_argument("--no-spread", action="store_true", help="let Ray pack workers instead of spreading them over nodes")
    a = p.parse_args(argv)
    if a.workers < 1:
        p.error("--workers must be at least 1")
    _sets(a.set + a.trainer_set + a.worker_set)
    a.trainer_resources = _resources(a.trainer_resources, "--trainer-resources")
    a.worker_resources = _resources(a.worker_resources, "--worker-resources")
    return a


def _run_dir(args: argparse.Namespace) -> Path:
    """The run directory: `--run-dir`, else the config's `run_dir` (relative to here), absolute."""
    if args.run_dir is not None:
        return args.run_dir.resolve()
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        raise SystemExit("error: give --run-dir (reading the config's run_dir needs Python 3.11)")
    try:
        with open(args.config, "rb") as f:
            run_dir = tomllib.load(f).get("run_dir")
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SystemExit(f"error: {args.config}: {e}")
    if not run_dir:
        raise SystemExit(f"error: {args.config} has no run_dir; give --run-dir")
    return (Path.cwd() / run_dir).resolve()


class Job:
    """The driver's view of the trainer and the workers."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.config = args.config.resolve()
        self.run_dir = _run_dir(args)
        self.anqi = args.anqi.resolve()
        self.cluster_dir = self.run_dir / "cluster"
        self.started = time.time()
        self.actors: dict[str, ray.actor.ActorHandle] = {}
        self.deaths: dict[str, int] = {}
        self.status: dict[str, dict] = {}
        self.totals: dict[str, dict] = {}  # per role: counts of earlier incarnations
        self.finished: dict[str, int] = {}
        self.dead: set[str] = set()
        self.status_refs: dict[str, ray.ObjectRef] = {}
        self.down: set[str] = set()  # died, and Ray is restarting them
        self.stopped: set[str] = set()
        self.printed_refusals: set[str] = set()
        self.numbers: dict[str, int] = {}  # worker numbers by role name

    def check(self) -> None:
        """Refuses to start without the binaries or the config; creates the run's directories."""
        for exe in (self.anqi, self.anqi.with_name("anqi-torch")):
            if not exe.is_file():
                raise SystemExit(f"error: {exe} is missing; build it with `cargo build --release --workspace`")
        if not self.config.is_file():
            raise SystemExit(f"error: {self.config}: no such configuration")
        self.cluster_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "shards").mkdir(parents=True, exist_ok=True)

    def argv(self, role: str, worker: int | None) -> list[str]:
        """The command line of the trainer (`worker` None) or of worker number `worker`."""
        a = self.args
        common = ["--config", str(self.config), "--run-dir", str(self.run_dir), "--no-progress"] + _sets(a.set)
        if worker is None:
            return [str(self.anqi), "train", *common, "--set", "selfplay.source=external", *_sets(a.trainer_set)]
        return [str(self.anqi), "selfplay", *common, "--worker", str(worker), *_sets(a.worker_set)]

    def start(self) -> None:
        """Creates the trainer's and the workers' actors (each starts its process)."""
        a = self.args
        remote = ray.remote(Role)
        roles = [("trainer", None)] + [(f"worker{k}", k) for k in range(a.first_worker, a.first_worker + a.workers)]
        for name, worker in roles:
            trainer = worker is None
            opts = dict(
                name=f"anqi-{name}-{os.getpid()}",
                max_restarts=a.max_restarts,
                max_task_retries=0,
                max_concurrency=4,
                num_cpus=a.trainer_cpus if trainer else a.worker_cpus,
                num_gpus=a.trainer_gpus if trainer else a.worker_gpus,
                resources=a.trainer_resources if trainer else a.worker_resources,
            )
            if not trainer and not a.no_spread:
                opts["scheduling_strategy"] = "SPREAD"
            log = str(self.cluster_dir / f"{name}.log")
            self.actors[name] = remote.options(**opts).remote(name, self.argv(name, worker), str(REPO), log)
            self.deaths[name] = 0
            if worker is not None:
                self.numbers[name] = worker
            self.totals[name] = {"shards": 0, "samples": 0, "games": 0, "shard_seconds": 0.0}
        print(
            f"cluster: {len(roles) - 1} workers and a trainer on {self.run_dir} "
            f"(logs in {self.cluster_dir}/), {len(ray.nodes())} nodes, resources {ray.cluster_resources()}",
            flush=True,
        )

    def poll_status(self, timeout: float) -> None:
        """Asks every live actor for its progress, waiting at most `timeout` seconds."""
        # One outstanding status call per actor: an actor waiting for resources or restarting
        # answers later, and its old call is reused rather than piled up.
        for name, a in self.actors.items():
            if name not in self.dead and name not in self.finished and name not in self.status_refs:
                self.status_refs[name] = a.status.remote()
        if not self.status_refs:
            return
        refs = dict(self.status_refs)
        ready, _ = ray.wait(list(refs.values()), num_returns=len(refs), timeout=timeout)
        ready = set(ready)
        for name, ref in refs.items():
            if ref not in ready:
                self.status.setdefault(name, {})["state"] = "pending"
                continue
            del self.status_refs[name]
            try:
                self.update(name, ray.get(ref))
            except RayActorError:
                self.status.setdefault(name, {})["state"] = "restarting"
            _, restarts = self.actor_state(name)
            if restarts is not None:
                self.deaths[name] = restarts

    def update(self, name: str, s: dict) -> None:
        """Records an actor's `status()`; a new incarnation's counts add to the earlier ones'."""
        old = self.status.get(name, {})
        if old.get("actor_pid") not in (None, s["actor_pid"]) or old.get("started_unix") not in (None, s["started_unix"]):
            for k in self.totals[name]:
                self.totals[name][k] += old.get(k, 0) or 0
        s["state"] = "running" if s["running"] else "exited"
        self.status[name] = s

    def counts(self, name: str) -> dict:
        """Shards, samples, games and shard seconds of a role over all its incarnations."""
        s = self.status.get(name, {})
        return {k: v + (s.get(k, 0) or 0) for k, v in self.totals[name].items()}

    def shards_on_disk(self) -> dict[int, int]:
        """Shard files per worker number in the run's `shards/` (their names: w<K>-<seq>.shard)."""
        out: dict[int, int] = {}
        for p in (self.run_dir / "shards").glob("w*-*.shard"):
            m = re.fullmatch(r"w(\d+)-(\d+)\.shard", p.name)
            if m:
                out[int(m.group(1))] = out.get(int(m.group(1)), 0) + 1
        return out

    def report(self) -> dict:
        """The job's progress as a JSON-ready dict (`status.json`, `summary.json`)."""
        now = time.time()
        elapsed = now - self.started
        on_disk = self.shards_on_disk()
        roles = {}
        produced = 0
        for name in self.actors:
            s = self.status.get(name, {})
            c = self.counts(name)
            produced += c["samples"]
            roles[name] = {
                "state": "finished"
                if name in self.finished
                else "dead"
                if name in self.dead
                else "stopped"
                if name in self.stopped
                else "restarting"
                if name in self.down
                else s.get("state", "pending"),
                "node_id": s.get("node_id"),
                "actor_pid": s.get("actor_pid"),
                "pid": s.get("pid"),
                "restarts": self.deaths[name],
                "shards_on_disk": on_disk.get(self.numbers[name], 0) if name in self.numbers else None,
                **c,
                "mean_samples_per_s": c["samples"] / c["shard_seconds"] if c["shard_seconds"] else None,
                "last_samples_per_s": s.get("last_samples_per_s"),
                "net_step": s.get("net_step"),
                "step": s.get("step"),
                "total_steps": s.get("total_steps"),
                "iteration": s.get("iteration"),
                "train_samples_per_s": s.get("train_samples_per_s"),
                "last_wait_s": s.get("last_wait_s"),
                "resumed_from_step": s.get("resumed_from_step"),
                "refused": s.get("refused", []),
                "last_line": s.get("last_line", ""),
            }
        return {
            "run_dir": str(self.run_dir),
            "elapsed_s": elapsed,
            "samples_produced": produced,
            "samples_per_s": produced / elapsed if elapsed > 0 else 0.0,
            "roles": roles,
        }

    def print_report(self, r: dict) -> None:
        """Prints a report: the trainer's line, one line per worker, the total."""
        t = r["roles"]["trainer"]
        step = f"{t['step']}/{t['total_steps']}" if t["total_steps"] else f"{t['step'] if t['step'] is not None else '-'}"
        resumed = f", resumed at step {t['resumed_from_step']}" if t["resumed_from_step"] is not None else ""
        wait = f", last wait {t['last_wait_s']:.1f}s" if t["last_wait_s"] is not None else ""
        rate = f", trains {t['train_samples_per_s']:.0f} samples/s" if t["train_samples_per_s"] else ""
        lines = [f"[{r['elapsed_s']:6.0f}s] trainer {t['state']}: step {step}{resumed}{rate}{wait}, restarts {t['restarts']}"]
        for name, w in r["roles"].items():
            if name == "trainer":
                continue
            mean = f"{w['mean_samples_per_s']:.1f}" if w["mean_samples_per_s"] else "-"
            last = f"{w['last_samples_per_s']:.1f}" if w["last_samples_per_s"] else "-"
            node = (w["node_id"] or "?")[:8]
            lines.append(
                f"          {name:>8} {w['state']:>10} node {node}: {w['shards_on_disk']} shards on disk, {w['samples']} samples, "
                f"{last} samples/s (mean {mean}), net step {w['net_step'] if w['net_step'] is not None else '-'}, restarts {w['restarts']}"
            )
        lines.append(f"          all workers: {r['samples_produced']} samples, {r['samples_per_s']:.1f} samples/s since start")
        for e in t["refused"]:
            if e not in self.printed_refusals:
                self.printed_refusals.add(e)
                lines.append(f"          trainer refused shard {e}")
        print("\n".join(lines), flush=True)

    def actor_state(self, name: str) -> tuple[str | None, int | None]:
        """The actor's state (`ALIVE`, `RESTARTING`, `DEAD`, …) and restart count, as the cluster's
        control store (GCS) records them; (None, None) if it cannot be asked."""
        try:
            info = ray._private.state.actors(actor_id=self.actors[name]._actor_id.hex())
            return info.get("State"), info.get("NumRestarts")
        except Exception:
            return None, None

    def on_exit(self, name: str, ref) -> None:
        """A `wait` call ended: the process finished, or the actor died (and may restart)."""
        try:
            self.finished[name] = ray.get(ref)
            try:  # its last progress lines
                self.update(name, ray.get(self.actors[name].status.remote(), timeout=10))
            except Exception:
                pass
            return
        except RayActorError as e:
            state, restarts = self.actor_state(name)
            if restarts is not None:
                self.deaths[name] = restarts
            if state == "DEAD":
                self.dead.add(name)
                print(f"cluster: {name} is dead after {self.deaths[name]} restarts (--max-restarts {self.args.max_restarts}): {e.__class__.__name__}", flush=True)
            elif name not in self.down:
                self.down.add(name)
                print(f"cluster: {name} died ({e.__class__.__name__}); Ray restarts it", flush=True)

    def supervise(self) -> int:
        """Follows the actors until the trainer ends (or no worker is left); 0 if it succeeded."""
        waits = {name: a.wait.remote() for name, a in self.actors.items()}
        last_report = 0.0
        while True:
            if INTERRUPTED.is_set():
                raise KeyboardInterrupt("SIGINT")
            pending = {ref: name for name, ref in waits.items()}
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0) if pending else ([], [])
            for ref in ready:
                name = pending[ref]
                del waits[name]
                self.on_exit(name, ref)
            # Wait again on an actor once Ray has it alive again (calls to an actor that is still
            # restarting may fail at once).
            for name in list(self.down):
                if name in self.dead:
                    self.down.discard(name)
                    continue
                state, restarts = self.actor_state(name)
                if restarts is not None:
                    self.deaths[name] = restarts
                if state == "DEAD":
                    self.dead.add(name)
                    self.down.discard(name)
                    print(f"cluster: {name} is dead after {self.deaths[name]} restarts (--max-restarts {self.args.max_restarts})", flush=True)
                elif state in ("ALIVE", None):
                    self.down.discard(name)
                    print(f"cluster: {name} is running again (restart {self.deaths[name]})", flush=True)
            for name in self.actors:
                if name not in waits and name not in self.down and name not in self.dead and name not in self.finished:
                    waits[name] = self.actors[name].wait.remote()
            if "trainer" in self.finished or "trainer" in self.dead:
                break
            workers = [n for n in self.actors if n != "trainer"]
            if all(n in self.dead or n in self.finished for n in workers):
                print("cluster: no worker is left to feed the trainer", flush=True)
                break
            if time.time() - last_report >= self.args.poll:
                last_report = time.time()
                self.poll_status(timeout=min(5.0, self.args.poll))
                r = self.report()
                _atomic_json(self.cluster_dir / "status.json", r)
                self.print_report(r)
        self.poll_status(timeout=5.0)
        ok = self.finished.get("trainer") == 0
        return 0 if ok else 1

    def stop_all(self, reason: str) -> None:
        """Stops every process still running, then removes the actors (no restart)."""
        alive = {n: a for n, a in self.actors.items() if n not in self.dead and n not in self.finished}
        if alive:
            print(f"cluster: {reason}; stopping {', '.join(alive)}", flush=True)
            refs = [a.stop.remote() for a in alive.values()]
            try:
                ray.wait(refs, num_returns=len(refs), timeout=30)
                self.poll_status(timeout=5.0)  # their last progress lines
            except Exception:
                pass
            self.stopped.update(alive)
        for a in self.actors.values():
            try:
                ray.kill(a, no_restart=True)
            except Exception:
                pass

    def finish(self, rc: int) -> dict:
        """Writes and prints the final report."""
        r = self.report()
        r["exit_status"] = rc
        r["trainer_exit_status"] = self.finished.get("trainer")
        _atomic_json(self.cluster_dir / "status.json", r)
        _atomic_json(self.cluster_dir / "summary.json", r)
        self.print_report(r)
        return r


# Set by `_watch_sigint` on Ctrl-C; the supervising loop raises KeyboardInterrupt when it sees it.
INTERRUPTED = threading.Event()


def _watch_sigint() -> None:
    """Receives SIGINT with sigwait (it is blocked in every thread): a first Ctrl-C sets
    INTERRUPTED, a second ends the process at once (status 130). Python's own SIGINT handler is
    not used because Ray's DeferSigint (ray/_private/utils.py) swaps it out around its calls and
    drops a Ctrl-C that lands in one that raises; twice in one CI run the driver ran on for 60 s
    after Ctrl-C (experiments/cluster/README.md, "Known flake")."""
    while True:
        signal.sigwait({signal.SIGINT})
        if INTERRUPTED.is_set():
            os._exit(130)
        INTERRUPTED.set()


def _interrupt(signum, frame) -> None:
    """SIGTERM handler: ends the job as Ctrl-C does."""
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    """Runs the job; returns the exit status (0 done, 1 failed, 130 interrupted)."""
    args = parse_args(argv)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    job = Job(args)
    job.check()
    signal.signal(signal.SIGTERM, _interrupt)  # ends the job like Ctrl-C
    # Block SIGINT before Ray starts its threads (they inherit the mask), so that only the
    # watcher receives it.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    threading.Thread(target=_watch_sigint, name="sigint", daemon=True).start()
    if args.address == "local":
        ray.init(log_to_driver=False, include_dashboard=False)
    else:
        ray.init(address=args.address, log_to_driver=False)
    rc = 1
    try:
        job.start()
        rc = job.supervise()
        job.stop_all("the trainer has finished" if rc == 0 else "the trainer failed")
    except KeyboardInterrupt:
        INTERRUPTED.set()  # a second Ctrl-C (or the first, after a SIGTERM) ends at once
        job.stop_all("interrupted")
        rc = 130
    finally:
        job.finish(rc)
        ray.shutdown()
    print(f"cluster: done ({'ok' if rc == 0 else f'exit status {rc}'}); summary in {job.cluster_dir / 'summary.json'}", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
