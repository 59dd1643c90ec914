// Package jsonrecord is the replay format of every game on the contract
// (package game) that has no format of its own: the game's own
// placements, actions and the rules' answers (the contract's P, A and S)
// as encoding/json writes them, one JSON line each, framed like every
// Kaisen replay (a header, a placement line per seat, the action lines,
// the result line). A new game gets replays, their verification, their
// text rendering, --games-out and the server's replay directory from it
// without a line of its own, and HTML draws its page from the game's
// public view; a game that wants a compact or
// wire-compatible record writes its own format (game/<g>/record) and
// sets games.Def.Record and OpenReplay instead.
//
// A file:
//
//	{"type":"header","game":"sonar","version":"…","seed":7,"rules":{…},"players":[…],"first":0}
//	{"type":"placement","seat":0,"placement":[0,5]}
//	{"type":"placement","seat":1,"placement":[10,15]}
//	{"type":"action","n":1,"seat":0,"action":{"Kind":1,"Boat":0,"At":10},"step":{…}}
//	{"type":"result","outcome":"win","winner":0,"actions":17,"shots":[9,8]}
//
// Verify plays the file again through the rules (replay.Rerun): every
// action on its seat's turn, every recorded answer byte for byte the
// rules' answer, an illegal action marked with the rules' reason, and the
// result the rules give. The header records the rules as JSON; a file is
// checked against the rules it is opened with and refused when they
// differ, so a game whose rules have settings needs its own format or
// default rules.
package jsonrecord
