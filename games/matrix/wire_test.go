package matrix_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/sonar"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/server"
)

// The wire check's own test: codecs that lose or change a field, in
// either direction, fail it. Their games are served under names of their
// own (server.Register only: the registry keeps the built-in and test
// games).

type (
	sonarServer = game.ServerCodec[sonar.Placement, sonar.Action, sonar.Told]
	sonarClient = game.ClientCodec[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told]
)

// echoless tells every ping as a miss: a field lost from server to client.
type echoless struct{ sonarServer }

func (e echoless) AppendTold(b []byte, seat int, o *sonar.Told, outcome int) []byte {
	told := *o
	told.Echo = sonar.Miss
	return e.sonarServer.AppendTold(b, seat, &told, outcome)
}

// shifted sends every ping one cell along: an action changed from client
// to server.
type shifted struct{ sonarClient }

func (s shifted) Act(a sonar.Action, o *sonar.Told) (bool, error) {
	if a.Kind == sonar.Ping {
		a.At ^= 1
	}
	return s.sonarClient.Act(a, o)
}

// lossy are the test game with a broken codec, by name, and the finding
// the wire check must report.
var lossy = []struct {
	name, want string
	wire       func(w games.Wire[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told]) *games.Wire[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told]
}{
	{"sonar-echoless", "in-process  told {", func(w games.Wire[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told]) *games.Wire[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told] {
		server := w.Server
		w.Server = func(r *sonar.Rules) sonarServer { return echoless{server(r)} }
		return &w
	}},
	{"sonar-shifted", "the player chose {", func(w games.Wire[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told]) *games.Wire[*sonar.Rules, sonar.Placement, sonar.Action, sonar.Told] {
		client := w.Client
		w.Client = func(r *sonar.Rules) sonarClient { return shifted{client(r)} }
		return &w
	}},
}

// lossyGames are the entries of the lossy games, served from init.
var lossyGames = map[string]games.Game{}

func init() {
	for _, l := range lossy {
		d := sonar.Def()
		d.Name, d.Wire = l.name, l.wire(*d.Wire)
		g := games.Define(d)
		if err := server.Register(g.Server); err != nil {
			panic(err)
		}
		lossyGames[l.name] = g
	}
}

// findings is a conformance.T that keeps what a check reports.
type findings struct{ errs []string }

func (*findings) Helper()             {}
func (*findings) Logf(string, ...any) {}
func (f *findings) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *findings) Fatalf(format string, args ...any) { f.Errorf(format, args...) }

// TestWireCheckFailsOnALossyCodec: the wire check of a game whose server
// codec drops a field of the observation, or whose client codec changes
// the action it sends, reports where the wire game leaves the in-process
// one.
func TestWireCheckFailsOnALossyCodec(t *testing.T) {
	for _, l := range lossy {
		t.Run(l.name, func(t *testing.T) {
			f := &findings{}
			ran := false
			for _, c := range lossyGames[l.name].Conformance() {
				if c.Name == "wire" {
					ran = true
					c.Run(f)
				}
			}
			require.True(t, ran)
			require.NotEmpty(t, f.errs)
			require.Contains(t, strings.Join(f.errs, "\n"), l.want)
		})
	}
}
