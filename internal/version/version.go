// Package version is kaisen's version, read once from the build
// information the Go toolchain embeds: the main module's version and the
// version-control stamps (revision, commit time, uncommitted changes). The
// same string is printed by kaisen --version, written into replay headers
// and logged by the server at start-up.
package version

import (
	"runtime/debug"
	"sync"
)

// Info is what the build information says about this binary.
type Info struct {
	// Version is the main module's version: a tag, a pseudo-version such
	// as v0.0.0-20261125101500-0a373ba0c5d1(+dirty), or "(devel)".
	Version string `json:"version"`
	// Revision is the commit the binary was built from ("" when unknown,
	// e.g. under go test or go run).
	Revision string `json:"revision,omitempty"`
	// Time is the commit's time (RFC 3339).
	Time string `json:"time,omitempty"`
	// Modified reports uncommitted changes in the build's working tree.
	Modified bool `json:"modified,omitempty"`
	// Go is the toolchain that built the binary.
	Go string `json:"go"`
}

// String is the one-line version: Version, followed by the short revision
// (and "+dirty") when the version does not already name the commit.
func (i Info) String() string {
	v := i.Version
	if v == "" {
		v = "(devel)"
	}
	if i.Revision == "" || v != "(devel)" {
		return v
	}
	rev := i.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if i.Modified {
		rev += "+dirty"
	}
	return v + " " + rev
}

// FromBuildInfo reads Info from build information.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	info := Info{Version: bi.Main.Version, Go: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	if info.Version == "" {
		info.Version = "(devel)"
	}
	return info
}

var read = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "(devel)"}
	}
	return FromBuildInfo(bi)
})

// Get returns this binary's Info.
func Get() Info { return read() }

// String is Get().String(): the version recorded in replays and logs.
func String() string { return read().String() }
