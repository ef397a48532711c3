"""Play one hand on a majiang server, as seat 0 against three bots, and print its id.

    python examples/server_hand.py http://localhost:8765 [RULES [SEED]]

It creates a one-hand room with a chosen seed (so the same hand every time; the server must
allow chosen seeds), takes seat 0, says it is ready, and answers every question over the
websocket: a win when one is offered, otherwise the first legal action. A client of the
protocol in docs/server.md in a few lines (the standard library and ``websockets``).
"""

from __future__ import annotations

import contextlib
import json
import sys
import urllib.request
from typing import Any

from websockets.sync.client import connect


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        result: dict[str, Any] = json.load(answer)
        return result


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next((a for a in legal if a["type"] == "win"), legal[0])


def main(base: str, rules: str = "gb", seed: int = 1) -> None:
    base = base.rstrip("/")
    room = post(f"{base}/rooms", {"rules": rules, "hands": 1, "seed": seed, "bot_seconds": 0,
                                  "next_seconds": 0, "bots": [None, "fan", "fan", "fan"]
                                  if rules == "gb" else [None, "wild", "wild", "wild"]})
    code = room["code"]
    token = post(f"{base}/rooms/{code}/seats/0", {"name": "example"})["token"]
    socket = base.replace("http", "ws", 1)
    with connect(f"{socket}/ws/{code}?token={token}") as ws:
        ws.send(json.dumps({"type": "ready"}))
        while True:
            frames = [json.loads(ws.recv())]
            with contextlib.suppress(TimeoutError):  # answer the newest question only
                while True:
                    frames.append(json.loads(ws.recv(timeout=0.05)))
            if any(f["type"] == "match_end" for f in frames):
                break
            latest = [f for f in frames if f.get("observation") is not None]
            if latest and latest[-1]["observation"]["legal_actions"]:
                frame = latest[-1]
                ws.send(json.dumps({"type": "act", "step": frame["step"],
                                    "action": choose(frame["observation"]["legal_actions"])}))
    with urllib.request.urlopen(f"{base}/rooms/{code}/hands") as answer:
        (hand,) = json.load(answer)
    result = hand["result"]
    if result["winner"] is None:
        outcome = "a draw"
    else:
        outcome = f"seat {result['winner']} won, {result['deltas']}"
    print(f"hand {hand['id']} finished: {outcome}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python examples/server_hand.py URL [RULES [SEED]]")
    main(sys.argv[1], *sys.argv[2:3], *[int(a) for a in sys.argv[3:4]])
