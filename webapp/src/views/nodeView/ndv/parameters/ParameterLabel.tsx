import { Group, Tooltip } from '@mantine/core';
import { IconHelpCircle } from '@tabler/icons-react';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import { HtmlText } from './HtmlText';
import classes from './parameters.module.css';

/** A parameter's display name, a required mark and its description as a hint. */
export function ParameterLabel({ property, htmlFor }: { property: NodeProperty; htmlFor?: string }) {
  const description = typeof property.description === 'string' && property.description !== '' ? property.description : undefined;
  return (
    <Group gap={4} wrap="nowrap" miw={0}>
      <label className={classes.label} htmlFor={htmlFor} title={property.displayName} data-test-id="parameter-label">
        {property.displayName}
        {property.required ? <span className={classes.required}>*</span> : null}
      </label>
      {description ? (
        <Tooltip label={<HtmlText html={description} />} multiline w={280} withArrow openDelay={200} events={{ hover: true, focus: true, touch: true }}>
          <IconHelpCircle size={14} className={classes.hint} tabIndex={0} aria-label={description.replace(/<[^>]*>/g, '')} data-test-id="parameter-description" />
        </Tooltip>
      ) : null}
    </Group>
  );
}
