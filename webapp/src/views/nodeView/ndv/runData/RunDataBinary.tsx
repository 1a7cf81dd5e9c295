import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconEye } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { binaryEntriesOf, binaryFileSize, type BinaryEntry } from '@/core/runData/binary';
import type { RunItem } from '@/core/runData/runs';
import { showToast } from '@/components/toast';
import { downloadBinary } from './binaryDownload';
import { BinaryDataViewer } from './BinaryDataViewer';
import classes from './runData.module.css';

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
        {label}:
      </Text>
      <Text size="xs" truncate title={value}>
        {value}
      </Text>
    </Group>
  );
}

function EntryCard({ name, entry, onView }: { name: string; entry: BinaryEntry; onView: () => void }) {
  const { t } = useTranslation();
  const download = () => {
    downloadBinary(entry, name).catch(() => showToast({ type: 'error', message: t('runData.binary.loadError') }));
  };
  return (
    <Card withBorder padding="sm" radius="sm" data-test-id="ndv-binary-entry">
      <Stack gap={4}>
        <Text fw={600} size="sm" truncate title={name}>
          {name}
        </Text>
        <Field label={t('runData.fileName')} value={entry.fileName} />
        <Field label={t('runData.directory')} value={entry.directory} />
        <Field label={t('runData.fileExtension')} value={entry.fileExtension} />
        <Field label={t('runData.mimeType')} value={entry.mimeType} />
        <Field label={t('runData.fileSize')} value={binaryFileSize(entry)} />
        <Group gap="xs" mt={6}>
          <Button size="compact-xs" variant="light" leftSection={<IconEye size={12} />} onClick={onView} data-test-id="ndv-view-binary-data">
            {t('runData.showBinaryData')}
          </Button>
          <Button size="compact-xs" variant="default" leftSection={<IconDownload size={12} />} onClick={download}>
            {t('runData.downloadBinaryData')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export interface RunDataBinaryProps {
  items: readonly RunItem[];
  /** Index of the first shown item among all items of the output. */
  offset: number;
}

/** The binary entries of a page of items as cards, per item; "View" opens the data viewer. */
export function RunDataBinary({ items, offset }: RunDataBinaryProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<{ items: readonly RunItem[]; index: number; key: string } | null>(null);
  const rows = useMemo(() => items.map((item, index) => ({ index, entries: binaryEntriesOf(item) })).filter((row) => row.entries.length > 0), [items]);
  const opened = open && open.items === items ? rows.find((row) => row.index === open.index)?.entries.find(([key]) => key === open.key) : undefined;
  if (opened) return <BinaryDataViewer entry={opened[1]} onBack={() => setOpen(null)} />;
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('runData.noBinaryDataFound')}
      </Text>
    );
  }
  return (
    <div className={classes.binaryList} data-test-id="ndv-binary-data">
      <Stack gap="md">
        {rows.map((row) => (
          <Stack key={row.index} gap={6}>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase">
              {t('runData.itemIndex', { index: offset + row.index + 1 })}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {row.entries.map(([key, entry]) => (
                <EntryCard key={key} name={key} entry={entry} onView={() => setOpen({ items, index: row.index, key })} />
              ))}
            </SimpleGrid>
          </Stack>
        ))}
      </Stack>
    </div>
  );
}
