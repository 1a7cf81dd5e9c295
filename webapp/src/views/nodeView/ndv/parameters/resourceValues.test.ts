import { describe, expect, it } from 'vitest';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import { applyFetchedFields, fieldValue, locatorErrors, locatorModes, mapperRows, pickListEntry, setMapperField, switchLocatorMode, toLocator, toMapper } from './resourceValues';

const LOCATOR: NodeProperty = {
  displayName: 'Workflow',
  name: 'workflowId',
  type: 'resourceLocator',
  default: { mode: 'list', value: '' },
  modes: [
    { displayName: 'From list', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchWorkflows', searchable: true } },
    { displayName: 'By ID', name: 'id', type: 'string', validation: [{ type: 'regex', properties: { regex: '[0-9]+', errorMessage: 'Not a valid ID' } }] },
    { displayName: 'By URL', name: 'url', type: 'string' },
  ],
};

describe('resource locator values', () => {
  const modes = locatorModes(LOCATOR);

  it('reads the modes with their search method and validation', () => {
    expect(modes.map((mode) => [mode.name, mode.displayName, mode.searchListMethod])).toEqual([
      ['list', 'From list', 'searchWorkflows'],
      ['id', 'By ID', undefined],
      ['url', 'By URL', undefined],
    ]);
    expect(modes[1]?.validation).toEqual([{ regex: '[0-9]+', errorMessage: 'Not a valid ID' }]);
  });

  it('keeps n8n shape and reads a plain value in the first typed mode', () => {
    expect(toLocator({ __rl: true, mode: 'list', value: '7', cachedResultName: 'Orders' }, modes)).toEqual({ __rl: true, mode: 'list', value: '7', cachedResultName: 'Orders' });
    expect(toLocator('42', modes)).toEqual({ __rl: true, mode: 'id', value: '42' });
    expect(toLocator(undefined, modes)).toEqual({ __rl: true, mode: 'id', value: '' });
  });

  it('switches modes as n8n does', () => {
    const picked = pickListEntry({ name: 'Orders', value: '7', url: 'https://x/workflow/7' });
    expect(picked).toEqual({ __rl: true, mode: 'list', value: '7', cachedResultName: 'Orders', cachedResultUrl: 'https://x/workflow/7' });
    expect(switchLocatorMode(picked, 'id')).toEqual({ __rl: true, mode: 'id', value: '7' });
    expect(switchLocatorMode(picked, 'url')).toEqual({ __rl: true, mode: 'url', value: 'https://x/workflow/7' });
    expect(switchLocatorMode({ __rl: true, mode: 'id', value: '7' }, 'list')).toEqual({ __rl: true, mode: 'list', value: '' });
    expect(switchLocatorMode(picked, 'list')).toBe(picked);
  });

  it('validates typed values with the whole-value regex, never expressions', () => {
    expect(locatorErrors({ __rl: true, mode: 'id', value: 'abc' }, modes)).toEqual(['Not a valid ID']);
    expect(locatorErrors({ __rl: true, mode: 'id', value: '12a' }, modes)).toEqual(['Not a valid ID']);
    expect(locatorErrors({ __rl: true, mode: 'id', value: '12' }, modes)).toEqual([]);
    expect(locatorErrors({ __rl: true, mode: 'id', value: '' }, modes)).toEqual([]);
    expect(locatorErrors({ __rl: true, mode: 'id', value: '={{ $json.id }}' }, modes)).toEqual([]);
  });
});

const MAPPER: NodeProperty = { displayName: 'Columns', name: 'columns', type: 'resourceMapper', default: { mappingMode: 'defineBelow', value: null } };

describe('resource mapper values', () => {
  it('starts from the default and keeps other keys', () => {
    expect(toMapper(undefined, MAPPER)).toEqual({ mappingMode: 'defineBelow', value: null });
    const stored = { mappingMode: 'defineBelow', value: { id: 1 }, matchingColumns: ['id'], schema: [] };
    expect(toMapper(stored, MAPPER)).toEqual(stored);
  });

  it('lists schema fields, then values the schema lacks; removing marks the field removed', () => {
    const mapper = toMapper(
      {
        mappingMode: 'defineBelow',
        value: { name: 'Ann', extra: '={{ $json.x }}' },
        schema: [
          { id: 'id', displayName: 'id', required: true, type: 'number', display: true, removed: false },
          { id: 'name', displayName: 'name', required: false, type: 'string', display: true, removed: false },
          { id: 'gone', displayName: 'gone', required: false, type: 'string', display: true, removed: true },
        ],
      },
      MAPPER,
    );
    expect(mapperRows(mapper).map((row) => row.id)).toEqual(['id', 'name', 'extra']);
    const next = setMapperField(mapper, 'name', undefined);
    expect(next.value).toEqual({ extra: '={{ $json.x }}' });
    expect((next.schema as Array<{ id: string; removed: boolean }>).find((field) => field.id === 'name')?.removed).toBe(true);
    expect(setMapperField(next, 'id', 5).value).toEqual({ extra: '={{ $json.x }}', id: 5 });
  });

  it('types field values by the schema type', () => {
    expect(fieldValue('12', 'number')).toBe(12);
    expect(fieldValue('1x', 'number')).toBe('1x');
    expect(fieldValue('true', 'boolean')).toBe(true);
    expect(fieldValue('={{ 1 }}', 'number')).toBe('={{ 1 }}');
    expect(fieldValue('12', 'string')).toBe('12');
  });

  it('keeps the fields the node answers as the schema, with default matching columns', () => {
    const fields = [
      { id: 'id', displayName: 'id', required: false, defaultMatch: true, canBeUsedToMatch: true, display: true, type: 'number' },
      { id: 'item', displayName: 'item', required: true, defaultMatch: false, canBeUsedToMatch: true, display: true, type: 'string' },
      { id: 'mood', displayName: 'mood', required: false, defaultMatch: false, canBeUsedToMatch: false, display: true, type: 'options', options: [{ name: 'ok', value: 'ok' }] },
    ];
    const fresh = applyFetchedFields(toMapper(undefined, MAPPER), fields);
    expect(fresh.matchingColumns).toEqual(['id']);
    expect(fresh.value).toBeNull();
    expect(fresh.schema).toEqual([
      { id: 'id', displayName: 'id', required: false, defaultMatch: true, display: true, canBeUsedToMatch: true, type: 'number', removed: false },
      { id: 'item', displayName: 'item', required: true, defaultMatch: false, display: true, canBeUsedToMatch: true, type: 'string', removed: false },
      { id: 'mood', displayName: 'mood', required: false, defaultMatch: false, display: true, canBeUsedToMatch: false, type: 'options', options: [{ name: 'ok', value: 'ok' }], removed: false },
    ]);
    expect(mapperRows(fresh).map((row) => row.id)).toEqual(['id', 'item', 'mood']);
    expect(applyFetchedFields(fresh, fields)).toBe(fresh);

    // the same fields keep their removed marks and values; matching columns that can no longer match are dropped
    const edited = { ...setMapperField(setMapperField(fresh, 'mood', undefined), 'item', 'pen'), matchingColumns: ['mood', 'item'] };
    const again = applyFetchedFields(edited, fields);
    expect(again.matchingColumns).toEqual(['item']);
    expect(again.value).toEqual({ item: 'pen' });
    expect((again.schema as Array<{ id: string; removed: boolean }>).map((field) => field.removed)).toEqual([false, false, true]);

    // another table: values of fields that are gone go too
    const other = applyFetchedFields(again, [{ id: 'item', displayName: 'item', required: true, defaultMatch: false, display: true, type: 'string' }]);
    expect(other.value).toEqual({ item: 'pen' });
    expect(other.matchingColumns).toEqual(['item']);
    const none = applyFetchedFields({ ...again, value: { id: 3, code: 'x' } }, [{ id: 'code', displayName: 'code', required: false, defaultMatch: false, display: true }]);
    expect(none.value).toEqual({ code: 'x' });
    expect(none.matchingColumns).toEqual([]);

    // values of an imported node without a schema stay
    const imported = applyFetchedFields(toMapper({ mappingMode: 'defineBelow', value: { extra: 1 } }, MAPPER), fields);
    expect(imported.value).toEqual({ extra: 1 });
  });
});
