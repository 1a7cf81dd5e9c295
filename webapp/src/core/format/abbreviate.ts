const UNITS = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

/**
 * A number in short form (spec 002 §9): thousands steps k, M, G, T, P, E with one decimal, the
 * decimal left out when it is zero ('1.5k', '2M', '999'). Rounding that reaches the next step
 * moves up ('999.96k' reads '1M'). Negative numbers keep their sign; non-finite ones are shown
 * as they are.
 */
export function abbreviateNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  let rest = Math.abs(value);
  let unit = 0;
  while (rest >= 1000 && unit < UNITS.length - 1) {
    rest /= 1000;
    unit++;
  }
  let rounded = Math.round(rest * 10) / 10;
  if (rounded >= 1000 && unit < UNITS.length - 1) {
    rounded = Math.round(rounded) / 1000;
    unit++;
  }
  const text = unit === 0 && !Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
  return `${sign}${text}${UNITS[unit]}`;
}
