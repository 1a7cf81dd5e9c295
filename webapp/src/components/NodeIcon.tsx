import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { nodeIconUrl } from '@/api/nodeTypes';
import { fontIconName } from '@/core/icons/fontIcons';
import { fontIcons } from './nodeIcons';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';

function useFontIcon(name: string | null) {
  const subscribe = useCallback((listener: () => void) => (name === null ? () => undefined : fontIcons.subscribe(name, listener)), [name]);
  const icon = useSyncExternalStore(subscribe, () => (name === null ? null : fontIcons.get(name)));
  useEffect(() => {
    if (name !== null) void fontIcons.load(name);
  }, [name]);
  return icon ?? null;
}

interface NodeIconProps {
  type: NodeTypeDescription | undefined;
  size: number;
  /** Shown when the type is unknown or has no icon. */
  fallbackLabel?: string;
}

/** A node type's icon: its `file:` image from the server or its font icon in the type's color. */
export function NodeIcon({ type, size, fallbackLabel }: NodeIconProps) {
  const icon = type?.icon ?? '';
  const fontName = fontIconName(icon);
  const font = useFontIcon(fontName);
  const color = type?.defaults.color ?? '#7d838f';
  if (type && icon.startsWith('file:')) {
    return <img src={type.iconUrl ?? nodeIconUrl(type.name)} width={size} height={size} alt="" draggable={false} style={{ objectFit: 'contain' }} />;
  }
  if (font) {
    return (
      <svg width={size} height={size} viewBox={`0 0 ${font.width} ${font.height}`} aria-hidden="true" style={{ color }}>
        {font.paths.map((d) => (
          <path key={d.slice(0, 24)} d={d} fill="currentColor" />
        ))}
      </svg>
    );
  }
  const letter = (fallbackLabel ?? type?.displayName ?? '?').charAt(0).toUpperCase();
  return (
    <span aria-hidden="true" style={{ display: 'inline-flex', width: size, height: size, alignItems: 'center', justifyContent: 'center', fontWeight: 700, fontSize: size * 0.6, color }}>
      {fontName !== null ? '' : letter}
    </span>
  );
}
