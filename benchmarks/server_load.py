"""Load test of the game server: N tables of four websocket clients against ``majiang serve``.

Each table is a room with four people: four clients acting as simple bots (the win when it is
offered, otherwise a random legal action, answered with the frame's ``step``), kept under the
server's rate limit (50 messages a second per connection). The server runs as a subprocess on
loopback with SQLite in a temporary directory. Measured over a window after a warm-up:

* actions/s: actions accepted by the server (every action of a four-person table is a client's);
* latency p50/p99: from sending an action to receiving the update frame that reflects it (the
  first frame after it in which that seat's choice has changed);
* RSS per live table: the server's VmRSS (``/proc/<pid>/status``) with every table playing, minus
  the idle server's, divided by the number of tables;
* frames per action received by the clients, the server's CPU time per action and its CPU share
  (``/proc/<pid>/stat``), and the load generator's own CPU share: it runs on the same machine, and
  on loopback every frame costs the receiver too.

By default the clients answer at once, so the tables ask for as many actions as the server can
take (a saturation test): the latency is the queue's (Little's law: pending answers /
throughput), not a think time. ``--think MS``: each client thinks before each decision (claims
too: each client offered one thinks on its own), ``--think-min`` (a fifth of the mean by default)
plus an exponential draw, so that the mean is ``MS``, from a seeded RNG per client (reproducible
runs); a question that changes while a client thinks is thought about afresh. The think time is
not in the latency, which runs from sending the action. The rooms' turn timer is 600 s (the most
the server allows, re-armed at every action), so it never fires in a run.

Set-up: the rooms and seats over HTTP (about 0.2 s of the server's time a table: some 90 s for
500 tables), the websockets (100 handshakes at a time), then every client's ``ready`` (``--ramp``
spreads them); the warm-up begins once every table has been dealt its first hand, and the
measured window after it. The soft limit on open files is raised towards the hard one (the
server inherits it). The load average (``/proc/loadavg``) before and after the window is printed:
the machine is shared.

``--updates changed``: the clients connect with ``updates=changed`` (no ``update`` that tells them
nothing new; docs/server.md). ``--pin``: the server on the first CPU, the clients on the others,
so that the load generator does not preempt the server in the middle of a broadcast. The clients
use uvloop and orjson when installed (``--plain-client``: asyncio and json).

The milestone: 100 tables with p99 < 100 ms and < 2 MB per table.

    .venv/bin/python benchmarks/server_load.py --tables 10 100 500
    .venv/bin/python benchmarks/server_load.py --tables 10 100 500 --think 1000 --warmup 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

try:
    import orjson
except ImportError:  # the server extra brings it; the standard library's codec otherwise
    orjson = None  # type: ignore[assignment]
try:
    import uvloop
except ImportError:
    uvloop = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
loads: Any = json.loads
dumps: Any = json.dumps


def fast_client(on: bool) -> None:
    """The load generator's own costs: orjson and uvloop when installed (on), or the standard
    library's codec and event loop."""
    global loads, dumps
    if on and orjson is not None:
        loads, dumps = orjson.loads, lambda data: orjson.dumps(data).decode()
    else:
        loads, dumps = json.loads, json.dumps
RATE, BURST = 45.0, 80.0
"""The clients' pace: just under the server's limit (50 a second, bursts of 100)."""
TURN_SECONDS = GRACE_SECONDS = 600.0
"""The rooms' turn timer and reconnection grace: the longest the server allows, so that no timer
fires during a run (the turn timer is re-armed at every action; a think is at most a tenth of
it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_queue_seconds(pid: int) -> float:
    """Time a process's main thread (the event loop) has spent runnable but waiting for a CPU
    (``/proc/<pid>/schedstat``): on a shared machine, the time other jobs took from it."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


@dataclass
class Stats:
    measuring: bool = False
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    hands: int = 0
    frames: int = 0
    dealt: int = 0
    """Clients that have been dealt their first hand (the match started)."""
    all_dealt: asyncio.Event = field(default_factory=asyncio.Event)
    clients: int = 0

    def error(self, message: str) -> None:
        key = message.split(":")[0][:40]
        self.errors[key] = self.errors.get(key, 0) + 1


