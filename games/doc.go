// Package games is the list of games Kaisen plays — the submarine game
// (潜水艦ゲーム), classic Battleship and its abilities variant — and what each
// host needs to run one: its name (the --game value, a replay header's
// "game", a server listener's game), its built-in AIs, the arena family of
// a match and the reader of its replays. The commands of kaisen dispatch
// on it instead of switching on game names. A game on the contract alone
// is described by a Def (define.go): its rules, AIs, record, terminal text
// and wire codec (Def.Wire: the server and client sides of its lines, and
// Def.View, its public view); Define builds its entry with the generic
// hosts (arena.Game, the client loop, the human seat, browser play
// through Browse (browser.go), the conformance suite with its replay and
// wire checks (conformance_replay.go, conformance_wire.go), the turn server
// through server.NewGame), and Register adds it in
// one line, registering it with the server too: a new game is its folder
// plus that line (game/sonar, registered by games/matrix's test).
// The three real games are Defs too (submarine.go, battleship.go,
// abilities.go), which this package's init registers with the server,
// the submarine game first (its dialects and boards per listener through
// Def.Wire.Listen: server.Contract.Listen).
//
// Lookup refuses an unknown name with an error that lists the games.
package games
