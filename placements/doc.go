// Package placements learns where a submarine player places its fleet from
// a corpus of replays, and turns what it learnt into admiral weights.
//
// Read goes through the submarine replays of a corpus (the *.jsonl files
// of directories, and single files) and counts, in Stats, the cells each
// ship of one player started on, how many placements the rules refused,
// and the smallest Chebyshev distance between two of its ships; Ships and
// UniformShare say how often a ship started in a corner or on the edge,
// against a uniform placement. Every replay of a corpus must have the same
// board and fleet (a prior is for one board and fleet); replays of other
// games are skipped.
//
// WriteAdmiralWeights writes the counts as admiral weights whose
// belief.enemy_prior is the learnt prior (docs/admiral.md, "Learning the
// enemy's placement"): what kaisen placements --out writes.
package placements
