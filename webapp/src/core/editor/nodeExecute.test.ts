import { describe, expect, it } from 'vitest';
import { testType } from '@/core/workflow/testTypes';
import { executeLabel } from './nodeExecute';

describe('execute button label', () => {
  it('says what running the node will do', () => {
    expect(executeLabel(testType('set'), false, false)).toBe('ndv.execute.executeNode');
    expect(executeLabel(testType('webhook'), false, false)).toBe('ndv.execute.listenForEvent');
    expect(executeLabel({ ...testType('webhook'), polling: true }, false, false)).toBe('ndv.execute.fetchEvent');
    expect(executeLabel({ ...testType('webhook'), name: 'n8n-nodes-base.cron' }, false, false)).toBe('ndv.execute.executeNode');
    expect(executeLabel(testType('set'), false, true)).toBe('ndv.execute.executing');
    expect(executeLabel(testType('webhook'), true, true)).toBe('ndv.execute.stopListening');
  });
});
