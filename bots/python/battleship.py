#!/usr/bin/env python3
"""A starter bot for classic Battleship (Морской бой) on Kaisen's server,
standard library only.

It speaks the Kaisen battleship protocol (docs/protocol.md, Battleship): a
10x10 board, the Russian fleet (4, 3, 3, 2, 2, 2, 1, 1, 1, 1), ships that
never touch, not even at a corner, and cells written [row, col]. One game
per connection, or a series ("roundN." greetings).

    python3 battleship.py HOST PORT [-c CONNECTIONS] [--seed S]
    kaisen serve --game battleship --house bs-random --listen 127.0.0.1:2001 &
    python3 battleship.py 127.0.0.1 2001 -c 100

It plays hunt and target: shoot a random cell of a checkerboard until a hit,
then the cells around the hit along the ship's line until the kill, and
never shoot next to a sunk ship (no ship can be there). docs/bots.md walks
through the protocol line by line.
"""

import argparse
import json
import random
import socket
import sys

SIZE = 10
FLEET = (4, 3, 3, 2, 2, 2, 1, 1, 1, 1)


def neighbours(cell, diagonal):
    r, c = cell
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and (diagonal or not (dr and dc)):
                if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                    yield (r + dr, c + dc)


def random_fleet(rng):
    """A legal placement: every ship straight, on the board, touching no other."""
    while True:
        taken, ships = set(), []
        for length in FLEET:
            for _ in range(200):
                vertical = rng.random() < 0.5
                r = rng.randrange(SIZE - (length - 1 if vertical else 0))
                c = rng.randrange(SIZE - (0 if vertical else length - 1))
                cells = [(r + i, c) if vertical else (r, c + i) for i in range(length)]
                if not any(x in taken or any(n in taken for n in neighbours(x, True)) for x in cells):
                    break
            else:
                break  # this try got stuck: start again
            taken.update(cells)
            ships.append([list(x) for x in cells])
        if len(ships) == len(FLEET):
            return {"ships": ships}


class Bot:
    def __init__(self, rng):
        self.rng = rng
        self.shot = set()  # cells shot, or known to be empty
        self.hits = []  # cells of the ship being sunk

    def place(self):
        return random_fleet(self.rng)

    def act(self):
        targets = []
        if len(self.hits) == 1:
            targets = list(neighbours(self.hits[0], False))
        elif self.hits:  # two hits or more: along their line
            rows = {r for r, _ in self.hits}
            cols = {c for _, c in self.hits}
            if len(rows) == 1:
                r = rows.pop()
                targets = [(r, min(cols) - 1), (r, max(cols) + 1)]
            else:
                c = cols.pop()
                targets = [(min(rows) - 1, c), (max(rows) + 1, c)]
        targets = [t for t in targets if 0 <= t[0] < SIZE and 0 <= t[1] < SIZE and t not in self.shot]
        if not targets:
            free = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in self.shot]
            targets = [x for x in free if (x[0] + x[1]) % 2 == 0] or free
        r, c = self.rng.choice(targets)
        return {"shoot": {"to": [r, c]}}

    def told(self, msg, mine):
        shot = msg.get("result", {}).get("shot")
        if not shot or not mine:
            return  # the enemy's shots do not change where we shoot
        at = tuple(shot["position"])
        self.shot.add(at)
        if shot["outcome"] == "hit":
            self.hits.append(at)
        elif shot["outcome"] == "kill":
            for cell in map(tuple, shot["ship"]):
                self.shot.add(cell)
                self.shot.update(neighbours(cell, True))  # no ship touches a sunk one
            self.hits = []


def is_end(line):
    return line.rstrip(".") in ("you win", "you lose", "even")


def play(host, port, rng, tally):
    """Plays every game of one connection, counting the end lines in tally."""
    with socket.create_connection((host, port)) as sock:
        f = sock.makefile("rw", encoding="utf-8", newline="\n")

        def send(obj):
            f.write(json.dumps(obj, separators=(",", ":")) + "\n")
            f.flush()

        def read():
            line = f.readline()
            if not line:
                raise EOFError("the server closed the connection")
            return line.rstrip("\r\n")

        read()  # the greeting: "you are connected. please send me initial state."
        while True:
            bot = Bot(rng)
            send(bot.place())
            last = None  # who acted last: a result line follows "your turn" or "waiting"
            while True:
                line = read()
                if line == "your turn":
                    send(bot.act())
                    last = True
                elif line == "waiting":
                    last = False
                elif line.startswith("{"):
                    msg = json.loads(line)
                    if "error" in msg:
                        print("server: " + msg["error"], file=sys.stderr)
                    bot.told(msg, mine=bool(last))
                elif is_end(line):
                    key = line.rstrip(".")
                    tally[key] = tally.get(key, 0) + 1
                    break
                else:
                    raise ValueError("unexpected line: %r" % line)
            if line.endswith("."):
                return tally  # the last game of a series (its tally follows)
            try:
                line = read()
            except EOFError:
                return tally
            if not line.startswith("round"):
                raise ValueError("unexpected line after a game: %r" % line)


def main():
    ap = argparse.ArgumentParser(description="A starter bot for classic Battleship.")
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("-c", "--connections", type=int, default=1, help="connections in a row")
    ap.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    args = ap.parse_args()
    rng, tally = random.Random(args.seed), {}
    for _ in range(args.connections):
        play(args.host, args.port, rng, tally)
    print(" ".join("%s %d" % kv for kv in sorted(tally.items())))


if __name__ == "__main__":
    main()
