import { IconPlus, IconTrash } from '@tabler/icons-react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { backwardEdge, isBackward } from '@/core/workflow/edgePath';
import { useEditor } from '@/views/nodeView/EditorContext';
import type { CanvasEdgeData } from './model';
import { useCanvasText } from './canvasText';
import classes from './canvas.module.css';

/** Hover actions show 150 ms after the pointer arrives and hide 500 ms after it leaves (spec 001 §2). */
export const EDGE_ACTIONS_SHOW_DELAY = 150;
export const EDGE_ACTIONS_HIDE_DELAY = 500;

/** An arrowhead pointing right with its tip at the origin. */
const ARROW_PATH = 'M-11,-5.5 L0,0 L-11,5.5 Z';

type Props = EdgeProps & { data?: CanvasEdgeData };

function CanvasEdgeView({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, selected, markerEnd }: Props) {
  const t = useCanvasText();
  const { readOnly, actions } = useEditor();
  const [hovered, setHovered] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Backward connections loop round the nodes instead of cutting across them.
  const [path, labelX, labelY] = useMemo(() => {
    if (!isBackward(sourceX, targetX)) return getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition, curvature: 0.3 });
    const loop = backwardEdge(sourceX, sourceY, targetX, targetY);
    return [loop.path, loop.labelX, loop.labelY];
  }, [sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition]);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const schedule = (value: boolean) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setHovered(value), value ? EDGE_ACTIONS_SHOW_DELAY : EDGE_ACTIONS_HIDE_DELAY);
  };
  const items = data?.items ?? null;
  const connection = data?.connection;
  const ran = items !== null && items > 0;

  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={classes.edgePath} data-selected={selected || undefined} data-ran={ran || undefined} interactionWidth={0} />
      {/* The arrowhead is drawn here rather than as a shared SVG marker so it takes the line's state colour and the zoomed-out scale. */}
      <path d={ARROW_PATH} className={classes.edgeArrow} data-selected={selected || undefined} data-ran={ran || undefined} data-test-id="edge-arrow" style={{ transform: `translate(${targetX}px, ${targetY}px) scale(var(--canvas-line-scale, 1))` }} />
      <path
        d={path}
        fill="none"
        stroke="transparent"
        strokeWidth={22}
        style={{ pointerEvents: 'stroke' }}
        onMouseEnter={() => schedule(true)}
        onMouseLeave={() => schedule(false)}
        data-test-id="canvas-edge"
        data-backward={isBackward(sourceX, targetX) || undefined}
        data-source={connection?.source}
        data-target={connection?.target}
        data-source-index={connection?.sourceIndex}
        data-target-index={connection?.targetIndex}
      />
      {/* The HTML label layer is only mounted when there is something to show. */}
      {hovered || items !== null ? (
      <EdgeLabelRenderer>
        <div
          className={`${classes.edgeLabel} nodrag nopan`}
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          onMouseEnter={() => schedule(true)}
          onMouseLeave={() => schedule(false)}
          data-test-id="edge-label"
          data-source={connection?.source}
          data-target={connection?.target}
        >
          {hovered && !readOnly && connection ? (
            <div className={classes.edgeActions} data-test-id="edge-actions">
              <button type="button" className={classes.edgeButton} aria-label={t('edge.add')} title={t('edge.add')} data-test-id="edge-add-button" onClick={() => actions.ui.openCreator({ splitConnection: connection })}>
                <IconPlus size={14} />
              </button>
              <button type="button" className={classes.edgeButton} aria-label={t('edge.delete')} title={t('edge.delete')} data-test-id="edge-delete-button" onClick={() => actions.removeConnection(connection)}>
                <IconTrash size={14} />
              </button>
            </div>
          ) : items !== null ? (
            <span className={classes.edgeItems} data-test-id="edge-items">{t('edge.items', { count: items })}</span>
          ) : null}
        </div>
      </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export const CanvasEdgeComponent = memo(CanvasEdgeView);
