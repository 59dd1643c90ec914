// Package series is what a player that learns across the games of a series
// is told between them: End, how the game it just played ended for it. It is
// a leaf package shared by every game's players and by the hosts that play
// series (arena.Match with Series, the server's series on one connection
// pair), so that a player can learn without importing a host.
//
// The hosts define the interface they call (arena.Learner): a player keeps
// what it has learnt, NewGame starts the next game of the series with that
// game's random stream, and EndGame tells it how the game ended. Neither
// game's rules reveal the opponent's fleet at the end (a wire client is not
// told it, so no host tells it either): a learner learns from what it
// observed during the game.
package series
