import { ActionIcon, Button, Group, Popover, Stack, TextInput } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JsonValue } from '@/core/workflow/types';
import { localIsoString } from './editorValues';

const DAY = 24 * 60 * 60 * 1000;

/** The stored value as the native picker's `YYYY-MM-DDTHH:mm:ss`, or empty. */
function pickerValue(value: JsonValue | undefined): string {
  if (typeof value !== 'string' || value === '') return '';
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : localIsoString(date);
}

/** A date and time with the shortcuts Today, Yesterday and A Week Ago. */
export function DateTimeParameter({ value, id, disabled, onValue }: { value: JsonValue | undefined; id: string; disabled: boolean; onValue: (value: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const pick = (offset: number) => {
    onValue(localIsoString(new Date(Date.now() - offset)));
    setOpen(false);
  };
  return (
    <Group gap={4} wrap="nowrap">
      <TextInput
        id={id}
        size="sm"
        type="datetime-local"
        step={1}
        style={{ flex: 1 }}
        value={pickerValue(value)}
        placeholder={t('parameters.selectDateAndTime')}
        disabled={disabled}
        onChange={(event) => {
          const next = event.currentTarget.value;
          onValue(next.length === 16 ? `${next}:00` : next);
        }}
      />
      <Popover opened={open} onChange={setOpen} position="bottom-end" withinPortal shadow="md">
        <Popover.Target>
          <ActionIcon variant="default" size="input-sm" disabled={disabled} onClick={() => setOpen((current) => !current)} aria-label={t('parameters.selectDateAndTime')} data-test-id="parameter-date-shortcuts">
            <IconCalendar size={16} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={4}>
          <Stack gap={2}>
            <Button variant="subtle" size="xs" justify="flex-start" onClick={() => pick(0)}>
              {t('parameters.today')}
            </Button>
            <Button variant="subtle" size="xs" justify="flex-start" onClick={() => pick(DAY)}>
              {t('parameters.yesterday')}
            </Button>
            <Button variant="subtle" size="xs" justify="flex-start" onClick={() => pick(7 * DAY)}>
              {t('parameters.aWeekAgo')}
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
