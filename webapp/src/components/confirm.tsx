import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirm: string;
  cancel: string;
  danger?: boolean;
}

/** A yes/no dialog; resolves true on confirm, false on cancel or close. */
export function confirmModal({ title, message, confirm, cancel, danger }: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    modals.openConfirmModal({
      title,
      centered: true,
      // Long workflow or node names break anywhere instead of running out of the dialog.
      children: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-test-id="confirm-message">
          {message}
        </Text>
      ),
      labels: { confirm, cancel },
      confirmProps: { variant: 'filled', color: danger ? 'red.7' : undefined, 'data-test-id': 'confirm-button' } as never,
      cancelProps: { 'data-test-id': 'cancel-button' } as never,
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
