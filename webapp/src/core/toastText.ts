/** Longest toast message shown whole; longer ones are cut (spec: toasts cut at 500 characters). */
export const TOAST_MESSAGE_MAX = 500;

/** A message cut to `max` characters with an ellipsis when longer (the ellipsis counts). */
export function cutMessage(text: string, max = TOAST_MESSAGE_MAX): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** What an API error adds under the toast's collapsible Details. */
export interface ErrorDetailsSource {
  message?: string;
  httpStatus?: number;
  code?: number | string;
  hint?: string;
  serverStack?: string;
}

/** An error toast's text: the message (cut) and the details to fold away, null when there are none. */
export interface ErrorToastText {
  message: string;
  details: string | null;
}

/**
 * Splits an error into the toast's message and its collapsible details: the hint, the HTTP status
 * and code, and the text the cut left out of the message. Details are cut too.
 */
export function errorToastText(error: ErrorDetailsSource): ErrorToastText {
  const full = error.message ?? '';
  const message = cutMessage(full);
  const lines: string[] = [];
  if (error.hint) lines.push(error.hint);
  const status = [error.httpStatus !== undefined ? `HTTP ${error.httpStatus}` : '', error.code !== undefined && error.code !== error.httpStatus ? `code ${error.code}` : '']
    .filter((part) => part !== '')
    .join(', ');
  if (status !== '') lines.push(status);
  if (message !== full) lines.push(full);
  return { message, details: lines.length > 0 ? cutMessage(lines.join('\n'), TOAST_MESSAGE_MAX * 4) : null };
}
