import { useEffect, useState } from 'react';
import { nodeIconUrl } from '../api/nodeTypes';
import type { NodeTypeDescription } from '../core/workflow/nodeTypes';

interface FontIcon {
  width: number;
  height: number;
  paths: string[];
}

function loadIcon(name: string): Promise<unknown> {
  return import('./iconFiles').then((module) => module.loadIconDefinition(name));
}

function readIcon(value: unknown): FontIcon | null {
  if (typeof value !== 'object' || value === null || !('icon' in value)) return null;
  const icon = (value as { icon: unknown }).icon;
  if (!Array.isArray(icon) || icon.length < 5) return null;
  const [width, height, , , paths] = icon as [number, number, unknown, unknown, string | string[]];
  return { width, height, paths: Array.isArray(paths) ? paths : [paths] };
}

function useFontIcon(name: string | null): FontIcon | null {
  const [icon, setIcon] = useState<{ name: string; icon: FontIcon | null } | null>(null);
  useEffect(() => {
    if (name === null) return undefined;
    let live = true;
    void loadIcon(name).then((definition) => {
      if (live) setIcon({ name, icon: readIcon(definition) });
    });
    return () => {
      live = false;
    };
  }, [name]);
  return icon && icon.name === name ? icon.icon : null;
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
  const fontName = icon.startsWith('fa:') ? icon.slice(3) : null;
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
