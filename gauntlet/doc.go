// Package gauntlet plays one bot against a pool of opponents, as chess
// engine authors test an engine against a reference gauntlet with
// fastchess or cutechess-cli: the bot (a built-in AI or an external
// program, package extern) plays every opponent in paired games (the same
// deal twice, seats swapped), and the result gives, per opponent and over
// the whole pool, wins, draws and losses, the score, the Elo difference
// with its 95% interval from the pairs (pentanomial), the likelihood of
// superiority and the draw ratio. It is the engine of `kaisen gauntlet`.
//
// The package knows no game: Config.Family builds the match of the bot
// against each opponent (`kaisen gauntlet` takes it from the games
// registry). Opponent k plays an arena match seeded from the gauntlet seed
// and k, so the gauntlet is reproducible by seed whatever the number of
// workers; games are numbered opponent after opponent (game i against
// opponent k is k·Games+i), the order of a --games-out record.
//
// Result.WriteTable prints the table, Result.WriteHTML a self-contained
// page with the table, a plot of the Elo differences with their error
// bars and the list of games linked to their replays.
package gauntlet
