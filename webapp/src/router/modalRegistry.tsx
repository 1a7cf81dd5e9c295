import { AboutModal } from '@/components/AboutModal';
import { PersonalizationModal } from '@/components/PersonalizationModal';
import type { ModalRegistry } from '@/components/modalHost';
import { ChangePasswordModal } from '@/components/settings/ChangePasswordModal';
import { DeleteUserModal } from '@/components/settings/DeleteUserModal';
import { InviteUsersModal } from '@/components/settings/InviteUsersModal';
import { VersionsDrawer } from '@/components/versions/VersionsDrawer';
import { CredentialsListModal, EditCredentialModal, SelectCredentialModal } from '@/views/credentials';
import { HostedExecutions } from '@/views/executions/HostedExecutions';
import { ActivationModal } from '@/views/nodeView/header/ActivationSwitch';
import { HostedDuplicate, HostedWorkflowOpen, HostedWorkflowSettings } from '@/views/nodeView/dialogs/hosted';
import { ContactPromptModal, ValueSurveyDrawer } from '@/views/prompts';
import { TagsManagerModal } from '@/views/tags';

/** The named modals and the features that draw them (spec 002 §2). */
export const MODALS: ModalRegistry = {
  about: AboutModal,
  personalization: PersonalizationModal,
  activation: ActivationModal,
  changePassword: ChangePasswordModal,
  inviteUser: InviteUsersModal,
  deleteUser: DeleteUserModal,
  editCredential: EditCredentialModal,
  credentialsList: CredentialsListModal,
  selectCredential: SelectCredentialModal,
  tagsManager: TagsManagerModal,
  versions: VersionsDrawer,
  contactPrompt: ContactPromptModal,
  valueSurvey: ValueSurveyDrawer,
  workflowOpen: HostedWorkflowOpen,
  duplicate: HostedDuplicate,
  settings: HostedWorkflowSettings,
  executions: HostedExecutions,
};
