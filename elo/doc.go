// Package elo turns game results into the statistics engine authors read
// in fastchess and cutechess-cli: the Elo difference of a score with its
// 95% interval, the likelihood of superiority (LOS), the draw ratio, the
// pentanomial counts of paired games, and the sequential probability
// ratio test (SPRT) that stops a match as soon as the results decide
// between two Elo hypotheses. Every function is pure.
//
// # Elo and its interval
//
// A score s (points per game, a draw counting half) is the logistic Elo
// difference FromScore(s) = 400·log10(s/(1 − s)). Its 95% interval is the
// Wilson score interval of s mapped through FromScore. Draws (and, for
// pairs, the correlation of a pair's two games) make the score vary less
// than a win-or-loss proportion; the interval uses the Wilson formula with
// the effective number of games n·s(1−s)/var, where var is the observed
// variance of a game's (or a pair's) score. For scores well inside (0, 1)
// this is the normal interval fastchess prints; near 0% and 100% it stays
// inside [0, 1]. A perfect score (every game won) has Elo +Inf and a
// one-sided interval: a finite lower bound and Hi = +Inf (the score of n
// wins in n games is bounded below by n/(n+z²), z = 1.96, and not above);
// a score of 0 mirrors it. When the observed variance is 0 (every game
// won, every game drawn, every pair scored the same), the effective number
// of games is the number of games played, as if they were independent
// wins and losses: an all-draw result gets a real interval around 0, not
// a zero-width one.
//
// # SPRT
//
// SPRT.LLR is the generalised SPRT of fishtest and fastchess (M. Van den
// Bergh's normal approximation of the log-likelihood ratio): with n units
// (games, or pairs with the pentanomial), mean score μ and variance σ² per
// unit, and s0, s1 the expected scores under H0 (elo0) and H1 (elo1),
// LLR = n·(s1 − s0)·(2μ − s0 − s1) / (2σ²). Under the logistic model s is
// ToScore(elo); under the normalized model (nElo) s = 1/2 + nelo·σ'/C with
// C = 800/ln 10 and σ' the standard deviation of a game's score (per pair:
// √2·σ). The bounds are ln(β/(1−α)) and ln((1−β)/α).
//
// Unlike fastchess, whose LLR is 0 while the variance is 0, the counts
// get a prior of half a unit of an even score without draws (a pair: an
// eighth lost twice, a quarter split, an eighth won twice; a game: a
// quarter won, a quarter lost). The variance is then never 0, so a run in
// which every pair scores the same (a player that wins every game, or two
// copies of one deterministic AI, whose mirrored pairs always split)
// still decides; after a few hundred pairs the prior is negligible.
//
// Calibration, measured by TestSPRTCalibration (1000 simulated runs at
// each hypothesis, pairs of independent games with a 30% draw ratio,
// alpha = beta = 0.05, pentanomial, logistic model, elo0 = 0, elo1 = 10):
// see docs/cli.md ("Reading the statistics") for the figures.
package elo
