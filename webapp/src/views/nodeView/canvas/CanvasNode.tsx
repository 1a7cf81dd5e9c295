import { Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconClock, IconCopy, IconPlayerPlayFilled, IconPlus, IconPower, IconTrash } from '@tabler/icons-react';
import { Handle, Position, useOnViewportChange, type NodeProps } from '@xyflow/react';
import { memo, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { NodeIcon } from '@/components/NodeIcon';
import { storedVersion } from '@/core/workflow/nodeTypes';
import { useEditor } from '@/views/nodeView/EditorContext';
import { issueText } from '@/views/nodeView/issueText';
import type { CanvasNodeData } from './model';
import { useCanvasText } from './canvasText';
import classes from './canvas.module.css';

type Props = NodeProps & { data: CanvasNodeData };

/** How long a run waits for a trigger before its node says what it waits for, and how soon after a pan it says it again (ms). */
const EVENT_HINT_DELAY = 2500;
const EVENT_HINT_AFTER_PAN = 200;

/**
 * Shows a waiting trigger's event description above its card after a delay; it hides while the
 * canvas pans and comes back shortly after.
 */
function EventHint({ hint, children }: { hint: string; children: ReactNode }) {
  const [shown, setShown] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const showAfter = (delay: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setShown(true), delay);
  };
  useEffect(() => {
    timer.current = window.setTimeout(() => setShown(true), EVENT_HINT_DELAY);
    return () => window.clearTimeout(timer.current);
  }, []);
  useOnViewportChange({
    onStart: () => {
      window.clearTimeout(timer.current);
      setShown(false);
    },
    onEnd: () => showAfter(EVENT_HINT_AFTER_PAN),
  });
  return (
    <Tooltip label={hint} opened={shown} position="top" withArrow multiline maw={220} data-test-id="node-trigger-tooltip">
      <div>{children}</div>
    </Tooltip>
  );
}

/**
 * The warning badge of a node with issues. The tooltip (and the sentences in it) is only built once
 * the pointer first comes over the badge: a large workflow has hundreds of these, and each Mantine
 * tooltip costs a floating-ui setup on every card render.
 */
function IssueBadge({ issues, label }: { issues: string[]; label: string }) {
  const [hovered, setHovered] = useState(false);
  const [armed, setArmed] = useState(false);
  const badge = (
    <span
      className={classes.badgeIssue}
      data-test-id="node-issues"
      aria-label={label}
      tabIndex={0}
      onMouseEnter={() => {
        setArmed(true);
        setHovered(true);
      }}
      onMouseLeave={() => setHovered(false)}
    >
      <IconAlertTriangle size={16} />
    </span>
  );
  if (!armed) return badge;
  return (
    <Tooltip label={issues.map(issueText).join('\n')} opened={hovered} multiline maw={280} withArrow style={{ whiteSpace: 'pre-line' }}>
      {badge}
    </Tooltip>
  );
}

/** Spreads n handles along the card's side, as percentages. */
function handleTop(index: number, count: number): CSSProperties {
  return { top: `${((index + 1) * 100) / (count + 1)}%` };
}

