import { parsePushMessage, type PushMessage } from './messages';

/** The part of the browser's EventSource the client uses. */
export interface EventSourceLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent<string>) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

/**
 * `connecting`: first attempt, nothing known yet. `open`: the stream is live. `lost`: the stream
 * failed and the client is retrying; it stays `lost` through retries until a stream opens.
 */
export type PushStatus = 'idle' | 'connecting' | 'open' | 'lost';

export interface PushClientOptions {
  /** Full URL of the event stream, `<rest>/push?sessionId=<id>`. */
  url: string;
  /** Defaults to the browser's EventSource with credentials. */
  createEventSource?: (url: string) => EventSourceLike;
  /** Wait before reconnecting after an error. Default 3000 ms (spec 001 §9). */
  reconnectDelayMs?: number;
  /** Receives sendConsoleMessage payloads. Default console.log. */
  log?: (...args: unknown[]) => void;
}

export const PUSH_RECONNECT_DELAY_MS = 3000;

type Listener<T> = (value: T) => void;

function browserEventSource(url: string): EventSourceLike {
  return new EventSource(url, { withCredentials: true }) as EventSourceLike;
}

/**
 * Keeps one server-sent event stream open: marks the connection active on open, and on error
 * closes the stream, marks it inactive and opens a new one after the reconnect delay.
 */
export class PushClient {
  private readonly url: string;
  private readonly createEventSource: (url: string) => EventSourceLike;
  private readonly reconnectDelayMs: number;
  private readonly log: (...args: unknown[]) => void;
  private source: EventSourceLike | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private currentStatus: PushStatus = 'idle';
  private readonly messageListeners = new Set<Listener<PushMessage>>();
  private readonly statusListeners = new Set<Listener<PushStatus>>();

  constructor(options: PushClientOptions) {
    this.url = options.url;
    this.createEventSource = options.createEventSource ?? browserEventSource;
    this.reconnectDelayMs = options.reconnectDelayMs ?? PUSH_RECONNECT_DELAY_MS;
    // eslint-disable-next-line no-console
    this.log = options.log ?? ((...args: unknown[]) => console.log(...args));
  }

  get status(): PushStatus {
    return this.currentStatus;
  }

  /** True while a stream is open. */
  get isActive(): boolean {
    return this.currentStatus === 'open';
  }

  /** Opens the stream unless one is open or pending. */
  connect(): void {
    if (this.source || this.reconnectTimer) return;
    if (this.currentStatus === 'idle') this.setStatus('connecting');
    this.open();
  }

  /** Closes the stream and cancels any pending reconnect. Safe to call twice. */
  disconnect(): void {
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    this.closeSource();
    this.setStatus('idle');
  }

  /** Receives every recognised message; returns the unsubscribe function. */
  subscribe(listener: Listener<PushMessage>): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** Receives every status change; returns the unsubscribe function. */
  onStatusChange(listener: Listener<PushStatus>): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private open(): void {
    const source = this.createEventSource(this.url);
    this.source = source;
    source.onopen = () => {
      if (this.source === source) this.setStatus('open');
    };
    source.onmessage = (event) => {
      if (this.source === source) this.handleMessage(event.data);
    };
    source.onerror = () => {
      if (this.source === source) this.handleError();
    };
  }

  private handleError(): void {
    this.closeSource();
    this.setStatus('lost');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, this.reconnectDelayMs);
  }

  private handleMessage(raw: string): void {
    const message = parsePushMessage(raw);
    if (!message) return;
    if (message.type === 'sendConsoleMessage') {
      const messages = Array.isArray(message.data.messages) ? message.data.messages : [message.data.messages];
      this.log(message.data.source, ...messages);
    }
    for (const listener of [...this.messageListeners]) listener(message);
  }

  private closeSource(): void {
    if (!this.source) return;
    const source = this.source;
    this.source = null;
    source.onopen = null;
    source.onmessage = null;
    source.onerror = null;
    source.close();
  }

  private setStatus(status: PushStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }
}
