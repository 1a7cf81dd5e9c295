package main

import "github.com/flowmill/flowmill/pkg/execution"

// runWebhooksHere lets production webhooks run on the runner of this process (the embedded
// default, where the api holds the worker): their executions skip the queue and their answers
// skip Redis. Everything else about them is as for queued ones: stored first, leased,
// checkpointed, listed and stoppable.
func (s *server) runWebhooksHere(r *execution.Runner) {
	s.executions.RunWebhooksOn(r)
	r.DeliverAnswersHere(s.hooks.answers.deliver)
}
