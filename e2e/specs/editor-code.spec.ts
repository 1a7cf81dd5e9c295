import { expect, test, type Page } from '@playwright/test';
import { createWorkflow, getWorkflow, node, openNewWorkflow, pickInCreator, signIn, uniqueName } from '../support/editor';

test.beforeEach(async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');
const param = (page: Page, name: string) => ndv(page).getByTestId(`parameter-input-${name}`).last();
const input = (page: Page) => ndv(page).getByTestId('ndv-input-panel');

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page).getByTestId('node-title')).toHaveText(name);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/ed-code-${name}-${width}.png` });
  }
}

/** Start → Set (name, user.city, score) → the given node, run once so the last node has input data. */
async function ranWorkflow(page: Page, last: Record<string, unknown>): Promise<string> {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Code'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      {
        name: 'Data',
        type: 'n8n-nodes-base.set',
        typeVersion: 1,
        position: [460, 300],
        parameters: { values: { string: [{ name: 'name', value: 'Ada' }, { name: 'user.city', value: 'London' }], number: [{ name: 'score', value: 7 }] } },
      },
      { position: [680, 300], typeVersion: 1, ...last },
    ],
    connections: { Start: { main: [[{ node: 'Data', type: 'main', index: 0 }]] }, Data: { main: [[{ node: last.name as string, type: 'main', index: 0 }]] } },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Data')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();
  return workflow.id;
}

test('a Code node opens after adding it, starts with the example code and edits in CodeMirror with Tab and lint markers', async ({ page }) => {
  await openNewWorkflow(page);
  await node(page, 'Start').getByTestId('canvas-plus-button').click();
  await pickInCreator(page, 'code', 'Code', true);
  await expect(ndv(page).getByTestId('node-title')).toHaveText('Code');

  const editor = param(page, 'jsCode').getByTestId('code-editor');
  await expect(editor).toContainText("item.json.myNewField = 1;");
  await expect(param(page, 'jsCode').locator('.cm-lineNumbers')).toContainText('7');

  // Tab indents and Shift-Tab outdents inside the editor; Escape then Tab leaves it.
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Tab');
  await page.keyboard.type('x');
  const text = () => editor.evaluate((el) => el.textContent);
  await expect.poll(text).toBe('  x');
  await expect(editor).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect.poll(text).toBe('x');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(editor).not.toBeFocused();
  await expect(ndv(page)).toBeVisible();

  // Brackets close themselves; a syntax error is marked.
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('return [{ a: (1 + ');
  await expect(editor).toHaveText('return [{ a: (1 + )}]');
  await expect(param(page, 'jsCode').locator('.cm-lintRange-error').first()).toBeVisible();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('return [{ a: 1 }]');
  await expect(param(page, 'jsCode').locator('.cm-lintRange-error')).toHaveCount(0);

  await shoot(page, 'code-node');
});

test("completes n8n's variables and the input's field names in the Code node", async ({ page }) => {
  await ranWorkflow(page, { name: 'Code', type: 'n8n-nodes-base.code', parameters: { jsCode: 'return $input.all();' } });
  await openNode(page, 'Code');
  const editor = param(page, 'jsCode').getByTestId('code-editor');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('const n = $json.');
  const list = page.locator('.cm-tooltip-autocomplete');
  await expect(list).toBeVisible();
  // The input's fields in the order the input panel shows them.
  const columns = await input(page).getByTestId('ndv-table-header').allInnerTexts();
  expect([...columns].sort()).toEqual(['name', 'score', 'user']);
  await expect(list.locator('li .cm-completionLabel')).toHaveText(columns);
  await shoot(page, 'code-completion');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(editor).toHaveText(`const n = $json.${columns[1]}`);

  await page.keyboard.press('Enter');
  await page.keyboard.type('const f = $input.f');
  await expect(list.locator('li .cm-completionLabel')).toHaveText(['first()']);
  await page.keyboard.press('Enter');
  await page.keyboard.type('.json.sc');
  await expect(list.locator('li .cm-completionLabel')).toHaveText(['score']);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('const d = $now.toF');
  await expect(list.locator('li .cm-completionLabel')).toHaveText(['toFormat()']);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await page.keyboard.type('const o = $("D');
  await expect(list.locator('li .cm-completionLabel')).toHaveText(['Data']);
  await page.keyboard.press('Enter');
  await expect(editor).toContainText('const o = $("Data")');

  // The larger editor in a dialog edits the same code.
  await param(page, 'jsCode').getByTestId('parameter-open-edit-window').click();
  await expect(page.getByTestId('edit-dialog-code')).toContainText('$input.first().json.score');
  await page.getByTestId('edit-dialog-close').click();
});

test('drags input fields onto a parameter as expressions and edits them with highlighting and completion', async ({ page }) => {
  const id = await ranWorkflow(page, { name: 'Target', type: 'n8n-nodes-base.set', parameters: { values: { string: [{ name: 'greeting', value: '' }] } } });
  await openNode(page, 'Target');
  const target = param(page, 'value');
  await expect(input(page).getByTestId('ndv-data-table')).toBeVisible();

  // A table column onto an empty fixed value: the value becomes the expression.
  await input(page).getByTestId('ndv-table-header').filter({ hasText: /^name$/ }).dragTo(target);
  await expect(target.getByTestId('inline-expression')).toContainText('{{ $json["name"] }}');
  await expect(target.getByTestId('inline-expression-preview')).toHaveText('Ada');

  // A nested JSON key onto the expression: appended at the end.
  await input(page).getByTestId('ndv-run-data-display-mode').getByText('JSON').click();
  await input(page).getByTestId('ndv-json-key').filter({ hasText: '"city"' }).dragTo(target);
  await expect(target.getByTestId('inline-expression')).toContainText('{{ $json["name"] }} {{ $json["user"]["city"] }}');
  await expect(target.getByTestId('inline-expression-preview')).toHaveText('Ada London');

  // The expression editor highlights the segments and completes inside {{ }}.
  await target.getByTestId('inline-expression').click();
  const editor = page.getByTestId('expression-modal-input');
  await expect(editor).toBeFocused();
  await expect(page.locator('.cm-fm-segment[data-state="valid"]')).toHaveCount(2);
  await page.keyboard.press('End');
  await page.keyboard.type(' {{ $json.sc');
  await expect(page.locator('.cm-tooltip-autocomplete li .cm-completionLabel')).toHaveText(['score']);
  await page.keyboard.press('Enter');
  await page.keyboard.type(' }}');
  await expect(page.getByTestId('expression-modal-output')).toContainText('Ada London 7');
  await shoot(page, 'expression-editor');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await page.setViewportSize({ width: 1440, height: 900 });

  // The hint while dragging: every parameter that takes a field shows where it can go.
  const header = input(page).getByTestId('ndv-run-data-display-mode').getByText('Table');
  await header.click();
  const column = input(page).getByTestId('ndv-table-header').filter({ hasText: /^score$/ });
  // Dispatched drag events, so the page can be looked at while the drag is on.
  const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
  await column.dispatchEvent('dragstart', { dataTransfer });
  await expect(page.locator('body')).toHaveAttribute('data-mapping-drag', 'true');
  await param(page, 'name').dispatchEvent('dragover', { dataTransfer });
  await expect(param(page, 'name')).toHaveAttribute('data-drop-over', 'true');
  await shoot(page, 'drag-hint');
  await param(page, 'name').dispatchEvent('drop', { dataTransfer });
  await column.dispatchEvent('dragend', { dataTransfer });
  await expect(page.locator('body')).not.toHaveAttribute('data-mapping-drag', 'true');

  await ndv(page).getByTestId('back-to-canvas').click();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const stored = await getWorkflow(page.request, id);
  const targetNode = stored.nodes.find((n) => n.name === 'Target');
  expect(targetNode?.parameters).toEqual({ values: { string: [{ name: '={{ $json["score"] }}', value: '={{ $json["name"] }} {{ $json["user"]["city"] }} {{ $json.score }}' }] } });
});

test("the Docs tab and the Help menu open Flowmill's own documentation", async ({ page, context }) => {
  await ranWorkflow(page, { name: 'Target', type: 'n8n-nodes-base.set', parameters: {} });
  await page.getByTestId('main-sidebar-help').click();
  await expect(page.getByTestId('help-menu-docs')).toHaveAttribute('href', /\/docs\/nodes$/);
  await expect(page.getByTestId('help-menu-forum')).toHaveAttribute('href', 'https://github.com/flowmill/flowmill/issues');
  await page.keyboard.press('Escape');

  await openNode(page, 'Target');
  const popup = context.waitForEvent('page');
  await ndv(page).getByTestId('ndv-tab-docs').click();
  const docs = await popup;
  await expect(docs).toHaveURL(/\/docs\/nodes\/n8n-nodes-base\.set$/);
  await expect(docs.locator('h1')).toHaveText('Edit Fields (Set)');
  await expect(docs.locator('h2').first()).toHaveText('Example');
  await expect(docs.locator('table')).toContainText('Fields to Set');
  for (const width of [1280, 1440]) {
    await docs.setViewportSize({ width, height: 900 });
    await docs.screenshot({ path: `/tmp/ed-code-docs-${width}.png`, fullPage: true });
  }
  await docs.close();
});
