/** The named modals of spec 002 §2 "Modal host". */
export const MODAL_NAMES = [
  'about',
  'changePassword',
  'editCredential',
  'selectCredential',
  'deleteUser',
  'inviteUser',
  'duplicate',
  'tagsManager',
  'workflowOpen',
  'versions',
  'settings',
  'credentialsList',
  'personalization',
  'contactPrompt',
  'valueSurvey',
  'executions',
  'activation',
] as const;

/** A named modal. */
export type ModalName = (typeof MODAL_NAMES)[number];

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
 * How a modal is drawn (spec 002 §2 table): a centred dialog of a width (px or %), or a drawer
 * from a side. Sizes are CSS lengths; the default is a 50% wide dialog.
 */
export type ModalSize =
  | { kind: 'dialog'; width: string; height?: string; minWidth?: string; minHeight?: string; maxWidth?: string }
  | { kind: 'drawer'; position: 'left' | 'bottom'; size: string; backdrop: boolean };

/** The default size of a dialog the table does not name. */
export const DEFAULT_MODAL_SIZE: ModalSize = { kind: 'dialog', width: '50%' };

const SIZES: Partial<Record<ModalName, ModalSize>> = {
  about: { kind: 'dialog', width: '540px' },
  changePassword: { kind: 'dialog', width: '460px' },
  inviteUser: { kind: 'dialog', width: '460px' },
  contactPrompt: { kind: 'dialog', width: '460px' },
  personalization: { kind: 'dialog', width: '460px' },
  duplicate: { kind: 'dialog', width: '420px' },
  editCredential: { kind: 'dialog', width: '70%', height: '80%' },
  credentialsList: { kind: 'dialog', width: '80%' },
  selectCredential: { kind: 'dialog', width: '50%', maxWidth: '460px', minHeight: '250px' },
  tagsManager: { kind: 'dialog', width: '620px', minWidth: '620px', minHeight: '420px' },
  versions: { kind: 'drawer', position: 'left', size: '520px', backdrop: true },
  valueSurvey: { kind: 'drawer', position: 'bottom', size: '120px', backdrop: false },
};

/** The size of a named modal (spec 002 §2). */
export function modalSize(name: ModalName): ModalSize {
  return SIZES[name] ?? DEFAULT_MODAL_SIZE;
}

/**
 * Kept-alive modals stay mounted once opened, closed or not: the drawers keep their state and
 * animate out instead of vanishing (the value survey resets its form 1 s after sending).
 */
const KEPT_ALIVE: ReadonlySet<ModalName> = new Set<ModalName>(['versions', 'valueSurvey']);

/** Whether a modal stays mounted while closed. */
export function isKeptAlive(name: ModalName): boolean {
  return KEPT_ALIVE.has(name);
}

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

/** Whether the named modal is open. */
export function isOpen(stack: ModalStack, name: ModalName): boolean {
  return stack.some((open) => open.name === name);
}
