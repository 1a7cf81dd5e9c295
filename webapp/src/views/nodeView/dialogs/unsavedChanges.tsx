import { modals } from '@mantine/modals';
import { UnsavedBody, type UnsavedChoice } from './UnsavedBody';

export type { UnsavedChoice };

/** Leaving with unsaved changes (spec 001 §2): save, discard or cancel. */
export function unsavedChangesModal(texts: { title: string; message: string; save: string; discard: string; cancel: string }): Promise<UnsavedChoice> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: UnsavedChoice) => {
      if (settled) return;
      settled = true;
      modals.close(id);
      resolve(value);
    };
    const id = modals.open({
      title: texts.title,
      centered: true,
      onClose: () => settle('cancel'),
      children: <UnsavedBody texts={texts} onChoose={settle} />,
    });
  });
}
