// Package record is the submarine game's record format (package replay has
// the framing every game shares): replays with one step line per action,
// positions [x, y] (x = column) as on the wire and ships named as in the
// rules' fleet.
//
// Writer writes them line by line (its step lines through a fast encoder
// that matches encoding/json byte for byte), Recorder is the hosts'
// game.Recorder on it, Read parses a replay and Replay.WriteTo writes it
// back, Verify re-plays the recorded actions through submarine.Game
// (replay.Rerun) and checks that every recorded Event and the result are
// exactly what the engine produces, Render draws the game turn by turn
// with both fleets side by side (and optional belief heatmaps) and HTML
// builds the data of the web page replay.WriteHTML writes. Importers name
// it subrecord.
package record
