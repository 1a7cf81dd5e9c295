import { describe, expect, it } from 'vitest';
import { executionOrderOf, newWorkflowSettings } from './executionOrder';

describe('execution order', () => {
  it('is v1 for new workflows', () => {
    expect(executionOrderOf(newWorkflowSettings())).toBe('v1');
  });

  it('is v0 without the setting or with another value', () => {
    expect(executionOrderOf(null)).toBe('v0');
    expect(executionOrderOf({})).toBe('v0');
    expect(executionOrderOf({ executionOrder: 'v0' })).toBe('v0');
    expect(executionOrderOf({ executionOrder: 'v2' as never })).toBe('v0');
  });
});
