import { Group, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NodeIcon } from '@/components/NodeIcon';
import { templateNodeType } from '@/core/templates/nodes';
import { limitNodes } from '@/core/templates/search';
import type { TemplateNode } from '@/core/templates/types';
import classes from './templates.module.css';

/** A row of node icons: at most `limit`, the last place showing '+N' when there are more. */
export function TemplateNodeIcons({ nodes, limit, size = 22, wrap = false }: { nodes: readonly TemplateNode[]; limit: number; size?: number; wrap?: boolean }) {
  const { t } = useTranslation();
  const { shown, overflow } = limitNodes(nodes, limit);
  return (
    <Group gap={6} wrap={wrap ? 'wrap' : 'nowrap'} data-test-id="template-node-icons">
      {shown.map((node) => (
        <Tooltip key={node.name} label={node.displayName} withArrow openDelay={200}>
          <span className={classes.nodeIcon} style={{ width: size + 12, height: size + 12 }} data-test-id="template-node-icon" aria-label={node.displayName}>
            <NodeIcon type={templateNodeType(node)} size={size} fallbackLabel={node.displayName} />
          </span>
        </Tooltip>
      ))}
      {overflow > 0 ? (
        <span className={`${classes.nodeIcon} ${classes.nodeMore}`} style={{ width: size + 12, height: size + 12 }} data-test-id="template-node-more">
          {t('templates.moreNodes', { count: overflow })}
        </span>
      ) : null}
    </Group>
  );
}
