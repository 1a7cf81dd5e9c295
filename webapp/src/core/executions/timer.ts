/** How often a running execution's timer updates, in milliseconds (spec 001 §9). */
export const TIMER_INTERVAL_MS = 1000;

/** A run time split for display: seconds under a minute, otherwise minutes and seconds. */
export type TimerParts = { unit: 'seconds'; seconds: string } | { unit: 'minutes'; minutes: number; seconds: string };

/**
 * Splits a run time as n8n's displayTimer does: under 60 s whole seconds, or with
 * withMs the exact seconds (1.234); from 60 s on minutes and two-digit seconds (1:05).
 * Negative times (clock skew) count as 0.
 */
export function timerParts(ms: number, withMs = false): TimerParts {
  const elapsed = Math.max(0, ms);
  if (elapsed < 60_000) {
    return { unit: 'seconds', seconds: withMs ? String(elapsed / 1000) : String(Math.floor(elapsed / 1000)) };
  }
  const totalSeconds = Math.floor(elapsed / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  return { unit: 'minutes', minutes, seconds: String(totalSeconds - minutes * 60).padStart(2, '0') };
}

/** Milliseconds between two ISO times, or null when either is missing or invalid. */
export function runTimeMs(startedAt: string | null | undefined, stoppedAt: string | null | undefined): number | null {
  if (!startedAt || !stoppedAt) return null;
  const ms = Date.parse(stoppedAt) - Date.parse(startedAt);
  return Number.isNaN(ms) ? null : ms;
}
