// Package abilities holds the pure rules of the abilities variant of
// Battleship (shared/spec/battleship.md, "The abilities variant"; the seed
// is shared/seeds/002-rules-abilities-ru.md): classic Battleship
// (game/battleship: board, fleet, placement, miss/hit/kill) where each seat
// plays a side, AI or Humans, whose ships have abilities.
//
//   - 1-decks (both sides) move one cell orthogonally, never onto a cell the
//     enemy has shot: hidden movement.
//   - 2-decks fire a salvo: two cells in a row (AI), or three cells of a 3x3
//     that the defender picks (Humans). A salvo ends the turn.
//   - 3-decks add to a shot: the count of ships in the 5x5 around it (AI), or
//     the suppression of the abilities of the enemy ships in the 3x3 around
//     it for the enemy's next turn (Humans).
//   - 4-decks defend: the AI answers its first hit "miss" once (a false
//     miss); the Humans answer a shot on or next to it "air defence" twice
//     (no shot happens). Either way the shooter's turn ends.
//
// Each ability is used at most once per turn. Game.Apply is the pure step:
// one Action in, what each seat is told out, no I/O. The defender's choices
// (which cells of a 3x3 it reveals, whether to spend the false miss or an
// air defence) are Actions of the defender, asked by a Question: the engine
// never makes them. Where the seed is ambiguous the reading is an Options
// field; docs/abilities.md explains each with a worked example.
package abilities
