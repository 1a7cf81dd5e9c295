import { Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { inlineResultText } from '@/core/expressions/result';
import { templateOf } from '@/core/expressions/template';
import { HighlightedTemplate } from './HighlightedTemplate';
import classes from './expression.module.css';
import { useExpressionPreview } from './usePreviews';

/**
 * A parameter in expression mode as the parameter list shows it: the expression and, under it,
 * its value for the open node (`[empty]`, `[ERROR: …]` as n8n 0.186 words them); clicking or
 * Enter opens the expression editor.
 */
export function InlineExpression({ value, onOpen, path }: { value: string; onOpen: () => void; path: string }) {
  const { t } = useTranslation();
  const result = useExpressionPreview(value);
  const text = result ? inlineResultText(result) : null;
  let preview = t('expressionEditor.resolving');
  if (text?.kind === 'invalid') preview = t('expressionEditor.error', { message: text.message });
  else if (text?.kind === 'value') preview = text.text;
  else if (text) preview = t('expressionEditor.empty');
  return (
    <UnstyledButton onClick={onOpen} className={classes.inline} data-test-id="inline-expression" data-parameter-path={path} aria-label={t('expressionEditor.open')}>
      <Text component="span" className={`${classes.code} ${classes.inlineExpression}`}>
        <HighlightedTemplate template={templateOf(value)} />
      </Text>
      <Text component="span" size="xs" className={classes.inlinePreview} data-state={text?.kind ?? 'pending'} data-test-id="inline-expression-preview">
        {preview}
      </Text>
    </UnstyledButton>
  );
}
