import { Box, Code, Grid, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyCodeEditor, type CodeEditorHandle, type SegmentStates } from '@/components/codeEditor';
import { insertVariable } from '@/core/expressions/insert';
import { templateOf } from '@/core/expressions/template';
import { useNdv, type ExpressionEditorRequest } from '@/views/nodeView/ndv/NdvContext';
import { ExpressionResult } from './ExpressionResult';
import { useSegmentPreview } from './usePreviews';
import { VariableSelector } from './VariableSelector';

/**
 * The expression editor dialog (spec 001 §2): a variable selector on the left, the expression and
 * its live result (500 ms after the last keystroke) on the right. Closing it hands a changed
 * expression to the request's onChange.
 */
export function ExpressionEditorModal({ request, onClose }: { request: ExpressionEditorRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      size="80%"
      title={t('expressionEdit.editExpression')}
      centered
      closeButtonProps={{ 'aria-label': t('expressionEdit.close') }}
      attributes={{ content: { 'data-test-id': 'expression-editor-modal' } }}
    >
      {request ? <ExpressionEditor key={`${request.path}\u0000${request.value}`} request={request} /> : null}
    </Modal>
  );
}

function ExpressionEditor({ request }: { request: ExpressionEditorRequest }) {
  const { t } = useTranslation();
  const { nodeName, readOnly, completionData } = useNdv();
  const [draft, setDraft] = useState(() => templateOf(request.value));
  const editor = useRef<CodeEditorHandle>(null);
  const cursor = useRef<number | null>(null);
  const expression = `=${draft}`;

  // The dialog hands its value over when it closes, however it closes.
  const latest = useRef({ expression, request, readOnly });
  useLayoutEffect(() => {
    latest.current = { expression, request, readOnly };
  });
  useLayoutEffect(
    () => () => {
      const { expression: last, request: req, readOnly: locked } = latest.current;
      if (!locked && last !== req.value) req.onChange(last);
    },
    [],
  );

  // After an insertion from the variable selector the cursor goes after the inserted text.
  useEffect(() => {
    if (cursor.current === null || !editor.current) return;
    editor.current.focusAt(cursor.current);
    cursor.current = null;
  }, [draft]);

  const preview = useSegmentPreview(expression);
  const states: SegmentStates = useMemo(() => {
    const out = new Map<string, 'valid' | 'invalid'>();
    preview?.segments.forEach(({ segment }, i) => {
      const result = preview.results[i];
      if (segment.kind === 'code' && result) out.set(segment.code, result.ok ? 'valid' : 'invalid');
    });
    return out;
  }, [preview]);

  const select = (variable: string) => {
    if (readOnly) return;
    const range = editor.current?.selection() ?? { from: draft.length, to: draft.length };
    const inserted = insertVariable(draft, range.from, range.to, variable);
    cursor.current = inserted.cursor;
    setDraft(inserted.value);
  };

  // Keys typed here are the dialog's, not the canvas's or the node view's shortcuts.
  const keepKeys = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') event.stopPropagation();
  };

  return (
    <Grid gap="lg" onKeyDown={keepKeys}>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <Stack gap="xs">
          <Title order={5}>{t('expressionEdit.variableSelector')}</Title>
          <VariableSelector nodeName={nodeName} path={request.path} onSelect={select} disabled={readOnly} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8 }}>
        <Stack gap="md">
          <Box>
            <Group justify="space-between" mb={6} wrap="nowrap">
              <Text fw={600} size="sm">
                {t('expressionEdit.expression')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('expressionEdit.anythingInside')} <Code>{'{{ }}'}</Code> {t('expressionEdit.isJavaScript')}
              </Text>
            </Group>
            <LazyCodeEditor
              ref={editor}
              value={draft}
              onChange={setDraft}
              mode="expression"
              segmentStates={states}
              completions={completionData}
              readOnly={readOnly}
              autoFocus
              minHeight="180px"
              maxHeight="40vh"
              label={t('expressionEdit.expression')}
              testId="expression-modal-input"
            />
            {readOnly ? (
              <Text size="xs" c="dimmed" mt={4}>
                {t('expressionEdit.readOnly')}
              </Text>
            ) : null}
          </Box>
          <Box>
            <Text fw={600} size="sm" mb={6}>
              {t('expressionEdit.result')}
            </Text>
            <ExpressionResult preview={preview} stale={preview !== null && preview.expression !== expression} />
          </Box>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
