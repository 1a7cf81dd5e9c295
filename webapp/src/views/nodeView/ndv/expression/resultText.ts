import type { TFunction } from 'i18next';
import type { ResultText } from '@/core/expressions/result';

/** A result as the bracketed text n8n shows for it. */
export function resultLabel(t: TFunction, text: ResultText): string {
  switch (text.kind) {
    case 'value':
      return text.text;
    case 'empty':
      return t('expressionEditor.empty');
    case 'notFound':
      return t('expressionEditor.notFound');
    case 'invalid':
      return t('expressionEditor.invalid', { message: text.message });
  }
}
