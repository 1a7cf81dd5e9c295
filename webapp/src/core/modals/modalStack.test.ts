import { describe, expect, it } from 'vitest';
import { closeOnStack, openOnStack, topOfStack, type ModalStack } from './modalStack';

describe('modal stack', () => {
  it('keeps the most recent modal first', () => {
    let stack: ModalStack = [];
    stack = openOnStack(stack, { key: 1, name: 'credentialsList', props: {} });
    stack = openOnStack(stack, { key: 2, name: 'selectCredential', props: {} });
    expect(stack.map((open) => open.name)).toEqual(['selectCredential', 'credentialsList']);
    expect(topOfStack(stack)?.name).toBe('selectCredential');
  });

  it('moves a reopened modal to the top with its new props', () => {
    let stack: ModalStack = [];
    stack = openOnStack(stack, { key: 1, name: 'editCredential', props: { mode: 'edit', activeId: '1' } });
    stack = openOnStack(stack, { key: 2, name: 'credentialsList', props: {} });
    stack = openOnStack(stack, { key: 3, name: 'editCredential', props: { mode: 'new', activeId: 'httpBasicAuth' } });
    expect(stack).toEqual([
      { key: 3, name: 'editCredential', props: { mode: 'new', activeId: 'httpBasicAuth' } },
      { key: 2, name: 'credentialsList', props: {} },
    ]);
  });

  it('closes a modal anywhere in the stack and ignores one that is not open', () => {
    const stack: ModalStack = [
      { key: 2, name: 'selectCredential', props: {} },
      { key: 1, name: 'credentialsList', props: {} },
    ];
    expect(closeOnStack(stack, 'credentialsList').map((open) => open.name)).toEqual(['selectCredential']);
    expect(closeOnStack(stack, 'editCredential')).toBe(stack);
  });
});
