import { getBinaryData } from '@/api/binaryData';
import { base64ToBytes, type BinaryEntry } from '@/core/runData/binary';

/** Saves a binary entry as a file, fetching stored data first. */
export async function downloadBinary(entry: BinaryEntry, fallbackName: string): Promise<void> {
  const base64 = entry.data ?? (entry.id ? await getBinaryData(entry.id) : null);
  if (!base64) return;
  const blob = new Blob([base64ToBytes(base64)], { type: entry.mimeType ?? 'application/octet-stream' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = entry.fileName ?? (entry.fileExtension ? `${fallbackName}.${entry.fileExtension}` : fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
