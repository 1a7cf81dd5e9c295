import { Anchor, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/settings';
import { useVersionInfo } from '@/api/versions';
import { criticalNotice } from '@/core/versions/versions';
import { openModal } from '@/components/modalHost';
import { hideToast, showToast } from '@/components/toast';

const NOTICE_ID = 'critical-update';

/**
 * The critical-update notice (spec 002 §8): a warning toast when the running version has a
 * security issue and newer versions exist, naming the fix version when known. It stays until
 * closed or its 'More info' is clicked, which opens the updates drawer. Renders nothing itself.
 */
export function CriticalUpdateNotice() {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const info = useVersionInfo(settings);
  const notice = criticalNotice(info);
  const fixVersion = notice?.fixVersion;
  const due = notice !== null;
  useEffect(() => {
    if (!due) return;
    showToast({
      id: NOTICE_ID,
      type: 'warning',
      title: t('versions.critical.title'),
      autoClose: false,
      message: (
        <Text size="sm" component="span">
          {fixVersion ? t('versions.critical.updateTo', { version: fixVersion }) : t('versions.critical.updateLatest')}{' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              hideToast(NOTICE_ID);
              openModal('versions', {});
            }}
            data-test-id="critical-update-more-info"
          >
            {t('versions.critical.moreInfo')}
          </Anchor>
        </Text>
      ),
    });
  }, [due, fixVersion, t]);
  return null;
}
