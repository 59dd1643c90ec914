// Package extern plays external programs as players: a bot written in any
// language that speaks one of the server's wire protocols (docs/protocol.md)
// plays Kaisen's built-in AIs in kaisen match.
//
// A bot is given as a command line with placeholders, e.g. `exec:python3
// bot.py {host} {port}` (Parse). For every game, Kaisen starts a turn
// server of its own (package server, the code every TCP client plays) on a
// free loopback port, 127.0.0.1:0, with one listener whose opponent is the
// built-in AI, then starts the command with {host}, {port} and {seed} (the
// game's seed) filled in. The bot connects, plays the game as any client
// would, and the server's result is the game's: a crash, a hang (the
// listener's action and handshake timeouts), a garbage or over-long line,
// a line out of turn or an early exit forfeits the bot's own game, with the
// reason, and the last line of the bot's output, in the result.
//
// Process hygiene: the command runs directly when it is plain words, else
// under /bin/sh -c (quotes, pipes, lists, limits), in a process group of
// its own (Setpgid); when its game ends the whole group is killed, so a
// child it forked (or a shell pipeline) does not outlive the game. Its
// standard output and error go to one file per game (Family.LogDir), or to
// a temporary file whose last line is kept in the forfeit reason. Limits
// sets optional rlimits (data memory, CPU seconds) through the shell's
// ulimit before the command runs. A per-game timeout (Family.GameTimeout)
// ends a bot that never connects or never finishes; cancelling the match's
// context kills every bot at once.
//
// Family is an arena.Family: games run in parallel under the match's
// workers, seats alternate as in any match (the bot acts first in the
// games where it sits in seat 0, through the listener's first-player
// policy), and the results land in the same Summary as a built-in match's.
package extern
