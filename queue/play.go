package queue

import (
	"bytes"
	"context"
	"fmt"

	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/shard"
)

// PlayItem plays an item in this process with workers games at once and
// returns its shard file: the item's settings resolved through the games
// registry and played by jobs.Shard, the call behind kaisen KIND --shard,
// with the item's Args as the file's arguments. It is the Play of kaisen
// worker.
func PlayItem(ctx context.Context, it *Item, workers int) ([]byte, error) {
	s := jobs.Shard{Args: it.Args, Seed: it.Seed, Games: it.Total, Spec: it.Spec(), Workers: workers}
	var (
		h      shard.Header
		result any
		err    error
	)
	switch it.Kind {
	case jobs.CommandMatch:
		h, result, err = playMatch(ctx, &s, it.Match)
	case jobs.CommandTournament:
		h, result, err = playTournament(ctx, &s, it.Tournament, it.Games)
	case jobs.CommandShots:
		h, result, err = playShots(ctx, &s, it.Shots)
	default:
		err = fmt.Errorf("%w: kind %q", ErrMessage, it.Kind)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s shard %s: %w", it.Kind, it.Spec(), err)
	}
	var buf bytes.Buffer
	if err := shard.Write(&buf, h, result); err != nil {
		return nil, fmt.Errorf("%s shard %s: %w", it.Kind, it.Spec(), err)
	}
	return buf.Bytes(), nil
}

func playMatch(ctx context.Context, s *jobs.Shard, spec *jobs.Match) (shard.Header, any, error) {
	m, err := spec.Arena()
	if err != nil {
		return shard.Header{}, nil, err
	}
	return s.Match(ctx, m, nil)
}

func playTournament(ctx context.Context, s *jobs.Shard, spec *jobs.Tournament, gamesPerPair int) (shard.Header, any, error) {
	tc, err := spec.Config(gamesPerPair, s.Seed, s.Workers, s.Log)
	if err != nil {
		return shard.Header{}, nil, err
	}
	return s.Tournament(ctx, tc, nil)
}

func playShots(ctx context.Context, s *jobs.Shard, spec *jobs.Shots) (shard.Header, any, error) {
	c, err := spec.Config(s.Seed, s.Workers)
	if err != nil {
		return shard.Header{}, nil, err
	}
	return s.Shots(ctx, c, spec.Player)
}
