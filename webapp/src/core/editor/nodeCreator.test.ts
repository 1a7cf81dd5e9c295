import { describe, expect, it } from 'vitest';
import { opensAfterAdding } from './nodeCreator';

describe('adding from the node creator', () => {
  it('opens the details of every added node but a sticky note', () => {
    expect(opensAfterAdding('n8n-nodes-base.set')).toBe(true);
    expect(opensAfterAdding('n8n-nodes-base.webhook')).toBe(true);
    expect(opensAfterAdding('n8n-nodes-base.stickyNote')).toBe(false);
  });
});
