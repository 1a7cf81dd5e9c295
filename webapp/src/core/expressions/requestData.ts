import type { TaskData } from '@/core/push/messages';

/** Binary data longer than this (base64 characters) is not sent along with expression previews. */
export const MAX_SENT_BINARY_LENGTH = 65536;

type RunData = Readonly<Record<string, readonly TaskData[]>>;

const slimmed = new WeakMap<RunData, RunData>();

function slimTask(task: TaskData): TaskData {
  if (!task.data) return task;
  let changed = false;
  const main = task.data.main.map((items) =>
    items === null
      ? items
      : items.map((item) => {
          if (!item.binary) return item;
          let binaryChanged = false;
          const binary = Object.fromEntries(
            Object.entries(item.binary).map(([key, entry]) => {
              const data = (entry as { data?: unknown } | null)?.data;
              if (typeof data !== 'string' || data.length <= MAX_SENT_BINARY_LENGTH) return [key, entry];
              binaryChanged = true;
              return [key, { ...(entry as object), data: '' }];
            }),
          );
          if (!binaryChanged) return item;
          changed = true;
          return { ...item, binary };
        }),
  );
  return changed ? { ...task, data: { ...task.data, main } } : task;
}

/**
 * Run data as expression previews send it: binary entries whose data is longer than
 * MAX_SENT_BINARY_LENGTH keep their metadata with empty data, so a request stays small. The
 * result is remembered per run data object.
 */
export function runDataForPreview(runData: RunData | null): RunData {
  if (!runData) return {};
  const known = slimmed.get(runData);
  if (known) return known;
  const out: Record<string, readonly TaskData[]> = {};
  for (const [node, runs] of Object.entries(runData)) out[node] = runs.map(slimTask);
  slimmed.set(runData, out);
  return out;
}
