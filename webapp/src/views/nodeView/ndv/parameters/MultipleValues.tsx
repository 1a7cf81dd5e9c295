import { Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { clone, isExpression } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { InlineExpression } from '@/views/nodeView/ndv/expression/InlineExpression';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { CollectionParameter } from './CollectionParameter';
import { moved, type OptionChoice } from './editorValues';
import { ItemActions } from './ItemActions';
import { ParameterInput } from './ParameterInput';
import { useParameters } from './ParametersContext';

function MultipleValueItem({ property, value, path, choices, loadingChoices }: { property: NodeProperty; value: JsonValue; path: string; choices: readonly OptionChoice[]; loadingChoices: boolean }) {
  const { readOnly, onChange } = useParameters();
  const ndv = useNdv();
  const id = useId();
  const setValue = (next: JsonValue | undefined) => onChange({ path, value: next });
  if (isExpression(value)) return <InlineExpression value={value} path={path} onOpen={() => ndv.openExpressionEditor({ path, value, onChange: setValue })} />;
  if (property.type === 'collection') return <CollectionParameter property={property} value={value} path={path} />;
  return <ParameterInput property={property} value={value} id={id} disabled={readOnly} onValue={setValue} choices={choices} loadingChoices={loadingChoices} />;
}

/**
 * A parameter with typeOptions.multipleValues: a list of values, each deletable and movable, and a
 * button (multipleValueButtonText, else "Add <name>") that appends the default.
 */
export function MultipleValues({ property, value, path, choices, loadingChoices }: { property: NodeProperty; value: JsonValue | undefined; path: string; choices: readonly OptionChoice[]; loadingChoices: boolean }) {
  const { t } = useTranslation();
  const { readOnly, onChange } = useParameters();
  const items = Array.isArray(value) ? value : [];
  const itemProperty: NodeProperty = { ...property, typeOptions: { ...property.typeOptions, multipleValues: false } };
  const itemDefault = Array.isArray(property.default) ? (property.type === 'collection' ? {} : '') : (clone(property.default) ?? '');
  const buttonText = typeof property.typeOptions?.multipleValueButtonText === 'string' ? property.typeOptions.multipleValueButtonText : t('parameters.addItem', { name: property.displayName });
  const setList = (next: JsonValue[]) => onChange({ path, value: next });
  return (
    <Stack gap="xs" data-test-id="multiple-parameter">
      {items.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('parameters.currentlyNoItemsExist')}
        </Text>
      ) : null}
      {items.map((item, index) => (
        <ItemActions
          key={index}
          onDelete={readOnly ? undefined : () => onChange({ path: `${path}[${index}]`, value: undefined })}
          onMoveUp={readOnly || index === 0 ? undefined : () => setList(moved(items, index, index - 1))}
          onMoveDown={readOnly || index === items.length - 1 ? undefined : () => setList(moved(items, index, index + 1))}
        >
          <MultipleValueItem property={itemProperty} value={item} path={`${path}[${index}]`} choices={choices} loadingChoices={loadingChoices} />
        </ItemActions>
      ))}
      {readOnly ? null : (
        <Button variant="default" size="xs" fullWidth leftSection={<IconPlus size={14} />} onClick={() => setList([...items, itemDefault])} data-test-id="multiple-parameter-add">
          {buttonText}
        </Button>
      )}
    </Stack>
  );
}
