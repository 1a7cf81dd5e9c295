import { ActionIcon, PasswordInput, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconArrowsMaximize, IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyCodeEditor, type CodeEditorMode } from '@/components/codeEditor';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { EditDialog } from './EditDialog';
import { textOf } from './editorValues';
import classes from './parameters.module.css';

/** The code editor mode of a parameter (n8n's typeOptions.editor, or a json parameter); undefined for plain text. */
function editorMode(property: NodeProperty): CodeEditorMode | undefined {
  const editor = String(property.typeOptions?.editor ?? '');
  if (property.type === 'json' || editor === 'json') return 'json';
  if (editor === 'code' || editor === 'codeNodeEditor') return 'javascript';
  return undefined;
}

/** Line height of the code editor (13 px type), to size it by typeOptions.rows. */
const CODE_LINE_PX = 20;

/**
 * String and json parameters: a single line, a textarea (typeOptions.rows), a masked input
 * (password), a CodeMirror editor for code and JSON (with a larger one in a dialog), or for
 * alwaysOpenEditWindow a preview that opens a larger editor.
 */
export function TextParameter({ property, value, id, disabled, onValue }: { property: NodeProperty; value: JsonValue | undefined; id: string; disabled: boolean; onValue: (value: string) => void }) {
  const { t } = useTranslation();
  const { completionData } = useNdv();
  const [editing, setEditing] = useState(false);
  const options = property.typeOptions ?? {};
  const text = textOf(value);
  const placeholder = typeof property.placeholder === 'string' ? property.placeholder : undefined;
  const rows = typeof options.rows === 'number' ? options.rows : undefined;
  const mode = editorMode(property);
  const dialog = (
    <EditDialog opened={editing} title={property.displayName} value={text} mode={mode} completions={completionData} readOnly={disabled} onChange={onValue} onClose={() => setEditing(false)} />
  );

  if (options.password === true) {
    return <PasswordInput id={id} size="sm" value={text} placeholder={placeholder} disabled={disabled} onChange={(event) => onValue(event.currentTarget.value)} autoComplete="new-password" />;
  }

  if (mode) {
    const lines = Math.max(rows ?? (mode === 'json' ? 5 : 12), 4);
    return (
      <div className={classes.codeParameter} id={id}>
        <LazyCodeEditor
          value={text}
          onChange={onValue}
          mode={mode}
          readOnly={disabled}
          completions={completionData}
          placeholder={placeholder}
          minHeight={`${lines * CODE_LINE_PX}px`}
          maxHeight="480px"
          label={property.displayName}
          testId="code-editor"
        />
        {editing ? null : (
          <Tooltip label={t('parameters.openEditWindow')} withArrow>
            <ActionIcon className={classes.codeExpand} variant="default" size="sm" onClick={() => setEditing(true)} aria-label={t('parameters.openEditWindow')} data-test-id="parameter-open-edit-window">
              <IconArrowsMaximize size={14} />
            </ActionIcon>
          </Tooltip>
        )}
        {dialog}
      </div>
    );
  }

  if (options.alwaysOpenEditWindow === true) {
    return (
      <>
        <Textarea
          id={id}
          size="sm"
          className={classes.previewButton}
          value={text}
          placeholder={placeholder}
          readOnly
          autosize
          minRows={Math.min(rows ?? 2, 8)}
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
