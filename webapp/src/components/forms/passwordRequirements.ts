import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@/core/accountValidation';

/** The default password rules, shown under every new-password field. */
export function usePasswordRequirements(): string {
  const { t } = useTranslation();
  return t('auth.passwordRequirements', { min: PASSWORD_MIN_LENGTH });
}
