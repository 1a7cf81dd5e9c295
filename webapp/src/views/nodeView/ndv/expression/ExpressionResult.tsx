import { useTranslation } from 'react-i18next';
import { segmentResultText } from '@/core/expressions/result';
import { resultLabel } from './resultText';
import classes from './expression.module.css';
import type { SegmentPreview } from './usePreviews';

/**
 * The expression with each `{{ }}` segment replaced by its value, as n8n 0.186's result box:
 * `[not found]` for undefined, `[invalid (…)]` for an error, coloured like the input.
 */
export function ExpressionResult({ preview, stale }: { preview: SegmentPreview | null; stale: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`${classes.output} ${classes.code}`} data-stale={stale} data-test-id="expression-modal-output" aria-live="polite">
      {preview
        ? preview.segments.map(({ segment }, i) => {
            const result = preview.results[i];
            if (segment.kind === 'text' || !result) return <span key={segment.start}>{segment.kind === 'text' ? segment.text : ''}</span>;
            return (
              <span key={segment.start} className={classes.segment} data-state={result.ok ? 'valid' : 'invalid'}>
                {resultLabel(t, segmentResultText(result))}
              </span>
            );
          })
        : null}
    </div>
  );
}
