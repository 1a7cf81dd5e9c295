import { useState } from 'react';
import { showErrorToast } from '@/components/errorToast';

export interface SubmitOptions {
  /** What a failure shows: the title of an error toast, or a handler of its own. */
  onError: string | ((error: unknown) => void);
  /**
   * Whether the form is idle again after a success. By default it stays busy, because the form
   * closes or navigates away; a form that stays on screen sets this.
   */
  idleAfterSuccess?: boolean;
}

export interface Submit<A extends unknown[]> {
  /** True while the action runs (the submit button shows it). */
  busy: boolean;
  submit: (...args: A) => Promise<void>;
}

/**
 * The sending state every form shares: busy while the action runs, idle and reported on failure.
 * An action that answers `false` did not go through (the user cancelled a confirmation), so the
 * form is idle again.
 */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<unknown>, { onError, idleAfterSuccess = false }: SubmitOptions): Submit<A> {
  const [busy, setBusy] = useState(false);
  const submit = async (...args: A) => {
    setBusy(true);
    try {
      const result = await action(...args);
      if (idleAfterSuccess || result === false) setBusy(false);
    } catch (error) {
      setBusy(false);
      if (typeof onError === 'string') showErrorToast(onError, error);
      else onError(error);
    }
  };
  return { busy, submit };
}
