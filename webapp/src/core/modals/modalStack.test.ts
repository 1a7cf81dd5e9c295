import { describe, expect, it } from 'vitest';
import { closeOnStack, isKeptAlive, isOpen, MODAL_NAMES, modalSize, openOnStack, topOfStack, type ModalStack } from './modalStack';

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

  it('tells whether a modal is open', () => {
    const stack: ModalStack = [{ key: 1, name: 'tagsManager', props: {} }];
    expect(isOpen(stack, 'tagsManager')).toBe(true);
    expect(isOpen(stack, 'about')).toBe(false);
  });
});

describe('modal sizes', () => {
  it('follows the spec table and defaults to a 50% dialog', () => {
    expect(modalSize('about')).toEqual({ kind: 'dialog', width: '540px' });
    expect(modalSize('contactPrompt')).toEqual({ kind: 'dialog', width: '460px' });
    expect(modalSize('duplicate')).toEqual({ kind: 'dialog', width: '420px' });
    expect(modalSize('tagsManager')).toMatchObject({ minWidth: '620px', minHeight: '420px' });
    expect(modalSize('versions')).toEqual({ kind: 'drawer', position: 'left', size: '520px', backdrop: true });
    expect(modalSize('valueSurvey')).toEqual({ kind: 'drawer', position: 'bottom', size: '120px', backdrop: false });
    expect(modalSize('workflowOpen')).toEqual({ kind: 'dialog', width: '50%' });
  });

  it('names every modal of the spec once, the drawers kept alive', () => {
    expect(new Set(MODAL_NAMES).size).toBe(17);
    expect(MODAL_NAMES.filter(isKeptAlive)).toEqual(['versions', 'valueSurvey']);
  });
});
