// Package bus is how Flowmill's processes tell each other things through Redis, apart from the
// task queue: every pub/sub channel and shared Redis key name, the typed topics published on
// those channels, one subscriber loop for all of them, and the heartbeats that say which workers
// and schedulers are alive. It needs nothing but a Redis client, so packages that must not reach
// the database (auth, push) can use it.
package bus

// Pub/sub channels. Each carries one Topic (see topic.go); ChannelFor gives the name on a
// database other than 0.
const (
	// ChannelPush carries push messages from any process to every api replica.
	ChannelPush = "flowmill:push"
	// ChannelStop carries ids of executions to cancel to every worker.
	ChannelStop = "flowmill:execution:stop"
	// ChannelFinished carries ids of executions that just finished (or started waiting), for
	// api processes and listener triggers waiting on them.
	ChannelFinished = "flowmill:execution:finished"
	// ChannelActivation carries the id of a workflow whose activation changed (activated,
	// deactivated, updated while active, deleted), so schedulers and api caches reload it.
	ChannelActivation = "flowmill:activation"
	// ChannelWebhookResponse carries the answers of webhook executions to the api waiting for
	// them.
	ChannelWebhookResponse = "flowmill:webhook:response"
	// ChannelQueueWake carries the name of a task queue that was just given a task, so idle
	// workers look at it now instead of polling (pkg/queue).
	ChannelQueueWake = "flowmill:queue:wake"
)

// Shared Redis keys outside asynq's own.
const (
	// KeyHeartbeatPrefix + role + ":" + instance id holds a process's last heartbeat.
	KeyHeartbeatPrefix = "flowmill:heartbeat:"
	// KeyStopPrefix + execution id marks a stop request for a minute, for a worker that claims
	// the execution just after the message on ChannelStop went out.
	KeyStopPrefix = "flowmill:execution:stop:"
	// KeyRateLimitPrefix + rule + ":" + subject counts attempts within a rate-limit window.
	KeyRateLimitPrefix = "flowmill:ratelimit:"
	// KeyProductionSlots holds the executions counted against the production concurrency
	// limit, as a sorted set of execution ids scored by when their hold expires.
	KeyProductionSlots = "flowmill:concurrency:production"
	// KeyActivationErrors is a hash: workflow id → JSON {time, error: {message}} of the last
	// failure to start its triggers.
	KeyActivationErrors = "flowmill:activation:errors"
	// KeyWebhookResponsePrefix + execution id keeps a copy of a webhook answer sent on
	// ChannelWebhookResponse for a minute, for an api that missed the message, when the
	// database could not keep it (webhook_answers is the copy otherwise).
	KeyWebhookResponsePrefix = "flowmill:webhook:response:"
	// KeyTestWebhookPrefix starts every key of the test-webhook registry.
	KeyTestWebhookPrefix = "flowmill:test-webhook:"
	// KeyPollLeasePrefix + workflow id + ":" + node name is held while a poll node polls, so
	// the next tick's poll does not start from the same static data.
	KeyPollLeasePrefix = "flowmill:poll:"
	// KeyTriggerLastPrefix + workflow id, node and rule holds when a schedule rule that skips
	// firings (week intervals, recurrences) last fired, in Unix seconds, for every scheduler.
	KeyTriggerLastPrefix = "flowmill:trigger:last:"
	// KeyListenerLeasePrefix + workflow id + ":" + node name holds the token of the one
	// scheduler running that listener trigger, renewed while it runs.
	KeyListenerLeasePrefix = "flowmill:listener:"
)
