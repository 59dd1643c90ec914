// Package battleship holds the pure rules of classic Battleship (Морской бой)
// as specified in shared/spec/battleship.md, plus the exact combinatorics the
// bots and the kaisen count command are built on.
//
// Rules: a board of any size and shape (a grid.Board, cells r*width+c, rows
// first as on the wire), a fleet of straight ships given by their lengths
// (Russian default 4,3,3,2,2,2,1,1,1,1), ships that never touch, not even at a
// corner. A shot is answered miss, hit or kill (a kill reports the sunk ship's
// cells); a hit or a kill gives the shooter another shot. Game.Apply is the
// pure step: one shot in, what each side is told out, no I/O.
//
// Counting: Count returns the exact number of fleet layouts consistent with a
// Position (misses, unsunk hits, sunk ships) and, per cell, how many of them
// put a ship on that cell. It is a transfer-matrix dynamic programme over a
// broken row profile with the fleet kept as a dense vector (see count.go).
//
// Placement: UniformPlacer draws a layout uniformly over all valid layouts
// (rejection sampling from independent uniform proposals, with an exact
// DP sampler as fallback on crowded boards); HumanPlacer is a documented
// non-uniform "human-like" placer.
package battleship
