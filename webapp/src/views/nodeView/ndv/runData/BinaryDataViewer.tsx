import { Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBinaryData } from '@/api/binaryData';
import { base64ToBytes, binarySource, binaryViewKind, decodeBinaryText, type BinaryEntry, type BinaryViewKind } from '@/core/runData/binary';
import classes from './runData.module.css';

/** A PDF in a frame; the bytes go through a blob URL, which browsers display more reliably than a data URL. */
function PdfFrame({ base64, title }: { base64: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(new Blob([base64ToBytes(base64)], { type: 'application/pdf' }));
    element.src = url;
    return () => URL.revokeObjectURL(url);
  }, [base64]);
  return <iframe ref={frame} title={title} className={classes.binaryFrame} data-test-id="binary-data-pdf" />;
}

function TextContent({ base64, kind }: { base64: string; kind: BinaryViewKind }) {
  const { t } = useTranslation();
  const text = useMemo(() => {
    try {
      return decodeBinaryText(base64, kind);
    } catch {
      return null;
    }
  }, [base64, kind]);
  if (text === null) return <Text c="dimmed">{t('runData.binary.noDataFound')}</Text>;
  return (
    <pre className={classes.binaryText} data-test-id="binary-data-text">
      {text}
    </pre>
  );
}

function Content({ entry, base64 }: { entry: BinaryEntry; base64: string }) {
  const { t } = useTranslation();
  const kind = binaryViewKind(entry);
  const mimeType = entry.mimeType ?? 'application/octet-stream';
  const dataUrl = `data:${mimeType};base64,${base64}`;
  const name = entry.fileName ?? '';
  switch (kind) {
    case 'image':
      return <img src={dataUrl} alt={name} data-test-id="binary-data-image" />;
    case 'video':
      return (
        <video controls autoPlay={false} data-test-id="binary-data-video">
          <source src={dataUrl} type={mimeType} />
          {t('runData.binary.unsupportedVideo')}
        </video>
      );
    case 'audio':
      return <audio controls src={dataUrl} data-test-id="binary-data-audio" />;
    case 'pdf':
      return <PdfFrame base64={base64} title={name} />;
    case 'json':
    case 'text':
      return <TextContent base64={base64} kind={kind} />;
    default:
      return (
        <Stack align="center" gap="xs">
          <Text c="dimmed">{t('runData.binary.noPreview')}</Text>
          <Anchor href={dataUrl} download={name || undefined} data-test-id="binary-data-download-link">
            {t('runData.downloadBinaryData')}
          </Anchor>
        </Stack>
      );
  }
}

export interface BinaryDataViewerProps {
  entry: BinaryEntry;
  onBack: () => void;
}

/**
 * Shows one binary entry: images, video, audio and PDF natively, text and JSON as text, others
 * as a download. Inline base64 is used directly; stored entries are fetched by id.
 */
export function BinaryDataViewer({ entry, onBack }: BinaryDataViewerProps) {
  const { t } = useTranslation();
  const source = binarySource(entry);
  const stored = useBinaryData(source.kind === 'stored' ? source.id : null);
  const base64 = source.kind === 'inline' ? source.base64 : source.kind === 'stored' ? stored.data : undefined;

  let body;
  if (source.kind === 'none') body = <Text c="dimmed">{t('runData.binary.noDataFound')}</Text>;
  else if (source.kind === 'stored' && stored.error) body = <Text c="red">{t('runData.binary.loadError')}</Text>;
  else if (base64 === undefined)
    body = (
      <Group gap="xs">
        <Loader size="xs" />
        <Text c="dimmed">{t('runData.binary.loading')}</Text>
      </Group>
    );
  else body = <Content entry={entry} base64={base64} />;

  return (
    <div className={classes.binaryViewer} data-test-id="binary-data-viewer">
      <Group justify="space-between" wrap="nowrap">
        <Button variant="subtle" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={onBack} data-test-id="binary-data-back">
          {t('runData.binary.backToList')}
        </Button>
        <Text fw={600} size="sm" truncate>
          {entry.fileName}
        </Text>
      </Group>
      <div className={classes.binaryContent}>{body}</div>
    </div>
  );
}
