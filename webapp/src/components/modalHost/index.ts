export { ModalHost, type HostedModalProps, type ModalRegistry } from './ModalHost';
export { HostedModalContext } from './hostedContext';
export { StackedDrawer, StackedModal } from './stacked';
export {
  closeAllModals,
  closeModal,
  getModalStack,
  isModalOpen,
  openModal,
  useModalStack,
  type ContactPromptProps,
  type PersonalizationProps,
  type DeleteUserProps,
  type DuplicateProps,
  type WorkflowOpenProps,
  type WorkflowSettingsProps,
  type InviteUserProps,
  type EditCredentialProps,
  type ModalPropsByName,
} from './modalStore';
