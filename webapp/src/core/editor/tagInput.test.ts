import { describe, expect, it } from 'vitest';
import { typedTag, withTagId } from './tagInput';

const tags = [
  { id: '1', name: 'Sales' },
  { id: '2', name: 'ops' },
];

describe('the typed tag', () => {
  it('is an existing tag of the same name in any case, else a new one, trimmed', () => {
    expect(typedTag(tags, ' sales ')).toEqual({ id: '1' });
    expect(typedTag(tags, 'Ops')).toEqual({ id: '2' });
    expect(typedTag(tags, '  marketing ')).toEqual({ create: 'marketing' });
    expect(typedTag(tags, '   ')).toBeNull();
  });

  it('is added once, after the others', () => {
    expect(withTagId(['2'], '1')).toEqual(['2', '1']);
    expect(withTagId(['2', '1'], '1')).toEqual(['2', '1']);
  });
});
