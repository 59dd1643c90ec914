// Package tune optimises the numeric weights of a player's YAML config
// against a pool of opponents (the engine behind `kaisen tune`).
//
// The optimiser core knows nothing about games: it maximises a noisy
// Objective over a box of parameters (a Space). SPSA (simultaneous
// perturbation stochastic approximation, Spall 1992) estimates the gradient
// from two evaluations per iteration, at θ+cΔ and θ−cΔ for a random ±1
// vector Δ, and evaluates both with the same seed (common random numbers), so
// that the noise shared by both sides cancels in their difference. The run is
// a pure function of its seed: the perturbation and the evaluation seed of
// iteration k are derived from (seed, k), which is also what lets a stopped
// run resume from a Checkpoint and continue exactly as if it had not stopped.
//
// Games enter only through GameObjective, which scores a parameter vector by
// the win rate of the tuned player against the pool, its games played in
// parallel, keeping each opponent's share apart; an Aggregate turns them
// into the value maximised (the mean, or a soft-min: the worst opponent
// counts). Exploit measures how exploitable a frozen player is: it tunes an
// opponent family against it and re-measures the best exploiter on games
// dealt from seeds the search never used.
//
// Which weights are tunable is discovered from the player's config struct by
// reflection (SpaceOf): every float64 field named by a `mapstructure` tag is a
// parameter called by its dotted key path ("value.hit"); a `tune:"min,max"`
// tag gives its range, `tune:"-"` excludes it, and an untagged field ranges
// over [0, 2·default] (or [0, 1] for a zero default). Players without a known
// struct are tuned through their YAML file instead (SpaceOfYAML): every
// floating-point value of it, with the untagged rule.
package tune
