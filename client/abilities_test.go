package client_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

// abLine is one line of the golden abilities transcript.
type abLine struct {
	seat     int
	toServer bool
	text     string
}

var abLineRE = regexp.MustCompile(`^P([12])  (S>C|C>S)  (.*)\\n$`)

// loadAbilitiesGolden reads abilitiesGolden (the
// close, <EOF>, is left out).
func loadAbilitiesGolden(t *testing.T) []abLine {
	t.Helper()
	b, err := os.ReadFile(abilitiesGolden)
	require.NoError(t, err)
	var out []abLine
	for _, l := range strings.Split(string(b), "\n") {
		if m := abLineRE.FindStringSubmatch(l); m != nil {
			out = append(out, abLine{seat: int(m[1][0] - '1'), toServer: m[2] == "C>S", text: m[3]})
		}
	}
	require.NotEmpty(t, out)
	return out
}

// abFakeServer plays the server side of lines for seat on conn: it sends
// the server's lines and checks that each client line is the golden one.
func abFakeServer(conn net.Conn, lines []abLine, seat int) error {
	defer conn.Close()
	r := bufio.NewReader(conn)
	for i, l := range lines {
		if l.seat != seat {
			continue
		}
		if !l.toServer {
			if _, err := fmt.Fprintf(conn, "%s\n", l.text); err != nil {
				return fmt.Errorf("line %d: %w", i, err)
			}
			continue
		}
		got, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("line %d: want %q: %w", i, l.text, err)
		}
		if got != l.text+"\n" {
			return fmt.Errorf("line %d:\n got %q\nwant %q", i, got, l.text)
		}
	}
	return nil
}

