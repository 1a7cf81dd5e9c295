import { describe, expect, it } from 'vitest';
import { clipboardJson, isWorkflowUrl, nodeForSave, parseWorkflowData } from './clipboard';
import type { Graph, WorkflowNode } from './types';

const graph: Graph = {
  nodes: [
    { name: 'A', type: 't', typeVersion: 1, position: [0, 0], parameters: {}, disabled: false, notes: '' },
    { name: 'B', type: 't', typeVersion: 1, position: [200, 0], parameters: { v: 1 }, disabled: true },
    { name: 'C', type: 't', typeVersion: 1, position: [400, 0], parameters: {} },
  ],
  connections: { A: { main: [[{ node: 'B', type: 'main', index: 0 }]] }, B: { main: [[{ node: 'C', type: 'main', index: 0 }]] } },
};

describe('clipboard', () => {
  it('copies the chosen nodes and their inner connections as 2-space JSON', () => {
    const text = clipboardJson(graph, ['A', 'B']);
    expect(text).toBe(
      JSON.stringify(
        {
          nodes: [
            { name: 'A', type: 't', typeVersion: 1, position: [0, 0], parameters: {} },
            { name: 'B', type: 't', typeVersion: 1, position: [200, 0], parameters: { v: 1 }, disabled: true },
          ],
          connections: { A: { main: [[{ node: 'B', type: 'main', index: 0 }]] } },
        },
        null,
        2,
      ),
    );
  });

  it('strips underscore fields and unset flags when saving', () => {
    const node = { ...graph.nodes[0], _hidden: 1, continueOnFail: false } as unknown as WorkflowNode;
    expect(Object.keys(nodeForSave(node))).toEqual(['name', 'type', 'typeVersion', 'position', 'parameters']);
  });

  it('parses workflow data only with nodes and connections', () => {
    expect(parseWorkflowData(clipboardJson(graph, ['A']))?.nodes[0]?.name).toBe('A');
    expect(parseWorkflowData('{"nodes": []}')).toBeNull();
    expect(parseWorkflowData('{"connections": {}}')).toBeNull();
    expect(parseWorkflowData('not json')).toBeNull();
    expect(parseWorkflowData('{"nodes": [{"name": 1}], "connections": {}}')).toBeNull();
  });

  it('recognises workflow URLs', () => {
    expect(isWorkflowUrl('https://example.com/flows/a.json')).toBe(true);
    expect(isWorkflowUrl(' http://example.com/a.JSON ')).toBe(true);
    expect(isWorkflowUrl('ftp://example.com/a.json')).toBe(false);
    expect(isWorkflowUrl('https://example.com/a.json?x=1')).toBe(false);
    expect(isWorkflowUrl('example.com/a.json')).toBe(false);
  });
});
