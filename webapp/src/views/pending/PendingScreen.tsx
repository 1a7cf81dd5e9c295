import { Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The routes whose screens are not built yet. */
export type PendingScreenName = 'WorkflowTemplate' | 'TemplatesSearchView' | 'TemplatesWorkflowView' | 'TemplatesCollectionView';

/**
 * Stands in for a screen that is not built yet: its name and nothing else. Each screen replaces
 * its entry in router/screens.tsx when it is built; this folder then shrinks to nothing.
 */
export function PendingScreen({ name }: { name: PendingScreenName }) {
  const { t } = useTranslation();
  return (
    <Container size="sm" py={64} data-test-id="pending-screen" data-screen={name}>
      <Stack gap="xs">
        <Title order={1}>{t(`screen.${name}`)}</Title>
        <Text c="dimmed">{t('pending.notice')}</Text>
      </Stack>
    </Container>
  );
}
