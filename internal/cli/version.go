package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/internal/version"
)

func newVersionCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print kaisen's version (module version, commit, commit time, local changes)",
		Long: `Print the version of this kaisen binary, read from the build information the
Go toolchain embeds: the module version (a tag, or a pseudo-version naming
the commit with "+dirty" for uncommitted changes; "(devel)" under go run),
the commit, its time, and the Go toolchain. The first line is the string
replays record in their header and the server logs at start-up; kaisen
--version prints it alone.`,
		Example: `  kaisen version
  kaisen version --json | jq -r .revision
  kaisen --version`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			info := version.Get()
			if asJSON {
				return json.NewEncoder(e.stdout).Encode(struct {
					String string `json:"string"`
					version.Info
				}{info.String(), info})
			}
			fmt.Fprintf(e.stdout, "kaisen %s\n", info)
			if info.Revision != "" {
				dirty := ""
				if info.Modified {
					dirty = " (with uncommitted changes)"
				}
				fmt.Fprintf(e.stdout, "commit %s%s, %s\n", info.Revision, dirty, info.Time)
			}
			_, err := fmt.Fprintf(e.stdout, "built with %s\n", info.Go)
			return err
		},
	}
	addJSONFlag(cmd, &asJSON, "print the version as one JSON object")
	return cmd
}
