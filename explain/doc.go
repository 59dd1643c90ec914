// Package explain is the vocabulary a player uses to say why it chose its
// last action: a Decision with its state, its reason and the scored
// Candidates it considered. It is a leaf package shared by every game's
// players and by the hosts that record explanations (replays, the server,
// tournament timing), so none of them depends on another game's players.
package explain
