import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import { HtmlText } from './HtmlText';
import classes from './parameters.module.css';

/** A notice parameter: its display name as an info callout (simple HTML links allowed). */
export function NoticeParameter({ property }: { property: NodeProperty }) {
  return (
    <Alert variant="light" color="yellow" radius="sm" p="xs" icon={<IconInfoCircle size={16} />} className={classes.notice} data-test-id="parameter-notice">
      <HtmlText html={property.displayName} />
    </Alert>
  );
}
