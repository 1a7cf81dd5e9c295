import { describe, expect, it } from 'vitest';
import { evaluateSubtitle } from './subtitle';

describe('node subtitles', () => {
  it('evaluates parameter references, concatenation and conditions', () => {
    expect(evaluateSubtitle('={{$parameter["requestMethod"] + ": " + $parameter["url"]}}', { requestMethod: 'GET', url: 'https://x.io' })).toBe('GET: https://x.io');
    expect(evaluateSubtitle('={{$parameter["mode"]==="binaryToJson" ? "Binary to JSON" : "JSON to Binary"}}', { mode: 'jsonToBinary' })).toBe('JSON to Binary');
    expect(evaluateSubtitle('={{"Workflow: " + $parameter.workflowId}}', { workflowId: 7 })).toBe('Workflow: 7');
    expect(evaluateSubtitle('plain', {})).toBe('plain');
  });

  it('gives up on anything else', () => {
    expect(evaluateSubtitle('={{$parameter["a"].toUpperCase()}}', { a: 'x' })).toBeNull();
    expect(evaluateSubtitle('={{$json.a}}', {})).toBeNull();
    expect(evaluateSubtitle('=text {{1}}', {})).toBeNull();
  });
});
