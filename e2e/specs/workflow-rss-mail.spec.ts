import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { getWorkflow, node, openNewWorkflow, paste, signIn, uniqueName, workflowIdOf } from '../support/editor';
import { mailParts, SmtpCapture } from '../support/smtpCapture';

const ndv = (page: Page) => page.getByTestId('ndv');

const PRODUCTS = [
  { name: 'Widget', price: '12.50' },
  { name: 'Gadget', price: '7.25' },
  { name: 'Gizmo & Co', price: '99.00' },
];

/** An RSS 2.0 feed whose entries carry the product markup HTML Extract reads. */
function feedXml(): string {
  const items = PRODUCTS.map(
    (p, i) => `<item><title>${p.name.replace('&', '&amp;')}</title><link>http://127.0.0.1/p/${i}</link>
<pubDate>Mon, 0${i + 1} Jun 2026 10:00:00 GMT</pubDate>
<description><![CDATA[<h2 class="name">${p.name.replace('&', '&amp;')}</h2><span class="price">${p.price}</span>]]></description></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Shop</title>${items.join('')}</channel></rss>`;
}

/** The files of a zip archive (an XLSX), read through its central directory. */
function unzip(buf: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip archive');
  let at = buf.readUInt32LE(eocd + 16);
  for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(data) : data);
    at += 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return files;
}

test.describe('RSS Read → HTML Extract → Spreadsheet File → Send Email', () => {
  let smtp: SmtpCapture;
  let feed: http.Server;
  let feedUrl: string;

  test.beforeAll(async () => {
    smtp = await SmtpCapture.start();
    feed = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/rss+xml; charset=utf-8' });
      res.end(feedXml());
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.xml`;
  });

  test.afterAll(async () => {
    await smtp.stop();
    await new Promise<void>((resolve) => feed.close(() => resolve()));
  });

  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('mails the prices of a feed as a spreadsheet', async ({ page }) => {
    test.setTimeout(120_000);
    const created = await page.request.post('/rest/credentials', {
      data: {
        name: uniqueName('Capture SMTP'),
        type: 'smtp',
        nodesAccess: [{ nodeType: 'n8n-nodes-base.emailSend' }],
        data: { user: '', password: '', host: '127.0.0.1', port: smtp.port, secure: false },
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const credential = ((await created.json()) as { data: { id: string; name: string } }).data;

    await openNewWorkflow(page);
    await page.getByTestId('workflow-name-input').click();
    await page.getByTestId('workflow-name-input').fill(uniqueName('Feed prices'));
    await page.keyboard.press('Enter');
    const subject = `Prices ${Date.now().toString(36)}`;
    await paste(
      page,
      JSON.stringify({
        nodes: [
          { name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [240, 300], parameters: {} },
          { name: 'RSS Read', type: 'n8n-nodes-base.rssFeedRead', typeVersion: 1.1, position: [460, 300], parameters: { url: feedUrl, options: {} } },
          {
            name: 'HTML Extract',
            type: 'n8n-nodes-base.htmlExtract',
            typeVersion: 1,
            position: [680, 300],
            parameters: {
              sourceData: 'json',
              dataPropertyName: 'content',
              extractionValues: {
                values: [
                  { key: 'product', cssSelector: '.name', returnValue: 'text' },
                  { key: 'price', cssSelector: '.price', returnValue: 'text' },
                ],
              },
              options: {},
            },
          },
          {
            name: 'Spreadsheet File',
            type: 'n8n-nodes-base.spreadsheetFile',
            typeVersion: 2,
            position: [900, 300],
            parameters: { operation: 'toFile', fileFormat: 'xlsx', options: { fileName: 'prices.xlsx' } },
          },
          {
            name: 'Send Email',
            type: 'n8n-nodes-base.emailSend',
            typeVersion: 2.1,
            position: [1120, 300],
            parameters: {
              fromEmail: 'Shop Bot <bot@example.com>',
              toEmail: 'buyer@example.com',
              subject,
              emailFormat: 'text',
              text: 'The prices are attached.',
              options: { attachments: 'data', appendAttribution: false },
            },
            credentials: { smtp: { id: credential.id, name: credential.name } },
          },
        ],
        connections: {
          Run: { main: [[{ node: 'RSS Read', type: 'main', index: 0 }]] },
          'RSS Read': { main: [[{ node: 'HTML Extract', type: 'main', index: 0 }]] },
          'HTML Extract': { main: [[{ node: 'Spreadsheet File', type: 'main', index: 0 }]] },
          'Spreadsheet File': { main: [[{ node: 'Send Email', type: 'main', index: 0 }]] },
        },
      }),
    );
    await expect(node(page, 'Send Email')).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect(page).toHaveURL(/\/workflow\/[^/]+/);
    await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
    const stored = await getWorkflow(page.request, workflowIdOf(page));
    expect(stored.connections.Run?.main[0]?.[0]?.node).toBe('RSS Read');

    const before = smtp.mails.length;
    await page.getByTestId('execute-workflow-button').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible({ timeout: 30_000 });

    const mail = await smtp.waitFor('buyer@example.com', new RegExp(subject), before);
    expect(mail.from).toBe('bot@example.com');
    const parts = mailParts(mail);
    expect(parts.map((p) => p.contentType)).toEqual(['text/plain', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(parts[0]!.body.toString('utf8')).toContain('The prices are attached.');
    const sheet = parts[1]!;
    expect(sheet.fileName).toBe('prices.xlsx');
    expect(sheet.disposition).toBe('attachment');
    const files = unzip(sheet.body);
    const xml = [...files.entries()]
      .filter(([name]) => name.startsWith('xl/'))
      .map(([, data]) => data.toString('utf8'))
      .join('\n');
    for (const p of PRODUCTS) {
      expect(xml).toContain(p.name.replace('&', '&amp;'));
      expect(xml).toContain(p.price.replace(/0+$/, '').replace(/\.$/, ''));
    }
    expect(xml).toContain('product');
    expect(xml).toContain('price');

    // The Send Email panel shows the run's output and its parameters.
    await node(page, 'Send Email').locator('[class*="nodeCard"]').dblclick();
    await expect(ndv(page)).toBeVisible();
    await expect(ndv(page).getByTestId('parameter-input-fromEmail')).toBeVisible();
    await expect(ndv(page).getByTestId('parameter-input-emailFormat')).toBeVisible();
    await expect(ndv(page).getByTestId('output-panel')).toContainText('accepted');
    await page.screenshot({ path: '/tmp/mail-shots/send-email.png' });
  });
});
