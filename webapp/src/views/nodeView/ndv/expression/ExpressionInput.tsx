import { forwardRef, useRef, type UIEvent } from 'react';
import { HighlightedTemplate, type SegmentStates } from './HighlightedTemplate';
import classes from './expression.module.css';

interface ExpressionInputProps {
  /** The template: the expression without its leading `=`. */
  value: string;
  onChange: (value: string) => void;
  states: SegmentStates;
  readOnly: boolean;
  label: string;
}

/**
 * A monospace text area over a copy of its text in which `{{ }}` segments are highlighted
 * (green when they resolve, red when they fail); the copy scrolls with the text area.
 */
export const ExpressionInput = forwardRef<HTMLTextAreaElement, ExpressionInputProps>(function ExpressionInput({ value, onChange, states, readOnly, label }, ref) {
  const highlight = useRef<HTMLDivElement>(null);
  const onScroll = (event: UIEvent<HTMLTextAreaElement>) => {
    if (highlight.current) highlight.current.scrollTop = event.currentTarget.scrollTop;
  };
  return (
    <div className={classes.editor}>
      <div ref={highlight} className={`${classes.highlight} ${classes.code}`} aria-hidden>
        <HighlightedTemplate template={value} states={states} />
        {/* A trailing newline needs a line after it to keep both layers the same height. */}
        {'\n'}
      </div>
      <textarea
        ref={ref}
        className={`${classes.textarea} ${classes.code}`}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onScroll={onScroll}
        readOnly={readOnly}
        spellCheck={false}
        autoFocus
        data-autofocus
        aria-label={label}
        data-test-id="expression-modal-input"
      />
    </div>
  );
});
