export { ModalHost, type ModalRegistry } from './ModalHost';
export { closeAllModals, closeModal, openModal, useModalStack, type EditCredentialProps, type ModalPropsByName } from './modalStore';
