package queue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/shard"
)

// Version is the version of the Item, Result and checkpoint messages this
// package writes and reads. It goes up whenever a reader of the previous
// version would misread a message.
const Version = 1

// maxMessage bounds a message (a Result holds one shard file: a few KiB).
const maxMessage = 8 << 20

// ErrMessage is wrapped by every error of a malformed message.
var ErrMessage = errors.New("queue: bad message")

// ErrVersion is wrapped by the error of a message of another version.
var ErrVersion = errors.New("queue: unknown message version")

// Commands are the commands an Item may run: the ones that write shards.
var Commands = []string{"match", "tournament", "shots"}

// reserved are the flags a worker sets itself; an Item may not.
var reserved = []string{"shard", "out", "seed", "games", "workers", "progress", "json", "log-level", "log-format",
	"nats", "run-id", "shard-games", "replays", "html", "explain", "timing"}

var (
	runIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,96}$`)
	flagPattern  = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// CheckRunID checks a run id: 1 to 96 letters, digits, '-' or '_' (it is a
// token of subjects and keys).
func CheckRunID(id string) error {
	if !runIDPattern.MatchString(id) {
		return fmt.Errorf("%w: run id %q: want 1 to 96 letters, digits, '-' or '_'", ErrMessage, id)
	}
	return nil
}

// Item is one work item: shard Shard of Shards of a kaisen Command run with
// Args, Seed and -n Games, a run of Total games (Games for a match or
// shots run, every pair's games for a tournament). The worker runs
//
//	kaisen COMMAND ARGS... --FLAG=FILE... --seed SEED -n GAMES --shard SHARD/SHARDS --out TMP --workers W
//
// where each Files entry is written to a temporary FILE first (a tuning
// candidate's weights, which exist nowhere else).
type Item struct {
	V       int               `json:"v"`
	Run     string            `json:"run"`
	Shard   int               `json:"shard"`
	Shards  int               `json:"shards"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Files   map[string]string `json:"files,omitempty"`
	Seed    uint64            `json:"seed"`
	Games   int               `json:"games"`
	Total   int               `json:"total"`
}

// Key is the item's results-bucket key, RUN.SHARD.
func (it *Item) Key() string { return fmt.Sprintf("%s.%d", it.Run, it.Shard) }

// Spec is the item's K/N.
func (it *Item) Spec() shard.Spec { return shard.Spec{K: it.Shard, N: it.Shards} }

// Validate checks an item: its version, run id, shard, command and flags.
func (it *Item) Validate() error {
	if it.V != Version {
		return fmt.Errorf("%w: item version %d, this kaisen reads version %d", ErrVersion, it.V, Version)
	}
	if err := CheckRunID(it.Run); err != nil {
		return err
	}
	if err := it.Spec().Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrMessage, err)
	}
	if it.Games < 1 || it.Total < it.Games {
		return fmt.Errorf("%w: -n %d, %d games in all", ErrMessage, it.Games, it.Total)
	}
	if lo, hi := it.Spec().Range(it.Total); lo == hi {
		return fmt.Errorf("%w: shard %s of %d games has no game", ErrMessage, it.Spec(), it.Total)
	}
	if !slices.Contains(Commands, it.Command) {
		return fmt.Errorf("%w: command %q (want one of %s)", ErrMessage, it.Command, strings.Join(Commands, ", "))
	}
	for _, a := range it.Args {
		name, _, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") || !ok {
			return fmt.Errorf("%w: argument %q: want --NAME=VALUE", ErrMessage, a)
		}
		if err := checkFlag(name); err != nil {
			return err
		}
	}
	for name := range it.Files {
		if err := checkFlag(name); err != nil {
			return err
		}
		if name != "rules" && name != "weights" && !strings.HasSuffix(name, "-weights") {
			return fmt.Errorf("%w: file for --%s: only weights and rules files travel with an item", ErrMessage, name)
		}
	}
	return nil
}

func checkFlag(name string) error {
	if !flagPattern.MatchString(name) {
		return fmt.Errorf("%w: flag name %q", ErrMessage, name)
	}
	if slices.Contains(reserved, name) {
		return fmt.Errorf("%w: --%s is set by the worker, not by an item", ErrMessage, name)
	}
	return nil
}

// Result is what a worker stores for an item: the shard file it wrote, or
// the error that kept it from writing one.
type Result struct {
	V       int    `json:"v"`
	Run     string `json:"run"`
	Shard   int    `json:"shard"`
	Worker  string `json:"worker"`  // the worker's name (host-pid unless named)
	Workers int    `json:"workers"` // the games it plays at once
	File    string `json:"file,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Validate checks a result's version, run, shard and that it holds exactly
// one of a file and an error.
func (r *Result) Validate() error {
	if r.V != Version {
		return fmt.Errorf("%w: result version %d, this kaisen reads version %d", ErrVersion, r.V, Version)
	}
	if err := CheckRunID(r.Run); err != nil {
		return err
	}
	if r.Shard < 1 {
		return fmt.Errorf("%w: result of shard %d", ErrMessage, r.Shard)
	}
	if (r.File == "") == (r.Error == "") {
		return fmt.Errorf("%w: a result holds a shard file or an error, not both or neither", ErrMessage)
	}
	return nil
}

// ShardFile reads the result's shard file.
func (r *Result) ShardFile() (shard.File, error) {
	name := fmt.Sprintf("run %s shard %d (from %s)", r.Run, r.Shard, r.Worker)
	return shard.Read(strings.NewReader(r.File), name)
}

// Encode writes a message (Item, Result or the tuning checkpoint) as one
// JSON object with its version filled in.
func Encode(m interface{ setVersion() }) ([]byte, error) {
	m.setVersion()
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("queue: encode: %w", err)
	}
	return data, nil
}

func (it *Item) setVersion()  { it.V = Version }
func (r *Result) setVersion() { r.V = Version }

// decode reads one JSON object strictly (unknown keys refused) into v; the
// version is checked first so that a message of another version is
// reported as such, not as a field mismatch.
func decode(data []byte, v any) error {
	if len(data) > maxMessage {
		return fmt.Errorf("%w: %d bytes", ErrMessage, len(data))
	}
	var head struct {
		V *int `json:"v"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("%w: %w", ErrMessage, err)
	}
	if head.V == nil {
		return fmt.Errorf("%w: no version field \"v\"", ErrMessage)
	}
	if *head.V != Version {
		return fmt.Errorf("%w: version %d, this kaisen reads version %d", ErrVersion, *head.V, Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %w", ErrMessage, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: data after the message", ErrMessage)
	}
	return nil
}

// DecodeItem reads and validates a work item.
func DecodeItem(data []byte) (Item, error) {
	var it Item
	if err := decode(data, &it); err != nil {
		return Item{}, err
	}
	return it, it.Validate()
}

// DecodeResult reads and validates a result.
func DecodeResult(data []byte) (Result, error) {
	var r Result
	if err := decode(data, &r); err != nil {
		return Result{}, err
	}
	return r, r.Validate()
}
