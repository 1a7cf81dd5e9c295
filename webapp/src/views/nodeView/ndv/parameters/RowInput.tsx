import { TextInput } from '@mantine/core';
import { valueText } from '@/core/parameters/filterConditions';
import type { JsonValue } from '@/core/workflow/types';

/** One small text field of a condition or assignment row, labelled by its placeholder. */
export function RowInput({
  label,
  value,
  className,
  disabled,
  onText,
  testId,
}: {
  label: string;
  value: JsonValue | undefined;
  className: string | undefined;
  disabled: boolean;
  onText: (text: string) => void;
  testId: string;
}) {
  return (
    <TextInput
      size="xs"
      className={className}
      placeholder={label}
      aria-label={label}
      value={valueText(value)}
      disabled={disabled}
      onChange={(event) => onText(event.currentTarget.value)}
      data-test-id={testId}
    />
  );
}
