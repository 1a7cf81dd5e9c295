import { useSyncExternalStore } from 'react';
import type { WorkflowBody } from '@/api/workflows';
import type { User } from '@/core/user';
import type { WorkflowSettings } from '@/core/workflow/types';
import { closeOnStack, isKeptAlive, openOnStack, type CloseReason, type ModalName, type ModalStack, type OpenModal } from '@/core/modals/modalStack';

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

/** The contact prompt's words, from the prompts host. */
/** The personalization survey is asked of this user (spec 002 §2–§5). */
export interface PersonalizationProps {
  user: User;
}

export interface ContactPromptProps {
  title?: string;
  message?: string;
}

type NoProps = Record<string, never>;

/** The invite dialog: who to tell once invitations went out. */
export interface InviteUserProps {
  onInvited?: () => void;
}

/** The delete-user dialog (its active id is the user's). */
export interface DeleteUserProps {
  user: User;
  /** Candidates for receiving the user's workflows and credentials. */
  users: readonly User[];
  onDeleted?: () => void;
}

/** The open-workflow dialog: what opening a workflow of the list does. */
export interface WorkflowOpenProps {
  onOpen: (id: string) => void;
}

/** The duplicate dialog: the name to copy and the document to save under the new one. */
export interface DuplicateProps {
  name: string;
  body: () => WorkflowBody;
}

/** The workflow settings dialog of the open workflow. */
export interface WorkflowSettingsProps {
  workflowId: string;
  workflowName: string;
  settings: WorkflowSettings;
  onSave: (settings: WorkflowSettings) => Promise<boolean>;
}

/** Props each named modal is opened with; names not listed are not on the host yet. */
export interface ModalPropsByName {
  about: NoProps;
  changePassword: NoProps;
  editCredential: EditCredentialProps;
  selectCredential: { onChosen?: (type: string) => void; workflowNodeTypes?: string[]; tester?: EditCredentialProps['tester'] };
  deleteUser: DeleteUserProps;
  inviteUser: InviteUserProps;
  duplicate: DuplicateProps;
  tagsManager: NoProps;
  workflowOpen: WorkflowOpenProps;
  versions: NoProps;
  settings: WorkflowSettingsProps;
  credentialsList: NoProps;
  personalization: PersonalizationProps;
  contactPrompt: ContactPromptProps;
  valueSurvey: NoProps;
  executions: NoProps;
  activation: NoProps;
}

type Listener = () => void;

let stack: ModalStack = [];
/** The last opening of each kept-alive modal ever opened: they stay mounted while closed. */
let keptAlive: readonly OpenModal[] = [];
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
  const entry = { key, name, props };
  if (isKeptAlive(name)) keptAlive = [...keptAlive.filter((open) => open.name !== name), entry];
  publish(openOnStack(stack, entry));
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


/** The kept-alive modals opened so far, each with the props of its last opening. */
export function useKeptAliveModals(): readonly OpenModal[] {
  return useSyncExternalStore(subscribe, () => keptAlive);
}

/** Whether the named modal is open now (outside React). */
export function isModalOpen(name: ModalName): boolean {
  return stack.some((open) => open.name === name);
}

/** The open modals now, most recent first (outside React). */
export function getModalStack(): ModalStack {
  return stack;
}