@dataclass(frozen=True)
class Think:
    """The clients' think time before each decision: none (``mean`` 0: answer at once), or
    ``floor`` plus an exponential draw of mean ``mean - floor`` (so the mean is ``mean`` and no
    answer comes sooner than ``floor``), at most ``cap``; in seconds."""

    mean: float = 0.0
    floor: float = 0.0
    cap: float = 0.0

    def draw(self, rng: random.Random) -> float:
        extra = self.mean - self.floor
        return min(self.cap, self.floor + (rng.expovariate(1 / extra) if extra > 0 else 0.0))

    def describe(self) -> str:
        if self.mean <= 0:
            return "instant (each client answers as soon as a frame offers it a decision)"
        return (f"think {1000 * self.floor:.0f} ms + Exp(mean {1000 * (self.mean - self.floor):.0f}"
                f" ms) = mean {1000 * self.mean:.0f} ms, at most {self.cap:.0f} s, before each "
                f"decision (claims too, each client on its own), from a seeded RNG per client; "
                f"think time is not in the latency")


class Player:
    """One seat's client: answers every question it is asked, once (after a think time when
    ``think`` has one)."""

    def __init__(self, ws: ClientConnection, seat: int, stats: Stats, rng: random.Random,
                 think: Think = Think(), think_rng: random.Random | None = None,
                 start: float = 0.0) -> None:
        self.ws, self.seat, self.stats, self.rng = ws, seat, stats, rng
        self.think, self.think_rng = think, think_rng or random.Random(rng.random())
        self.start = start
        """Seconds to wait before the ready message (the tables' start spread over a ramp)."""
        self.pending: tuple[int, list[Any], float] | None = None
        """(step, legal actions, time sent) of the answer not yet reflected in a frame."""
        self.latest: dict[str, Any] | None = None
        self.thinking: tuple[list[Any], asyncio.Task[None]] | None = None
        """The question being thought about (its legal actions) and the task that answers it."""
        self.tokens, self.refilled = BURST, time.monotonic()
        self.dealt = False

    async def pace(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
            self.refilled = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / RATE)

    def choose(self, legal: list[Any]) -> Any:
        wins = [a for a in legal if a["type"] == "win"]
        return wins[0] if wins else self.rng.choice(legal)

    async def send_action(self, step: int, legal: list[Any], action: Any) -> None:
        """Send an answer; its latency is measured from here (after any think time)."""
        self.pending = (step, legal, time.monotonic())
        await self.ws.send(dumps({"type": "act", "action": action, "step": step}))

    async def answer_later(self, legal: list[Any], delay: float) -> None:
        """Think, then answer the question still asked (cancelled if it changes meanwhile),
        at the step of the latest frame (in a claim window the others' answers move it on)."""
        await asyncio.sleep(delay)
        action = self.choose(legal)
        await self.pace()
        latest = self.latest
        assert latest is not None
        self.thinking = None  # from here on, no await before the answer is pending
        with contextlib.suppress(ConnectionClosed):  # the run is over
            await self.send_action(latest["step"], legal, action)

    def stop_thinking(self) -> None:
        if self.thinking is not None:
            self.thinking[1].cancel()
            self.thinking = None

    async def run(self, stop: asyncio.Event) -> None:
        try:
            await self.play(stop)
        finally:
            self.stop_thinking()

    async def play(self, stop: asyncio.Event) -> None:
        if self.start > 0:
            await asyncio.sleep(self.start)
        await self.pace()
        await self.ws.send(dumps({"type": "ready"}))
        while not stop.is_set():
            try:
                frame = loads(await self.ws.recv())
            except ConnectionClosed:
                return
            if self.stats.measuring:
                self.stats.frames += 1
            kind = frame["type"]
            if kind == "error":
                self.stats.error(frame["message"])
                self.pending = None
            elif kind in ("state", "update"):
                self.latest = frame
                if not self.dealt and frame.get("hand") is not None:
                    self.dealt = True
                    self.stats.dealt += 1
                    if self.stats.dealt == self.stats.clients:
                        self.stats.all_dealt.set()
                obs = frame.get("observation")
                legal = obs["legal_actions"] if obs else []
                if self.pending is not None:
                    step, asked, sent = self.pending
                    if frame.get("step", 0) > step and legal != asked:
                        if self.stats.measuring:
                            self.stats.actions += 1
                            self.stats.latencies.append(time.monotonic() - sent)
                        self.pending = None
            elif kind == "hand_end":
                if self.seat == 0 and self.stats.measuring:
                    self.stats.hands += 1
                continue
            elif kind == "match_end":
                return
            else:
                continue
            latest = self.latest
            if self.pending is not None or latest is None:
                continue
            obs = latest.get("observation")
            legal = obs["legal_actions"] if obs else []
            if self.think.mean <= 0:
                if legal:
                    action = self.choose(legal)
                    await self.pace()
                    await self.send_action(latest["step"], legal, action)
            elif not legal:
                self.stop_thinking()
            elif self.thinking is None or self.thinking[0] != legal:  # a new question
                self.stop_thinking()
                delay = self.think.draw(self.think_rng)
                self.thinking = (legal, asyncio.create_task(self.answer_later(legal, delay)))


