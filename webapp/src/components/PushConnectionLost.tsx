import { Badge, Tooltip } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Marks a lost push connection; the tooltip says why and that it reconnects by itself. */
export function PushConnectionLost() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('pushConnectionTracker.cannotConnectToServer')} multiline w={280} withArrow position="bottom-end" events={{ hover: true, focus: true, touch: true }}>
      <Badge
        data-test-id="push-connection-lost"
        color="red"
        variant="light"
        size="lg"
        radius="sm"
        tt="none"
        leftSection={<IconPlugConnectedX size={14} />}
        tabIndex={0}
      >
        {t('pushConnectionTracker.connectionLost')}
      </Badge>
    </Tooltip>
  );
}
