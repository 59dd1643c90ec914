package ladder_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kaisen-ai/kaisen/ladder"
)

func ExampleOpen() {
	dir, err := os.MkdirTemp("", "ladder")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := ladder.Open(ctx, filepath.Join(dir, "ladder.db"))
	if err != nil {
		panic(err)
	}
	defer s.Close()
	v, err := s.SchemaVersion(ctx)
	fmt.Println(v == ladder.Version(), err)
	// Output: true <nil>
}
