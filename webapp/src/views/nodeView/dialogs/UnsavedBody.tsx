import { Button, Group, Stack, Text } from '@mantine/core';

export type UnsavedChoice = 'save' | 'discard' | 'cancel';

export function UnsavedBody({ texts, onChoose }: { texts: { message: string; save: string; discard: string; cancel: string }; onChoose: (c: UnsavedChoice) => void }) {
  return (
    <Stack data-test-id="unsaved-changes-modal">
      <Text size="sm">{texts.message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => onChoose('cancel')} data-test-id="unsaved-cancel">
          {texts.cancel}
        </Button>
        <Button variant="light" color="red" onClick={() => onChoose('discard')} data-test-id="unsaved-discard">
          {texts.discard}
        </Button>
        <Button onClick={() => onChoose('save')} data-test-id="unsaved-save">
          {texts.save}
        </Button>
      </Group>
    </Stack>
  );
}
