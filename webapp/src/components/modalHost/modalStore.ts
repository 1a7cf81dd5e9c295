import { useSyncExternalStore } from 'react';
import { closeOnStack, openOnStack, type CloseReason, type ModalName, type ModalStack } from '@/core/modals/modalStack';

/** The credential modal's state (spec 002 §2): new of a type, or edit of a stored credential. */
export interface EditCredentialProps {
  mode: 'new' | 'edit';
  /** Credential type when new, credential id when edit. */
  activeId: string;
  /** The node types of the open workflow: those listed in a type's testedBy can test it. */
  workflowNodeTypes?: string[];
  /** The HTTP Request node the modal was opened from, when its URL is a fixed value: it tests generic types. */
  tester?: { nodeType: string; url: string; method: string };
  /** Called once the credential is saved (created or updated). */
  onSaved?: (credential: { id: string; name: string; type: string }) => void;
  /** Called once the credential is deleted. */
  onDeleted?: (id: string) => void;
}

/** Props each named modal is opened with. */
export interface ModalPropsByName {
  editCredential: EditCredentialProps;
  credentialsList: Record<string, never>;
  selectCredential: { onChosen?: (type: string) => void; workflowNodeTypes?: string[]; tester?: EditCredentialProps['tester'] };
}

type Listener = () => void;

let stack: ModalStack = [];
let nextKey = 1;
const listeners = new Set<Listener>();
const closeHandlers = new Map<number, (reason: CloseReason) => void>();

function publish(next: ModalStack): void {
  stack = next;
  for (const listener of listeners) listener();
}

/** Opens a named modal on top of the others. `onClose` learns why it closed. */
export function openModal<N extends ModalName>(name: N, props: ModalPropsByName[N], onClose?: (reason: CloseReason) => void): void {
  const key = nextKey++;
  if (onClose) closeHandlers.set(key, onClose);
  publish(openOnStack(stack, { key, name, props }));
}

/** Closes a named modal with a reason; closing one that is not open does nothing. */
export function closeModal(name: ModalName, reason: CloseReason = 'close'): void {
  const open = stack.find((entry) => entry.name === name);
  if (!open) return;
  publish(closeOnStack(stack, name));
  const handler = closeHandlers.get(open.key);
  closeHandlers.delete(open.key);
  handler?.(reason);
}

/** Closes every modal (on sign-out or route changes that leave the editor). */
export function closeAllModals(): void {
  for (const open of [...stack]) closeModal(open.name, 'close');
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The open modals, most recent first. */
export function useModalStack(): ModalStack {
  return useSyncExternalStore(subscribe, () => stack);
}


/** The open modals now, most recent first (outside React). */
export function getModalStack(): ModalStack {
  return stack;
}
