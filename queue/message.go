package queue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/shard"
)

// ItemVersion is the version of the Item messages this package writes and
// reads; Version is that of the Result and checkpoint messages. Each goes
// up whenever a reader of the previous version would misread a message:
// items went to version 2 when they stopped being command lines (version
// 1) and became typed settings, while results and checkpoints kept
// version 1, so that the stored results and checkpoints of a run still
// read when it is resumed.
const (
	ItemVersion = 2
	Version     = 1
)

// maxMessage bounds a message (a Result holds one shard file: a few KiB;
// an Item the weights and rules it plays with).
const maxMessage = 8 << 20

// ErrMessage is wrapped by every error of a malformed message.
var ErrMessage = errors.New("queue: bad message")

// ErrVersion is wrapped by the error of a message of another version.
var ErrVersion = errors.New("queue: unknown message version")

// Kinds are the kinds of run an Item may hold a shard of: the commands
// that write shards.
var Kinds = []string{jobs.CommandMatch, jobs.CommandTournament, jobs.CommandShots}

var runIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,96}$`)

// CheckRunID checks a run id: 1 to 96 letters, digits, '-' or '_' (it is a
// token of subjects and keys).
func CheckRunID(id string) error {
	if !runIDPattern.MatchString(id) {
		return fmt.Errorf("%w: run id %q: want 1 to 96 letters, digits, '-' or '_'", ErrMessage, id)
	}
	return nil
}

// Item is one work item: shard Shard of Shards of a run of Kind with Seed
// and -n Games, a run of Total games (Games for a match or shots run,
// every pair's games for a tournament). Exactly one of Match, Tournament
// and Shots is set, the one of Kind: the run's typed settings, weights and
// rules as YAML text (package jobs). Args are the run's identity, which
// the worker writes in the shard file's header unchanged (Run.Expect: the
// coordinator's game-deciding flags). The worker plays it with
// jobs.Shard, as kaisen KIND --shard SHARD/SHARDS would.
type Item struct {
	V          int               `json:"v"`
	Run        string            `json:"run"`
	Shard      int               `json:"shard"`
	Shards     int               `json:"shards"`
	Seed       uint64            `json:"seed"`
	Games      int               `json:"games"`
	Total      int               `json:"total"`
	Kind       string            `json:"kind"`
	Args       map[string]string `json:"args"`
	Match      *jobs.Match       `json:"match,omitempty"`
	Tournament *jobs.Tournament  `json:"tournament,omitempty"`
	Shots      *jobs.Shots       `json:"shots,omitempty"`
}

// Key is the item's results-bucket key, RUN.SHARD.
func (it *Item) Key() string { return fmt.Sprintf("%s.%d", it.Run, it.Shard) }

// Spec is the item's K/N.
func (it *Item) Spec() shard.Spec { return shard.Spec{K: it.Shard, N: it.Shards} }

// Validate checks an item: its version, run id, shard, games and that it
// holds the settings of its kind, and only those.
func (it *Item) Validate() error {
	if it.V != ItemVersion {
		return fmt.Errorf("%w: item version %d, this kaisen reads version %d", ErrVersion, it.V, ItemVersion)
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
	return it.validateSettings()
}

// validateSettings checks that the item holds exactly the settings of its
// kind and that they are whole.
func (it *Item) validateSettings() error {
	if !slices.Contains(Kinds, it.Kind) {
		return fmt.Errorf("%w: kind %q (want one of %s)", ErrMessage, it.Kind, strings.Join(Kinds, ", "))
	}
	set := map[string]bool{jobs.CommandMatch: it.Match != nil, jobs.CommandTournament: it.Tournament != nil,
		jobs.CommandShots: it.Shots != nil}
	for _, k := range Kinds {
		if set[k] != (k == it.Kind) {
			return fmt.Errorf("%w: a %s item holds the settings of its kind and no other (%q: %t)", ErrMessage, it.Kind, k, set[k])
		}
	}
	var err error
	switch it.Kind {
	case jobs.CommandMatch:
		err = it.Match.Validate()
	case jobs.CommandTournament:
		err = it.Tournament.Validate()
		if n := it.Tournament.Pairs() * it.Games; err == nil && n != it.Total {
			err = fmt.Errorf("%d games in all, not %d pairs of %d games", it.Total, it.Tournament.Pairs(), it.Games)
		}
	case jobs.CommandShots:
		err = it.Shots.Validate()
	}
	if err == nil && it.Kind != jobs.CommandTournament && it.Total != it.Games {
		err = fmt.Errorf("a %s run has -n games in all: %d, not %d", it.Kind, it.Games, it.Total)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMessage, err)
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

func (it *Item) setVersion()  { it.V = ItemVersion }
func (r *Result) setVersion() { r.V = Version }

// decode reads one JSON object of version strictly (unknown keys refused)
// into v; the version is checked first so that a message of another version is
// reported as such, not as a field mismatch.
func decode(data []byte, v any, version int) error {
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
	if *head.V != version {
		return fmt.Errorf("%w: version %d, this kaisen reads version %d", ErrVersion, *head.V, version)
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
	if err := decode(data, &it, ItemVersion); err != nil {
		return Item{}, err
	}
	return it, it.Validate()
}

// DecodeResult reads and validates a result.
func DecodeResult(data []byte) (Result, error) {
	var r Result
	if err := decode(data, &r, Version); err != nil {
		return Result{}, err
	}
	return r, r.Validate()
}
