// Editor speed on a large workflow, driven by Playwright against the scaled stack (bin/stack):
// opening a 500-node / 600-connection workflow until it answers a click, panning frame rate from
// the browser's frame timeline, and the JavaScript the editor route loads. One JSON line per
// measurement on stdout. Usage: node bench/editor/main.mjs [-bin bin] [-nodes 500] [-connections 600]
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { createWorkflow, emitter, median, parseArgs, root, signedInPage, startStack } from './stack.mjs';

const args = parseArgs(process.argv.slice(2));
const bin = path.resolve(root, args.bin ?? 'bin');
const nodeCount = Number(args.nodes ?? 500);
const connectionCount = Number(args.connections ?? 600);
const PAN_MS = 3000;
/** Runs per measure; medians are reported because the machine may be shared. */
const RUNS = Number(args.runs ?? 5);
const emit = emitter('editor');

/** A grid of nodes: each row a chain, plus diagonal links down to the next row up to the total. */
function largeWorkflow(nodes, connections) {
  const columns = 25;
  const list = [{ name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [0, 0], parameters: {} }];
  for (let i = 1; i < nodes; i++) {
    const type = i % 3 === 0 ? 'n8n-nodes-base.set' : i % 3 === 1 ? 'n8n-nodes-base.noOp' : 'n8n-nodes-base.httpRequest';
    list.push({ name: `Node ${i}`, type, typeVersion: type.endsWith('set') ? 2 : type.endsWith('Request') ? 2 : 1, position: [(i % columns) * 220, Math.floor(i / columns) * 200], parameters: {} });
  }
  const links = [];
  const add = (a, b) => links.push([a, b]);
  for (let i = 0; i + 1 < nodes && links.length < connections; i++) if ((i + 1) % columns !== 0) add(i, i + 1);
  for (let i = 0; i + columns + 1 < nodes && links.length < connections; i++) add(i, i + columns + 1);
  const connectionMap = {};
  for (const [a, b] of links) {
    const source = list[a].name;
    connectionMap[source] ??= { main: [[]] };
    connectionMap[source].main[0].push({ node: list[b].name, type: 'main', index: 0 });
  }
  return { name: `Bench ${nodes} nodes ${Date.now()}`, nodes: list, connections: connectionMap, links: links.length };
}

