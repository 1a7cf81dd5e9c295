export { CredentialsListModal } from './CredentialsListModal';
export { EditCredentialModal } from './EditCredentialModal';
export { SelectCredentialModal } from './SelectCredentialModal';
