package admiral

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The opening book (docs/admiral.md, "The opening book"). A game's first
// decision is its costliest: both beliefs are still the whole prior, so the
// one-ply pass and the play-outs scan the largest pools of the game (about
// a quarter of admiral's CPU against stateplayer2). It is also the
// decision that reads the least: when we act first, only our own
// placement; when the enemy acts first, our placement and the cell of its
// first attack (what it hit and splashed follows from the two). The book
// holds the search's choice for every such position, up to the board's
// symmetries, computed once by this very search (buildOpening) for the
// default rules and weights, and shipped in book/opening.gz. An Admiral
// whose rules and weights are not the book's (its fingerprint) searches as
// before; so does one in a series with a learnt prior.
//
// The search's choice there is random (its play-out worlds and visiting
// order are drawn): over 8 seeds only one position in six gets the same
// action every time. So the book keeps openingSamples draws of the search
// per position, each with a seed of its own, and a game picks one of them
// with its own random stream: the same randomised policy (up to the
// samples), so the same strength, and no more predictable from the
// published book than from the search itself. A game still replays bit
// for bit from its seed: the book is fixed.
//
// To rebuild it after a change to the search or to the default weights
// (TestOpeningBook fails until it is rebuilt):
//
//	go test ./players/admiral -run TestOpeningBook -update -timeout 60m

//go:embed book/opening.gz
var shippedOpeningData []byte

// openingMagic starts every book (before its fingerprint).
const openingMagic = "kaisen admiral opening book v1\n"

// openingSeed is mixed into every position's seeds.
const openingSeed = 0x0be11e

// openingSamples is how many draws of the search the book keeps per
// position.
const openingSamples = 8

// openingKey is a position of the book: our placement (cell of fleet ship
// i in byte i) and the cell of the enemy's first attack, or -1 when we act
// first.
type openingKey struct {
	fleet uint64
	at    int16
}

func (k openingKey) compare(o openingKey) int {
	return cmp.Or(cmp.Compare(k.fleet, o.fleet), cmp.Compare(k.at, o.at))
}

// openingBook is a decoded book: a fingerprint of the rules and weights it
// was built for and the search's actions in every canonical position
// (samples of them, drawn with seeds 0 to samples-1).
type openingBook struct {
	fingerprint string
	samples     int
	// keys lists the positions in increasing order; acts holds their
	// actions in the same order, samples a position, each as three bytes:
	// kind, ship+1 and target cell (as in the file).
	keys []openingKey
	acts []byte
}

// find is the index of position k (ok false: not in the book).
func (b *openingBook) find(k openingKey) (int, bool) {
	return slices.BinarySearchFunc(b.keys, k, openingKey.compare)
}

// action is action number sample of the position at index i.
func (b *openingBook) action(i, sample int) submarine.Action {
	return bookAction(b.acts[3*(i*b.samples+sample):])
}

// actions is the position's actions (nil: not in the book).
func (b *openingBook) actions(k openingKey) []submarine.Action {
	i, ok := b.find(k)
	if !ok {
		return nil
	}
	out := make([]submarine.Action, b.samples)
	for j := range out {
		out[j] = b.action(i, j)
	}
	return out
}

func appendBookAction(buf []byte, act submarine.Action) []byte {
	return append(buf, byte(act.Kind), byte(act.Ship+1), byte(act.To))
}

func bookAction(e []byte) submarine.Action {
	return submarine.Action{Kind: submarine.Kind(e[0]), Ship: int(e[1]) - 1, To: grid.Cell(e[2])}
}

// opening is the book as one factory's Admirals read it: the board's
// symmetries with it.
type opening struct {
	book *openingBook
	syms [][]grid.Cell
}

// openingFingerprint names the rules and weights a book is valid for. The
// opening switch itself is left out (a book is built with it off).
func openingFingerprint(rules *submarine.Rules, cfg AdmiralConfig) string {
	cfg.Search.Opening = true
	sum := sha256.Sum256(fmt.Appendf(nil, "%s%v|%v|%d|%+v", openingMagic,
		rules.Board.Shape(), rules.Fleet, rules.DrawLimit, cfg))
	return hex.EncodeToString(sum[:16])
}

var shippedOpening struct {
	once sync.Once
	book *openingBook
	err  error
}

// shippedBook decodes the shipped book (once per process).
func shippedBook() (*openingBook, error) {
	s := &shippedOpening
	s.once.Do(func() { s.book, s.err = readOpening(bytes.NewReader(shippedOpeningData)) })
	return s.book, s.err
}

// openingFor is the shipped book for rules and cfg, or nil when cfg turns
// it off or the book was built for other rules or weights.
func openingFor(rules *submarine.Rules, cfg AdmiralConfig) *opening {
	if !cfg.Search.Opening {
		return nil
	}
	b, err := shippedBook()
	if err != nil || b.fingerprint != openingFingerprint(rules, cfg) {
		return nil
	}
	return &opening{book: b, syms: rules.Board.Symmetries()}
}

