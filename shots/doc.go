// Package shots measures how many shots a Battleship AI needs to sink a
// fleet it shoots at alone: no opponent, no turns, only the AI, a fleet
// drawn by a Placer, and the shots until the last ship sinks (what kaisen
// shots prints).
//
// Run plays the games [Lo, Hi) of a run on Workers goroutines. Game i draws
// its fleet and the AI's randomness from the run's seed and i alone, so the
// shot counts of a seed do not depend on the number of workers, and a
// shard of a run plays exactly the games a single run would. With Series
// the games are played in series of consecutive games by one player that
// learns the layouts between them (bsplayers.Learner); with Vs every game
// is played again by a second AI on the same fleet and random stream, so
// that the two are paired.
//
// A cancelled context stops the run: Run returns the games finished by
// then, without an error. A game whose player errs or panics makes Run
// fail with a *GameError naming the game.
//
// Summarize turns the shot counts into the statistics kaisen shots prints
// (mean, median, sample standard deviation, nearest-rank percentiles), and
// Summary.Pair adds the paired difference of a Vs run.
package shots
