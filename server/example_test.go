package server_test

import (
	"bufio"
	"context"
	"fmt"
	"net"

	"github.com/kaisen-ai/kaisen/server"
)

// A server with a house AI on a free port, and a client that places its
// fleet and gets the first turn.
func ExampleNew() {
	cfg := server.DefaultConfig()
	cfg.Listeners[0].Address = "127.0.0.1:0" // any free port
	cfg.Listeners[0].Opponent = "random"     // every client plays the house AI
	cfg.ResultLog, cfg.ReplayDir = "", ""    // record nothing
	s, err := server.New(cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Listen(); err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()

	c, err := net.Dial("tcp", s.Addrs()[0].String())
	if err != nil {
		fmt.Println(err)
		return
	}
	r := bufio.NewReader(c)
	greeting, _ := r.ReadString('\n')
	fmt.Print(greeting)
	fmt.Fprintln(c, `{"w":[0,0],"c":[2,0],"s":[4,0]}`)
	turn, _ := r.ReadString('\n')
	fmt.Print(turn)
	c.Close()

	stop() // graceful shutdown, as on SIGINT
	fmt.Println(<-done)
	// Output:
	// you are connected. please send me initial state.
	// your turn
	// <nil>
}
