import { UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { memo, useCallback, useMemo, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { jsonLines, type JsonLine } from '@/core/runData/jsonLines';
import classes from './runData.module.css';
import { useVirtualRange } from './useVirtualRange';

/** Pixel height of one line; lines never wrap so the list can be windowed. */
const LINE_HEIGHT = 20;
/** Trees with more lines than this render only the lines in view. */
const VIRTUAL_FROM = 300;
const INDENT = 16;

export interface JsonTreeProps {
  value: unknown;
  /** Levels expanded at first. */
  depth: number;
  selectedPath?: string | null;
  onSelect?: (path: string) => void;
  testId?: string;
  /** Makes object keys draggable; called with the line's path when a drag starts. */
  onKeyDragStart?: (path: string, event: DragEvent) => void;
  onKeyDragEnd?: () => void;
}

interface DragHandlers {
  onKeyDragStart?: (path: string, event: DragEvent) => void;
  onKeyDragEnd?: () => void;
}

function Label({ label, path, drag }: { label: string | number | null; path: string; drag?: DragHandlers }) {
  if (label === null) return null;
  if (typeof label === 'number') return <span className={classes.jsonKey}>{`${label}: `}</span>;
  const start = drag?.onKeyDragStart;
  if (!start) return <span className={classes.jsonKey}>{`"${label}": `}</span>;
  return (
    <>
      <span className={`${classes.jsonKey} ${classes.draggableField}`} draggable onDragStart={(event) => start(path, event)} onDragEnd={drag.onKeyDragEnd} data-test-id="ndv-json-key">
        {`"${label}"`}
      </span>
      {': '}
    </>
  );
}

function Primitive({ value }: { value: string | number | boolean | null | undefined }) {
  if (typeof value === 'string') return <span className={classes.jsonString}>{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className={classes.jsonNumber}>{String(value)}</span>;
  if (typeof value === 'boolean') return <span className={classes.jsonBoolean}>{String(value)}</span>;
  return <span className={classes.jsonNull}>{value === null ? 'null' : 'undefined'}</span>;
}

interface LineProps {
  line: JsonLine;
  selected: boolean;
  onToggle: (path: string) => void;
  onSelect?: (path: string) => void;
  drag?: DragHandlers;
}

const Line = memo(function Line({ line, selected, onToggle, onSelect, drag }: LineProps) {
  const { t } = useTranslation();
  const indent = line.depth * INDENT;
  const toggle =
    line.kind === 'open' || (line.kind === 'collapsed' && line.size > 0) ? (
      <UnstyledButton
        className={classes.jsonToggle}
        aria-label={line.kind === 'open' ? t('runData.collapse') : t('runData.expand')}
        aria-expanded={line.kind === 'open'}
        onClick={(event) => {
          event.stopPropagation();
          onToggle(line.path);
        }}
      >
        {line.kind === 'open' ? <IconChevronDown size={12} /> : <IconChevronRight size={12} />}
      </UnstyledButton>
    ) : (
      <span className={classes.jsonToggleSpace} />
    );
  const comma = 'comma' in line && line.comma ? ',' : '';
  const selectable = line.kind !== 'close' && onSelect !== undefined;
  return (
    <div
      className={classes.jsonLine}
      data-selected={selected || undefined}
      data-path={line.path}
      style={{ paddingLeft: indent, height: LINE_HEIGHT }}
      onClick={selectable ? () => onSelect(line.path) : undefined}
    >
      {line.kind === 'close' ? <span className={classes.jsonToggleSpace} /> : toggle}
      {line.kind === 'open' ? (
        <>
          <Label label={line.label} path={line.path} drag={drag} />
          <span className={classes.jsonBracket}>{line.bracket}</span>
        </>
      ) : null}
      {line.kind === 'close' ? <span className={classes.jsonBracket}>{line.bracket}</span> : null}
      {line.kind === 'collapsed' ? (
        <>
          <Label label={line.label} path={line.path} drag={drag} />
          <span className={classes.jsonBracket}>{line.bracket === '{' ? (line.size ? '{…}' : '{}') : line.size ? '[…]' : '[]'}</span>
          {line.size > 0 ? <span className={classes.jsonLength}> {t('runData.items', { count: line.size })}</span> : null}
        </>
      ) : null}
      {line.kind === 'value' ? (
        <>
          <Label label={line.label} path={line.path} drag={drag} />
          <Primitive value={line.value} />
        </>
      ) : null}
      {comma}
    </div>
  );
});

/**
 * A JSON value as an indented, collapsible tree (like n8n's JSON view). Containers deeper than
 * `depth` start collapsed; large trees render only the lines in view.
 */
export function JsonTree({ value, depth, selectedPath = null, onSelect, testId, onKeyDragStart, onKeyDragEnd }: JsonTreeProps) {
  const drag = useMemo(() => (onKeyDragStart ? { onKeyDragStart, onKeyDragEnd } : undefined), [onKeyDragStart, onKeyDragEnd]);
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const lines = useMemo(() => jsonLines(value, { depth, toggled }), [value, depth, toggled]);
  const [windowed, setContainer] = useVirtualRange(lines.length, LINE_HEIGHT, lines.length > VIRTUAL_FROM);
  const onToggle = useCallback(
    (path: string) =>
      setToggled((current) => {
        const next = new Set(current);
        if (next.has(path)) next.delete(path);
        else next.add(path);
        return next;
      }),
    [],
  );
  return (
    <div ref={setContainer} className={classes.jsonTree} data-test-id={testId} role="tree">
      <div style={{ height: windowed.before }} />
      {lines.slice(windowed.start, windowed.end).map((line) => (
        <Line key={`${line.kind}${line.path}`} line={line} selected={selectedPath === line.path && line.kind !== 'close'} onToggle={onToggle} onSelect={onSelect} drag={drag} />
      ))}
      <div style={{ height: windowed.after }} />
    </div>
  );
}