async def make_tables(base: str, n: int, seed: int) -> list[tuple[str, list[str]]]:
    """N rooms of four people (long matches, long timers); their codes and seat tokens. Idle
    HTTP connections are dropped after a second, before the server's keep-alive timeout (5 s)
    can close one under a request (a ``ReadError``, seen at 500 tables: the set-up is slow, about
    0.2 s of the server's time per table)."""
    limit = asyncio.Semaphore(20)
    limits = httpx.Limits(max_connections=20, keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:

        async def one(i: int) -> tuple[str, list[str]]:
            async with limit:
                room = await client.post("/rooms", json={
                    "rules": "gb", "hands": 64, "seed": seed + i, "turn_seconds": TURN_SECONDS,
                    "grace_seconds": GRACE_SECONDS, "bot_seconds": 0, "next_seconds": 0,
                })
                room.raise_for_status()
                code = room.json()["code"]
                tokens = []
                for seat in range(4):
                    grant = await client.post(f"/rooms/{code}/seats/{seat}",
                                              json={"name": f"t{i}s{seat}"})
                    grant.raise_for_status()
                    tokens.append(grant.json()["token"])
                return code, tokens

        return list(await asyncio.gather(*(one(i) for i in range(n))))


def loadavg() -> str:
    """The machine's load average over 1, 5 and 15 minutes (``/proc/loadavg``)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def run_load(port: int, pid: int, n: int, warmup: float, seconds: float,
                   seed: int, updates: str = "all", think: Think = Think(),
                   ramp: float = 0.0) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    idle = rss_mb(pid)
    set_up = time.monotonic()
    tables = await make_tables(base, n, seed)
    stats = Stats()
    stop = asyncio.Event()
    limit = asyncio.Semaphore(100)

    async def open_seat(code: str, token: str) -> ClientConnection:
        async with limit:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}"
                               f"&updates={updates}",
                               max_size=1 << 22, open_timeout=60, ping_interval=None)
            return ws

    sockets = await asyncio.gather(
        *(open_seat(code, token) for code, tokens in tables for token in tokens)
    )
    set_up = time.monotonic() - set_up
    rng = random.Random(seed)
    players = []
    for i, ws in enumerate(sockets):
        choices = random.Random(rng.random())
        thinks = random.Random(f"think {seed} {i}")  # its own stream: reproducible per client
        players.append(Player(ws, i % 4, stats, choices, think, thinks, ramp * (i // 4) / n))
    stats.clients = len(players)
    began = time.monotonic()
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    await asyncio.wait_for(stats.all_dealt.wait(), 600)  # every match started: then the warm-up
    started = time.monotonic() - began
    await asyncio.sleep(warmup)
    stats.measuring = True
    load_before = loadavg()
    start, server_cpu, client_cpu = time.monotonic(), cpu_seconds(pid), time.process_time()
    server_wait, client_wait = run_queue_seconds(pid), run_queue_seconds(os.getpid())
    await asyncio.sleep(seconds / 2)
    loaded = rss_mb(pid)
    await asyncio.sleep(seconds / 2)
    stats.measuring = False
    elapsed = time.monotonic() - start
    server_cpu = cpu_seconds(pid) - server_cpu
    client_cpu = time.process_time() - client_cpu
    server_wait = run_queue_seconds(pid) - server_wait
    client_wait = run_queue_seconds(os.getpid()) - client_wait
    load_after = loadavg()
    stop.set()
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies)

    def quantile(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": n,
        "updates": updates,
        "think_ms": 1000 * think.mean,
        "set_up_s": set_up,
        "start_s": started,
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "clients": 4 * n,
        "actions_per_s": stats.actions / elapsed,
        "p50_ms": quantile(0.50),
        "p99_ms": quantile(0.99),
        "p999_ms": quantile(0.999),
        "max_ms": lat[-1] * 1000 if lat else float("nan"),
        "idle_rss_mb": idle,
        "rss_mb": loaded,
        "mb_per_table": (loaded - idle) / n,
        "frames_per_action": stats.frames / max(1, stats.actions),
        "server_cpu_pct": 100 * server_cpu / elapsed,
        "server_cpu_ms_per_action": 1000 * server_cpu / max(1, stats.actions),
        "client_cpu_pct": 100 * client_cpu / elapsed,
        "server_wait_pct": 100 * server_wait / elapsed,
        "client_wait_pct": 100 * client_wait / elapsed,
        "samples": len(lat),
        "hands": stats.hands,
        "errors": dict(stats.errors),
    }


ONE_ADDRESS = ["--room-rate", "1e6", "--room-burst", "1e6", "--seat-rate", "1e6",
               "--seat-burst", "1e6", "--rooms-per-address", "1000000"]
"""Every client of the benchmark comes from one address: the server's per-address limits on
creating rooms and taking seats are lifted (the other limits are the server's own)."""


def start_server(db: Path, port: int, log: Path,
                 cpus: set[int] | None = None) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "majiang", "serve",
             "--port", str(port), "--db", f"sqlite:///{db}", *ONE_ADDRESS],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
            preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus),
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window (20)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="warm-up before it (5), from the moment every table has been dealt "
                        "its first hand (the set-up and the matches' start come before)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--updates", choices=["all", "changed"], default="all",
                        help="the clients take every update (all, the default) or only those "
                        "that tell them something new (changed)")
    parser.add_argument("--pin", action="store_true",
                        help="the server on the first CPU, the clients on the others")
    parser.add_argument("--plain-client", action="store_true",
                        help="the clients on asyncio and json (default: uvloop and orjson, "
                        "when installed, to leave the shared cores to the server)")
    parser.add_argument("--think", type=float, default=0.0, metavar="MS",
                        help="mean think time before each decision, in ms (0, the default: "
                        "answer at once, a saturation test)")
    parser.add_argument("--think-min", type=float, default=None, metavar="MS",
                        help="the shortest think time, in ms (default: a fifth of --think); the "
                        "rest is exponential, so that the mean stays --think")
    parser.add_argument("--ramp", type=float, default=0.0, metavar="S",
                        help="the tables' ready messages spread over this many seconds (0, the "
                        "default: all at once); the warm-up begins once every table has been "
                        "dealt its first hand")
    args = parser.parse_args()
    fast_client(not args.plain_client)
    if args.think < 0 or (args.think_min is not None and not 0 <= args.think_min <= args.think):
        parser.error("need 0 <= --think-min <= --think")
    think_min = args.think / 5 if args.think_min is None else args.think_min
    think = Think(args.think / 1000, think_min / 1000, TURN_SECONDS / 10)
    ramp = args.ramp

    # Each table takes 4 client sockets here and 4 in the server (its own process), plus files
    # and the database: raise the soft limit towards the hard one (the server inherits it).
    need = 8 * max(args.tables) + 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard == resource.RLIM_INFINITY else min(hard, max(soft, 2 * need))
    if want != soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    if want != resource.RLIM_INFINITY and want < need:
        print(f"warning: {want} file descriptors allowed (hard limit), about {need} needed",
              file=sys.stderr)
    print(f"clients: {think.describe()}; ramp {ramp:g} s, warm-up {args.warmup:g} s, measured "
          f"{args.seconds:g} s; turn timer {TURN_SECONDS:.0f} s; updates={args.updates}"
          f"{'; --pin' if args.pin else ''}; seed {args.seed}", flush=True)

    cpus = sorted(os.sched_getaffinity(0))
    pin = args.pin and len(cpus) > 1
    rows = []
    for n in args.tables:
        with tempfile.TemporaryDirectory(prefix="majiang-load-") as tmp:
            port = free_port()
            server = start_server(Path(tmp) / "load.db", port, Path(tmp) / "server.log",
                                  {cpus[0]} if pin else None)
            if pin:
                os.sched_setaffinity(0, set(cpus[1:]))
            try:
                time.sleep(0.5)
                httpx.get(f"http://127.0.0.1:{port}/rooms/NONE")  # warm the routes
                factory = uvloop.new_event_loop if uvloop and not args.plain_client else None
                with asyncio.Runner(loop_factory=factory) as runner:
                    row = runner.run(run_load(port, server.pid, n, args.warmup, args.seconds,
                                              args.seed, args.updates, think, ramp))
            finally:
                server.terminate()
                server.wait(30)
        rows.append(row)
        print(f"  {n} tables done: {json.dumps(row)}", file=sys.stderr, flush=True)

    print(f"{'tables':>6} {'clients':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8} {'idle MB':>8} {'RSS MB':>8} {'MB/table':>9} {'frames/act':>10} "
          f"{'srv ms/act':>10} {'srv CPU%':>8} {'srv wait%':>9} {'cli CPU%':>8} {'cli wait%':>9} "
          f"{'samples':>8} {'errors':>7} "
          f"{'set-up s':>8} {'start s':>7}  load average (before, after)")
    for r in rows:
        print(f"{r['tables']:>6} {r['clients']:>7} {r['actions_per_s']:>10.0f} "
              f"{r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['max_ms']:>8.1f} "
              f"{r['idle_rss_mb']:>8.1f} {r['rss_mb']:>8.1f} {r['mb_per_table']:>9.2f} "
              f"{r['frames_per_action']:>10.2f} {r['server_cpu_ms_per_action']:>10.2f} "
              f"{r['server_cpu_pct']:>8.0f} {r['server_wait_pct']:>9.0f} "
              f"{r['client_cpu_pct']:>8.0f} {r['client_wait_pct']:>9.0f} {r['samples']:>8} "
              f"{sum(r['errors'].values()):>7} {r['set_up_s']:>8.1f} {r['start_s']:>7.1f}  "
              f"{r['loadavg_before']}, {r['loadavg_after']}")
    for r in rows:
        if r["errors"]:
            print(f"errors at {r['tables']} tables: {r['errors']}")
    hundred = [r for r in rows if r["tables"] == 100]
    if hundred:
        r = hundred[0]
        met = r["p99_ms"] < 100 and r["mb_per_table"] < 2
        print(f"milestone (100 tables, p99 < 100 ms, < 2 MB per table): "
              f"{'met' if met else 'not met'} (p99 {r['p99_ms']:.1f} ms, "
              f"{r['mb_per_table']:.2f} MB per table; {think.describe().split(' (')[0]})")
    else:
        print("milestone (100 tables, p99 < 100 ms, < 2 MB per table): not measured "
              "(run with --tables 100)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
