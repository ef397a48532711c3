"""A small Chinese Standard Mahjong player in Botzone's protocol, for the tests.

It keeps its own hand from the requests, declares a concealed kong when it can, pungs any
discard it holds a pair of (discarding its highest tile after), and otherwise discards the tile
it drew. ``--styled`` prints the JSON output over several lines, tab-indented, as jsoncpp's
stream writer does (the official sample bot's ``cout << json``).
``--io json|simple`` picks the turn format, ``--keep-running`` Botzone's long-running
mode (otherwise it answers one turn from the whole history and exits).
"""

from __future__ import annotations

import json
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class Player:
    def __init__(self) -> None:
        self.me = -1
        self.hand: list[str] = []
        self.last = ""  # the tile on offer
        self.last_response = ""

    def fold(self, request: str) -> None:
        w = request.split()
        if w[0] == "0":
            self.me = int(w[1])
        elif w[0] == "1":
            self.hand = w[5:18]
        elif w[0] == "2":
            self.hand.append(w[1])
        elif w[0] == "3" and int(w[1]) == self.me:
            act = w[2]
            if act == "PLAY":
                self.hand.remove(w[3])
            elif act == "PENG":
                for _ in range(2):
                    self.hand.remove(self.last)
                self.hand.remove(w[3])
            elif act == "GANG" and self.last_response.startswith("GANG "):
                for _ in range(4):
                    self.hand.remove(self.last_response.split()[1])
        if w[0] == "3" and w[2] in ("PLAY", "PENG", "CHI"):
            self.last = w[-1]

    def respond(self, request: str) -> str:
        w = request.split()
        if w[0] == "2":
            if self.hand.count(w[1]) == 4:
                return "GANG " + w[1]
            return "PLAY " + w[1]
        offered = w[0] == "3" and int(w[1]) != self.me and w[2] in ("PLAY", "PENG", "CHI")
        if offered and self.hand.count(w[-1]) >= 2:
            rest = list(self.hand)
            rest.remove(w[-1])
            rest.remove(w[-1])
            return "PENG " + max(rest)
        return "PASS"

    def turn(self, request: str) -> str:
        self.fold(request)
        self.last_response = self.respond(request)
        return self.last_response


def main() -> None:
    io = "simple" if "simple" in sys.argv else "json"
    keep = "--keep-running" in sys.argv
    styled = "--styled" in sys.argv
    if io == "json":
        data = json.loads(sys.stdin.readline())
        requests, responses = data["requests"], data["responses"]
    else:
        n = int(sys.stdin.readline())
        lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
        requests, responses = lines[0::2], lines[1::2]
        sys.stdin.readline()  # data
        sys.stdin.readline()  # globaldata
    player = Player()
    for request, response in zip(requests[:-1], responses, strict=True):
        player.fold(request)
        player.last_response = response
    answer = player.turn(requests[-1])
    while True:
        if io == "simple":
            print(answer)
        elif styled:
            print('{\n\t"response" : ' + json.dumps(answer) + "\n}")
        else:
            print(json.dumps({"response": answer}))
        if not keep:
            return
        print(KEEP, flush=True)
        line = sys.stdin.readline()
        while line and not line.strip():
            line = sys.stdin.readline()
        if not line:
            return
        answer = player.turn(line.strip())


if __name__ == "__main__":
    main()
