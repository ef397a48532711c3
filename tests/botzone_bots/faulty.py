"""A Botzone program that misbehaves at its Nth turn (for the tests): ``faulty.py MODE N``.

Before that turn it passes everything and discards what it draws; at turn N (counting every
request, from 1) it sleeps (``sleep``), exits with status 1 (``crash``), prints nonsense
(``garbage``), adds a drawn tile to a pung it does not have (``illegal``), declares a win it
does not have (``hu``, at a draw) or plays a tile where only PASS is due (``notpass``).
Simple I/O, one turn per run.
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    mode, n = sys.argv[1], int(sys.argv[2])
    turns = int(sys.stdin.readline())
    lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * turns - 1)]
    request = lines[-1].split()
    if turns >= n:
        if mode == "sleep":
            time.sleep(30)
        elif mode == "crash":
            sys.exit(1)
        elif mode == "garbage":
            print("HELLO THERE")
            return
        elif mode == "illegal" and request[0] == "2":
            print("BUGANG " + request[1])  # it has no pung
            return
        elif mode == "hu" and request[0] == "2":
            print("HU")
            return
        elif mode == "notpass" and request[0] != "2":
            print("PLAY W1")
            return
    print("PLAY " + request[1] if request[0] == "2" else "PASS")


if __name__ == "__main__":
    main()
