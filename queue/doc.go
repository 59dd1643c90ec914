// Package queue spreads the shards of kaisen runs (match, tournament and
// shots shards, the games of tuning evaluations) over worker processes
// through a NATS JetStream work queue, and gathers their results exactly
// once.
//
// A run is cut into shards (package shard): a work Item is one shard, its
// Result the shard's file, which merges exactly. An Item is a typed
// library call, not a command line: the run's kind and its settings as
// data (package jobs: players by name, weights and rules as YAML text),
// with the shard file's arguments the coordinator's flags. The
// coordinator (kaisen match|tournament|shots|tune|exploit --nats)
// publishes the Items of the shards that have no result yet to the work
// stream; a Worker (kaisen worker) pulls one Item at a time, plays it
// with all its cores (PlayItem: the settings resolved through the games
// registry and played by jobs.Shard, the call behind --shard), heartbeats
// while it plays, stores the Result in the results bucket under the key
// RUN.SHARD with a create-only write and then acks the Item. At-least-once
// delivery becomes exactly-once in the result:
//
//   - an Item redelivered after its worker died (AckWait) or published twice
//     is played again, but only the first Result of a shard is stored (the
//     create fails for the second) and the coordinator keeps one Result per
//     shard;
//   - a coordinator restarted with the same run id reads the stored Results
//     first and publishes only the shards still missing.
//
// Broker runs the embedded JetStream server (kaisen broker); Setup creates
// the stream, consumer and buckets on any JetStream server. Messages are
// versioned JSON: Items version 2 (ItemVersion; version 1 was a command
// line, which this package refuses, as a version-1 worker refuses a
// version-2 Item), Results and checkpoints version 1 (Version), so that
// the stored results of a run still read when it resumes. A message of
// another version or a malformed one is refused with a clear error
// (DecodeItem, DecodeResult; ErrVersion, ErrMessage), and a worker logs
// and terminates it. The design and its measurements are in
// docs/distributed.md.
package queue
