import { showToast } from './toast';

/** An error toast whose title says what failed and whose message is the server's. */
export function showErrorToast(title: string, error: unknown): void {
  showToast({ type: 'error', title, message: error instanceof Error ? error.message : String(error) });
}
