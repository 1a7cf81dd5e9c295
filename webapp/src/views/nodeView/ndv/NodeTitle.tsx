import { Group, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { NodeIcon } from '@/components/NodeIcon';

/**
 * The node's icon and name; a click edits the name (not in read-only mode). Enter or leaving the
 * field renames, Escape cancels; an empty name changes nothing (spec 001 §5).
 */
export function NodeTitle({ name, type, readOnly, onRename }: { name: string; type: NodeTypeDescription | undefined; readOnly: boolean; onRename: (name: string) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const finish = (value: string | null) => {
    setDraft(null);
    const trimmed = value?.trim() ?? '';
    if (trimmed !== '' && trimmed !== name) onRename(trimmed);
  };
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <NodeIcon type={type} size={24} fallbackLabel={name} />
      {draft !== null ? (
        <TextInput
          size="xs"
          autoFocus
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onBlur={() => finish(draft)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') finish(draft);
            if (event.key === 'Escape') {
              event.stopPropagation();
              setDraft(null);
            }
          }}
          aria-label={t('ndv.title.rename')}
          data-test-id="node-rename-input"
          style={{ flex: 1 }}
        />
      ) : (
        <UnstyledButton onClick={() => !readOnly && setDraft(name)} disabled={readOnly} title={readOnly ? undefined : t('ndv.title.rename')} style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" truncate title={name} data-test-id="node-title">
            {name}
          </Text>
        </UnstyledButton>
      )}
    </Group>
  );
}
