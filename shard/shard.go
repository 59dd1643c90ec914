// Package shard splits a run of games (kaisen match, tournament, shots) into
// N deterministic shards and merges their results exactly.
//
// Game i of a run is seeded from the run's seed and i alone, so shard K of
// N plays the games Spec.Range gives it and nothing else, on any machine.
// Each shard writes a file (Write) of two JSON lines: a Header saying which
// run and which shard it is, then the shard's result — exact integer tallies
// and histograms (Hist), never averages — so that Check and the commands'
// merge functions rebuild the very numbers a single run prints. The format
// is documented in docs/distributed.md; Version changes whenever a reader
// of the previous version would misread a file.
package shard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Format is the "format" of every shard file's header.
const Format = "kaisen-shard"

// Version is the latest version of the file format: this package reads
// versions 1 to Version and writes the lowest one that holds the result
// (version 2 adds the audit of a match, Match.Audit).
const Version = 2

// versioned is a result that says which format version it needs (1 when
// a result does not say).
type versioned interface{ formatVersion() int }

// maxLine bounds one line of a shard file (a result with a histogram of
// every distinct game length stays far below it).
const maxLine = 64 << 20

var (
	// ErrSpec is wrapped by the errors of a bad K/N.
	ErrSpec = errors.New("shard: bad shard")
	// ErrFormat is wrapped by the errors of a file that is not a shard file.
	ErrFormat = errors.New("shard: bad shard file")
	// ErrMismatch is wrapped when shard files do not make up one run.
	ErrMismatch = errors.New("shard: shards do not make up one run")
)

// Spec is shard K of N (1 <= K <= N).
type Spec struct{ K, N int }

// Parse reads "K/N".
func Parse(s string) (Spec, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("%w: %q: want K/N, e.g. 3/8", ErrSpec, s)
	}
	sp := Spec{K: k, N: n}
	return sp, sp.Validate()
}

// Validate checks 1 <= K <= N.
func (s Spec) Validate() error {
	if s.N < 1 || s.K < 1 || s.K > s.N {
		return fmt.Errorf("%w: %d/%d: want K/N with 1 <= K <= N", ErrSpec, s.K, s.N)
	}
	return nil
}

func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Range is the games [lo, hi) of shard K of a run of n games: the shards
// are contiguous, in order, cover every game once and differ in size by at
// most one.
func (s Spec) Range(n int) (lo, hi int) {
	return int(int64(s.K-1) * int64(n) / int64(s.N)), int(int64(s.K) * int64(n) / int64(s.N))
}

// Header is the first line of a shard file.
type Header struct {
	Format  string `json:"format"`  // Format
	Version int    `json:"version"` // Version
	Command string `json:"command"` // "match", "tournament" or "shots"
	// Args are the command's flags that decide which games are played and
	// how they are summarised (not --workers, --json, --out, ...), by name.
	Args   map[string]string `json:"args"`
	Seed   uint64            `json:"seed"`
	Games  int               `json:"games"` // games of the whole run (all pairs for a tournament)
	Shard  int               `json:"shard"` // K
	Shards int               `json:"shards"`
	First  int               `json:"first"` // first game of the shard, Range's lo
	Count  int               `json:"count"` // games of the shard, hi - lo
	// Timing only, not compared by Check.
	ElapsedNS int64 `json:"elapsed_ns"`
	Workers   int   `json:"workers"`
}

// Elapsed is the shard's wall time.
func (h *Header) Elapsed() time.Duration { return time.Duration(h.ElapsedNS) }

// Spec is the header's K/N.
func (h *Header) Spec() Spec { return Spec{K: h.Shard, N: h.Shards} }

// validate checks the header on its own.
func (h *Header) validate() error {
	switch {
	case h.Format != Format:
		return fmt.Errorf("%w: format %q, want %q", ErrFormat, h.Format, Format)
	case h.Version < 1 || h.Version > Version:
		return fmt.Errorf("%w: version %d, this kaisen reads versions 1 to %d", ErrFormat, h.Version, Version)
	case h.Command == "":
		return fmt.Errorf("%w: no command", ErrFormat)
	case h.Games < 1:
		return fmt.Errorf("%w: %d games", ErrFormat, h.Games)
	}
	if err := h.Spec().Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if lo, hi := h.Spec().Range(h.Games); h.First != lo || h.Count != hi-lo {
		return fmt.Errorf("%w: shard %s of %d games covers games %d..%d, the header says first %d, count %d",
			ErrFormat, h.Spec(), h.Games, lo, hi-1, h.First, h.Count)
	}
	return nil
}