const stack = await startStack(bin);
const { browser, page } = await signedInPage(stack.url);
try {
  const workflow = largeWorkflow(nodeCount, connectionCount);
  const id = await createWorkflow(page, { name: workflow.name, nodes: workflow.nodes, connections: workflow.connections });

  const scripts = new Map();
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    try {
      scripts.set(response.url(), gzipSync(await response.body()).length);
    } catch {
      // A response without a body (redirect) has nothing to count.
    }
  });

  /** Opens the workflow and returns page times (ms since navigation start). */
  async function open() {
    await page.goto(`/workflow/${id}`);
    const rendered = await page.waitForFunction(
      () => {
        const loading = document.querySelector('[class*="_loading_"]');
        const nodes = document.querySelectorAll('[data-test-id="canvas-node"]').length;
        return !loading && nodes > 0 ? { at: performance.now(), nodes } : null;
      },
      null,
      { polling: 'raf', timeout: 60_000 },
    );
    const { at: renderedMs, nodes: renderedNodes } = await rendered.jsonValue();
    // Interactive: a click on a node is answered by its selection on the next frames.
    const card = page.locator('[data-test-id="canvas-node"][data-name="Node 1"] [class*="nodeCard"]');
    const clickAt = await page.evaluate(() => performance.now());
    await card.click();
    const selectedMs = await page.waitForFunction(
      () => (document.querySelector('[data-test-id="canvas-node"][data-name="Node 1"] [data-selected]') ? performance.now() : null),
      null,
      { polling: 'raf' },
    );
    const interactiveMs = await selectedMs.jsonValue();
    const edges = await page.locator('.react-flow__edge').count();
    return {
      rendered_nodes: renderedNodes,
      rendered_edges: edges,
      rendered_ms: Math.round(renderedMs),
      click_to_selected_ms: Math.round(interactiveMs - clickAt),
      interactive_ms: Math.round(renderedMs + (interactiveMs - clickAt)),
    };
  }

  const summary = (runs) => ({
    runs: runs.length,
    rendered_nodes: runs[0].rendered_nodes,
    rendered_edges: runs[0].rendered_edges,
    rendered_ms: median(runs.map((r) => r.rendered_ms)),
    click_to_selected_ms: median(runs.map((r) => r.click_to_selected_ms)),
    interactive_ms: median(runs.map((r) => r.interactive_ms)),
    interactive_ms_all: runs.map((r) => r.interactive_ms),
  });
  const base = { nodes: workflow.nodes.length, connections: workflow.links, cpus: os.cpus().length, load_average_1m: Math.round(os.loadavg()[0] * 10) / 10 };

  emit({ measure: 'open', cache: 'cold', ...base, ...summary([await open()]) });
  const initial = [...scripts.entries()];
  await page.waitForTimeout(1500);
  const deferred = [...scripts.entries()].filter(([url]) => !initial.some(([u]) => u === url));
  const sum = (list) => Math.round(list.reduce((total, [, size]) => total + size, 0) / 1024);
  const isIcon = (url) => /\/(iconFiles|fa[A-Z0-9][^/]*)-[^/]+\.js$/.test(url);
  emit({
    measure: 'editor_route_js',
    initial_files: initial.filter(([url]) => !isIcon(url)).length,
    initial_gzip_kb: sum(initial.filter(([url]) => !isIcon(url))),
    icon_files: [...initial, ...deferred].filter(([url]) => isIcon(url)).length,
    icons_gzip_kb: sum([...initial, ...deferred].filter(([url]) => isIcon(url))),
  });
  const warm = [];
  for (let i = 0; i < RUNS; i++) warm.push(await open());
  emit({ measure: 'open', cache: 'warm', ...base, ...summary(warm) });

  // Panning: a wheel event on the canvas every frame for PAN_MS; frame times come from the
  // browser's frame timeline (requestAnimationFrame) and long animation frames are counted.
  const panOnce = () => page.evaluate(async (duration) => {
    const pane = document.querySelector('.react-flow__pane');
    const box = pane.getBoundingClientRect();
    const long = [];
    let observer = null;
    if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
      observer = new PerformanceObserver((list) => long.push(...list.getEntries()));
      observer.observe({ type: 'long-animation-frame' });
    }
    const frames = [];
    const start = performance.now();
    performance.mark('pan-start');
    await new Promise((resolve) => {
      const step = (now) => {
        frames.push(now);
        const phase = Math.floor((now - start) / 500) % 2 === 0 ? 1 : -1;
        pane.dispatchEvent(new WheelEvent('wheel', { deltaX: 25 * phase, deltaY: 12 * phase, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true, cancelable: true }));
        if (now - start < duration) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
    });
    performance.measure('pan', 'pan-start');
    observer?.disconnect();
    const gaps = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
    const elapsed = frames[frames.length - 1] - frames[0];
    return {
      frames: frames.length,
      fps: Math.round(((frames.length - 1) / elapsed) * 1000 * 10) / 10,
      p50_frame_ms: Math.round(gaps[Math.floor(gaps.length * 0.5)] * 10) / 10,
      p95_frame_ms: Math.round(gaps[Math.floor(gaps.length * 0.95)] * 10) / 10,
      long_animation_frames: long.length,
      transform: document.querySelector('.react-flow__viewport').style.transform,
    };
  }, PAN_MS);
  const pans = [];
  for (let i = 0; i < RUNS; i++) pans.push(await panOnce());
  const byFps = [...pans].sort((a, b) => a.fps - b.fps);
  emit({ measure: 'pan', duration_ms: PAN_MS, ...base, load_average_1m: Math.round(os.loadavg()[0] * 10) / 10, ...byFps[Math.floor(byFps.length / 2)], fps_all: pans.map((p) => p.fps) });
  const shot = path.join(os.tmpdir(), 'flowmill-bench-editor.png');
  await page.screenshot({ path: shot });
  console.error(`screenshot: ${shot}`);
} finally {
  await browser.close();
  await stack.stop();
}
