import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Logo } from './Logo';

interface StartupScreenProps {
  /** False once startup failed: the error toast explains, the spinner would only mislead. */
  loading: boolean;
}

/** Shown until settings and the current user are known. */
export function StartupScreen({ loading }: StartupScreenProps) {
  const { t } = useTranslation();
  return (
    <Center h="100vh" bg="gray.0">
      <Stack align="center" gap="md">
        <Logo size={48} />
        <Text fw={600} size="lg">
          {t('app.name')}
        </Text>
        {loading ? <Loader size="sm" type="dots" aria-label={t('app.loading')} /> : null}
      </Stack>
    </Center>
  );
}
