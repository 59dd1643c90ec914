package client_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ExamplePlaySubmarine plays the random AI against a tiny scripted classic server
// whose opponent gives up at once (it sends {}: an invalid action).
func ExamplePlaySubmarine() {
	conn, srv := net.Pipe()
	go func() {
		defer srv.Close()
		rules := submarine.DefaultRules()
		r := bufio.NewReader(srv)
		fmt.Fprintln(srv, protocol.Classic.Greeting())
		line, _ := r.ReadBytes('\n')
		place, order, err := subwire.DecodePlacement(line, rules)
		if err != nil {
			return
		}
		fmt.Fprintln(srv, protocol.Waiting)
		// The opponent's {} is illegal: the client is told it won.
		v := submarine.View{Me: submarine.NewFleet(rules, place), EnemyHP: [submarine.MaxShips]int8{3, 2, 1}}
		ev := submarine.Event{Kind: submarine.Invalid, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
		fmt.Fprintln(srv, string(subwire.EncodeResult(protocol.Classic, rules, ev, protocol.Won, &v, order, nil)))
		fmt.Fprintln(srv, protocol.Classic.EndLine(protocol.EndWin, false))
	}()
	build := func(r *submarine.Rules) (players.Factory, error) { return players.New("random", r, nil) }
	rngFor := func(game int) *rand.Rand { return rand.New(rand.NewPCG(42, uint64(game))) }
	res, err := client.PlaySubmarine(context.Background(), conn, build, rngFor, client.SubmarinePlayOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := res.Games[0]
	fmt.Println(res.Dialect, g.Line, g.Actions)
	// Output:
	// classic you win 1
}

// ExampleAuthenticate sends the auth line a rated listener (kaisen serve
// --ladder) wants first; the game then goes on as on any server, and a
// refusal is reported as ErrRefused.
func ExampleAuthenticate() {
	conn, srv := net.Pipe()
	go func() {
		line, _ := bufio.NewReader(srv).ReadString('\n')
		fmt.Print("server got: ", strings.Replace(line, "kt_example-token-not-real", "TOKEN", 1))
		fmt.Fprintln(srv, "refused: already_connected: bot mybot is connected already")
		srv.Close()
	}()
	if err := client.Authenticate(conn, "mybot", "kt_example-token-not-real", time.Second); err != nil {
		fmt.Println(err)
		return
	}
	rulesFor := func(r *submarine.Rules) (players.Factory, error) { return players.New("random", r, nil) }
	_, err := client.PlaySubmarine(context.Background(), conn, rulesFor, func(int) *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }, client.SubmarinePlayOptions{})
	fmt.Println(errors.Is(err, client.ErrRefused), err)
	// Output:
	// server got: auth mybot TOKEN
	// true client: play: the server refused the connection: already_connected: bot mybot is connected already
}
