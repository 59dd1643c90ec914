#!/usr/bin/env python3
"""A starter bot for the submarine game (潜水艦ゲーム), standard library only.

It plays on any server of the published protocol, Kaisen's included, in both
dialects: the classic one (2016: a 5x5 sea, compact JSON) and submarine-py
(2025: the server names the board and its rocks, and asks for a name), one
game per connection or a whole series ("roundN." greetings).

    python3 submarine.py HOST PORT [--name NAME] [-c CONNECTIONS] [--seed S]
    kaisen serve --house random &   # then:  python3 submarine.py 127.0.0.1 2000 -c 100

-c plays that many connections in a row (a classic server plays one game
on each); it prints the tally of every game's end line.

Its play is deliberately simple, a place to start from: it remembers where
the enemy was last heard of (a hit, a "near" splash around its own attacks,
the cells around the enemy's attacks) and attacks the most suspected cell it
can reach; with nothing suspected it attacks at random within reach. It never
moves. docs/bots.md walks through the protocol line by line.
"""

import argparse
import json
import random
import socket
import sys

SHIPS = ("w", "c", "s")  # warship 3 hp, cruiser 2 hp, submarine 1 hp


class Board:
    """The sea: width x height cells, some of them rocks."""

    def __init__(self, width=5, height=5, rocks=()):
        self.width, self.height = width, height
        self.rocks = {tuple(r) for r in rocks}

    def cells(self):
        return [(x, y) for y in range(self.height) for x in range(self.width) if (x, y) not in self.rocks]

    def around(self, cell):
        """The usable cells within Chebyshev distance 1 of cell, itself included."""
        x0, y0 = cell
        out = []
        for y in range(y0 - 1, y0 + 2):
            for x in range(x0 - 1, x0 + 2):
                if 0 <= x < self.width and 0 <= y < self.height and (x, y) not in self.rocks:
                    out.append((x, y))
        return out


class Bot:
    """One game's player: place, act, and what it was told."""

    def __init__(self, board, rng):
        self.board, self.rng = board, rng
        self.me = {}  # own living ships: name -> (x, y)
        self.suspect = {}  # cell -> how strongly an enemy ship is believed there

    def place(self):
        cells = self.rng.sample(self.board.cells(), len(SHIPS))
        self.me = dict(zip(SHIPS, cells))
        return {name: list(cell) for name, cell in self.me.items()}

    def act(self):
        reach = {c for pos in self.me.values() for c in self.board.around(pos)} - set(self.me.values())
        if not reach:  # every cell in reach is our own: attack our own cell (legal, harmless)
            reach = set(self.me.values())
        best = max((self.suspect.get(c, 0.0), self.rng.random(), c) for c in reach)
        x, y = best[2]
        return {"attack": {"to": [x, y]}}

    def told(self, msg, mine):
        """msg is a result line; mine says whether we made the action."""
        for key in ("condition", "observation"):
            if key in msg:
                self.me = {name: tuple(s["position"]) for name, s in msg[key]["me"].items()}
        # Suspicion fades: ships move.
        self.suspect = {c: v * 0.8 for c, v in self.suspect.items() if v > 0.05}
        attacked = msg.get("result", {}).get("attacked")
        if not attacked:
            return
        at = tuple(attacked["position"])
        if mine:
            if "hit" in attacked:
                self.suspect[at] = self.suspect.get(at, 0.0) + 3.0
            else:
                self.suspect[at] = 0.0
            for c in self.board.around(at):
                if c != at:
                    self.suspect[c] = self.suspect.get(c, 0.0) + (0.5 if attacked["near"] else -0.5)
        else:  # the enemy fired at `at`: one of its ships is within 1 of it
            for c in self.board.around(at):
                self.suspect[c] = self.suspect.get(c, 0.0) + 0.4


def is_end(line):
    return line.rstrip(".") in ("you win", "you lose", "even", "draw")


def play(host, port, name, rng, tally):
    """Plays every game of one connection, counting the end lines in tally."""
    with socket.create_connection((host, port)) as sock:
        f = sock.makefile("rw", encoding="utf-8", newline="\n")

        def send(obj):
            f.write(json.dumps(obj) + "\n")
            f.flush()

        def read():
            line = f.readline()
            if not line:
                raise EOFError("the server closed the connection")
            return line.rstrip("\r\n")

        line = read()
        board = Board()
        if line.startswith("This is a submarine_py server"):
            f.write(name + "\n")
            f.flush()
            field = json.loads(read())
            board = Board(field["width"], field["height"], field.get("rock", []))
        while True:  # one game per iteration; `line` is its greeting
            bot = Bot(board, rng)
            send(bot.place())
            while True:
                line = read()
                if line == "your turn":
                    send(bot.act())
                    bot.told(json.loads(read()), mine=True)
                elif line == "waiting":
                    bot.told(json.loads(read()), mine=False)
                elif line.startswith("{"):
                    bot.told(json.loads(line), mine=False)  # a forfeit's last line
                elif is_end(line):
                    tally[line.rstrip(".")] = tally.get(line.rstrip("."), 0) + 1
                    break
                else:
                    raise ValueError("unexpected line: %r" % line)
            if line.endswith("."):  # the last game of a series: its tally follows
                return tally
            try:
                line = read()
            except EOFError:
                return tally  # one game per connection
            if not line.startswith("round"):
                raise ValueError("unexpected line after a game: %r" % line)


def main():
    ap = argparse.ArgumentParser(description="A starter bot for the submarine game.")
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("--name", default="starter-py", help="the name sent to submarine-py servers")
    ap.add_argument("-c", "--connections", type=int, default=1, help="connections in a row")
    ap.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    args = ap.parse_args()
    rng, tally = random.Random(args.seed), {}
    for _ in range(args.connections):
        play(args.host, args.port, args.name, rng, tally)
    print(" ".join("%s %d" % kv for kv in sorted(tally.items())))


if __name__ == "__main__":
    main()
