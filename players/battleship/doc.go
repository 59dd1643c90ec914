// Package bsplayers holds the classic Battleship (Морской бой) AIs and the
// registry that creates them by name. Its name differs from its directory
// (players/battleship) so that it does not clash with game/battleship:
//
//	import bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
//
// A Player places its fleet, names a cell when it is its turn, and is told the
// answer to every shot (its own and the enemy's), exactly what a wire client
// is told. PlayGame runs one game between two players; Solo lets one player
// shoot alone at a given layout (the "shots to sink a fleet" measure).
//
// The players: bs-random (uniform over unshot cells), gridbot (the classic
// hunt/target bot of the spec, two hunt patterns) and density (fires at the
// cell covered by the most layouts consistent with everything known, counted
// exactly by bsbelief.Count (package belief/battleship), sampled when exact counting would exceed its
// budget).
package bsplayers
