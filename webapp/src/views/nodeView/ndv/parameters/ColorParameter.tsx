import { ColorInput } from '@mantine/core';
import { useState } from 'react';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';

const COLOR = /^#([0-9a-f]{6}|[0-9a-f]{8})$/i;

/** A color, with an alpha channel when typeOptions.showAlpha is set. */
export function ColorParameter({ property, value, id, disabled, onValue }: { property: NodeProperty; value: JsonValue | undefined; id: string; disabled: boolean; onValue: (value: string) => void }) {
  const alpha = property.typeOptions?.showAlpha === true;
  const [draft, setDraft] = useState<string | undefined>(undefined);
  return (
    <ColorInput
      id={id}
      size="sm"
      format={alpha ? 'hexa' : 'hex'}
      value={draft ?? (typeof value === 'string' ? value : '')}
      disabled={disabled}
      onChange={(next) => {
        setDraft(next);
        if (COLOR.test(next) && next !== value) onValue(next);
      }}
      onBlur={() => setDraft(undefined)}
      withEyeDropper={false}
    />
  );
}
