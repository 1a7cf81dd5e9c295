import { NodeResizer, type NodeProps } from '@xyflow/react';
import { memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GRID_SIZE } from '@/core/workflow/canvas';
import { useEditor } from '@/views/nodeView/EditorContext';
import { renderMarkdown } from './markdown';
import type { StickyNodeData } from './model';
import classes from './canvas.module.css';

type Props = NodeProps & { data: StickyNodeData };

/** A markdown sticky note: double-click edits, handles resize (spec 001 §2). */
function StickyNodeView({ data, selected }: Props) {
  const { t } = useTranslation();
  const { readOnly, store, actions } = useEditor();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(data.content);
  const html = useMemo(() => renderMarkdown(data.content), [data.content]);

  const finish = () => {
    setEditing(false);
    if (draft !== data.content) actions.updateNode(data.name, { kind: 'updateNode', name: data.name, patch: { parameters: { ...currentParameters(), content: draft } } });
  };
  const currentParameters = () => store.getState().graph.nodes.find((n) => n.name === data.name)?.parameters ?? {};

  return (
    <div className={classes.sticky} data-test-id="sticky-note" data-name={data.name} data-selected={selected || undefined} style={{ width: '100%', height: '100%' }}>
      <NodeResizer
        isVisible={selected && !readOnly}
        minWidth={150}
        minHeight={80}
        lineClassName={classes.stickyResizeLine}
        handleClassName={classes.stickyResizeHandle}
        onResizeEnd={(_event, params) => {
          const width = Math.round(params.width / GRID_SIZE) * GRID_SIZE;
          const height = Math.round(params.height / GRID_SIZE) * GRID_SIZE;
          const patch = { parameters: { ...currentParameters(), width, height }, position: [params.x, params.y] as [number, number] };
          actions.updateNode(data.name, { kind: 'updateNode', name: data.name, patch });
        }}
      />
      {editing ? (
        <textarea
          className={`${classes.stickyEditor} nodrag nowheel`}
          aria-label={t('sticky.edit')}
          value={draft}
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onBlur={finish}
          onKeyDown={(event) => {
            event.stopPropagation();
            if (event.key === 'Escape') finish();
          }}
        />
      ) : (
        <div
          className={`${classes.stickyContent} nowheel`}
          onDoubleClick={(event) => {
            event.stopPropagation();
            if (readOnly) return;
            setDraft(data.content);
            setEditing(true);
          }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      )}
    </div>
  );
}

export const StickyNodeComponent = memo(StickyNodeView);