// canonical is the key of the position (fleet, at) under the symmetry that
// makes it least, and that symmetry's index.
func canonical(syms [][]grid.Cell, fleet []grid.Cell, at grid.Cell) (openingKey, int) {
	var best openingKey
	bestG := -1
	for g, s := range syms {
		k := openingKey{at: -1}
		for i, c := range fleet {
			k.fleet |= uint64(s[c]) << (8 * i)
		}
		if at != grid.None {
			k.at = int16(s[at])
		}
		if bestG < 0 || k.compare(best) < 0 {
			best, bestG = k, g
		}
	}
	return best, bestG
}

// lookup is the book's action number sample (0 to samples-1) for our
// placement fleet and the enemy's first attack at (grid.None: we act
// first), in our frame.
func (o *opening) lookup(fleet []grid.Cell, at grid.Cell, sample int) (submarine.Action, bool) {
	key, g := canonical(o.syms, fleet, at)
	i, ok := o.book.find(key)
	if !ok || sample < 0 || sample >= o.book.samples {
		return submarine.Action{}, false
	}
	act := o.book.action(i, sample)
	// The book's action is in the frame of symmetry g: map it back.
	s := o.syms[g]
	for c, d := range s {
		if d == act.To {
			act.To = grid.Cell(c)
			return act, true
		}
	}
	return submarine.Action{}, false
}

// bookAct is the book's action for this decision, if the book applies: the
// game's first action, or our first after an enemy attack.
func (a *Admiral) bookAct() (submarine.Action, bool) {
	o := a.shared.opening
	if o == nil || a.learnt != nil || a.enemyJ == nil || len(a.placement) == 0 {
		return submarine.Action{}, false
	}
	at := grid.None
	switch {
	case a.actions == 0:
	case a.actions == 1 && a.firstAttack != grid.None:
		at = a.firstAttack
	default:
		return submarine.Action{}, false
	}
	act, ok := o.lookup(a.placement, at, a.rng.IntN(o.book.samples))
	if !ok || a.rules.CheckAction(&a.me, act) != nil {
		return submarine.Action{}, false
	}
	return act, true
}

// openingKeys lists every canonical position of the book, in key order.
func openingKeys(rules *submarine.Rules) []openingKey {
	syms := rules.Board.Symmetries()
	seen := map[openingKey]bool{}
	usable := rules.Board.Usable().Cells()
	for _, pl := range allPlacements(rules) {
		k, _ := canonical(syms, pl, grid.None)
		seen[k] = true
		for _, at := range usable {
			k, _ := canonical(syms, pl, at)
			seen[k] = true
		}
	}
	keys := make([]openingKey, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, openingKey.compare)
	return keys
}

// openingSearch runs the search of the book's position key with seed
// number sample: a fresh Admiral of cfg without a book, on key's
// placement, told of the enemy's first attack when there is one (by an
// enemy fleet that can make it: what we are told does not depend on
// which), and asked for its action. enemy lists placements to draw that
// fleet from (allPlacements).
func openingSearch(rules *submarine.Rules, cfg AdmiralConfig, sh *admiralShared, enemy [][]grid.Cell, key openingKey, sample int) (submarine.Action, error) {
	seed := uint64(int64(key.at))<<8 ^ uint64(sample) ^ openingSeed
	n := len(rules.Fleet)
	pl := make(submarine.Placement, n)
	for i := range n {
		pl[i] = cellOf(key.fleet, i)
	}
	a := newAdmiral(rules, cfg, rand.New(rand.NewPCG(key.fleet, seed)), sh)
	a.placement = pl
	a.me = submarine.NewFleet(rules, pl)
	if key.at >= 0 {
		at := grid.Cell(key.at)
		i := slices.IndexFunc(enemy, func(e []grid.Cell) bool {
			return slices.ContainsFunc(e, func(c grid.Cell) bool { return rules.Board.Chebyshev(c, at) <= 1 })
		})
		if i < 0 {
			return submarine.Action{}, fmt.Errorf("admiral: opening book: no fleet can attack %s", rules.CellName(at))
		}
		g, err := submarine.NewGame(rules, enemy[i], pl, 0)
		if err != nil {
			return submarine.Action{}, fmt.Errorf("admiral: opening book: %w", err)
		}
		st, err := g.Apply(submarine.AttackAt(at))
		if err != nil {
			return submarine.Action{}, fmt.Errorf("admiral: opening book: %w", err)
		}
		v := g.View(1)
		a.Observe(st.Other, &v)
	}
	return a.Act(), nil
}

