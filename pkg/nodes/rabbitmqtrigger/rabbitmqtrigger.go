// Package rabbitmqtrigger is the RabbitMQ Trigger node (version 1). While its workflow is active
// it is a listener trigger (nodes.Type.Listen, run by exactly one scheduler, see pkg/listener):
// it consumes its queue and starts one execution per message, acknowledging the message as its
// Delete From Queue When option says: once the execution is stored (Immediately), once it ended
// (Execution Finishes), ended successfully (otherwise the message is requeued), or once a
// RabbitMQ node of the run deleted it (Specified Later in Workflow). Messages are consumed with
// manual acknowledgement in every mode, so one not acknowledged yet goes back to the queue when
// the listener's channel closes (the process died, the lease moved). Run by hand the node takes
// the next message and outputs it.
package rabbitmqtrigger

import (
	"context"
	"crypto/rand"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/flowmill/flowmill/pkg/amqpconn"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/rabbitmq"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var description []byte

//go:embed rabbitmq.svg
var iconSVG []byte

// TypeName is the node's type.
const TypeName = "n8n-nodes-base.rabbitmqTrigger"

// Type returns version 1 for registration.
func Type() nodes.Type {
	t := nodes.Define(description, nodes.KindTrigger, execute)
	t.IconSVG = iconSVG
	t.Listen = listen
	return t
}

// The acknowledgement modes (options.acknowledge).
const (
	ackImmediately         = "immediately"
	ackExecutionFinishes   = "executionFinishes"
	ackExecutionSuccessful = "executionFinishesSuccessfully"
	ackLaterMessageNode    = "laterMessageNode"
)

// config is the node's parameters.
type config struct {
	queue string
	// ack is the acknowledgement mode; prefetch the most unacknowledged messages at a time (0:
	// no limit).
	ack      string
	prefetch int

	contentIsBinary, jsonParseBody, onlyContent bool

	assertQueue, durable, autoDelete, exclusive bool
	arguments                                   amqp.Table
	bindings                                    [][2]string // exchange, routing key
}

func readConfig(ex *nodes.Execution) (*config, error) {
	c := &config{}
	var err error
	if c.queue, err = ex.ParamString("queue", 0); err != nil {
		return nil, err
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	flag := func(name string, def bool) bool {
		if v, ok := opts[name].(bool); ok {
			return v
		}
		return def
	}
	c.contentIsBinary = flag("contentIsBinary", false)
	c.jsonParseBody = flag("jsonParseBody", false)
	c.onlyContent = flag("onlyContent", false)
	c.assertQueue = flag("assertQueue", true)
	c.durable = flag("durable", true)
	c.autoDelete = flag("autoDelete", false)
	c.exclusive = flag("exclusive", false)

	c.ack, _ = opts["acknowledge"].(string)
	if c.ack == "" {
		c.ack = ackImmediately
	}
	switch c.ack {
	case ackImmediately, ackExecutionFinishes, ackExecutionSuccessful, ackLaterMessageNode:
	default:
		return nil, nodes.Errorf(0, "The value %q is not supported for Delete From Queue When", c.ack)
	}
	parallel := -1.0
	if v, ok := opts["parallelMessages"]; ok && v != nil {
		f, ok := v.(float64)
		if !ok {
			if n, isInt := v.(int); isInt {
				f, ok = float64(n), true
			}
		}
		if !ok || math.IsNaN(f) || f != math.Trunc(f) {
			return nil, nodes.Errorf(0, "Parallel message processing limit must be a number greater than zero (or -1 for no limit)")
		}
		parallel = f
	}
	if parallel == 0 || parallel < -1 || parallel > math.MaxUint16 {
		return nil, nodes.Errorf(0, "Parallel message processing limit must be a number greater than zero (or -1 for no limit)")
	}
	if parallel != -1 {
		c.prefetch = int(parallel)
		if c.ack == ackImmediately {
			// As in n8n: a limit on parallel executions needs to wait for their end.
			c.ack = ackExecutionFinishes
		}
	}

	args, err := rabbitmq.Arguments(ex)
	if err != nil {
		return nil, err
	}
	c.arguments = rabbitmq.QueueArguments(args)
	bindings, err := ex.ParamList("options.binding.bindings", 0)
	if err != nil {
		return nil, err
	}
	for _, b := range bindings {
		exchange, _ := b["exchange"].(string)
		key, _ := b["routingKey"].(string)
		c.bindings = append(c.bindings, [2]string{exchange, key})
	}
	return c, nil
}

// await is what the listener waits for before it acknowledges a message in c's mode.
func (c *config) await() nodes.Await {
	switch c.ack {
	case ackImmediately:
		return nodes.AwaitNone
	case ackLaterMessageNode:
		return nodes.AwaitAcknowledge
	}
	return nodes.AwaitEnd
}

// settle acknowledges a message whose run had outcome o, or gives it back to the queue, as n8n
// does: Execution Finishes acknowledges whatever the end; Execution Finishes Successfully and
// Specified Later in Workflow (whose run ended without deleting the message) requeue it unless
// the run succeeded. An end whose status is not known (the execution was deleted) counts as a
// failure.
func (c *config) settle(d amqp.Delivery, o nodes.Outcome) error {
	if o.Acknowledged || c.ack == ackExecutionFinishes || o.Status == workflow.StatusSuccess {
		return d.Ack(false)
	}
	return d.Nack(false, true)
}

// DrainTimeout is how long a listener that is stopped (its workflow deactivated or saved anew,
// its scheduler stopping) goes on waiting for the runs it started before it closes its channel:
// the messages of runs still going on then go back to the queue and run again.
const DrainTimeout = 30 * time.Second

// open connects (through the egress policy), declares or checks the queue, binds it and starts
// consuming as consumer with manual acknowledgement.
func open(ctx context.Context, ex *nodes.Execution, c *config, consumer string) (*amqpconn.Session, <-chan amqp.Delivery, error) {
	cred, err := ex.Credentials(ctx, "rabbitmq")
	if err != nil {
		return nil, nil, err
	}
	s, err := amqpconn.Open(ctx, egress.PolicyOf(ex.HTTPClient()), amqpconn.FromCredential(cred))
	if err != nil {
		return nil, nil, nodes.Errorf(0, "%v", err)
	}
	fail := func(err error) (*amqpconn.Session, <-chan amqp.Delivery, error) {
		s.Close()
		return nil, nil, nodes.Errorf(0, "%v", err)
	}
	if c.assertQueue {
		err = s.AssertQueue(c.queue, amqpconn.QueueOptions{Durable: c.durable, AutoDelete: c.autoDelete,
			Exclusive: c.exclusive, Arguments: c.arguments})
	} else {
		err = s.CheckQueue(c.queue)
	}
	if err != nil {
		return fail(err)
	}
	for _, b := range c.bindings {
		if err := s.BindQueue(c.queue, b[0], b[1], nil); err != nil {
			return fail(err)
		}
	}
	deliveries, err := s.Consume(c.queue, consumer, c.prefetch, false)
	if err != nil {
		return fail(err)
	}
	return s, deliveries, nil
}

// listen consumes the queue and starts one execution per message. A message is acknowledged
// only per the mode (see settle); until then it is the broker's, which gives it to the next
// consumer when this channel closes: when listen returns, when the process dies.
func listen(ctx context.Context, ex *nodes.Execution, emit nodes.Emit) error {
	c, err := readConfig(ex)
	if err != nil {
		return err
	}
	consumer := "flowmill-" + rand.Text()
	s, deliveries, err := open(ctx, ex, c, consumer)
	if err != nil {
		return err
	}
	closed := s.Channel.NotifyClose(make(chan *amqp.Error, 1))
	// Runs still awaited when listen returns stop waiting before the channel closes: their
	// messages go back to the queue. A listener that is stopped first waits for them a while.
	waitCtx, stopWaiting := context.WithCancel(context.WithoutCancel(ctx))
	var waiting sync.WaitGroup
	defer s.Close()
	defer waiting.Wait()
	defer stopWaiting()
	drain := func() {
		if !errors.Is(context.Cause(ctx), nodes.ErrStopping) {
			return
		}
		_ = s.Channel.Cancel(consumer, false) // nothing new; what was delivered goes back
		all := make(chan struct{})
		go func() {
			waiting.Wait()
			close(all)
		}()
		t := time.NewTimer(DrainTimeout)
		defer t.Stop()
		select {
		case <-all:
		case <-t.C:
		case <-closed:
		}
	}

	log := ex.Logger()
	limit := ex.UnpackMaxBytes()
	await := c.await()
	for {
		var d amqp.Delivery
		var ok bool
		select {
		case <-ctx.Done():
			drain()
			return nil
		case err := <-closed:
			if ctx.Err() != nil {
				return nil
			}
			return nodes.Errorf(0, "Connection got closed unexpectedly: %v", err)
		case d, ok = <-deliveries:
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				return nodes.Errorf(0, "Connection got closed unexpectedly")
			}
		}
		item, err := Item(d, c.contentIsBinary, c.jsonParseBody, c.onlyContent, limit)
		if err != nil {
			// A message that can never become an item is rejected, not requeued: it goes to
			// the queue's dead-letter exchange when it has one.
			log.Warn("RabbitMQ message rejected", "queue", c.queue, "deliveryTag", d.DeliveryTag, "err", err)
			if err := d.Reject(false); err != nil {
				return nodes.Errorf(0, "%v", amqpconn.OperationError("BasicReject", err))
			}
			continue
		}
		run, err := emit([]workflow.Item{item}, await)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			// Not stored: the message stays unacknowledged and is delivered again.
			return err
		}
		if run == nil {
			if err := d.Ack(false); err != nil {
				return nodes.Errorf(0, "%v", amqpconn.OperationError("BasicAck", err))
			}
			continue
		}
		waiting.Go(func() {
			o, err := run.Outcome(waitCtx)
			if err != nil {
				return // the channel closes unacknowledged: the broker delivers it again
			}
			if err := c.settle(d, o); err != nil {
				log.Warn("RabbitMQ message not acknowledged", "queue", c.queue, "execution", run.ID(), "err", err)
			}
		})
	}
}

