import type { RunItem } from './runs';

/** One binary entry of an item (spec 001 §3). `data` is base64; stored data has an `id` instead. */
export interface BinaryEntry {
  data?: string;
  id?: string;
  mimeType?: string;
  fileName?: string;
  directory?: string;
  fileExtension?: string;
  fileSize?: string | number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asEntry(value: unknown): BinaryEntry | null {
  if (!isRecord(value)) return null;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : undefined);
  const size = value.fileSize;
  return {
    data: text('data'),
    id: text('id'),
    mimeType: text('mimeType'),
    fileName: text('fileName'),
    directory: text('directory'),
    fileExtension: text('fileExtension'),
    fileSize: typeof size === 'string' || typeof size === 'number' ? size : undefined,
  };
}

/** The binary entries of an item as [key, entry] pairs, in key order. */
export function binaryEntriesOf(item: RunItem | undefined): Array<[string, BinaryEntry]> {
  if (!item || !isRecord(item.binary)) return [];
  const out: Array<[string, BinaryEntry]> = [];
  for (const [key, value] of Object.entries(item.binary)) {
    const entry = asEntry(value);
    if (entry) out.push([key, entry]);
  }
  return out;
}

/** Whether any item carries binary data (the Binary display mode is offered only then). */
export function hasBinaryData(items: readonly RunItem[]): boolean {
  return items.some((item) => isRecord(item.binary) && Object.keys(item.binary).length > 0);
}

/** How the binary data viewer shows an entry. */
export type BinaryViewKind = 'image' | 'video' | 'audio' | 'pdf' | 'json' | 'text' | 'other';

const TEXT_TYPES = new Set(['application/xml', 'application/javascript', 'application/x-yaml', 'application/yaml', 'application/csv', 'application/x-sh']);

export function binaryViewKind(entry: Pick<BinaryEntry, 'mimeType' | 'fileExtension'>): BinaryViewKind {
  const mime = (entry.mimeType ?? '').toLowerCase().split(';')[0]?.trim() ?? '';
  const extension = (entry.fileExtension ?? '').toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime === 'application/pdf' || extension === 'pdf') return 'pdf';
  if (mime === 'application/json' || mime.endsWith('+json') || extension === 'json') return 'json';
  if (mime.startsWith('text/') || TEXT_TYPES.has(mime) || mime.endsWith('+xml')) return 'text';
  return 'other';
}

/** Where the viewer gets the bytes from: the inline base64, or the server by id. */
export type BinarySource = { kind: 'inline'; base64: string } | { kind: 'stored'; id: string } | { kind: 'none' };

export function binarySource(entry: BinaryEntry): BinarySource {
  if (entry.data) return { kind: 'inline', base64: entry.data };
  if (entry.id) return { kind: 'stored', id: entry.id };
  return { kind: 'none' };
}

/** Decodes base64 (whitespace allowed) to bytes. Throws on invalid input. */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes base64 UTF-8 text; JSON is indented with two spaces when it parses. */
export function decodeBinaryText(base64: string, kind: BinaryViewKind): string {
  const text = new TextDecoder().decode(base64ToBytes(base64));
  if (kind !== 'json') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Byte count of base64 data without decoding it. */
export function base64ByteLength(base64: string): number {
  const clean = base64.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** A byte count for people: "512 B", "1.5 kB", "2.3 MB" (powers of 1000, as n8n shows it). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`;
}

/** The file size an entry shows: its own field, else measured from the inline data. */
export function binaryFileSize(entry: BinaryEntry): string | null {
  if (typeof entry.fileSize === 'string' && entry.fileSize !== '') return entry.fileSize;
  if (typeof entry.fileSize === 'number') return formatBytes(entry.fileSize);
  if (entry.data) return formatBytes(base64ByteLength(entry.data));
  return null;
}
