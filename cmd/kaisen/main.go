// Command kaisen runs submarine-game and battleship AIs: matches,
// tournaments, the turn server and its client. Run `kaisen --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/kaisen-ai/kaisen/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
