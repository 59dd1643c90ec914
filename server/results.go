package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kaisen-ai/kaisen/protocol"
)

// Outcomes of a Result.
const (
	OutcomeWin     = "win"
	OutcomeDraw    = "draw"
	OutcomeAborted = "aborted" // the server shut down before the game ended
)

// Reasons a game ended (Result.Reason, the forfeit metric's label). Every
// reason but sunk, draw_limit and shutdown is a forfeit of the seats listed
// in Result.Forfeits.
const (
	ReasonSunk        = "sunk"          // every ship of the loser was sunk
	ReasonDrawLimit   = "draw_limit"    // the action limit was reached
	ReasonIllegal     = "illegal"       // a well-formed but illegal action
	ReasonProtocol    = "protocol"      // not JSON, a float or string coordinate, a wrong type
	ReasonPlacement   = "placement"     // an invalid placement (unknown ship, overlap, off the board, rock)
	ReasonLineTooLong = "line_too_long" // a line over limits.max_line_bytes
	ReasonTimeout     = "timeout"       // no placement within handshake_timeout or no action within action_timeout
	ReasonDisconnect  = "disconnect"    // the connection closed or failed
	ReasonOutOfTurn   = "out_of_turn"   // a line sent while it was not the client's turn
	ReasonPanic       = "panic"         // the house AI crashed (a server bug)
	ReasonShutdown    = "shutdown"      // the server stopped the game
)

// forfeitReasons are the reasons counted by the forfeit metric.
var forfeitReasons = []string{ReasonIllegal, ReasonProtocol, ReasonPlacement, ReasonLineTooLong, ReasonTimeout, ReasonDisconnect, ReasonOutOfTurn, ReasonPanic}

// errPanic wraps a recovered panic of a house AI.
var errPanic = errors.New("house AI panicked")

// classify names the forfeit reason of an error met while talking to a seat.
func classify(err error) string {
	var pe *protocol.ProtocolError
	switch {
	case errors.Is(err, errPanic):
		return ReasonPanic
	case errors.Is(err, errOutOfTurn):
		return ReasonOutOfTurn
	case errors.Is(err, protocol.ErrLineTooLong):
		return ReasonLineTooLong
	case errors.Is(err, protocol.ErrFleet), errors.Is(err, protocol.ErrUnknownShip):
		return ReasonPlacement
	case errors.As(err, &pe):
		return ReasonProtocol
	case isTimeout(err):
		return ReasonTimeout
	default:
		return ReasonDisconnect
	}
}

// Peer identifies the player in one seat.
type Peer struct {
	Addr string `json:"addr"`           // remote address, or "house" for the house AI
	Name string `json:"name,omitempty"` // the name a submarine-py client sent, or the house AI's name
	Bot  string `json:"bot,omitempty"`  // the authenticated bot on a rated listener
}

// Result is one line of the result log: one game.
type Result struct {
	Game     string    `json:"game"`     // game id, also the replay's file name without ".jsonl"
	Listener string    `json:"listener"` // the listener's name
	Dialect  string    `json:"dialect"`
	Round    int       `json:"round"`  // game number within its pairing, from 1
	Rounds   int       `json:"rounds"` // games per pairing (listener's games)
	Players  [2]Peer   `json:"players"`
	Seed     uint64    `json:"seed"`    // the game's seed (first-player coin, house AI)
	First    int       `json:"first"`   // the seat that moved first
	Outcome  string    `json:"outcome"` // win, draw or aborted
	Winner   int       `json:"winner"`  // the winning seat, -1 when none
	Reason   string    `json:"reason"`  // see the Reason constants
	Detail   string    `json:"detail,omitempty"`
	Forfeits []int     `json:"forfeits,omitempty"` // seats that lost by forfeit
	Actions  int       `json:"actions"`            // actions played; abilities: as spectators know it (no hidden moves, confirms in: docs/abilities.md)
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	Replay   string    `json:"replay,omitempty"` // replay file name in replay_dir
}

// resultLog appends results to a JSON-lines file: one write per line on an
// O_APPEND file, then fsync. Concurrent appenders share fsyncs (a group
// commit): whoever syncs covers every line written before it. Several
// servers may share the file: each append holds an exclusive lock on it
// (flock, where the system has it), so that one server's repair of a torn
// tail never cuts another's line.
type resultLog struct {
	f       *os.File
	mu      sync.Mutex // serialises this process's writes (the file lock is per process)
	written atomic.Uint64
	syncMu  sync.Mutex // serialises fsyncs
	synced  uint64     // lines known durable; guarded by syncMu
}

// openResultLog opens (or creates) the result log for appending and repairs
// a torn last line (repairTail), returned for the caller to log.
func openResultLog(path string) (rl *resultLog, torn []byte, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, fileMode)
	if err != nil {
		return nil, nil, fmt.Errorf("server: open result log: %w", err)
	}
	if err := restrictMode(f); err != nil {
		_ = f.Close()
		return nil, nil, fmt.Errorf("server: open result log: %w", err)
	}
	err = withFileLock(f, func() error {
		_, torn, err = repairTail(f)
		return err
	})
	if err != nil {
		_ = f.Close()
		return nil, nil, fmt.Errorf("server: open result log: %w", err)
	}
	return &resultLog{f: f}, torn, nil
}

