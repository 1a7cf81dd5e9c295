import { showToast } from '@/components/toast';
import { i18n } from '@/i18n';

/** Copies text to the clipboard and confirms with a success toast titled `title`. */
export async function copyText(text: string, title: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ type: 'success', title, message: '' });
  } catch {
    showToast({ type: 'error', title: i18n.t('runData.copyFailed'), message: '' });
  }
}
