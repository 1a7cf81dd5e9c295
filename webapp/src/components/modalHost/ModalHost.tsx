import type { ComponentType } from 'react';
import type { ModalName } from '@/core/modals/modalStack';
import { useModalStack, type ModalPropsByName } from './modalStore';

/** The components of the named modals, supplied by the router (features register their modals there). */
export type ModalRegistry = { [N in ModalName]: ComponentType<ModalPropsByName[N]> };

/**
 * Renders the open named modals (spec 002 §2 "Modal host"). Each opening mounts its modal anew, so
 * the most recent one's portal comes last in the document and sits on top (as do confirmations it
 * opens). A modal closes itself through closeModal(name, reason).
 */
export function ModalHost({ registry }: { registry: ModalRegistry }) {
  const stack = useModalStack();
  return (
    <>
      {[...stack].reverse().map((open) => {
        const Component = registry[open.name] as ComponentType<Record<string, unknown>>;
        return <Component key={open.key} {...(open.props as Record<string, unknown>)} />;
      })}
    </>
  );
}
