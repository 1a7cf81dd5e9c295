import { Group } from '@mantine/core';
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { droppedValue, MAPPING_MIME, mappingExpression, parseMappedField } from '@/core/expressions/mapping';
import { clone, fromExpression, isExpression, toExpression, unsupportedOptionValues, valueIssues, type ParameterIssue } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { InlineExpression } from '@/views/nodeView/ndv/expression/InlineExpression';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { MultipleValues } from './MultipleValues';
import { ParameterInput } from './ParameterInput';
import { ParameterIssues } from './ParameterIssues';
import { ParameterLabel } from './ParameterLabel';
import { ParameterOptions } from './ParameterOptions';
import { ResourceLocatorParameter } from './ResourceLocatorParameter';
import { ResourceMapperParameter } from './ResourceMapperParameter';
import { useParameters } from './ParametersContext';
import { canBeExpression, staticChoices } from './editorValues';
import { isLocatorExpression, locatorErrors, locatorModes, toLocator } from './resourceValues';
import { useRemoteChoices } from './useRemoteChoices';
import classes from './parameters.module.css';

/**
 * One parameter: label with description and the options menu, the input (or the inline
 * expression in expression mode) and its issues. `path` is the full path on the node.
 */
export function ParameterItem({ property, value, path }: { property: NodeProperty; value: JsonValue | undefined; path: string }) {
  const { t } = useTranslation();
  const { readOnly, onChange } = useParameters();
  const ndv = useNdv();
  const id = useId();
  const remote = useRemoteChoices(property, path);
  const locator = property.type === 'resourceLocator';
  // A resource locator keeps its expression inside the {__rl, mode, value} object (n8n 1.x).
  const expression = locator ? isLocatorExpression(value) : isExpression(value);
  const multiple = property.typeOptions?.multipleValues === true && !expression;
  const setValue = (next: JsonValue | undefined) => onChange({ path, value: next });

  const openEditor = (current: string) => ndv.openExpressionEditor({ path, value: current, onChange: (next) => setValue(next) });
  const modes = locator ? locatorModes(property) : [];
  const openLocatorEditor = () => {
    const current = toLocator(value, modes);
    ndv.openExpressionEditor({ path, value: String(current.value ?? ''), onChange: (next) => setValue({ ...current, value: next }) });
  };
  const switchMode = (toExpressionMode: boolean) => {
    if (toExpressionMode === expression) return;
    if (locator) {
      const current = toLocator(value, modes);
      const text = current.value === null ? '' : String(current.value);
      const next = { __rl: true as const, mode: current.mode, value: toExpressionMode ? `=${text}` : text.replace(/^=/, '') };
      setValue(next);
      if (toExpressionMode) ndv.openExpressionEditor({ path, value: next.value, onChange: (edited) => setValue({ ...next, value: edited }) });
      return;
    }
    if (toExpressionMode) {
      const next = toExpression(value, property);
      setValue(next);
      openEditor(next);
      return;
    }
    const current = value as string;
    ndv
      .resolveExpression(current)
      .then((result) => setValue(fromExpression(current, property, result.ok ? { ok: true, value: result.value } : { ok: false })))
      .catch(() => setValue(fromExpression(current, property)));
  };

  const issues: ParameterIssue[] = valueIssues(property, value, path);
  const texts = issues.map((issue) => (issue.kind === 'required' ? t('parameters.required') : issue.kind === 'optionNotSupported' ? t('parameters.notSupported', { value: issue.value }) : t('parameters.selectCredentialType')));
  if (locator) texts.push(...locatorErrors(toLocator(value, modes), modes));
  if (remote?.error) texts.push(t('parameters.loadOptionsError', { message: remote.error }));
  else if (remote?.options && !remote.isLoading) for (const unsupported of unsupportedOptionValues(property, value, remote.options)) texts.push(t('parameters.notSupported', { value: unsupported }));

  // A field dragged from the input panel maps into the parameter as an expression (n8n 0.186).
  const droppable = !readOnly && canBeExpression(property) && !multiple && !locator && property.type !== 'resourceMapper';
  const [dropOver, setDropOver] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(MAPPING_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDropOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setDropOver(false);
    const field = parseMappedField(event.dataTransfer.getData(MAPPING_MIME));
    if (!field) return;
    event.preventDefault();
    setValue(droppedValue(value, mappingExpression(field)));
  };

  const choices = remote ? (remote.options ?? []) : staticChoices(property);

  return (
    <div className={classes.item} data-test-id="parameter-item" data-name={property.name}>
      <Group className={classes.labelRow} justify="space-between" wrap="nowrap" gap="xs">
        <ParameterLabel property={property} htmlFor={multiple ? undefined : id} />
        {readOnly ? null : (
          <ParameterOptions
            expression={expression}
            canBeExpression={canBeExpression(property)}
            onModeChange={switchMode}
            onReset={() => setValue(clone(property.default))}
            onRefresh={remote ? remote.reload : undefined}
          />
        )}
      </Group>
      <div
        data-test-id={`parameter-input-${property.name}`}
        className={droppable ? classes.dropTarget : undefined}
        data-drop-over={dropOver || undefined}
        data-drop-hint={droppable ? t('parameters.dropToMap') : undefined}
        onDragOver={droppable ? onDragOver : undefined}
        onDragLeave={droppable ? () => setDropOver(false) : undefined}
        onDrop={droppable ? onDrop : undefined}
      >
        {locator ? (
          <ResourceLocatorParameter property={property} value={value} id={id} path={path} disabled={readOnly} onValue={setValue} onOpenExpression={openLocatorEditor} />
        ) : property.type === 'resourceMapper' ? (
          <ResourceMapperParameter property={property} path={path} value={value} disabled={readOnly} onValue={setValue} />
        ) : isExpression(value) ? (
          <InlineExpression value={value} path={path} onOpen={() => openEditor(value)} />
        ) : multiple ? (
          <MultipleValues property={property} value={value} path={path} choices={choices} loadingChoices={remote?.isLoading ?? false} />
        ) : (
          <ParameterInput property={property} value={value} id={id} disabled={readOnly} onValue={setValue} choices={choices} loadingChoices={remote?.isLoading ?? false} />
        )}
      </div>
      <ParameterIssues issues={[...new Set(texts)]} />
    </div>
  );
}