// TestPlayAbilitiesGolden: client.PlayAbilities with the golden game's AI
// (ab-random seeded rand.NewPCG(109, seat)) sends exactly the golden
// transcript's client lines of either seat when a fake server sends that
// seat's server lines: the client tells its AI what the rules would.
func TestPlayAbilitiesGolden(t *testing.T) {
	lines := loadAbilitiesGolden(t)
	for seat := range 2 {
		t.Run(fmt.Sprintf("seat %d", seat), func(t *testing.T) {
			c, s := net.Pipe()
			errs := make(chan error, 1)
			go func() { errs <- abFakeServer(s, lines, seat) }()
			build := func(r *abilities.Rules, got int) (abplayers.Player, error) {
				require.Equal(t, seat, got)
				f, err := abplayers.New("ab-random", r, nil)
				if err != nil {
					return nil, err
				}
				return f(rand.New(rand.NewPCG(109, uint64(got))), got), nil
			}
			g, err := client.PlayAbilities(context.Background(), c, build, client.BattleshipPlayOptions{ReadTimeout: 10 * time.Second})
			require.NoError(t, err)
			require.NoError(t, <-errs)
			var sent, confirms int
			for _, l := range lines {
				if l.seat == seat && l.toServer {
					sent++
				}
				if l.seat == seat && strings.HasPrefix(l.text, `{"confirm"`) {
					confirms++
				}
			}
			require.Positive(t, confirms)
			require.Equal(t, confirms, g.Confirms, "every confirm is answered")
			require.Equal(t, sent-1, g.Actions+g.Confirms, "every line after the placement is an action or a confirm answer")
			require.Equal(t, lines[len(lines)-1-boolToInt(lines[len(lines)-1].seat != seat)].text, g.Line)
			require.Empty(t, g.Errors)
		})
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPlayAbilitiesRefuses: the client refuses a hello of another version
// (abwire.ErrVersion) or a malformed one, and a line it does not expect.
func TestPlayAbilitiesRefuses(t *testing.T) {
	build := func(r *abilities.Rules, seat int) (abplayers.Player, error) {
		f, err := abplayers.New("ab-random", r, nil)
		if err != nil {
			return nil, err
		}
		return f(rand.New(rand.NewPCG(1, 1)), seat), nil
	}
	hello := string(abwire.EncodeHello(abwire.Hello{Version: abwire.Version, Sides: [2]abilities.Side{abilities.AI, abilities.Humans}}))
	for _, tc := range []struct {
		name  string
		lines []string
		err   error
	}{
		{"version 1", []string{strings.Replace(hello, `"version":2`, `"version":1`, 1)}, abwire.ErrVersion},
		{"battleship greeting", []string{bswire.Greeting}, protocol.ErrUnexpected},
		{"unknown option", []string{strings.Replace(hello, `"options":{}`, `"options":{"teleport":true}`, 1)}, protocol.ErrType},
		{"garbage result", []string{hello, "waiting", "{not json"}, protocol.ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := net.Pipe()
			go func() {
				defer s.Close()
				r := bufio.NewReader(s)
				for _, l := range tc.lines {
					if _, err := fmt.Fprintf(s, "%s\n", l); err != nil {
						return
					}
					if strings.HasPrefix(l, `{"hello"`) {
						if _, err := r.ReadString('\n'); err != nil { // the placement
							return
						}
					}
				}
			}()
			_, err := client.PlayAbilities(context.Background(), c, build, client.BattleshipPlayOptions{ReadTimeout: 5 * time.Second})
			require.ErrorIs(t, err, tc.err)
		})
	}
}

// moveForever is a player that answers every turn with the same move.
type moveForever struct{ place battleship.Placement }

func (m moveForever) Place() battleship.Placement { return m.place }
func (m moveForever) Act(*abilities.Question) abilities.Action {
	return abilities.Action{Kind: abilities.Move, At: 60, To: 70}
}
func (moveForever) Observe(abilities.Event) {}

// TestPlayAbilitiesAfterMove: after its player's move the client asks it
// for its next action at once and sends both lines in one write (no "your
// turn" between them, protocol version 2), tells it the move's result
// line, and skips that line when the server sends it; a player that moves
// again sends its second move as it is (the server refuses it) instead of
// looping.
func TestPlayAbilitiesAfterMove(t *testing.T) {
	r := abilities.DefaultRules()
	rng := rand.New(rand.NewPCG(3, 3))
	f, err := abplayers.New("ab-random", r, nil)
	require.NoError(t, err)
	place := f(rng, 0).Place()
	build := func(*abilities.Rules, int) (abplayers.Player, error) { return moveForever{place}, nil }
	move := string(abwire.EncodeAction(r, moveForever{}.Act(nil)))
	result := `{"result":{"seat":0,"action":"move","moved":{"from":[6,0],"to":[7,0]}}}`
	c, s := net.Pipe()
	errs := make(chan error, 1)
	go func() {
		defer s.Close()
		br := bufio.NewReader(s)
		send := func(l string) error { _, err := fmt.Fprintf(s, "%s\n", l); return err }
		if err := send(string(abwire.EncodeHello(abwire.Hello{Version: abwire.Version, Sides: r.Sides}))); err != nil {
			errs <- err
			return
		}
		var got []string
		for range 3 { // the placement, the move, the second move
			l, err := br.ReadString('\n')
			if err != nil {
				errs <- err
				return
			}
			got = append(got, strings.TrimSuffix(l, "\n"))
			if len(got) == 1 {
				if err := send(protocol.YourTurn); err != nil {
					errs <- err
					return
				}
			}
		}
		if got[1] != move || got[2] != move {
			errs <- fmt.Errorf("client lines %q, want the move twice", got[1:])
			return
		}
		for _, l := range []string{result, `{"error":"illegal: a second move"}`, `{"outcome":false}`, protocol.YouLose} {
			if err := send(l); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	g, err := client.PlayAbilities(context.Background(), c, build, client.BattleshipPlayOptions{ReadTimeout: 5 * time.Second})
	require.NoError(t, <-errs)
	require.NoError(t, err)
	require.Equal(t, protocol.EndLose, g.End)
	require.Equal(t, 2, g.Actions)
	require.Equal(t, []string{"illegal: a second move"}, g.Errors)
}
