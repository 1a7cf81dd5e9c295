// Shared by the editor benchmarks: the scaled stack (bin/stack), the system Chromium and a
// signed-in page, and one JSON line per measurement on stdout.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'e2e/package.json'));
const { chromium } = require('@playwright/test');

/** `-name value` pairs of the command line. */
export function parseArgs(argv) {
  return Object.fromEntries(argv.reduce((pairs, value, i, all) => (value.startsWith('-') ? [...pairs, [value.slice(1), all[i + 1]]] : pairs), []));
}

export function emitter(scenario) {
  return (result) => console.log(JSON.stringify({ scenario, ...result }));
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Starts api + one worker + scheduler on a fresh database; stop() ends them. */
export async function startStack(bin) {
  const child = spawn(path.join(bin, 'stack'), ['-bin', bin, '-workers', '1', '-stop-on-stdin-close'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stack did not become ready within 90 s')), 90_000);
    child.once('exit', (code) => reject(new Error(`the stack exited early with code ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
  });
  return { url: info.urls[0], stop: () => new Promise((resolve) => { child.once('exit', resolve); child.stdin.end(); }) };
}

/** The system Chromium with a 1440x900 page signed in as the owner, setup and survey skipped. */
export async function signedInPage(url) {
  const browser = await chromium.launch({
    executablePath: process.env.FLOWMILL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.request.get('/rest/login');
  await page.request.post('/rest/owner/skip-setup');
  await page.request.post('/rest/me/survey', { data: { version: 'v2' } });
  return { browser, page };
}

/** Creates a workflow through the REST API and returns its id. */
export async function createWorkflow(page, body) {
  const created = await page.request.post('/rest/workflows', { data: body });
  if (!created.ok()) throw new Error(`creating the workflow failed: ${created.status()} ${await created.text()}`);
  return (await created.json()).data.id;
}
