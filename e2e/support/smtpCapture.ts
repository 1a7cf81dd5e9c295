import net from 'node:net';

/** One mail the capture server accepted. */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The message with quoted-printable soft breaks and escapes decoded. */
  text: string;
  /** The message as received (bytes as latin1 characters), for parsing its MIME parts. */
  raw: string;
}

/** One non-multipart part of a mail: its content type, disposition, file name and decoded body. */
export interface MailPart {
  contentType: string;
  disposition: string;
  fileName: string;
  contentId: string;
  body: Buffer;
}

/** The header fields of a MIME entity (names lower-cased, folded lines joined) and its body. */
function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** A parameter of a structured header such as Content-Type (quoted or not). */
function headerParam(value: string, name: string): string {
  const match = new RegExp(`;\\s*${name}="?([^";]*)"?`, 'i').exec(value);
  return match?.[1] ?? '';
}

/** The leaf parts of a mail, depth first, with their bodies decoded (base64, quoted-printable). */
export function mailParts(mail: CapturedMail): MailPart[] {
  const out: MailPart[] = [];
  const walk = (raw: string) => {
    const { headers, body } = splitEntity(raw);
    const type = headers.get('content-type') ?? 'text/plain';
    const boundary = headerParam(type, 'boundary');
    if (/^multipart\//i.test(type) && boundary) {
      const sections = body.split(`--${boundary}`);
      // The text before the first boundary is the preamble; after the closing one, the epilogue.
      for (const section of sections.slice(1)) {
        if (section.startsWith('--')) break;
        walk(section.replace(/^\r?\n/, ''));
      }
      return;
    }
    const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
    let content: Buffer;
    if (encoding === 'base64') content = Buffer.from(body.replace(/\s+/g, ''), 'base64');
    else if (encoding === 'quoted-printable') content = Buffer.from(decodeQuotedPrintable(body), 'utf8');
    else content = Buffer.from(body, 'latin1');
    const disposition = headers.get('content-disposition') ?? '';
    out.push({
      contentType: type.split(';')[0]!.trim().toLowerCase(),
      disposition: disposition.split(';')[0]!.trim().toLowerCase(),
      fileName: headerParam(disposition, 'filename') || headerParam(type, 'name'),
      contentId: (headers.get('content-id') ?? '').replace(/^<|>$/g, ''),
      body: content,
    });
  };
  walk(mail.raw);
  return out;
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
    this.mails.push({ from, to, subject, text: decodeQuotedPrintable(raw), raw });
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
