import { closeModal, type DuplicateProps, type HostedModalProps, type WorkflowOpenProps, type WorkflowSettingsProps } from '@/components/modalHost';
import { DuplicateWorkflowModal } from './DuplicateWorkflowModal';
import { WorkflowOpenModal } from './WorkflowOpenModal';
import { WorkflowSettingsModal } from './WorkflowSettingsModal';

// The editor's named dialogs as the modal host draws them: each closes itself through the host.

export function HostedWorkflowOpen({ onOpen }: WorkflowOpenProps & HostedModalProps) {
  return <WorkflowOpenModal onOpen={onOpen} onClose={() => closeModal('workflowOpen', 'cancel')} />;
}

export function HostedDuplicate({ name, body }: DuplicateProps & HostedModalProps) {
  return <DuplicateWorkflowModal name={name} body={body} onClose={() => closeModal('duplicate', 'close')} />;
}

export function HostedWorkflowSettings({ workflowId, workflowName, settings, onSave }: WorkflowSettingsProps & HostedModalProps) {
  return <WorkflowSettingsModal workflowId={workflowId} workflowName={workflowName} settings={settings} onSave={onSave} onClose={() => closeModal('settings', 'close')} />;
}
