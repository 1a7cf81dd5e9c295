export { ModalHost, type HostedModalProps, type ModalRegistry } from './ModalHost';
export {
  closeAllModals,
  closeModal,
  getModalStack,
  isModalOpen,
  openModal,
  useModalStack,
  type ContactPromptProps,
  type EditCredentialProps,
  type ModalPropsByName,
} from './modalStore';
