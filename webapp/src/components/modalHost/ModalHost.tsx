import type { ComponentType } from 'react';
import { isKeptAlive, type ModalName, type OpenModal } from '@/core/modals/modalStack';
import { useKeptAliveModals, useModalStack, type ModalPropsByName } from './modalStore';
import { HostedModalContext } from './hostedContext';

/** What the host adds to every named modal's props: whether it is open (kept-alive modals stay mounted closed). */
export interface HostedModalProps {
  opened: boolean;
}

/**
 * The components of the named modals, supplied by the router (features register their modals
 * there). A name without a component cannot be opened through the host.
 */
export type ModalRegistry = { [N in ModalName]?: ComponentType<ModalPropsByName[N] & HostedModalProps> };

/**
 * Renders the named modals (spec 002 §2 "Modal host"). Each opening of an ordinary modal mounts it
 * anew, so the most recent one's portal comes last in the document and sits on top (as do
 * confirmations it opens). Kept-alive modals (the drawers) stay mounted once opened and get
 * `opened` false when closed, so they keep their state and animate out. A modal closes itself
 * through closeModal(name, reason).
 */
export function ModalHost({ registry }: { registry: ModalRegistry }) {
  const stack = useModalStack();
  const keptAlive = useKeptAliveModals();
  // The most recent modal is first on the stack; only it answers Esc (StackedModal).
  const top = stack[0];
  const render = (open: OpenModal, opened: boolean, key: string) => {
    const Component = registry[open.name] as ComponentType<Record<string, unknown>> | undefined;
    if (!Component) return null;
    const onTop = top !== undefined && top.name === open.name && (isKeptAlive(open.name) || top.key === open.key);
    return (
      <HostedModalContext.Provider key={key} value={{ onTop }}>
        <Component {...(open.props as Record<string, unknown>)} opened={opened} />
      </HostedModalContext.Provider>
    );
  };
  return (
    <>
      {keptAlive.map((last) =>
        render(
          last,
          stack.some((open) => open.name === last.name),
          `kept-${last.name}`,
        ),
      )}
      {[...stack]
        .reverse()
        .filter((open) => !isKeptAlive(open.name))
        .map((open) => render(open, true, String(open.key)))}
    </>
  );
}
