import { describe, expect, it } from 'vitest';
import { displayParameter, isParameterShown } from './visibility';
import { PROPERTIES } from './testDescription';

const property = (name: string) => {
  const found = PROPERTIES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(name);
  return found;
};
const collectionChild = (name: string) => (property('options').options ?? []).find((option) => option.name === name) as never;

describe('parameter visibility', () => {
  it('needs every show key to match and no hide key', () => {
    const userId = property('userId');
    expect(isParameterShown(userId, { values: { resource: 'user', operation: 'get' }, root: {}, version: 1 })).toBe(true);
    expect(isParameterShown(userId, { values: { resource: 'user', operation: 'create' }, root: {}, version: 1 })).toBe(false);
    expect(isParameterShown(property('limit'), { values: { operation: 'create' }, root: {}, version: 1 })).toBe(false);
    expect(isParameterShown(property('limit'), { values: { operation: 'get' }, root: {}, version: 1 })).toBe(true);
  });

  it('reads keys of nested levels relative to the level and `/` keys from the top level', () => {
    const retries = collectionChild('retries');
    expect(isParameterShown(retries, { values: { mode: 'safe' }, root: { mode: 'fast' }, version: 1 })).toBe(true);
    expect(isParameterShown(retries, { values: { mode: 'fast' }, root: { mode: 'safe' }, version: 1 })).toBe(false);
    const teamOnly = collectionChild('teamOnly');
    expect(isParameterShown(teamOnly, { values: {}, root: { resource: 'team' }, version: 1 })).toBe(true);
    expect(isParameterShown(teamOnly, { values: { resource: 'team' }, root: { resource: 'user' }, version: 1 })).toBe(false);
  });

  it('matches @version against the node type version', () => {
    expect(isParameterShown(property('v2Only'), { values: {}, root: {}, version: 1 })).toBe(false);
    expect(isParameterShown(property('v2Only'), { values: {}, root: {}, version: 2 })).toBe(true);
  });

  it('never shows hidden parameters', () => {
    expect(isParameterShown(property('secret'), { values: {}, root: {}, version: 1 })).toBe(false);
  });

  it('matches any element of a list value and shows for expressions', () => {
    expect(displayParameter({ show: { tags: ['b'] } }, { tags: ['a', 'b'] }, 1)).toBe(true);
    expect(displayParameter({ show: { tags: ['b'] } }, { tags: [] }, 1)).toBe(false);
    expect(displayParameter({ hide: { tags: ['a'] } }, { tags: ['a'] }, 1)).toBe(false);
    expect(displayParameter({ show: { resource: ['team'] } }, { resource: '={{"team"}}' }, 1)).toBe(true);
  });

  it('during a custom API call hides parameters with hide rules except authentication, resource and operation', () => {
    const root = { resource: 'user', operation: '__CUSTOM_API_CALL__' };
    expect(isParameterShown(property('limit'), { values: root, root, version: 1 })).toBe(false);
    expect(isParameterShown(property('operation'), { values: root, root, version: 1 })).toBe(true);
    expect(isParameterShown(property('tags'), { values: root, root, version: 1 })).toBe(true);
    expect(isParameterShown({ ...property('authentication'), displayOptions: { hide: { resource: ['team'] } } }, { values: root, root, version: 1 })).toBe(true);
  });
});
