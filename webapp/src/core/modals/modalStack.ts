/** The named modals the host knows (spec 002 §2 "Modal host"); more move onto the host over time. */
export type ModalName = 'editCredential' | 'credentialsList' | 'selectCredential';

/** Why a modal closed. */
export type CloseReason = 'cancel' | 'close' | 'confirmed';

/** One open modal: its name and the props it was opened with. */
export interface OpenModal<P = unknown> {
  /** Unique per opening, so the same modal may be opened again while closing. */
  key: number;
  name: ModalName;
  props: P;
}

/** The open modals, most recent first. */
export type ModalStack = readonly OpenModal[];

/**
 * Opens `name` on top. A modal that is already open moves to the top with its new props (the spec
 * keeps each named modal open once).
 */
export function openOnStack(stack: ModalStack, entry: OpenModal): ModalStack {
  return [entry, ...stack.filter((open) => open.name !== entry.name)];
}

/** Closes the named modal wherever it sits in the stack. */
export function closeOnStack(stack: ModalStack, name: ModalName): ModalStack {
  return stack.some((open) => open.name === name) ? stack.filter((open) => open.name !== name) : stack;
}

/** The most recent open modal, or undefined. */
export function topOfStack(stack: ModalStack): OpenModal | undefined {
  return stack[0];
}
