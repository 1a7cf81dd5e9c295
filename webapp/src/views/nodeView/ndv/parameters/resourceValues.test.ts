import { describe, expect, it } from 'vitest';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import { fieldValue, locatorErrors, locatorModes, mapperRows, pickListEntry, setMapperField, switchLocatorMode, toLocator, toMapper } from './resourceValues';

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
});
