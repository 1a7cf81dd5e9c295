import { ActionIcon, PasswordInput, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { EditDialog } from './EditDialog';
import { textOf } from './editorValues';
import classes from './parameters.module.css';

const CODE_EDITORS = new Set(['code', 'json', 'codeNodeEditor']);

/**
 * String and json parameters: a single line, a textarea (typeOptions.rows), a masked input
 * (password), or for code, JSON and alwaysOpenEditWindow a preview that opens a larger editor.
 */
export function TextParameter({ property, value, id, disabled, onValue }: { property: NodeProperty; value: JsonValue | undefined; id: string; disabled: boolean; onValue: (value: string) => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const options = property.typeOptions ?? {};
  const text = textOf(value);
  const placeholder = typeof property.placeholder === 'string' ? property.placeholder : undefined;
  const rows = typeof options.rows === 'number' ? options.rows : undefined;
  const code = property.type === 'json' || CODE_EDITORS.has(String(options.editor));
  const dialog = (
    <EditDialog opened={editing} title={property.displayName} value={text} code={code} readOnly={disabled} onChange={onValue} onClose={() => setEditing(false)} />
  );

  if (options.password === true) {
    return <PasswordInput id={id} size="sm" value={text} placeholder={placeholder} disabled={disabled} onChange={(event) => onValue(event.currentTarget.value)} autoComplete="new-password" />;
  }

  if (code || options.alwaysOpenEditWindow === true) {
    return (
      <>
        <Textarea
          id={id}
          size="sm"
          className={`${classes.previewButton} ${code ? classes.monospace : ''}`}
          value={text}
          placeholder={placeholder}
          readOnly
          autosize
          minRows={Math.min(rows ?? (code ? 4 : 2), 8)}
          maxRows={8}
          onClick={() => setEditing(true)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setEditing(true);
          }}
          data-test-id="parameter-edit-preview"
        />
        {dialog}
      </>
    );
  }

  const openButton = (
    <Tooltip label={t('parameters.openEditWindow')} withArrow>
      <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => setEditing(true)} aria-label={t('parameters.openEditWindow')} data-test-id="parameter-open-edit-window">
        <IconExternalLink size={14} />
      </ActionIcon>
    </Tooltip>
  );
  const input =
    rows !== undefined && rows > 1 ? (
      <Textarea id={id} size="sm" value={text} placeholder={placeholder} disabled={disabled} autosize minRows={rows} maxRows={Math.max(rows, 12)} onChange={(event) => onValue(event.currentTarget.value)} rightSection={openButton} />
    ) : (
      <TextInput id={id} size="sm" value={text} placeholder={placeholder} disabled={disabled} onChange={(event) => onValue(event.currentTarget.value)} rightSection={openButton} />
    );
  return (
    <>
      {input}
      {dialog}
    </>
  );
}
