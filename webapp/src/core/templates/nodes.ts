import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { TemplateNode } from './types';

/**
 * A template's node as a node type description for drawing its icon: the icon travels with the
 * template (a data: URL for file icons, a font icon name), so a host's templates draw without
 * the instance having the type.
 */
export function templateNodeType(node: TemplateNode): NodeTypeDescription {
  const fontIcon = node.icon ?? (node.iconData?.type === 'icon' && node.iconData.icon ? `fa:${node.iconData.icon}` : undefined);
  const fileIcon = node.iconData?.type === 'file' ? node.iconData.fileBuffer : undefined;
  return {
    name: node.name,
    displayName: node.displayName,
    group: [],
    version: node.typeVersion ?? 1,
    defaults: { name: node.defaults?.name ?? node.displayName, color: node.defaults?.color },
    inputs: [],
    outputs: [],
    icon: fileIcon ? (node.icon ?? 'file:icon.svg') : fontIcon,
    iconUrl: fileIcon,
  };
}
