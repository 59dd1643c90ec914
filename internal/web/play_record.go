package web

import (
	"bytes"
	"fmt"

	"github.com/kaisen-ai/kaisen/explain"
	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// Recorder stores a finished game against the house AI as the server
// stores its own (*server.Server's Record): res is its result line, rp its
// replay file (the submarine game's replay format); it fills in
// res.Replay when it wrote the file.
type Recorder interface {
	Record(res *server.Result, rp []byte)
}

// WebListener is the listener name of the games people play in the
// browser, in their result lines.
const WebListener = "web"

// tableRecord is the replay of one table's game, written as it is played
// (nil: the hub records nothing).
type tableRecord struct {
	buf   bytes.Buffer
	w     *subrecord.Writer
	house any // the house AI, for its reasons (explain.Explainer)
}

// startRecord starts the replay of table k's game between placements
// mine (seat 0, the person) and theirs (seat 1, the house AI), or returns
// nil when the hub has no Recorder.
func (h *Hub) startRecord(k uint64, r *submarine.Rules, peers [2]server.Peer, mine, theirs submarine.Placement, house any) *tableRecord {
	if h.play.Record == nil {
		return nil
	}
	rec := &tableRecord{house: house}
	hdr := subrecord.Header{Seed: k, First: 0}
	for i, p := range peers {
		hdr.Players[i] = replay.SeatInfo{Seat: i, Name: playerName(p)}
	}
	rec.w = subrecord.NewWriter(&rec.buf, r, hdr)
	rec.w.Placement(0, mine)
	rec.w.Placement(1, theirs)
	return rec
}

// step records action n; the house AI's reasons go with its own actions.
func (rec *tableRecord) step(n int, st *submarine.Step, err error) {
	if rec == nil {
		return
	}
	var d *explain.Decision
	if ex, ok := kgame.As[explain.Explainer](rec.house); ok && st.Seat == 1 {
		dec := ex.Explain()
		d = &dec
	}
	rec.w.Step(n, st, err, d)
}

// record ends the replay with res and hands both to the hub's Recorder
// (which names the replay file in res.Replay).
func (h *Hub) record(rec *tableRecord, res *server.Result) {
	if rec == nil {
		return
	}
	out := subrecord.Result{Outcome: replay.OutcomeWin, Winner: res.Winner, Actions: res.Actions}
	switch {
	case res.Outcome == server.OutcomeDraw:
		out.Outcome = replay.OutcomeDraw
	case res.Reason == server.ReasonTimeout || res.Reason == server.ReasonIllegal: // the late action was taken as an invalid one (runTable)
		out.Forfeits = []replay.Forfeit{{Seat: 1 - res.Winner, Kind: replay.ForfeitIllegal, Reason: res.Reason + ": " + res.Detail}}
	}
	rec.w.Result(out)
	var rp []byte
	if err := rec.w.Flush(); err == nil {
		rp = rec.buf.Bytes()
	} else {
		res.Detail += fmt.Sprintf(" (no replay: %v)", err)
	}
	h.play.Record.Record(res, rp)
}
