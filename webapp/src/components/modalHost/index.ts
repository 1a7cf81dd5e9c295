export { ModalHost, type HostedModalProps, type ModalRegistry } from './ModalHost';
export {
  closeAllModals,
  closeModal,
  getModalStack,
  isModalOpen,
  openModal,
  useModalStack,
  type ContactPromptProps,
  type DeleteUserProps,
  type DuplicateProps,
  type WorkflowOpenProps,
  type WorkflowSettingsProps,
  type InviteUserProps,
  type EditCredentialProps,
  type ModalPropsByName,
} from './modalStore';
