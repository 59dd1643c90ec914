// Package record is the abilities variant's record format (package replay
// has the framing every game shares): replays on a Battleship board
// (game/battleship/record's rules, placements and result lines) with one
// action line per action as the seat played it, and, when explanations
// are asked, the actor's decision. The rules' answers are not stored:
// Verify recomputes them by re-playing the actions through abilities.Game
// (replay.Rerun).
//
// Writer writes them (Recorder for the arena, the turn server), Read reads
// them strictly and Replay.WriteTo writes them back, Render lists the
// actions with the answers as the attacker heard them and draws both
// fleets, and HTML builds the web page's data. Importers name it abrecord.
package record
