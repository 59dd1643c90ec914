package client_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol/transcript"
)

// replayConn is a net.Conn that serves a fixed script of server lines and
// swallows the client's: it times the client alone, with no server and no
// goroutine switch.
type replayConn struct {
	net.Conn
	script []byte
	r      bytes.Reader
}

func (c *replayConn) Read(b []byte) (int, error)       { return c.r.Read(b) }
func (c *replayConn) Write(b []byte) (int, error)      { return len(b), nil }
func (c *replayConn) SetReadDeadline(time.Time) error  { return nil }
func (c *replayConn) SetWriteDeadline(time.Time) error { return nil }
func (c *replayConn) Close() error                     { return nil }
func (c *replayConn) reset()                           { c.r.Reset(c.script) }
func serverLines(tr *transcript.Transcript, p int) []byte {
	return []byte(strings.Join(tr.Texts(p, transcript.ToClient), "\n") + "\n")
}

// quietPlayer plays a script and forgets what it is told.
type quietPlayer struct{ *scriptedPlayer }

func (quietPlayer) Observe(submarine.Event, *submarine.View) {}

// BenchmarkPlaySubmarine times PlaySubmarine on the golden transcripts'
// games (the client side of loadtest, without the network): one op is
// every game of both sides of the classic, series and submarine-py
// transcripts.
func BenchmarkPlaySubmarine(b *testing.B) {
	type side struct {
		conn    *replayConn
		name    string
		players []quietPlayer
	}
	var sides []side
	for _, name := range []string{"classic-real", "classic-series", "submarine-py-rounded"} {
		for p := 1; p <= 2; p++ {
			tr, rules, games := loadGolden(&testing.T{}, filepath.Join(goldenDir, name+".golden"))
			var made []*scriptedPlayer
			build := scriptFactory(&testing.T{}, games, p, &made)
			s := side{conn: &replayConn{script: serverLines(tr, p)}, name: games[0].name[p]}
			for range games {
				f, err := build(rules)
				if err != nil {
					b.Fatal(err)
				}
				f(nil)
			}
			for _, sp := range made {
				s.players = append(s.players, quietPlayer{scriptedPlayer: sp})
			}
			sides = append(sides, s)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sides {
			s.conn.reset()
			k := 0
			build := func(*submarine.Rules) (players.Factory, error) {
				return func(*rand.Rand) players.Player {
					p := &s.players[k]
					k++
					p.next = 0
					return p
				}, nil
			}
			_, err := client.PlaySubmarine(context.Background(), s.conn, build, seeded, client.SubmarinePlayOptions{Name: s.name})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
