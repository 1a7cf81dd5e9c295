/** Workflow operations the main sidebar's Workflows menu offers (spec 001 §2). */
export type WorkflowCommand =
  | 'new'
  | 'open'
  | 'save'
  | 'duplicate'
  | 'delete'
  | 'download'
  | 'importUrl'
  | 'importFile'
  | 'settings';

export interface CommandAvailability {
  /** An editable workflow page is open. */
  onWorkflowPage: boolean;
  /** The open workflow is saved (has an id). */
  hasWorkflow: boolean;
}

const NEEDS_SAVED: ReadonlySet<WorkflowCommand> = new Set(['duplicate', 'delete', 'settings']);
const NEEDS_PAGE: ReadonlySet<WorkflowCommand> = new Set(['save', 'download', 'importUrl', 'importFile', ...NEEDS_SAVED]);

/** Off the workflow page most operations are disabled; duplicate, delete and settings also need a saved workflow. */
export function isCommandEnabled(command: WorkflowCommand, availability: CommandAvailability): boolean {
  if (NEEDS_PAGE.has(command) && !availability.onWorkflowPage) return false;
  return !(NEEDS_SAVED.has(command) && !availability.hasWorkflow);
}

type Handler = (command: WorkflowCommand) => void;

/**
 * Connects the sidebar menu to the open editor: the editor registers a handler and publishes what
 * is available; without an editor only new and open remain, handled by the fallback.
 */
export class CommandBus {
  private handler: Handler | null = null;
  private availability: CommandAvailability = { onWorkflowPage: false, hasWorkflow: false };
  private readonly listeners = new Set<() => void>();

  register(handler: Handler, availability: CommandAvailability): () => void {
    this.handler = handler;
    this.setAvailability(availability);
    return () => {
      if (this.handler !== handler) return;
      this.handler = null;
      this.setAvailability({ onWorkflowPage: false, hasWorkflow: false });
    };
  }

  setAvailability(availability: CommandAvailability): void {
    if (availability.onWorkflowPage === this.availability.onWorkflowPage && availability.hasWorkflow === this.availability.hasWorkflow) return;
    this.availability = availability;
    for (const listener of [...this.listeners]) listener();
  }

  getAvailability = (): CommandAvailability => this.availability;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Runs the command in the open editor; returns false when no editor took it. */
  dispatch(command: WorkflowCommand): boolean {
    if (!this.handler || !isCommandEnabled(command, this.availability)) return false;
    this.handler(command);
    return true;
  }
}

/** The page's bus between the sidebar and the editor. */
export const workflowCommands = new CommandBus();

/** The sidebar's updates badge: counts above 99 read 99+ (kept here for older imports). */
export { formatUpdateCount } from '@/core/versions/versions';
