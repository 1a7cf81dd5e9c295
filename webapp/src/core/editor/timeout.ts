/** Execution timeout as the settings dialog edits it. */
export interface TimeoutParts {
  hours: number;
  minutes: number;
  seconds: number;
}

/** Empty or non-numeric input counts as 0; fractions are cut (spec 001 §5). */
export function parseTimeoutInput(raw: string | number | undefined): number {
  if (typeof raw === 'number') return Number.isFinite(raw) ? Math.max(0, Math.trunc(raw)) : 0;
  const value = Number.parseInt((raw ?? '').trim(), 10);
  return Number.isNaN(value) ? 0 : Math.max(0, value);
}

export function toSeconds(parts: TimeoutParts): number {
  return parts.hours * 3600 + parts.minutes * 60 + parts.seconds;
}

/** Splits seconds into hours, minutes (< 60) and seconds (< 60). */
export function toParts(totalSeconds: number): TimeoutParts {
  const total = Math.max(0, Math.trunc(totalSeconds));
  return { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

export type TimeoutCheck = { ok: true; seconds: number } | { ok: false; reason: 'zero' } | { ok: false; reason: 'overMax'; max: TimeoutParts };

/**
 * The timeout to save: -1 when off; refused when on but 0, or above maxExecutionTimeout
 * (spec 001 §5). Minutes and seconds inputs allow at most 60.
 */
export function checkTimeout(enabled: boolean, parts: TimeoutParts, maxSeconds: number): TimeoutCheck {
  if (!enabled) return { ok: true, seconds: -1 };
  const seconds = toSeconds(parts);
  if (seconds === 0) return { ok: false, reason: 'zero' };
  if (seconds > maxSeconds) return { ok: false, reason: 'overMax', max: toParts(maxSeconds) };
  return { ok: true, seconds };
}
