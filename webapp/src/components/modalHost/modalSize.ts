import type { ModalProps } from '@mantine/core';
import { modalSize, type ModalName } from '@/core/modals/modalStack';

/** Mantine Modal props that give a named dialog its size from the spec table (spec 002 §2). */
export function dialogSizeProps(name: ModalName): Pick<ModalProps, 'size' | 'styles'> {
  const size = modalSize(name);
  if (size.kind !== 'dialog') throw new Error(`${name} is a drawer, not a dialog`);
  return {
    size: size.width,
    styles: {
      content: { minWidth: size.minWidth, maxWidth: size.maxWidth, minHeight: size.minHeight, height: size.height },
    },
  };
}
