import { Text, UnstyledButton } from '@mantine/core';

/**
 * A parameter in expression mode as the parameter list shows it: the expression and, once
 * resolved, its value for the open node; clicking opens the expression editor.
 */
export function InlineExpression({ value, onOpen, path }: { value: string; onOpen: () => void; path: string }) {
  return (
    <UnstyledButton onClick={onOpen} data-test-id="inline-expression" data-parameter-path={path}>
      <Text ff="monospace" size="sm">
        {value.replace(/^=/, '')}
      </Text>
    </UnstyledButton>
  );
}
