import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface StackInfo {
  urls: string[];
  redisUrl: string;
  databaseUrl: string;
  logs: string;
}

/**
 * Starts bin/stack (built by `make test-e2e`) and waits for its ready line. The stack stops when
 * its standard input closes, so it never outlives this process even if teardown is skipped.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.FLOWMILL_E2E_URL) {
    return async () => {};
  }
  const bin = path.join(root, 'bin');
  const child = spawn(path.join(bin, 'stack'), ['-bin', bin, '-workers', '2', '-stop-on-stdin-close'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise<StackInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stack did not become ready within 90 s')), 90_000);
    child.once('exit', (code) => reject(new Error(`the stack exited early with code ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as StackInfo);
    });
  });
  process.env.FLOWMILL_E2E_URL = info.urls[0];
  process.env.FLOWMILL_E2E_URLS = info.urls.join(',');
  process.env.FLOWMILL_E2E_LOGS = info.logs;
  // The stack's own databases, for specs whose workflows read and write Postgres and Redis.
  process.env.FLOWMILL_E2E_DATABASE_URL = info.databaseUrl;
  process.env.FLOWMILL_E2E_REDIS_URL = info.redisUrl;
  console.log(`stack ready at ${info.urls.join(', ')} (logs in ${info.logs})`);
  return async () => {
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
  };
}