function CanvasNodeView({ data, selected }: Props) {
  const t = useCanvasText();
  const { index, readOnly, actions } = useEditor();
  const type = index.get(data.typeName, storedVersion(data));
  const name = data.name;
  // The toolbar is mounted only while the pointer is over the node: hundreds of hidden toolbars
  // would cost more than they are worth on large workflows.
  const [hovered, setHovered] = useState(false);
  const status = data.executing ? 'executing' : data.issues.length > 0 ? 'issues' : data.success ? 'success' : undefined;

  const cardView = (
    <div
      className={classes.nodeCard}
      data-selected={selected || undefined}
      data-trigger={data.trigger || undefined}
      data-disabled={data.disabled || undefined}
      data-executing={data.executing || undefined}
      data-success={(data.success && data.issues.length === 0) || undefined}
      data-error={data.issues.length > 0 || undefined}
      data-many-outputs={data.outputs > 2 || undefined}
    >
      {data.executing ? <div className={classes.spinner} data-test-id="node-executing" aria-label={t('node.status.executing')} /> : null}
      <div className={classes.nodeIcon} style={{ opacity: data.disabled ? 0.45 : 1 }}>
        <NodeIcon type={type} size={40} fallbackLabel={name} />
      </div>
      {data.disabled ? <div className={classes.disabledStrike} aria-hidden="true" /> : null}
      <div className={classes.nodeBadges}>
        {data.issues.length > 0 ? (
          <IssueBadge issues={data.issues} label={t('node.issues.label')} />
        ) : data.waiting ? (
          <span className={classes.badgeWaiting} data-test-id="node-waiting" aria-label={t('node.status.waiting')}>
            <IconClock size={16} />
          </span>
        ) : data.success ? (
          <span className={classes.badgeSuccess} data-test-id="node-success" aria-label={t('node.status.success', { count: data.itemCount })}>
            <IconCheck size={16} stroke={3} />
            {data.itemCount > 1 ? <span className={classes.itemCount}>{data.itemCount}</span> : null}
          </span>
        ) : null}
      </div>

      {Array.from({ length: data.inputs }, (_, i) => (
        <Handle key={`in-${i}`} id={`in-${i}`} type="target" position={Position.Left} className={classes.inputHandle} style={handleTop(i, data.inputs)} isConnectable={!readOnly} />
      ))}
      {Array.from({ length: data.outputs }, (_, i) => {
        const label = data.outputNames[i];
        const open = !data.connectedOutputs[i] && !readOnly;
        return (
          <Handle key={`out-${i}`} id={`out-${i}`} type="source" position={Position.Right} className={classes.outputHandle} style={handleTop(i, data.outputs)} isConnectable={!readOnly}>
            {/* A label sits beside its handle, level with it; an open output's line and "+" follow the label so neither covers the other. */}
            {label && !open ? <span className={classes.outputLabel} data-test-id="canvas-output-label">{label}</span> : null}
            {open ? (
              <span className={classes.plusEndpoint}>
                {label ? <span className={classes.outputLabel} data-test-id="canvas-output-label">{label}</span> : null}
                <span className={classes.plusLine} />
                <button
                  type="button"
                  className={classes.plusButton}
                  data-test-id="canvas-plus-button"
                  data-tooltip={t('node.plusEndpoint')}
                  aria-label={t('node.plusEndpoint')}
                  onClick={(event) => {
                    event.stopPropagation();
                    actions.ui.openCreator({ source: { node: name, outputIndex: i } });
                  }}
                >
                  <IconPlus size={12} stroke={3} />
                </button>
              </span>
            ) : null}
          </Handle>
        );
      })}
    </div>
  );

  return (
    <div
      className={classes.nodeWrapper}
      data-test-id="canvas-node"
      data-name={name}
      data-status={status}
      data-disabled={data.disabled || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      {!readOnly && hovered ? (
        <div className={`${classes.nodeToolbar} nodrag`} data-test-id="node-toolbar">
          {!data.trigger || data.inputs === 0 ? (
            <button type="button" className={classes.toolbarButton} aria-label={t('node.toolbar.execute')} title={t('node.toolbar.execute')} data-test-id="node-toolbar-execute" onClick={() => actions.ui.runWorkflow(name)}>
              <IconPlayerPlayFilled size={14} />
            </button>
          ) : null}
          <button type="button" className={classes.toolbarButton} aria-label={data.disabled ? t('node.toolbar.activate') : t('node.toolbar.deactivate')} title={data.disabled ? t('node.toolbar.activate') : t('node.toolbar.deactivate')} data-test-id="node-toolbar-disable" onClick={() => actions.toggleDisabled([name])}>
            <IconPower size={14} />
          </button>
          <button type="button" className={classes.toolbarButton} aria-label={t('node.toolbar.duplicate')} title={t('node.toolbar.duplicate')} data-test-id="node-toolbar-duplicate" onClick={() => actions.duplicate([name])}>
            <IconCopy size={14} />
          </button>
          <button type="button" className={classes.toolbarButton} aria-label={t('node.toolbar.delete')} title={t('node.toolbar.delete')} data-test-id="node-toolbar-delete" onClick={() => actions.deleteNodes([name])}>
            <IconTrash size={14} />
          </button>
        </div>
      ) : null}

      {data.eventHint ? <EventHint hint={data.eventHint}>{cardView}</EventHint> : cardView}
      <div className={classes.nodeLabel}>
        <div className={classes.nodeName} data-disabled={data.disabled || undefined} title={name}>
          {name}
          {data.disabled ? <span className={classes.deactivated}> {t('node.deactivated')}</span> : null}
        </div>
        {data.subtitle ? <div className={classes.nodeSubtitle}>{data.subtitle}</div> : null}
      </div>
    </div>
  );
}

export const CanvasNodeComponent = memo(CanvasNodeView);
