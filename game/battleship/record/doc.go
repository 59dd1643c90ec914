// Package record is the Battleship record format (docs/battleship.md;
// package replay has the framing every game shares): replays with one shot
// line per shot, cells [row, col] as on the Battleship wire.
//
// Writer writes them (the arena through Recorder, the turn server, the
// terminal seat), Read parses them strictly (unknown keys refused) and
// Replay.WriteTo writes them back, Verify re-plays every shot through
// battleship.Game (replay.Rerun), Render lists the shots with
// letter+number coordinates (A1 = [0,0]) and draws both boards, and HTML
// builds the web page's data. The abilities variant's record builds on
// its placements, result, FleetWriter and FleetRecorder. Importers name it
// bsrecord.
package record
