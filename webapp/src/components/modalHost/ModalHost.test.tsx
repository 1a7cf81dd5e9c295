import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderApp';
import { afterEach, describe, expect, it } from 'vitest';
import type { CloseReason } from '@/core/modals/modalStack';
import { closeAllModals, closeModal, getModalStack, openModal } from './modalStore';
import { ModalHost, type HostedModalProps, type ModalRegistry } from './ModalHost';
import { StackedModal } from './stacked';

/** Two real dialogs that close through the host, as the named modals do. */
function Lower({ opened }: HostedModalProps) {
  return (
    <StackedModal opened={opened} onClose={() => closeModal('about', 'cancel')} title="Lower" transitionProps={{ duration: 0 }}>
      <button type="button">lower</button>
    </StackedModal>
  );
}

function Upper({ opened }: HostedModalProps) {
  return (
    <StackedModal opened={opened} onClose={() => closeModal('tagsManager', 'cancel')} title="Upper" transitionProps={{ duration: 0 }}>
      <button type="button">upper</button>
    </StackedModal>
  );
}

function About({ opened }: HostedModalProps) {
  return <div data-test-id="about" data-opened={String(opened)} />;
}

function Survey({ opened }: HostedModalProps) {
  return <div data-test-id="survey" data-opened={String(opened)} />;
}

function Prompt({ opened, title }: HostedModalProps & { title?: string }) {
  return <div data-test-id="prompt" data-opened={String(opened)} data-title={title} />;
}

const registry: ModalRegistry = { about: About, valueSurvey: Survey, contactPrompt: Prompt };

describe('modal host', () => {
  afterEach(() => act(() => closeAllModals()));

  it('mounts an ordinary modal while open and reports why it closed', () => {
    render(<ModalHost registry={registry} />);
    const reasons: CloseReason[] = [];
    act(() => openModal('about', {}, (reason) => reasons.push(reason)));
    expect(screen.getByTestId('about')).toHaveAttribute('data-opened', 'true');
    act(() => closeModal('about', 'confirmed'));
    expect(screen.queryByTestId('about')).toBeNull();
    expect(reasons).toEqual(['confirmed']);
  });

  it('keeps a kept-alive modal mounted once opened, closed or not', () => {
    render(<ModalHost registry={registry} />);
    expect(screen.queryByTestId('survey')).toBeNull();
    act(() => openModal('valueSurvey', {}));
    expect(screen.getByTestId('survey')).toHaveAttribute('data-opened', 'true');
    act(() => closeModal('valueSurvey', 'cancel'));
    expect(screen.getByTestId('survey')).toHaveAttribute('data-opened', 'false');
  });

  it('draws the most recent modal last, so it sits on top, with its props', () => {
    const { container } = render(<ModalHost registry={registry} />);
    act(() => openModal('contactPrompt', { title: 'Hello' }));
    act(() => openModal('about', {}));
    const drawn = [...container.querySelectorAll('[data-test-id="prompt"], [data-test-id="about"]')];
    expect(drawn.map((node) => node.getAttribute('data-test-id'))).toEqual(['prompt', 'about']);
    expect(screen.getByTestId('prompt')).toHaveAttribute('data-title', 'Hello');
  });

  it('keeps a name that has no component on the stack without drawing anything for it', () => {
    const { container } = render(<ModalHost registry={registry} />);
    const before = container.innerHTML;
    act(() => openModal('executions', {}));
    expect(getModalStack().map((open) => open.name)).toEqual(['executions']);
    expect(container.innerHTML).toBe(before);
  });

  it('closes only the dialog on top with Esc; the one beneath stays open', async () => {
    renderWithProviders(<ModalHost registry={{ about: Lower, tagsManager: Upper }} />);
    const reasons: CloseReason[] = [];
    act(() => openModal('about', {}, (reason) => reasons.push(reason)));
    act(() => openModal('tagsManager', {}));
    fireEvent.keyDown(await screen.findByText('upper'), { key: 'Escape' });
    await waitFor(() => expect(getModalStack().map((open) => open.name)).toEqual(['about']));
    expect(reasons).toEqual([]);
    fireEvent.keyDown(await screen.findByText('lower'), { key: 'Escape' });
    await waitFor(() => expect(getModalStack()).toEqual([]));
    expect(reasons).toEqual(['cancel']);
  });
});
