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
// Its house AI may have its weights in memory (HouseLoad: kaisen tune's
// and kaisen exploit's candidates against a program).
//
// A Launcher starts a program for one connection of another's: it listens
// on a loopback port of its own, starts the command (in its process group,
// under its Limits) and hands over the connection the program makes as a
// Session, whose Close ends the group. Its HouseDialer is a server
// listener's house seat (server.ListenerConfig.HouseSeat: kaisen serve
// --house exec:, a program per pairing; package server does not import
// this one), and Relay plays a remote server's connection with it (kaisen
// play --player exec:, a program per connection, the rated ladder too).
package extern
