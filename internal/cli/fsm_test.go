package cli

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/fsm"
)

func TestFSMCommand(t *testing.T) {
	for _, f := range fsm.Formats() {
		t.Run(string(f), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Run(context.Background(), []string{"fsm", "--format", string(f)}, nil, &out, &errOut)
			require.Equal(t, 0, code, errOut.String())
			want, err := fsm.Diagram(f)
			require.NoError(t, err)
			require.Equal(t, want, out.String())
		})
	}

	var out, errOut bytes.Buffer
	require.Equal(t, 0, Run(context.Background(), []string{"fsm"}, nil, &out, &errOut))
	want, _ := fsm.Diagram(fsm.Mermaid)
	require.Equal(t, want, out.String(), "mermaid is the default")

	out.Reset()
	errOut.Reset()
	code := Run(context.Background(), []string{"fsm", "--format", "svg"}, nil, &out, &errOut)
	require.Equal(t, 2, code)
	require.Contains(t, errOut.String(), `unknown diagram format "svg"`)
	require.Empty(t, out.String())

	out.Reset()
	require.Equal(t, 0, Run(context.Background(), []string{"fsm", "--help"}, nil, &out, &errOut))
	require.Contains(t, out.String(), "kaisen fsm --format dot")
}
