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
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/version"
)

// Exit codes of every command (docs/cli.md).
const (
	ExitOK          = 0   // the command did what it was asked
	ExitFailure     = 1   // a runtime failure: I/O, network, a broken player
	ExitUsage       = 2   // a usage error: bad flag or value, unknown player, game or format, bad config file
	ExitInterrupted = 130 // interrupted (SIGINT): the results so far were printed
)

// ExitError carries a specific exit code out of a command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// UsageError is a mistake on the command line (exit code 2): a bad flag or
// value, an unknown player, game or format.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// usageError formats a UsageError.
func usageError(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// exitCode maps the error of a command to its exit code.
func exitCode(ctx context.Context, err error) int {
	var ee *ExitError
	var ue *UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &ue), errors.Is(err, config.ErrInvalid), unknownPlayer(err):
		return ExitUsage
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err())):
		return ExitInterrupted
	default:
		return ExitFailure
	}
}

// env is what every command gets: its streams and a logger.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger
	// profiles are the run's --cpuprofile and --memprofile.
	profiles profiles
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
	if perr := e.profiles.stop(); perr != nil && err == nil {
		err = perr
	}
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(stderr, "kaisen:", teach(err))
	return exitCode(ctx, err)
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
		Example: `  kaisen match --p1 admiral --p2 stateplayer2 -n 1000 --seed 1
  kaisen --version
  source <(kaisen completion bash)`,
		Version:       version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Without a subcommand: help; an unknown one is a usage error.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
			}
			return usageError("%s", msg)
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			lg, err := newLogger(e.stderr, logLevel, logFormat)
			if err != nil {
				return err
			}
			e.log = lg
			if err := checkShared(cmd, e); err != nil {
				return err
			}
			return e.profiles.start()
		},
	}
	root.SetVersionTemplate("kaisen {{.Version}}\n")
	root.PersistentFlags().StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error")
	root.PersistentFlags().StringVar(&logFormat, "log-format", "text", "log format: text or json")
	completeWords(root, "log-level", "debug", "info", "warn", "error")
	completeWords(root, "log-format", "text", "json")
	root.PersistentFlags().StringVar(&e.profiles.cpu, "cpuprofile", "", "write a CPU profile of the command to this file (go tool pprof FILE)")
	root.PersistentFlags().StringVar(&e.profiles.mem, "memprofile", "", "write a heap profile at the end of the command to this file (go tool pprof FILE)")
	root.SetFlagErrorFunc(flagError)
	for _, c := range commands(e) {
		root.AddCommand(c)
	}
	root.SuggestionsMinimumDistance = 2
	root.SetIn(e.stdin) // before the completion command, which keeps the streams it sees
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Example = `  source <(kaisen completion bash)
  kaisen completion zsh > "${fpath[1]}/_kaisen"
  kaisen completion fish > ~/.config/fish/completions/kaisen.fish`
			for _, sh := range c.Commands() {
				sh.Example = "  kaisen completion " + sh.Name() + " --help"
			}
		}
	}
	usageArgs(root)
	return root
}

// usageArgs makes every argument-count error of cmd and its subcommands a
// usage error.
func usageArgs(cmd *cobra.Command) {
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				var ue *UsageError
				if errors.As(err, &ue) {
					return err
				}
				return &UsageError{Err: err}
			}
			return nil
		}
	}
	for _, c := range cmd.Commands() {
		usageArgs(c)
	}
}

// commands lists every subcommand. Add new ones here.
func commands(e *env) []*cobra.Command {
	return []*cobra.Command{
		newPlayersCmd(e),
		newFSMCmd(e),
		newPlayCmd(e),
		newMatchCmd(e),
		newReplayCmd(e),
		newPlacementsCmd(e),
		newBenchCmd(e),
		newCountCmd(e),
		newShotsCmd(e),
		newOptimalCmd(e),
		newServeCmd(e),
		newLoadtestCmd(e),
		newTuneCmd(e),
		newExploitCmd(e),
		newTournamentCmd(e),
		newGauntletCmd(e),
		newLadderCmd(e),
		newMergeCmd(e),
		newBrokerCmd(e),
		newWorkerCmd(e),
		newQueueCmd(e),
		newVersionCmd(e),
	}
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, usageError("--log-level %q: want debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	default:
		return nil, usageError("--log-format %q: want text or json", format)
	}
}

// unknownPlayer reports whether err is a game's unknown-AI error.
func unknownPlayer(err error) bool {
	for _, g := range games.All() {
		if errors.Is(err, g.ErrUnknownPlayer) {
			return true
		}
	}
	return false
}
