import { Collapse, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A toast's collapsible details, closed at first. */
export function ToastDetails({ message, details }: { message: ReactNode; details: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={4}>
      <div>{message}</div>
      <UnstyledButton onClick={() => setOpen((value) => !value)} aria-expanded={open} data-test-id="toast-details-toggle" fz="xs" c="dimmed">
        {open ? <IconChevronDown size={12} /> : <IconChevronRight size={12} />} {t('toast.details')}
      </UnstyledButton>
      <Collapse expanded={open}>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 200, overflowY: 'auto' }} data-test-id="toast-details">
          {details}
        </Text>
      </Collapse>
    </Stack>
  );
}

