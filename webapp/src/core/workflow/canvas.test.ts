import { describe, expect, it } from 'vitest';
import { nodesBounds, NODE_SIZE, STICKY_DEFAULT_HEIGHT } from './canvas';
import type { WorkflowNode } from './types';

const at = (name: string, x: number, y: number, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [x, y], parameters: {}, ...extra });

describe('nodes bounds', () => {
  it('spans node cards and sticky notes as drawn', () => {
    expect(nodesBounds([])).toBeNull();
    expect(nodesBounds([at('A', 0, 0), at('B', 200, -40)])).toEqual({ x: 0, y: -40, width: 200 + NODE_SIZE, height: 40 + NODE_SIZE });
    const note = at('Note', -500, 100, { type: 'n8n-nodes-base.stickyNote', parameters: { width: 240 } });
    expect(nodesBounds([at('A', 0, 0), note])).toEqual({ x: -500, y: 0, width: 500 + NODE_SIZE, height: 100 + STICKY_DEFAULT_HEIGHT });
  });
});
