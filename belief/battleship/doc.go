// Package bsbelief is the inference of classic Battleship (package
// game/battleship): what the layouts of the enemy fleet can be, given a
// Position (misses, unsunk hits, sunk ships).
//
// Counting: Count returns the exact number of fleet layouts consistent with a
// Position and, per cell, how many of them put a ship on that cell. It is a
// transfer-matrix dynamic programme over a broken row profile with the fleet
// kept as a dense vector (count.go describes it; profile.go holds the frame
// and the profile codes, transfer.go the passes, span.go the fast numeric
// passes, cellmap.go the per-cell map). A Counter counts the positions of one game in turn, reusing the
// first pass of its previous count. EstimateCounts is the Monte Carlo
// estimate used when exact counting would exceed its budget.
//
// Sampling and placement: Sampler draws layouts uniformly among those
// consistent with a position, exactly, from the same programme;
// UniformPlacer draws a whole fleet uniformly over all valid layouts
// (rejection sampling from independent uniform proposals, with the exact
// Sampler as fallback on crowded boards); HumanPlacer is a documented
// non-uniform "human-like" placer.
package bsbelief
