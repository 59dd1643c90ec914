//go:build !unix

package server

import "os"

// withFileLock runs f; this system has no flock, so servers sharing a
// result log are not kept from each other here (docs/server.md).
func withFileLock(_ *os.File, f func() error) error { return f() }
