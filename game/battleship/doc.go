// Package battleship holds the pure rules of classic Battleship (Морской бой)
// as specified in shared/spec/battleship.md.
//
// Rules: a board of any size and shape (a grid.Board, cells r*width+c, rows
// first as on the wire), a fleet of straight ships given by their lengths
// (Russian default 4,3,3,2,2,2,1,1,1,1), ships that never touch, not even at a
// corner. A shot is answered miss, hit or kill (a kill reports the sunk ship's
// cells); a hit or a kill gives the shooter another shot. Game.Apply is the
// pure step: one shot in, what each side is told out, no I/O.
//
// A Position is what a shooter knows (misses, unsunk hits, sunk ships); the
// inference on it (exact layout counts, estimates, uniform sampling and
// placers) is package belief/battleship.
package battleship
