import { Button, Menu } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

/** A full-width add button; with more than one choice it opens a menu of them. */
export function AddMenu({ label, choices, onPick, testId }: { label: string; choices: ReadonlyArray<{ value: string; label: string }>; onPick: (value: string) => void; testId: string }) {
  const [only] = choices;
  if (choices.length === 0 || !only) return null;
  const button = (
    <Button variant="default" size="xs" fullWidth leftSection={<IconPlus size={14} />} onClick={choices.length === 1 ? () => onPick(only.value) : undefined} data-test-id={testId}>
      {label}
    </Button>
  );
  if (choices.length === 1) return button;
  return (
    <Menu position="bottom-start" withinPortal shadow="md" width="target">
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        {choices.map((choice) => (
          <Menu.Item key={choice.value} onClick={() => onPick(choice.value)} data-test-id={`${testId}-option`}>
            {choice.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
