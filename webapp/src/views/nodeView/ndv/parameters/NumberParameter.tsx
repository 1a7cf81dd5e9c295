import { NumberInput } from '@mantine/core';
import { useState } from 'react';
import { clampNumber, numberLimits, parseNumber } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';

/** A number parameter kept within typeOptions minValue, maxValue and numberPrecision. */
export function NumberParameter({ property, value, id, disabled, onValue }: { property: NodeProperty; value: JsonValue | undefined; id: string; disabled: boolean; onValue: (value: number) => void }) {
  const limits = numberLimits(property);
  const stored = typeof value === 'number' ? value : undefined;
  const [draft, setDraft] = useState<string | number | undefined>(undefined);
  const commit = (next: number) => {
    const clamped = clampNumber(next, limits);
    if (clamped !== stored) onValue(clamped);
  };
  return (
    <NumberInput
      id={id}
      size="sm"
      value={draft ?? stored ?? ''}
      min={limits.minValue}
      max={limits.maxValue}
      decimalScale={limits.numberPrecision}
      step={limits.numberPrecision !== undefined && limits.numberPrecision > 0 ? 10 ** -limits.numberPrecision : 1}
      placeholder={typeof property.placeholder === 'string' ? property.placeholder : undefined}
      disabled={disabled}
      onChange={(next) => {
        setDraft(next);
        const parsed = typeof next === 'number' ? next : parseNumber(next);
        const withinLimits = parsed !== undefined && clampNumber(parsed, limits) === parsed;
        if (parsed !== undefined && withinLimits) commit(parsed);
      }}
      onBlur={() => {
        const parsed = typeof draft === 'number' ? draft : draft !== undefined ? parseNumber(draft) : undefined;
        if (parsed !== undefined) commit(parsed);
        setDraft(undefined);
      }}
    />
  );
}
