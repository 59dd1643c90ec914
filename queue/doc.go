// Package queue spreads the shards of kaisen runs (match, tournament and
// shots shards, the games of tuning evaluations) over worker processes
// through a NATS JetStream work queue, and gathers their results exactly
// once.
//
// A run is cut into shards (package shard): a work Item is one shard, its
// Result the shard's file, which merges exactly. The coordinator (kaisen
// match|tournament|tune --nats) publishes the Items of the shards that have
// no result yet to the work stream; a Worker (kaisen worker) pulls one Item
// at a time, plays it with all its cores, heartbeats while it plays, stores
// the Result in the results bucket under the key RUN.SHARD with a
// create-only write and then acks the Item. At-least-once delivery becomes
// exactly-once in the result:
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
// versioned JSON (Version); a message of another version or a malformed one
// is refused with a clear error (DecodeItem, DecodeResult), and a worker
// logs and terminates it. The design and its measurements are in
// docs/distributed.md.
package queue
