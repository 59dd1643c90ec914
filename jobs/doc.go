// Package jobs holds the runs kaisen cuts into shards — a match, a
// tournament, a shots run — as typed settings, and plays one shard of one
// into its shard file.
//
// The settings (Match, Tournament, Shots) are data: players by name,
// their weights and the rules as YAML text, so that they travel whole in a
// queue work item (package queue) and resolve on any machine into the
// library's own configs through the games registry (Match.Arena,
// Tournament.Config, Shots.Config). A Shard says which shard of which run
// to play; its Match, Tournament and Shots methods play it and return the
// shard file's header and result (package shard). They are the one call
// behind kaisen match|tournament|shots --shard and behind a queue worker,
// so a shard played either way writes the same file.
package jobs
