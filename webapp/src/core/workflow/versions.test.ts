import { describe, expect, it } from 'vitest';
import { applyChanges } from './changes';
import { planAddNode, planImport } from './edits';
import { issueKey, workflowIssues } from './nodeIssues';
import { latestVersion, NodeTypeIndex, type NodeTypeDescription } from './nodeTypes';
import type { Graph, WorkflowNode } from './types';

// n8n's node versions in the editor: the creator adds the latest version, a stored node keeps its
// version and is described by that version, and a version the instance lacks is an issue.

function described(version: number | number[], properties: string[], extra: Partial<NodeTypeDescription> = {}): NodeTypeDescription {
  return {
    name: 'n8n-nodes-base.httpRequest',
    displayName: 'HTTP Request',
    group: ['output'],
    version,
    defaults: { name: 'HTTP Request' },
    inputs: ['main'],
    outputs: ['main'],
    properties: properties.map((name) => ({ name, displayName: name, type: 'string', default: '' })),
    ...extra,
  };
}

const v1 = described(1, ['url', 'responseFormat']);
const v2 = described([2, 2.1], ['url', 'nodeCredentialType']);
const code = { ...described([1, 2], ['jsCode'], { defaultVersion: 2 }), name: 'n8n-nodes-base.code', displayName: 'Code', defaults: { name: 'Code' } };
const index = new NodeTypeIndex([v1, v2, code]);

function stored(name: string, type: string, typeVersion: number): WorkflowNode {
  return { name, type, typeVersion, position: [0, 0], parameters: {} };
}

describe('node versions in the editor', () => {
  it('adds the latest version (or the default one) from the node creator', () => {
    const empty: Graph = { nodes: [], connections: {} };
    const http = index.get('n8n-nodes-base.httpRequest');
    expect(http).toBe(v2);
    const plan = planAddNode(empty, index, { type: http as NodeTypeDescription, position: [0, 0] });
    if (!plan.ok) throw new Error('refused');
    expect(applyChanges(empty, plan.changes).graph.nodes[0]?.typeVersion).toBe(2.1);
    expect(latestVersion(code)).toBe(2);
  });

  it('keeps the stored version of imported nodes and describes them by it', () => {
    const empty: Graph = { nodes: [], connections: {} };
    const data: Graph = { nodes: [stored('Old', 'n8n-nodes-base.httpRequest', 1), stored('New', 'n8n-nodes-base.httpRequest', 2)], connections: {} };
    const plan = planImport(empty, index, data, { position: [0, 0] });
    if (!plan.ok) throw new Error('refused');
    const nodes = applyChanges(empty, plan.changes).graph.nodes;
    expect(nodes.map((n) => n.typeVersion)).toEqual([1, 2]);
    const [old, current] = nodes as [WorkflowNode, WorkflowNode];
    expect(index.forNode(old)?.properties?.map((p) => p.name)).toEqual(['url', 'responseFormat']);
    expect(index.forNode(current)?.properties?.map((p) => p.name)).toEqual(['url', 'nodeCredentialType']);
  });

  it('marks a node whose version the instance lacks, naming the versions it has', () => {
    const nodes = [stored('Newer', 'n8n-nodes-base.httpRequest', 4.2), stored('Custom', 'acme.thing', 1), stored('Fine', 'n8n-nodes-base.code', 2)];
    const issues = workflowIssues(nodes, index, index);
    expect(issues.get('Newer')).toEqual([{ kind: 'typeVersionUnknown', version: 4.2, known: [1, 2, 2.1] }]);
    expect(issues.get('Newer')?.map(issueKey)).toEqual(['typeVersionUnknown:4.2:1, 2, 2.1']);
    expect(issues.get('Custom')).toEqual([{ kind: 'typeUnknown' }]);
    expect(issues.has('Fine')).toBe(false);
    expect(workflowIssues([{ ...stored('Off', 'n8n-nodes-base.httpRequest', 9), disabled: true }], index, index).size).toBe(0);
  });
});
