// Package belief tracks what public information reveals about a hidden
// submarine fleet, at two levels, both exact for what they represent.
//
//   - Ships keeps, for every ship of the tracked fleet, the set of cells where
//     it may be (the per-ship "field" of the reference players). It is a small
//     value type: copying it clones it, and no update allocates.
//   - Joint keeps every placement of the surviving ships (one cell per living
//     ship, all distinct) that is consistent with the whole public history:
//     attacks on the fleet (hit, exact near set, negative near), its moves (a
//     displacement, impossible from cells where it would leave the board, land
//     on a rock or on another ship of the same fleet) and its own attacks (a
//     legal attack at P means a living ship of the fleet within distance 1 of
//     P). Probabilities are uniform over the consistent placements.
//
// Both levels serve two uses, chosen by a Side when an Event is observed:
//
//   - Enemy: a player tracks the opponent's fleet. Its own attacks hit the
//     tracked fleet, the opponent's moves are told as displacements, and the
//     opponent's attacks reveal where the opponent's ships may be.
//   - Own: a player tracks its own fleet as the opponent can know it (its
//     "exposure"). The opponent's attacks hit the tracked fleet, the player's
//     own moves shift it, and the player's own attacks reveal it.
//
// Either way the belief only ever uses what both sides are told, so a player's
// Own belief equals the opponent's Enemy belief about that fleet.
//
// Heatmap renders per-cell probabilities (a Joint marginal, a Ships set) as
// text for the command line and replays.
package belief
