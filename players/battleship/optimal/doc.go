// Package bsoptimal plays classic Battleship (package game/battleship)
// perfectly on small boards: it computes, exactly, the least expected number
// of shots that sinks a fleet placed uniformly at random (every valid layout
// equally likely), and the expected number of shots of any policy given as a
// function of what the shooter knows, greedy's among them (shoot the unshot
// cell that the most consistent layouts cover, ties broken uniformly).
//
// The shooter's knowledge is the set of layouts consistent with the answers
// so far (miss, hit, kill with the sunk ship revealed) and the cells shot. A
// Solver enumerates every layout of the board (at most 64 cells, so that a
// layout is one uint64), and values knowledge states by memoised search:
//
//	V(S) = 0 when the fleet is sunk, else
//	V(S) = min over unshot cells c of 1 + Σ_answers P(answer | S, c) V(S after c)
//
// Two exact reductions keep the search small. A cell that no consistent
// layout covers is never worth a shot (a sunk ship's ring is one), and a
// cell that every consistent layout covers is shot at once: every policy
// has to shoot it before the fleet is sunk, and shooting it first only
// adds knowledge to the same number of shots. Candidates are tried densest
// first with a lower bound (each consistent layout still needs its unshot
// ship cells) that cuts a candidate as soon as it cannot beat the best one.
//
// Policies are evaluated on the tree of their own choices, level by level
// (each shot adds one cell), so that Regrets can split a policy's excess
// over the optimum into the excess of each move it makes: V_π − V* =
// Σ_states P_π(state) (Q*(state, π's move) − V*(state)).
//
// Candidates are searched with a cut (branch and bound): a state searched
// under a cut it cannot beat memoises a lower bound, not its value, and is
// searched again if a later caller needs more.
//
// Policies: Greedy, EntropyTieBreak, EntropyBonus, Scored(Lookahead), or
// any function of the Knowledge (ParsePolicy reads their names).
//
// The search is exponential in the board: 4x4 boards take about a second,
// 4x5 and crowded 5x5 ones (5x5 with a 4, a 3 and a 2) about a minute, 5x5
// with a 3, a 2 and a 1 half an hour (13 million states, 1.7 GB), and the
// 10x10 game is far out of reach. Options bound the layouts and the states;
// beyond them the Solver refuses with ErrTooLarge.
package bsoptimal