// execute takes the next message, for a run from the editor: one waiting in the queue, or else
// the first to arrive (one at a time, as in n8n). The message is acknowledged once taken.
func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	c, err := readConfig(ex)
	if err != nil {
		return nil, err
	}
	c.prefetch = 1
	s, deliveries, err := open(ctx, ex, c, "")
	if err != nil {
		return nil, err
	}
	defer s.Close()
	limit := ex.UnpackMaxBytes()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case d, ok := <-deliveries:
			if !ok {
				return nil, nodes.Errorf(0, "Connection got closed unexpectedly")
			}
			item, err := Item(d, c.contentIsBinary, c.jsonParseBody, c.onlyContent, limit)
			if err != nil {
				_ = d.Reject(false)
				return nil, nodes.Errorf(0, "%v", err)
			}
			if err := d.Ack(false); err != nil {
				return nil, nodes.Errorf(0, "%v", amqpconn.OperationError("BasicAck", err))
			}
			return [][]workflow.Item{{item}}, nil
		}
	}
}

// errTooLarge is a message larger than the unpack limit.
var errTooLarge = errors.New("the message is larger than FLOWMILL_UNPACK_MAX_SIZE")

// tooLarge words errTooLarge with the sizes.
func tooLarge(n int, limit int64) error {
	return fmt.Errorf("%w (%d bytes, at most %d)", errTooLarge, n, limit)
}
