import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';

/** Area catalogues (src/i18n/en/*.json) merged over the main one; a key lives in one file only. */
const areas = import.meta.glob<Record<string, string>>('./en/*.json', { eager: true, import: 'default' });
const catalogue: Record<string, string> = Object.assign({}, en, ...Object.values(areas));

export const DEFAULT_LOCALE = 'en';

/**
 * The app's i18next instance. Keys are flat dotted strings as in n8n's catalogue (`keySeparator`
 * off), so `startupError` and `startupError.message` can both exist.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: catalogue } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

/** The locale sent as Accept-Language on every REST call. */
export function currentLocale(): string {
  return i18n.language || DEFAULT_LOCALE;
}
