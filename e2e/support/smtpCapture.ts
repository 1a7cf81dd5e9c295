import net from 'node:net';

/** One mail the capture server accepted. */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The message with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

function decodeQuotedPrintable(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A plain-text SMTP server on 127.0.0.1 that accepts every message (no TLS, no AUTH) and keeps it
 * in memory, so a spec can read the mails the stack sends.
 */
export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  private readonly server: net.Server;
  private readonly waiters: Array<() => void> = [];

  private constructor(server: net.Server) {
    this.server = server;
  }

  static async start(): Promise<SmtpCapture> {
    const capture = new SmtpCapture(net.createServer((socket) => capture.serve(socket)));
    await new Promise<void>((resolve) => capture.server.listen(0, '127.0.0.1', resolve));
    return capture;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** The SMTP settings that point a Flowmill process at this server. */
  env(): string[] {
    return [
      'FLOWMILL_SMTP_HOST=127.0.0.1',
      `FLOWMILL_SMTP_PORT=${this.port}`,
      'FLOWMILL_SMTP_SSL=false',
      'FLOWMILL_SMTP_SENDER=Flowmill <flowmill@example.com>',
    ];
  }

  /** Waits for a mail to `to` whose subject matches, delivered after `since` mails had arrived. */
  async waitFor(to: string, subject: RegExp, since = 0, timeoutMs = 15_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.slice(since).find((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms (got ${this.mails.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: net.Socket): void {
    let buffer = '';
    let inData = false;
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 capture ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const raw = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          this.accept(from, to, raw);
          reply('250 OK: queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          reply('250-capture');
          reply('250 8BITMIME');
        } else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          to = [];
          reply('250 OK');
        } else if (verb === 'RCPT') {
          to.push((/<([^>]*)>/.exec(line)?.[1] ?? '').toLowerCase());
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
          return;
        } else {
          reply('250 OK');
        }
      }
    });
    socket.on('error', () => undefined);
  }

  private accept(from: string, to: string[], raw: string): void {
    const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
    this.mails.push({ from, to, subject, text: decodeQuotedPrintable(raw) });
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** The first link in a mail whose path is `path` (for example /signup). */
export function linkIn(mail: CapturedMail, path: string): string {
  for (const match of mail.text.matchAll(/https?:\/\/[^\s"<>]+/g)) {
    const url = new URL(match[0].replace(/&amp;/g, '&'));
    if (url.pathname.endsWith(path)) return url.toString();
  }
  throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
}
