import { confirmModal } from '@/components/confirm';
import { i18n } from '@/i18n';

/** Asks before a credential is deleted; true when confirmed. */
export function confirmDelete(name: string): Promise<boolean> {
  return confirmModal({
    title: i18n.t('credentialEdit.delete.title'),
    message: i18n.t('credentialEdit.delete.message', { name }),
    confirm: i18n.t('credentialEdit.delete.confirm'),
    cancel: i18n.t('credentialEdit.delete.cancel'),
    danger: true,
  });
}
