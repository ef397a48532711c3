"""Soak test of the game server: many tables of four websocket clients for minutes, against
``majiang serve`` on SQLite, sampling the server's memory and database size as it goes.

The tables and clients are those of ``server_load.py`` (four people a table, a think time before
each decision, latency from an action to the frame that reflects it). Every ``--every`` seconds
of the window it prints the server's RSS, the database's size with its write-ahead log, and the
actions and hands so far; at the end the errors the clients were sent, the latency quantiles, and
the lines of the server's log that report an error. A server that leaks grows its RSS or its WAL
from sample to sample; a server that fails says so in errors.

    .venv/bin/python benchmarks/server_soak.py                      # 50 tables, 5 minutes
    .venv/bin/python benchmarks/server_soak.py --tables 10 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from server_load import Think, free_port, loadavg, rss_mb, run_load, start_server


def db_mb(db: Path) -> float:
    """The database file and its write-ahead log, in MB."""
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists()) / 1e6


async def soak(port: int, pid: int, db: Path, args: argparse.Namespace) -> dict[str, object]:
    think = Think(args.think / 1000, args.think / 5000, 60.0)
    load = asyncio.create_task(run_load(port, pid, args.tables, args.warmup, args.seconds,
                                        args.seed, think=think))
    began = time.monotonic()
    print(f"{'t s':>6} {'RSS MB':>8} {'DB+WAL MB':>10}  load average")
    while not load.done():
        print(f"{time.monotonic() - began:>6.0f} {rss_mb(pid):>8.1f} {db_mb(db):>10.2f}  "
              f"{loadavg()}", flush=True)
        await asyncio.wait({load}, timeout=args.every)
    return load.result()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four clients (50)")
    parser.add_argument("--seconds", type=float, default=300.0, help="measured window (300)")
    parser.add_argument("--warmup", type=float, default=10.0, help="warm-up before it (10)")
    parser.add_argument("--think", type=float, default=500.0, metavar="MS",
                        help="mean think time before each decision (500 ms)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples (30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="majiang-soak-") as tmp:
        db, log, port = Path(tmp) / "soak.db", Path(tmp) / "server.log", free_port()
        server = start_server(db, port, log)
        try:
            row = asyncio.run(soak(port, server.pid, db, args))
        finally:
            server.terminate()
            server.wait(30)
        logged = [line for line in log.read_text(errors="replace").splitlines()
                  if "ERROR" in line or "Traceback" in line]
    print(f"{args.tables} tables, {args.seconds:g} s measured, think {args.think:g} ms: "
          f"{row['actions_per_s']:.0f} actions/s, {row['hands']} hands, p50 {row['p50_ms']:.1f} "
          f"ms, p99 {row['p99_ms']:.1f} ms, p99.9 {row['p999_ms']:.1f} ms, max "
          f"{row['max_ms']:.1f} ms; RSS {row['rss_mb']:.1f} MB ({row['mb_per_table']:.2f} MB a "
          f"table); errors sent to clients: {row['errors'] or 'none'}; error lines in the "
          f"server's log: {len(logged)}")
    for line in logged[:10]:
        print(f"  {line}", file=sys.stderr)
    return 1 if row["errors"] or logged else 0


if __name__ == "__main__":
    raise SystemExit(main())
