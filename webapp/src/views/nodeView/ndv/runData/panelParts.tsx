import { Loader, Text } from '@mantine/core';
import classes from './runData.module.css';

/** The uppercase pane title ("INPUT", "OUTPUT"). */
export function PaneTitle({ children }: { children: string }) {
  return <span className={classes.title}>{children}</span>;
}

/** A spinner with a message, for a node or its parents executing. */
export function Executing({ message }: { message: string }) {
  return (
    <>
      <Loader size="sm" />
      <Text size="sm" c="dimmed" data-test-id="ndv-executing">
        {message}
      </Text>
    </>
  );
}
