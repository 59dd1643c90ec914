// Package hiddenfleet is the belief of one seat of the abilities variant of
// Battleship (game/abilities) over the enemy fleet: which layouts the enemy
// ships can have now, given everything the seat was told, when the enemy's
// 1-decks move unseen, its 4-deck may have lied once (the AI's false miss)
// or answered "air defence" (the Humans'), and the seat's own shots came as
// single shots, salvos and 5x5 counts.
//
// A Tracker reads the seat's events (Observe) and keeps the observations
// with their time: the epoch (the enemy fleet only changes between the
// seat's shots, when a 1-deck moves in the enemy's turn) and the order of
// every answer. A layout of the enemy fleet now is consistent when at least
// one hidden history leads to it: a starting layout and the 1-deck moves of
// every enemy turn, each legal when made (orthogonal, never onto a shot
// cell, never next to another ship unless Options.MoveMayTouch, never by a
// suppressed ship), such that every answer the seat heard is the answer the
// rules give, the defender's free choices (lie or not, defend or not)
// aside. The belief is the uniform distribution over the consistent
// layouts (as for the classic density bot), not over histories.
//
// Consistent checks one layout: the big ships (length 2 or more, which
// never move) against the answers that do not depend on the time, then a
// depth-first search backwards through the epochs for positions of the
// 1-decks at every epoch that fit the shots and 5x5 counts of that epoch
// and the moves between epochs. Layouts enumerates every consistent layout
// (exact; small boards); Estimate draws layouts by sequential importance
// sampling (big ships longest first, then the 1-decks, each uniformly among
// the places left) and weights the consistent ones by the inverse of their
// probability, so its shares converge to the exact ones (10x10).
package hiddenfleet
