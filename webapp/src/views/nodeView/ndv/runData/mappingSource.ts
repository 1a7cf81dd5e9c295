import { createContext, useContext, type DragEvent } from 'react';
import { encodeMappedField, MAPPING_MIME, mappingExpression, type MappedField } from '@/core/expressions/mapping';

/** The node whose data the input panel shows, when its fields may be dragged onto parameters. */
export interface MappingSource {
  nodeName: string;
  direct: boolean;
}

export const MappingSourceContext = createContext<MappingSource | null>(null);

export function useMappingSource(): MappingSource | null {
  return useContext(MappingSourceContext);
}

/** The body attribute that shows drop hints on parameters while a field is dragged. */
export const MAPPING_DRAG_ATTRIBUTE = 'data-mapping-drag';

/** Starts dragging a field: the drag carries the field and, for other drop places, its expression as text. */
export function startFieldDrag(event: DragEvent, source: MappingSource, path: ReadonlyArray<string | number>): void {
  const field: MappedField = { ...source, path };
  event.dataTransfer.setData(MAPPING_MIME, encodeMappedField(field));
  event.dataTransfer.setData('text/plain', mappingExpression(field));
  event.dataTransfer.effectAllowed = 'copy';
  document.body.setAttribute(MAPPING_DRAG_ATTRIBUTE, 'true');
}

export function endFieldDrag(): void {
  document.body.removeAttribute(MAPPING_DRAG_ATTRIBUTE);
}
