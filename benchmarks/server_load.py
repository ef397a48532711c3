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

The clients answer at once, so the tables ask for as many actions as the server can take: the
latency is the queue's (Little's law: pending answers / throughput), not a think time.

``--updates changed``: the clients connect with ``updates=changed`` (no ``update`` that tells them
nothing new; docs/server.md). ``--pin``: the server on the first CPU, the clients on the others,
so that the load generator does not preempt the server in the middle of a broadcast. The clients
use uvloop and orjson when installed (``--plain-client``: asyncio and json).

The milestone: 100 tables with p99 < 100 ms and < 2 MB per table.

    .venv/bin/python benchmarks/server_load.py --tables 10 100 500
"""

from __future__ import annotations

import argparse
import asyncio
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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

    def error(self, message: str) -> None:
        key = message.split(":")[0][:40]
        self.errors[key] = self.errors.get(key, 0) + 1


class Player:
    """One seat's client: answers every question it is asked, once."""

    def __init__(self, ws: ClientConnection, seat: int, stats: Stats, rng: random.Random) -> None:
        self.ws, self.seat, self.stats, self.rng = ws, seat, stats, rng
        self.pending: tuple[int, list[Any], float] | None = None
        """(step, legal actions, time sent) of the answer not yet reflected in a frame."""
        self.tokens, self.refilled = BURST, time.monotonic()

    async def pace(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
            self.refilled = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / RATE)

    async def run(self, stop: asyncio.Event) -> None:
        await self.pace()
        await self.ws.send(dumps({"type": "ready"}))
        latest: dict[str, Any] | None = None
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
                latest = frame
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
            if self.pending is None and latest is not None and latest.get("observation"):
                legal = latest["observation"]["legal_actions"]
                if legal:
                    wins = [a for a in legal if a["type"] == "win"]
                    action = wins[0] if wins else self.rng.choice(legal)
                    await self.pace()
                    self.pending = (latest["step"], legal, time.monotonic())
                    await self.ws.send(
                        dumps({"type": "act", "action": action, "step": latest["step"]})
                    )


async def make_tables(base: str, n: int, seed: int) -> list[tuple[str, list[str]]]:
    """N rooms of four people (long matches, long timers); their codes and seat tokens."""
    limit = asyncio.Semaphore(20)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:

        async def one(i: int) -> tuple[str, list[str]]:
            async with limit:
                room = await client.post("/rooms", json={
                    "rules": "gb", "hands": 64, "seed": seed + i, "turn_seconds": 600,
                    "grace_seconds": 600,
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


async def run_load(port: int, pid: int, n: int, warmup: float, seconds: float,
                   seed: int, updates: str = "all") -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    idle = rss_mb(pid)
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
    rng = random.Random(seed)
    players = [Player(ws, i % 4, stats, random.Random(rng.random()))
               for i, ws in enumerate(sockets)]
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    await asyncio.sleep(warmup)
    stats.measuring = True
    start, server_cpu, client_cpu = time.monotonic(), cpu_seconds(pid), time.process_time()
    await asyncio.sleep(seconds / 2)
    loaded = rss_mb(pid)
    await asyncio.sleep(seconds / 2)
    stats.measuring = False
    elapsed = time.monotonic() - start
    server_cpu = cpu_seconds(pid) - server_cpu
    client_cpu = time.process_time() - client_cpu
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
        "clients": 4 * n,
        "actions_per_s": stats.actions / elapsed,
        "p50_ms": quantile(0.50),
        "p99_ms": quantile(0.99),
        "idle_rss_mb": idle,
        "rss_mb": loaded,
        "mb_per_table": (loaded - idle) / n,
        "frames_per_action": stats.frames / max(1, stats.actions),
        "server_cpu_pct": 100 * server_cpu / elapsed,
        "server_cpu_ms_per_action": 1000 * server_cpu / max(1, stats.actions),
        "client_cpu_pct": 100 * client_cpu / elapsed,
        "samples": len(lat),
        "hands": stats.hands,
        "errors": dict(stats.errors),
    }


def start_server(db: Path, port: int, log: Path,
                 cpus: set[int] | None = None) -> subprocess.Popen[bytes]:
    python = ROOT / ".venv" / "bin" / "python"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(python if python.exists() else sys.executable), "-m", "majiang", "serve",
             "--port", str(port), "--db", f"sqlite:///{db}"],
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
    parser.add_argument("--warmup", type=float, default=5.0, help="warm-up before it (5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--updates", choices=["all", "changed"], default="all",
                        help="the clients take every update (all, the default) or only those "
                        "that tell them something new (changed)")
    parser.add_argument("--pin", action="store_true",
                        help="the server on the first CPU, the clients on the others")
    parser.add_argument("--plain-client", action="store_true",
                        help="the clients on asyncio and json (default: uvloop and orjson, "
                        "when installed, to leave the shared cores to the server)")
    args = parser.parse_args()
    fast_client(not args.plain_client)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 16 * max(args.tables) + 1024))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))  # the server inherits it

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
                                              args.seed, args.updates))
            finally:
                server.terminate()
                server.wait(30)
        rows.append(row)
        print(f"  {n} tables done: {json.dumps(row)}", file=sys.stderr, flush=True)

    print(f"{'tables':>6} {'clients':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'idle MB':>8} {'RSS MB':>8} {'MB/table':>9} {'frames/act':>10} {'srv ms/act':>10} "
          f"{'srv CPU%':>8} {'cli CPU%':>8} {'samples':>8} {'errors':>7}")
    for r in rows:
        print(f"{r['tables']:>6} {r['clients']:>7} {r['actions_per_s']:>10.0f} "
              f"{r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['idle_rss_mb']:>8.1f} "
              f"{r['rss_mb']:>8.1f} {r['mb_per_table']:>9.2f} {r['frames_per_action']:>10.2f} "
              f"{r['server_cpu_ms_per_action']:>10.2f} {r['server_cpu_pct']:>8.0f} "
              f"{r['client_cpu_pct']:>8.0f} {r['samples']:>8} "
              f"{sum(r['errors'].values()):>7}")
    for r in rows:
        if r["errors"]:
            print(f"errors at {r['tables']} tables: {r['errors']}")
    hundred = [r for r in rows if r["tables"] == 100]
    if hundred:
        r = hundred[0]
        met = r["p99_ms"] < 100 and r["mb_per_table"] < 2
        print(f"milestone (100 tables, p99 < 100 ms, < 2 MB per table): "
              f"{'met' if met else 'not met'} (p99 {r['p99_ms']:.1f} ms, "
              f"{r['mb_per_table']:.2f} MB per table)")
    else:
        print("milestone (100 tables, p99 < 100 ms, < 2 MB per table): not measured "
              "(run with --tables 100)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
