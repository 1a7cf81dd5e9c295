import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Stack {
  /** Base URL of the api, ending in a slash. */
  url: string;
  logs: string;
  stop: () => Promise<void>;
}

/**
 * Starts a scaled stack of its own (fresh database, one api, two workers, a scheduler) with extra
 * settings, for specs that change instance-wide state such as owner setup. It stops when stop is
 * called or when this process ends (its standard input closes).
 */
export async function startStack(env: readonly string[]): Promise<Stack> {
  const bin = process.env.FLOWMILL_E2E_BIN ?? path.join(root, 'bin');
  const args = ['-bin', bin, '-workers', '2', '-stop-on-stdin-close', ...env.flatMap((setting) => ['-env', setting])];
  const child: ChildProcess = spawn(path.join(bin, 'stack'), args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const ready = await new Promise<{ urls: string[]; logs: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stack did not become ready within 90 s')), 90_000);
    child.once('exit', (code) => reject(new Error(`the stack exited early with code ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as { urls: string[]; logs: string });
    });
  });
  return {
    url: ready.urls[0]!,
    logs: ready.logs,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}
