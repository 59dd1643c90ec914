package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/queue"
)

// queueAdminFlags are kaisen queue status|purge's flags.
type queueAdminFlags struct {
	queue queueFlags
	json  bool
}

func newQueueCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "queue",
		Short: "See and clean the NATS JetStream queue of spread runs (status, purge)",
		Long: `The queue of kaisen broker (or any JetStream server) keeps, for each run
spread with --nats, the work items not yet played, the results of those
played (kept 7 days, for resuming) and, for kaisen tune and exploit, the
tuning checkpoint. A run whose coordinator was stopped and is never resumed
leaves its items on the queue, and the workers keep playing them: kaisen
queue status lists what the queue holds run by run, kaisen queue purge
removes a run.`,
		Example: `  kaisen queue status --nats nats://127.0.0.1:4222
  kaisen queue purge --nats nats://127.0.0.1:4222 --run-id tune-7f3a`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newQueueStatusCmd(e), newQueuePurgeCmd(e))
	return cmd
}

// addQueueAdminFlags registers --nats and --nats-nkey.
func addQueueAdminFlags(cmd *cobra.Command, f *queueAdminFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.queue.url, "nats", "", "the NATS JetStream server of the queue (nats://[USER:PASS@]HOST:PORT; required)")
	fl.StringVar(&f.queue.nkey, "nats-nkey", "", "file of the nkey seed to authenticate with")
}

// withQueue connects to --nats and runs f with the queue's handles.
func withQueue(ctx context.Context, f *queueAdminFlags, name string, do func(*queue.Handles) error) error {
	if f.queue.url == "" {
		return usageError("--nats URL is required")
	}
	h, nc, err := f.queue.connect(ctx, name)
	if err != nil {
		return err
	}
	defer nc.Close()
	return do(h)
}

func newQueueStatusCmd(e *env) *cobra.Command {
	var f queueAdminFlags
	cmd := &cobra.Command{
		Use:   "status --nats URL",
		Short: "List the runs the queue holds: items waiting, results, errors, checkpoints",
		Long: `List every run the queue holds something of, one line each: its run id
(a tuning run's evaluations are runs of their own, RUN-<16 hex digits>),
the items still on the queue (waiting, or being played), the results
stored, the items a worker could not play, and whether a tuning checkpoint
is kept under the id. --json prints the same as one JSON array.`,
		Example: `  kaisen queue status --nats nats://127.0.0.1:4222
  kaisen queue status --nats nats://127.0.0.1:4222 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withQueue(cmd.Context(), &f, "kaisen queue status", func(h *queue.Handles) error {
				runs, err := queue.Status(cmd.Context(), h)
				if err != nil {
					return err
				}
				return printRunStatus(e, runs, f.json)
			})
		},
	}
	addQueueAdminFlags(cmd, &f)
	addJSONFlag(cmd, &f.json, "print the runs as one JSON array")
	return cmd
}

func newQueuePurgeCmd(e *env) *cobra.Command {
	var (
		f  queueAdminFlags
		id string
	)
	cmd := &cobra.Command{
		Use:   "purge --nats URL --run-id ID",
		Short: "Remove a run from the queue: its waiting items, results and checkpoint",
		Long: `Remove what the queue holds of run --run-id and of its tuning evaluations
(runs ID-<16 hex digits>): the items still on the queue, which no worker
will then play, the stored results and errors, and the tuning checkpoint.
It prints what it removed, run by run. A worker playing one of the run's
items at that moment still stores that result when it is done (purge
again then). The coordinator of a purged run, resumed with the same id,
starts it from the beginning.`,
		Example: `  kaisen queue purge --nats nats://127.0.0.1:4222 --run-id match-1a2b`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if id == "" {
				return usageError("--run-id ID is required (kaisen queue status lists the runs)")
			}
			if err := queue.CheckRunID(id); err != nil {
				return usageError("--run-id: %w", err)
			}
			return withQueue(cmd.Context(), &f, "kaisen queue purge", func(h *queue.Handles) error {
				removed, err := queue.Purge(cmd.Context(), h, id)
				if len(removed) == 0 && err == nil {
					fmt.Fprintf(e.stderr, "the queue holds nothing of run %s\n", id)
				}
				if perr := printRunStatus(e, removed, f.json); err == nil {
					err = perr
				}
				return err
			})
		},
	}
	addQueueAdminFlags(cmd, &f)
	cmd.Flags().StringVar(&id, "run-id", "", "the run to remove, with its tuning evaluations (required)")
	addJSONFlag(cmd, &f.json, "print what was removed as one JSON array")
	return cmd
}

// printRunStatus prints runs as a table, or as one JSON array.
func printRunStatus(e *env, runs []queue.RunStatus, asJSON bool) error {
	if asJSON {
		if runs == nil {
			runs = []queue.RunStatus{}
		}
		return json.NewEncoder(e.stdout).Encode(runs)
	}
	if len(runs) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\titems waiting\tresults\terrors\tcheckpoint\t")
	for _, r := range runs {
		ck := "-"
		if r.Checkpoint {
			ck = "yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t\n", r.Run, r.Pending, r.Results, r.Errors, ck)
	}
	return tw.Flush()
}
