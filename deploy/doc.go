// Package deploy holds no code: it is the home of the examples that run
// kaisen's sharded matches, tournaments and shots runs on a cluster — a
// Kubernetes Indexed Job (kubernetes/) and a Slurm array job (slurm/), each
// followed by kaisen merge — and of the test that runs their scripts on
// this machine and checks that the merged result is the unsharded run's.
// nats/local.sh runs a command on a work queue on one machine (kaisen
// broker and kaisen worker processes); nats_test.go runs broker and worker
// processes, kills a worker mid-item and checks the queued result.
// docs/distributed.md documents them.
package deploy
