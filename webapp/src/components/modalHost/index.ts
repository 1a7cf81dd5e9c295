export { ModalHost, type ModalRegistry } from './ModalHost';
export { closeAllModals, closeModal, getModalStack, openModal, useModalStack, type EditCredentialProps, type ModalPropsByName } from './modalStore';
