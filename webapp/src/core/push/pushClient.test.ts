import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parsePushMessage, type PushMessage } from './messages';
import { PushClient, PUSH_RECONNECT_DELAY_MS, type PushStatus } from './pushClient';
import { FakeEventSource } from '@/test/fakeEventSource';

const URL = '/rest/push?sessionId=abc';

describe('PushClient', () => {
  let log: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;
  let client: PushClient;
  let statuses: PushStatus[];

  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.reset();
    log = vi.fn<(...args: unknown[]) => void>();
    client = new PushClient({ url: URL, createEventSource: (url) => new FakeEventSource(url), log });
    statuses = [];
    client.onStatusChange((status) => statuses.push(status));
  });

  afterEach(() => {
    client.disconnect();
    vi.useRealTimers();
  });

  it('opens the stream at the given URL and becomes active on open', () => {
    client.connect();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.latest().url).toBe(URL);
    expect(client.isActive).toBe(false);
    expect(client.status).toBe('connecting');

    FakeEventSource.latest().emitOpen();
    expect(client.isActive).toBe(true);
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('connects once even when asked twice', () => {
    client.connect();
    client.connect();
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('on error closes the stream, goes inactive and reconnects after 3 s', () => {
    expect(PUSH_RECONNECT_DELAY_MS).toBe(3000);
    client.connect();
    const first = FakeEventSource.latest();
    first.emitOpen();
    first.emitError();

    expect(first.closed).toBe(true);
    expect(client.isActive).toBe(false);
    expect(client.status).toBe('lost');

    vi.advanceTimersByTime(2999);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(client.status).toBe('lost');

    FakeEventSource.latest().emitOpen();
    expect(client.isActive).toBe(true);
    expect(statuses).toEqual(['connecting', 'open', 'lost', 'open']);
  });

  it('keeps retrying every 3 s while the server stays away', () => {
    client.connect();
    for (let attempt = 1; attempt <= 4; attempt++) {
      FakeEventSource.latest().emitError();
      expect(FakeEventSource.instances).toHaveLength(attempt);
      vi.advanceTimersByTime(3000);
      expect(FakeEventSource.instances).toHaveLength(attempt + 1);
    }
    expect(FakeEventSource.instances.slice(0, -1).every((source) => source.closed)).toBe(true);
    expect(statuses).toEqual(['connecting', 'lost']);
  });

  it('schedules a single reconnect for a burst of errors', () => {
    client.connect();
    const source = FakeEventSource.latest();
    source.emitError();
    source.emitError();
    vi.advanceTimersByTime(3000);
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  it('ignores events from a stream it already closed', () => {
    client.connect();
    const first = FakeEventSource.latest();
    first.emitError();
    vi.advanceTimersByTime(3000);
    const listener = vi.fn();
    client.subscribe(listener);
    first.emitOpen();
    first.emitMessage('{"type":"nodeExecuteBefore","data":{"executionId":"1","nodeName":"Set"}}');
    expect(client.isActive).toBe(false);
    expect(listener).not.toHaveBeenCalled();
  });

  it('disconnect closes the stream, cancels a pending reconnect and is safe twice', () => {
    client.connect();
    FakeEventSource.latest().emitError();
    client.disconnect();
    client.disconnect();
    vi.advanceTimersByTime(10_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(client.status).toBe('idle');

    client.connect();
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  it('dispatches parsed messages to subscribers until they unsubscribe', () => {
    const received: PushMessage[] = [];
    const unsubscribe = client.subscribe((message) => received.push(message));
    client.connect();
    const source = FakeEventSource.latest();
    source.emitOpen();

    source.emitMessage(JSON.stringify({ type: 'executionStarted', data: { executionId: '7', mode: 'manual', startedAt: '2024-01-01T00:00:00Z', workflowId: '3' } }));
    source.emitMessage('not json');
    source.emitMessage(JSON.stringify({ type: 'somethingElse', data: {} }));
    unsubscribe();
    source.emitMessage(JSON.stringify({ type: 'nodeExecuteBefore', data: { executionId: '7', nodeName: 'Set' } }));

    expect(received).toEqual([
      { type: 'executionStarted', data: { executionId: '7', mode: 'manual', startedAt: '2024-01-01T00:00:00Z', workflowId: '3' } },
    ]);
  });

  it('logs sendConsoleMessage to the console', () => {
    client.connect();
    FakeEventSource.latest().emitMessage(JSON.stringify({ type: 'sendConsoleMessage', data: { source: 'Node: "Code"', messages: ['hello', { a: 1 }] } }));
    expect(log).toHaveBeenCalledWith('Node: "Code"', 'hello', { a: 1 });
  });
});

describe('parsePushMessage', () => {
  it.each([
    'executionStarted',
    'nodeExecuteBefore',
    'nodeExecuteAfter',
    'executionFinished',
    'testWebhookReceived',
    'testWebhookDeleted',
    'sendConsoleMessage',
  ])('accepts %s', (type) => {
    expect(parsePushMessage(JSON.stringify({ type, data: { executionId: '1' } }))?.type).toBe(type);
  });

  it.each([
    ['invalid JSON', '{'],
    ['a bare string', '"executionStarted"'],
    ['no type', '{"data":{}}'],
    ['unknown type', '{"type":"reloadNodeType","data":{}}'],
    ['missing data', '{"type":"executionStarted"}'],
    ['array data', '{"type":"executionStarted","data":[]}'],
  ])('rejects %s', (_label, raw) => {
    expect(parsePushMessage(raw)).toBeNull();
  });
});