// buildOpening searches every position of the book for rules and cfg on
// workers goroutines, calling progress (if not nil) after each.
func buildOpening(ctx context.Context, rules *submarine.Rules, cfg AdmiralConfig, workers int, progress func(done, total int)) (*openingBook, error) {
	sh := newAdmiralShared(rules, cfg)
	sh.opening = nil // the book holds the search's choices
	keys := openingKeys(rules)
	acts := make([]submarine.Action, len(keys)*openingSamples)
	enemy := allPlacements(rules)
	var next, done atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for range max(workers, 1) {
		g.Go(func() error {
			for {
				j := int(next.Add(1) - 1)
				if j >= len(acts) {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				act, err := openingSearch(rules, cfg, sh, enemy, keys[j/openingSamples], j%openingSamples)
				if err != nil {
					return err
				}
				acts[j] = act
				if d := int(done.Add(1)); progress != nil {
					progress(d, len(acts))
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	b := &openingBook{fingerprint: openingFingerprint(rules, cfg), samples: openingSamples,
		keys: keys, acts: make([]byte, 0, 3*len(acts))}
	for _, act := range acts {
		b.acts = appendBookAction(b.acts, act)
	}
	return b, nil
}

// The book's file (gzip): openingMagic, the fingerprint and a newline, the
// samples per position and the number of positions (uvarints), then every
// position in key order: its fleet (uvarint), at+1 (uvarint), and its
// actions, sample by sample, as three bytes each: kind (submarine.Kind),
// ship + 1 (0: none) and the target cell.

// errOpening reports a book file that cannot be read.
var errOpening = errors.New("admiral: bad opening book")

// writeOpening writes b to w.
func writeOpening(w io.Writer, b *openingBook) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(openingMagic)
	bw.WriteString(b.fingerprint + "\n")
	width := 3 * b.samples
	if !slices.IsSortedFunc(b.keys, openingKey.compare) || len(b.acts) != width*len(b.keys) {
		return fmt.Errorf("%w: positions out of order or actions missing", errOpening)
	}
	buf := binary.AppendUvarint(nil, uint64(b.samples))
	buf = binary.AppendUvarint(buf, uint64(len(b.keys)))
	for i, k := range b.keys {
		buf = binary.AppendUvarint(buf, k.fleet)
		buf = binary.AppendUvarint(buf, uint64(k.at+1))
		buf = append(buf, b.acts[i*width:(i+1)*width]...)
	}
	bw.Write(buf)
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// openingMax bounds the positions a book may hold and openingMaxSamples
// its samples per position (a bad count must not allocate the machine
// away).
const (
	openingMax        = 1 << 22
	openingMaxSamples = 64
)

// readOpening decodes a book written by writeOpening.
func readOpening(r io.Reader) (*openingBook, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errOpening, err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errOpening, err)
	}
	rest, ok := bytes.CutPrefix(data, []byte(openingMagic))
	if !ok {
		return nil, fmt.Errorf("%w: not a book of this version", errOpening)
	}
	fp, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || len(fp) == 0 || len(fp) > 128 {
		return nil, fmt.Errorf("%w: no fingerprint", errOpening)
	}
	samples, k := binary.Uvarint(rest)
	if k <= 0 || samples < 1 || samples > openingMaxSamples {
		return nil, fmt.Errorf("%w: bad sample count", errOpening)
	}
	rest = rest[k:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > openingMax {
		return nil, fmt.Errorf("%w: bad position count", errOpening)
	}
	rest = rest[k:]
	width := 3 * int(samples)
	m := min(n, uint64(len(rest)/(2+width)))
	b := &openingBook{fingerprint: string(fp), samples: int(samples),
		keys: make([]openingKey, 0, m), acts: make([]byte, 0, m*uint64(width))}
	prev := openingKey{}
	for i := range n {
		fleet, k := binary.Uvarint(rest)
		if k <= 0 {
			return nil, fmt.Errorf("%w: position %d: truncated", errOpening, i)
		}
		rest = rest[k:]
		at, k := binary.Uvarint(rest)
		if k <= 0 || at > grid.MaxCells || len(rest) < k+width {
			return nil, fmt.Errorf("%w: position %d: truncated or bad cell", errOpening, i)
		}
		key := openingKey{fleet: fleet, at: int16(at) - 1}
		if i > 0 && key.compare(prev) <= 0 {
			return nil, fmt.Errorf("%w: position %d out of order", errOpening, i)
		}
		prev = key
		for j := range int(samples) {
			act := bookAction(rest[k+3*j:])
			if act.Kind != submarine.Attack && act.Kind != submarine.Move || act.Ship >= submarine.MaxShips || (act.Kind == submarine.Move) != (act.Ship >= 0) {
				return nil, fmt.Errorf("%w: position %d: bad action", errOpening, i)
			}
		}
		b.keys = append(b.keys, key)
		b.acts = append(b.acts, rest[k:k+width]...)
		rest = rest[k+width:]
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last position", errOpening, len(rest))
	}
	return b, nil
}
