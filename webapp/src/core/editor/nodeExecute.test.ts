import { describe, expect, it } from 'vitest';
import { testType } from '@/core/workflow/testTypes';
import { executeBlockedReason, executeLabel } from './nodeExecute';

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

describe('execute button blocking', () => {
  it('blocks a disabled node, a node with issues and a second run, in that order of reasons', () => {
    expect(executeBlockedReason({ disabled: false, hasIssues: false, otherRun: false })).toBeNull();
    expect(executeBlockedReason({ disabled: false, hasIssues: true, otherRun: false })).toBe('ndv.execute.requiredFieldsMissing');
    expect(executeBlockedReason({ disabled: true, hasIssues: true, otherRun: true })).toBe('ndv.execute.nodeIsDisabled');
    expect(executeBlockedReason({ disabled: false, hasIssues: false, otherRun: true })).toBe('ndv.execute.workflowAlreadyRunning');
  });
});
