// Package cli implements the kaisen command line: one cobra command per
// subcommand, each in its own file. Run is the whole program, so end-to-end
// tests start it in-process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"
)

// ExitError carries a specific exit code out of a command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// env is what every command gets: its streams and a logger.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger
}

// Run executes the kaisen command line with args and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRoot(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "kaisen:", err)
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 1
}

func newRoot(e *env) *cobra.Command {
	var logLevel, logFormat string
	root := &cobra.Command{
		Use:   "kaisen",
		Short: "AIs, matches and a turn server for hidden-information naval games",
		Long: `kaisen plays the submarine game (潜水艦ゲーム: a 5x5 sea, three hidden ships
that move and fire at neighbouring cells) and classic Battleship (Морской бой)
between AIs, in-process or over TCP.

Start here:
  kaisen match --p1 stateplayer2 --p2 random -n 1000   AI-vs-AI games with a summary table
  kaisen serve                                          turn server on 127.0.0.1:2000
  kaisen play --addr 127.0.0.1:2000 --player random     connect an AI to any server
  kaisen players                                        the AIs and what they do`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			lg, err := newLogger(e.stderr, logLevel, logFormat)
			if err != nil {
				return err
			}
			e.log = lg
			return nil
		},
	}
	root.PersistentFlags().StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error")
	root.PersistentFlags().StringVar(&logFormat, "log-format", "text", "log format: text or json")
	for _, c := range commands(e) {
		root.AddCommand(c)
	}
	return root
}

// commands lists every subcommand. Add new ones here.
func commands(e *env) []*cobra.Command {
	return []*cobra.Command{
		newPlayersCmd(e),
		newFSMCmd(e),
		newPlayCmd(e),
		newMatchCmd(e),
		newReplayCmd(e),
		newBenchCmd(e),
		newCountCmd(e),
		newShotsCmd(e),
		newServeCmd(e),
		newLoadtestCmd(e),
		newTuneCmd(e),
		newExploitCmd(e),
		newTournamentCmd(e),
	}
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	default:
		return nil, fmt.Errorf("--log-format %q: want text or json", format)
	}
}
