import { useContext } from 'react';
import { Drawer, Modal, type DrawerProps, type ModalProps } from '@mantine/core';
import { HostedModalContext } from './hostedContext';

/**
 * A Modal of the modal host: only the one on top answers Esc and traps focus, so Esc in a dialog
 * opened from another closes that dialog alone (each Mantine modal listens on the window).
 */
export function StackedModal(props: ModalProps) {
  const { onTop } = useContext(HostedModalContext);
  return <Modal {...props} closeOnEscape={(props.closeOnEscape ?? true) && onTop} trapFocus={(props.trapFocus ?? true) && onTop} />;
}

/** A Drawer of the modal host, with the same rule as StackedModal. */
export function StackedDrawer(props: DrawerProps) {
  const { onTop } = useContext(HostedModalContext);
  return <Drawer {...props} closeOnEscape={(props.closeOnEscape ?? true) && onTop} trapFocus={(props.trapFocus ?? true) && onTop} />;
}
