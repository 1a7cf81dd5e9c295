import { describe, expect, it } from 'vitest';
import type { NodeTypeDescription } from './nodeTypes';
import type { WorkflowNode } from './types';
import { nodeWebhookUrls, webhookPath, webhookValue } from './webhookUrl';

const base = { base: 'http://localhost:5678/', endpointWebhook: 'webhook', endpointWebhookTest: 'webhook-test' };

const webhookType: NodeTypeDescription = {
  name: 'n8n-nodes-base.webhook',
  displayName: 'Webhook',
  group: ['trigger'],
  version: 1,
  defaults: { name: 'Webhook' },
  inputs: [],
  outputs: ['main'],
  properties: [
    { name: 'httpMethod', displayName: 'HTTP Method', type: 'options', default: 'GET' },
    { name: 'path', displayName: 'Path', type: 'string', default: '' },
  ],
  webhooks: [
    { name: 'default', httpMethod: '={{$parameter["httpMethod"]}}', path: '={{$parameter["path"]}}', isFullPath: true },
    { name: 'setup', httpMethod: 'GET', path: 'restart', restartWebhook: true },
  ],
};

function node(parameters: WorkflowNode['parameters'], webhookId?: string): WorkflowNode {
  return { name: 'My Hook', type: webhookType.name, typeVersion: 1, position: [0, 0], parameters, webhookId };
}

describe('webhook URLs', () => {
  it('resolves parameter references and plain values', () => {
    expect(webhookValue('={{$parameter["path"]}}', { path: 'a/b' })).toBe('a/b');
    expect(webhookValue("={{$parameter['path']}}", { path: 'x' })).toBe('x');
    expect(webhookValue('={{$parameter.path}}', {})).toBe('');
    expect(webhookValue('POST', {})).toBe('POST');
    expect(webhookValue('={{$json.x}}', {})).toBeUndefined();
  });

  it('builds paths like the server', () => {
    expect(webhookPath('7', node({}, 'abc'), '', true, false)).toBe('abc');
    expect(webhookPath('7', node({}, 'abc'), 'custom/path', true, false)).toBe('custom/path');
    expect(webhookPath('7', node({}, 'abc'), 'x', false, false)).toBe('abc/x');
    expect(webhookPath('7', node({}), 'x', false, false)).toBe('7/my%20hook/x');
  });

  it('lists test and production URLs with the method, skipping restart webhooks', () => {
    expect(nodeWebhookUrls(node({ httpMethod: 'POST', path: 'orders' }, 'abc'), webhookType, '7', 'test', base)).toEqual([
      { method: 'POST', url: 'http://localhost:5678/webhook-test/orders' },
    ]);
    expect(nodeWebhookUrls(node({}, 'abc'), webhookType, null, 'production', base)).toEqual([{ method: 'GET', url: 'http://localhost:5678/webhook/abc' }]);
  });

  it('reads a fallback and lists one URL per method of a node listening to several', () => {
    expect(webhookValue('={{$parameter["httpMethod"] || "GET"}}', { httpMethod: 'POST' })).toBe('POST');
    expect(webhookValue('={{$parameter["httpMethod"] || "GET"}}', {})).toBe('GET');
    expect(webhookValue('={{$parameter["httpMethod"] || "GET"}}', { httpMethod: ['GET', 'PUT'] })).toEqual(['GET', 'PUT']);
    const several: NodeTypeDescription = {
      ...webhookType,
      webhooks: [{ name: 'default', httpMethod: '={{$parameter["httpMethod"] || "GET"}}', path: '={{$parameter["path"]}}', isFullPath: true }],
    };
    expect(nodeWebhookUrls(node({ httpMethod: ['GET', 'POST'], path: 'p' }, 'abc'), several, '7', 'production', base)).toEqual([
      { method: 'GET', url: 'http://localhost:5678/webhook/p' },
      { method: 'POST', url: 'http://localhost:5678/webhook/p' },
    ]);
  });
});