// File is a read shard file.
type File struct {
	Name   string          // where it was read from (for messages)
	Header Header          // the first line
	Result json.RawMessage // the second line, for the command's merge
}

// Write writes a shard file: h and result, one JSON line each. It fills in
// Format, and Version when h leaves it 0 or below what result needs (a
// file is written in the lowest version that holds it, so that older
// readers read what they can).
func Write(w io.Writer, h Header, result any) error {
	h.Format = Format
	h.Version = max(h.Version, 1)
	if v, ok := result.(versioned); ok {
		h.Version = max(h.Version, v.formatVersion())
	}
	if err := h.validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if err := enc.Encode(h); err != nil {
		return fmt.Errorf("shard: write header: %w", err)
	}
	if err := enc.Encode(result); err != nil {
		return fmt.Errorf("shard: write result: %w", err)
	}
	return bw.Flush()
}

// Read reads a shard file: a valid header line, a JSON object line, and
// nothing else but blank lines.
func Read(r io.Reader, name string) (File, error) {
	f := File{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var lines [][]byte
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			if len(lines) == 2 {
				return f, fmt.Errorf("%w: %s: more than two lines", ErrFormat, name)
			}
			lines = append(lines, slices.Clone(line))
		}
	}
	if err := sc.Err(); err != nil {
		return f, fmt.Errorf("%w: %s: %w", ErrFormat, name, err)
	}
	if len(lines) < 2 {
		return f, fmt.Errorf("%w: %s: want a header line and a result line, got %d lines", ErrFormat, name, len(lines))
	}
	dec := json.NewDecoder(bytes.NewReader(lines[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f.Header); err != nil {
		return f, fmt.Errorf("%w: %s: header: %w", ErrFormat, name, err)
	}
	if err := f.Header.validate(); err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	if !json.Valid(lines[1]) || lines[1][0] != '{' {
		return f, fmt.Errorf("%w: %s: the result line is not a JSON object", ErrFormat, name)
	}
	f.Result = lines[1]
	return f, nil
}

// Check checks that files are the N shards of one run — the same command,
// arguments, seed, games and N, every shard 1..N exactly once — and returns
// them in shard order.
func Check(files []File) ([]File, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no shard files", ErrMismatch)
	}
	first := &files[0].Header
	byK := map[int]string{}
	for _, f := range files {
		h := &f.Header
		var diff string
		switch {
		case h.Command != first.Command:
			diff = fmt.Sprintf("command %q, not %q", h.Command, first.Command)
		case !maps.Equal(h.Args, first.Args):
			diff = fmt.Sprintf("arguments %s, not %s", fmtArgs(h.Args), fmtArgs(first.Args))
		case h.Seed != first.Seed:
			diff = fmt.Sprintf("seed %d, not %d", h.Seed, first.Seed)
		case h.Games != first.Games:
			diff = fmt.Sprintf("%d games, not %d", h.Games, first.Games)
		case h.Shards != first.Shards:
			diff = fmt.Sprintf("%d shards, not %d", h.Shards, first.Shards)
		}
		if diff != "" {
			return nil, fmt.Errorf("%w: %s has %s (as in %s)", ErrMismatch, f.Name, diff, files[0].Name)
		}
		if other, ok := byK[h.Shard]; ok {
			return nil, fmt.Errorf("%w: shard %s twice: %s and %s", ErrMismatch, h.Spec(), other, f.Name)
		}
		byK[h.Shard] = f.Name
	}
	var missing []string
	for k := 1; k <= first.Shards; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, strconv.Itoa(k))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: missing shard(s) %s of %d", ErrMismatch, strings.Join(missing, ", "), first.Shards)
	}
	out := slices.Clone(files)
	slices.SortFunc(out, func(a, b File) int { return a.Header.Shard - b.Header.Shard })
	return out, nil
}

// fmtArgs prints args sorted by name, --name=value.
func fmtArgs(args map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(args)) {
		parts = append(parts, "--"+k+"="+args[k])
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, " ")
}
