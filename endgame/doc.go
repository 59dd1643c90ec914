// Package endgame solves the submarine game exactly once it has become a game
// of perfect information: both fleets' cells and hp are known to both sides.
//
// From such a position every action keeps the positions known (a move
// reveals its ship and displacement, an attack's answer is public), so the
// rest of the game is a finite two-player game of perfect information whose
// state is the two fleets (cell and hp of each living ship) and the side to
// move. Its value for the side to move is Win, Draw or Loss under perfect
// play, where play that never ends counts as a draw: the rules' cap of 10000
// actions is far beyond any forced win, so a position from which neither side
// can force the other's last ship to sink is a draw (cycles are draws).
// Alongside the outcome a Value carries the number of plies to the end: the
// winner takes the fastest win, the loser the slowest loss.
//
// Two engines answer:
//
//   - a Tablebase built by retrograde analysis, material class by material
//     class (hp never rises, so a class depends only on the classes its hits
//     lead to), lazily on first use and cached, safe for concurrent games;
//     its values and distances are exact;
//   - for material too large for the table (on 5x5: three ships against two
//     or three), an alpha-beta search over the same rules with a
//     transposition table and a node budget, whose leaves are the table's
//     exact values. It proves wins and losses and answers Unknown when the
//     budget runs out: it never returns a wrong outcome.
//
// A Solver combines both. Solve values a Position; Actions values every legal
// action of the side to move (so a player can take a win, never step from a
// draw into a loss and prefer the fastest win or the slowest loss); Best picks
// the best of them. Known builds a Position from what a player holds: its own
// submarine.Fleet, the enemy's single known placement and the enemy's hp.
//
// See docs/endgame.md for the sizes, the measured build times and the table
// of outcomes by material.
package endgame