// fileMode is the mode of the result log and the replays the server
// creates: its user's only (an operator may open them to a group with
// chmod 0640; restrictMode keeps that).
const fileMode = 0o600

// restrictMode takes away the permissions of others (not of the group) on
// an existing result log created world-readable by an older server.
func restrictMode(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if m := fi.Mode().Perm(); m&0o007 != 0 {
		return f.Chmod(m &^ 0o007)
	}
	return nil
}

// repairTail cuts off a last line without its "\n" and returns the size
// of the whole lines and what was cut (at most maxTornShown bytes of it;
// nil when the file ends with a whole line). Such a line can only be a
// record whose write was cut short (a power loss, a full disk, a process
// killed in the middle of a large write): cutting it makes the next record
// start on a line of its own. Its game was never announced: the result is
// on disk before the end lines are sent. The caller holds the file lock.
func repairTail(f *os.File) (size int64, torn []byte, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	end := st.Size()
	if end == 0 {
		return 0, nil, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], end-1); err != nil {
		return 0, nil, err
	}
	if last[0] == '\n' {
		return end, nil, nil
	}
	size, err = wholeLines(f, end)
	if err != nil {
		return 0, nil, err
	}
	torn = make([]byte, min(end-size, maxTornShown))
	if _, err := f.ReadAt(torn, size); err != nil {
		return 0, nil, err
	}
	if err := f.Truncate(size); err != nil {
		return 0, nil, err
	}
	return size, torn, f.Sync()
}

// maxTornShown is how much of a torn last line is kept for the log.
const maxTornShown = 256

// wholeLines returns the length of the first end bytes of f up to and
// including their last "\n".
func wholeLines(f *os.File, end int64) (int64, error) {
	buf := make([]byte, 4096)
	for end > 0 {
		n := int64(len(buf))
		if end < n {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return end - n + int64(i) + 1, nil
		}
		end -= n
	}
	return 0, nil
}

// append writes r as one line and returns once it is on disk, with what
// it cut off a torn tail first (another server's write cut short; nil
// almost always) for the caller to log. A failed write (a full disk) is
// cut off again, so that no partial line stays.
func (l *resultLog) append(r *Result) (torn []byte, err error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("server: result log: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	err = withFileLock(l.f, func() error {
		var size int64
		size, torn, err = repairTail(l.f)
		if err != nil {
			return err
		}
		if _, err := l.f.Write(b); err != nil {
			_ = l.f.Truncate(size)
			return err
		}
		return nil
	})
	n := l.written.Add(1)
	l.mu.Unlock()
	if err != nil {
		return torn, fmt.Errorf("server: result log: %w", err)
	}
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	if l.synced >= n {
		return torn, nil
	}
	upto := l.written.Load()
	if err := l.f.Sync(); err != nil {
		return torn, fmt.Errorf("server: result log: sync: %w", err)
	}
	l.synced = upto
	return torn, nil
}

func (l *resultLog) close() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("server: result log: %w", err)
	}
	return nil
}

// writeFileDurable writes data to dir/name through a temporary file that is
// fsynced and then linked to its name, which fails if the name exists (an
// error wrapping fs.ErrExist): a file is never overwritten. The temporary
// file is removed and dir fsynced: a reader never sees a partial file, and a
// crash leaves either the whole file or none (and at most a temporary
// file, which cleanTemp removes at the next start).
func writeFileDurable(dir, name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(dir, "."+name+tmpInfix+"*") // fileMode (0600), which the link keeps
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
		}
		_ = os.Remove(tmp.Name())
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	// A link, unlike a rename, never replaces an existing file.
	final := filepath.Join(dir, name)
	if err = linkFile(tmp.Name(), final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		// A file system without hard links: create the name exclusively
		// and write it again (a crash may then leave it partial).
		if err = writeExclusive(final, data); err != nil {
			return err
		}
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}

// linkFile is os.Link; tests swap it.
var linkFile = os.Link

// writeExclusive writes data to a new file path (O_EXCL: an error wrapping
// fs.ErrExist if path exists) and fsyncs it.
func writeExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
	}
	return err
}

// tmpInfix marks the temporary files of writeFileDurable: ".NAME.tmp-RANDOM".
const tmpInfix = ".tmp-"

// tempMaxAge is the age from which a temporary replay file is a crash's
// leftover: a server writes one in milliseconds, so a younger one may be
// another server's, sharing the directory, that is writing it now.
const tempMaxAge = time.Minute

// cleanTemp removes the temporary files a crash left in dir (see
// writeFileDurable) last modified before now-tempMaxAge, and returns their
// names and those of the younger ones it kept. Only dot files whose name
// holds tmpInfix are touched; a replay is never one.
func cleanTemp(dir string, now time.Time) (removed, kept []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("server: replay dir: %w", err)
	}
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(n, ".") || !strings.Contains(n, tmpInfix) {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // its writer has just finished
		}
		if err != nil {
			return removed, kept, fmt.Errorf("server: replay dir: %w", err)
		}
		if now.Sub(info.ModTime()) < tempMaxAge {
			kept = append(kept, n)
			continue
		}
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, kept, fmt.Errorf("server: replay dir: %w", err)
		}
		removed = append(removed, n)
	}
	return removed, kept, nil
}
