import { ResponseError } from '@/api/fetcher';
import { errorToastText } from '@/core/toastText';
import { showToast } from './toast';

/**
 * An error toast whose title says what failed and whose message is the server's (cut at 500
 * characters); an API error's hint, status and the rest of a long message fold away under Details.
 */
export function showErrorToast(title: string, error: unknown): void {
  if (error instanceof ResponseError) {
    const { message, details } = errorToastText(error);
    showToast({ type: 'error', title, message, details });
    return;
  }
  showToast({ type: 'error', title, message: error instanceof Error ? error.message : String(error) });
}
