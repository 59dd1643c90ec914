// Package gamelog writes and reads the record of a whole run of games in
// one file: every game's replay, framed, in game order (kaisen match,
// tournament and gauntlet --games-out; kaisen replay reads it).
//
// The file is JSON lines. The first line names the run:
//
//	{"type":"games","format":1,"run":{...}}
//
// where "run" is the command's settings (game, players, games, seed, ...),
// what --recover checks before it resumes a run. Each game follows as a
// frame line and the game's replay, its Lines lines exactly as a replay
// file holds them (header first, result last):
//
//	{"type":"game","index":3,"p1":"random","p2":"admiral","lines":57,"result":{...}}
//	{"type":"header","game":"submarine",...}
//	...
//
// "index" numbers the games of the run from 0; "result" is the game's
// outcome as the arena counted it (arena.GameResult), so a run is summed
// up again without re-playing its replays. A writer flushes each game
// whole, so a run killed mid-way leaves complete games and at most one
// torn one at the end, which Resume drops.
package gamelog
