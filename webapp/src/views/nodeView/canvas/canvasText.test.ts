import { describe, expect, it, vi } from 'vitest';
import { rememberingText } from './canvasText';

describe('canvas text', () => {
  it('looks a plain label up once and always passes options through', () => {
    const t = vi.fn((key: string, options?: Record<string, unknown>) => (options ? `${key}:${String(options.count)}` : key.toUpperCase()));
    const text = rememberingText(t);
    expect(text('node.plusEndpoint')).toBe('NODE.PLUSENDPOINT');
    expect(text('node.plusEndpoint')).toBe('NODE.PLUSENDPOINT');
    expect(t).toHaveBeenCalledTimes(1);
    expect(text('node.status.success', { count: 2 })).toBe('node.status.success:2');
    expect(text('node.status.success', { count: 3 })).toBe('node.status.success:3');
    expect(t).toHaveBeenCalledTimes(3);
  });
});
