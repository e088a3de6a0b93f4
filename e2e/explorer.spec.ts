import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { API_HEADERS, createReport, openAcme } from './support';

// A step that cannot happen fails soon rather than at the test's end.
test.use({ actionTimeout: 30_000 });

/** The engine loads the dataset before the first cells: slow on a busy machine. */
const ENGINE_TIMEOUT = { timeout: 120_000 };

// Blueprint's table draws frozen columns twice (an overlay on the left); the main quadrant has every column once.
const mainQuadrant = (page: Page) => page.locator('.bp6-table-quadrant-main');
const headerNames = (page: Page) => mainQuadrant(page).locator('.bp6-table-column-name-text').allInnerTexts();
// Header cells carry the column's class too: body cells are those of the virtual client. Frozen columns' cells
// are drawn in the left quadrant only, so a row is read cell by cell from whichever quadrant has it.
/**
 * A column's cells from the top row down. Blueprint draws the cells in batches, so after a sort their order in the
 * document is not the rows' order: each cell's row is read from its class.
 */
const columnCells = (page: Page, column: number) =>
  mainQuadrant(page)
    .locator(`.bp6-table-body-virtual-client .bp6-table-cell-col-${column}`)
    .evaluateAll((cells) =>
      cells
        .map((cell) => ({
          row: Number(/bp6-table-cell-row-(\d+)/.exec(cell.className)?.[1]),
          text: (cell as HTMLElement).innerText,
        }))
        .sort((a, b) => a.row - b.row)
        .map((cell) => cell.text),
    );
async function cellsOfRow(page: Page, row: number): Promise<string[]> {
  const columns = (await headerNames(page)).length;
  const cell = (col: number) =>
    page.locator(`.bp6-table-body-virtual-client .bp6-table-cell-row-${row}.bp6-table-cell-col-${col}`).first();
  return Promise.all(Array.from({ length: columns }, (_, col) => cell(col).innerText()));
}
const rowCount = (page: Page) => page.getByLabel('Total rows');
/** An integer as the grid shows it, whatever the locale's grouping separator. */
const integer = (text: string) => Number(text.replace(/\D/g, ''));

// Headers take pointer events in the top quadrant (the frozen ones in the top-left one, drawn over it). The menu
// button shows on hover; the menu returned is the one that button opened.
async function headerMenu(page: Page, name: string): Promise<Locator> {
  const header = page.locator('.bp6-table-quadrant-top .bp6-table-header', { hasText: name }).first();
  await header.hover();
  const button = header.getByRole('button', { name: `Column menu: ${name}`, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('menu').last();
}

/** Picks a column menu's item and waits for the menu to close, so the grid has the edit before the next step. */
async function pickFromHeaderMenu(page: Page, name: string, item: string) {
  const button = page.getByRole('button', { name: `Column menu: ${name}`, exact: true }).first();
  await (await headerMenu(page, name)).getByRole('menuitem', { name: item }).click();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
}

/** The name of the header at a column index, read by its index rather than its place among the drawn headers. */
const headerAt = async (page: Page, column: number) =>
  (
    await mainQuadrant(page)
      .locator(`.bp6-table-header.bp6-table-cell-col-${column} .bp6-table-column-name-text`)
      .allInnerTexts()
  )[0];

interface SavedConfig {
  pivotMode?: boolean;
  valueColumns?: string[];
  filterModel?: Record<string, unknown> | null;
  columns?: { colId: string; rowGroup?: boolean; pivot?: boolean; pinned?: string | null; width?: number }[];
}

async function savedConfig(page: Page, workspaceId: number, id: number): Promise<SavedConfig> {
  const response = await page.request.get(`/api/workspaces/${workspaceId}/reports/explorer_view/${id}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { config: SavedConfig } }).data.config;
}

async function download(page: Page, label: string): Promise<string> {
  await page.getByRole('button', { name: 'Export' }).click();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: label }).click();
  const path = await (await downloaded).path();
  expect(path).toBeTruthy();
  return path!;
}

/** A new explorer view over the last 90 days unless `config` says otherwise; its id. */
async function createView(page: Page, workspaceId: number, title: string, config: object): Promise<number> {
  const dateRanges = { main: { preset: 'last_90_days' } };
  return (await createReport(page, workspaceId, 'explorer_view', title, { dateRanges, ...config })).id;
}

test('build a pivot, keep it through save and reload, export it both ways', async ({ page }) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const workspaceId = await openAcme(page);
  const title = `Explorer ${Date.now().toString(36)}`;
  const reportId = await createView(page, workspaceId, title, {});
  await page.goto(`/workspaces/${workspaceId}/reports/explorer_view/${reportId}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();

  // Group by two dimensions and show three values.
  await page.getByRole('button', { name: 'Columns' }).click();
  const panel = page.getByRole('complementary', { name: 'Columns panel' });
  // Blueprint draws its own box over the checkbox input: the label takes the click.
  for (const name of ['Country', 'Campaign type', 'Sent', 'Open rate', 'Revenue']) {
    await panel.locator('label').getByText(name, { exact: true }).click();
    await expect(panel.getByRole('checkbox', { name, exact: true })).toBeChecked();
  }
  await expect(rowCount(page)).toHaveText(/Rows: [1-9]/, ENGINE_TIMEOUT);
  await expect.poll(() => headerNames(page)).toEqual(['Country › Campaign type', 'Sent', 'Open rate', 'Revenue']);

  // Pin Revenue to the left: it moves next to the group column.
  await pickFromHeaderMenu(page, 'Revenue', 'Pin left');
  await expect.poll(() => headerNames(page)).toEqual(['Country › Campaign type', 'Revenue', 'Sent', 'Open rate']);

  // Expand the first firstCountry: its campaign types come under it, indented, as leaves; collapsing folds them away.
  const groupCell = (row: number) =>
    page.locator(`.bp6-table-body-virtual-client .bp6-table-cell-row-${row}.bp6-table-cell-col-0`).first();
  const firstCountry = (await groupCell(0).innerText()).trim();
  await groupCell(0)
    .getByRole('button', { name: `Expand ${firstCountry}` })
    .click();
  await expect(groupCell(0).getByRole('button', { name: `Collapse ${firstCountry}` })).toBeVisible();
  await expect(groupCell(1).locator('.or-explorer-group-value')).toHaveCSS('padding-left', '20px', ENGINE_TIMEOUT);
  await expect(groupCell(1).getByRole('button')).toHaveCount(0);
  await groupCell(0)
    .getByRole('button', { name: `Collapse ${firstCountry}` })
    .click();
  await expect(groupCell(1).getByRole('button', { name: /^Expand / })).toBeVisible(ENGINE_TIMEOUT);

  // Filter the rows to promotions.
  await panel.getByRole('textbox', { name: 'Filter Campaign type' }).fill('promotion');

  // Pivot by weekday: a column per weekday and value (the table draws only the columns in view).
  await panel.getByLabel('Pivot by').selectOption({ label: 'Send weekday' });
  await expect.poll(async () => (await headerNames(page))[1], ENGINE_TIMEOUT).toMatch(/ · Sent$/);
  await page.getByRole('button', { name: 'Columns' }).click();
  const names = await headerNames(page);
  const sentColumn = 1;

  // Sort the top level by the first weekday's Sent, largest first.
  await pickFromHeaderMenu(page, names[sentColumn], 'Sort descending');
  await expect
    .poll(async () => {
      const texts = await columnCells(page, sentColumn);
      const values = texts.filter(Boolean).map(integer);
      return values.length > 1 && values.every((value, i) => i === 0 || values[i - 1] >= value);
    }, ENGINE_TIMEOUT)
    .toBe(true);

  // Widen the group column by dragging its edge.
  const group = page.locator('.bp6-table-quadrant-top-left .bp6-table-header').first();
  const box = (await group.boundingBox())!;
  await group.hover();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 78, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  const saved = await savedConfig(page, workspaceId, reportId);
  expect(saved.pivotMode).toBe(true);
  expect(saved.valueColumns).toEqual(['sent', 'open_rate', 'revenue']);
  expect(saved.filterModel).toEqual({ campaign_type: { filterType: 'text', type: 'contains', filter: 'promotion' } });
  const column = (id: string) => saved.columns?.find((c) => c.colId === id);
  expect(column('send_weekday')?.pivot).toBe(true);
  expect(column('revenue')?.pinned).toBe('left');
  expect(saved.columns?.filter((c) => c.rowGroup).map((c) => c.colId)).toEqual(['country', 'campaign_type']);
  expect(column('__group')?.width).toBeGreaterThan(240);

  const before = {
    rows: await rowCount(page).innerText(),
    headers: await headerNames(page),
    first: await cellsOfRow(page, 0),
  };
  await page.reload();
  await expect(rowCount(page)).toHaveText(before.rows, ENGINE_TIMEOUT);
  await expect.poll(() => headerNames(page), ENGINE_TIMEOUT).toEqual(before.headers);
  await expect.poll(() => cellsOfRow(page, 0), ENGINE_TIMEOUT).toEqual(before.first);

  // The export is what the grid shows: its leaf rows add up to the grid's first group.
  const weekday = before.headers[sentColumn].replace(/ · Sent$/, '');
  const country = before.first[0].trim();
  const gridSent = integer(before.first[sentColumn]);

  // Two group columns, then seven weekdays of three values, under two header rows.
  const csv = fs
    .readFileSync(await download(page, 'Export to CSV'), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0].split(',')).toHaveLength(2 + 7 * 3);
  expect(csv[0].split(',')).toContain(weekday);
  expect(csv[1].split(',').slice(2, 5)).toEqual(['Sent', 'Open rate', 'Revenue']);

  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download(page, 'Export to Excel'));
  const sheet = book.getWorksheet('export');
  expect(sheet).toBeDefined();
  // The pivot header: each weekday's name spans its three value columns.
  const merges = (sheet!.model as unknown as { merges: string[] }).merges;
  expect(merges.length).toBeGreaterThanOrEqual(7);
  let excelColumn = 0;
  sheet!.getRow(2).eachCell((cell, index) => {
    if (cell.value === 'Sent' && String(sheet!.getRow(1).getCell(index).value) === weekday) excelColumn = index;
  });
  expect(excelColumn).toBeGreaterThan(0);
  const firstColumn = new Set<unknown>();
  sheet!.eachRow((row) => firstColumn.add(row.getCell(1).value));
  expect([...firstColumn]).toContain(country);
  let total = 0;
  sheet!.eachRow((row, index) => {
    if (index <= 2 || row.getCell(1).value !== country) return;
    const value = row.getCell(excelColumn).value;
    if (value !== null) {
      expect(typeof value).toBe('number');
      total += value as number;
    }
  });
  expect(total).toBe(gridSent);
  // In the grid's order: countries come as the grid sorts them (by the first weekday's Sent, largest first).
  const shownRows = Math.min(8, integer(before.rows));
  const gridFirstColumn = await Promise.all(
    Array.from({ length: shownRows }, (_, row) =>
      page
        .locator(`.bp6-table-body-virtual-client .bp6-table-cell-row-${row}.bp6-table-cell-col-0`)
        .first()
        .innerText(),
    ),
  );
  const gridCountries = gridFirstColumn.map((text) => text.trim()).filter((text) => firstColumn.has(text));
  expect(gridCountries.length).toBeGreaterThan(1);
  expect([...firstColumn].filter((value) => gridCountries.includes(value as string))).toEqual(gridCountries);

  // Pin a pivot result column to the left: it moves next to the group column and stays frozen there.
  const later = (await headerNames(page))[4];
  await pickFromHeaderMenu(page, later, 'Pin left');
  await expect.poll(() => headerAt(page, 1)).toBe(later);
  await expect(page.locator('.bp6-table-quadrant-top-left .bp6-table-column-name-text').nth(1)).toHaveText(later);
});

test('a publicly shared view shows the same grid signed out, read-only, from a dataset of its fields only', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  const workspaceId = await openAcme(page);
  const title = `Public explorer ${Date.now().toString(36)}`;
  const reportId = await createView(page, workspaceId, title, {
    valueColumns: ['sent', 'open_rate'],
    columns: [{ colId: 'country', rowGroup: true }],
    filterModel: { campaign_type: { filterType: 'set', values: ['promotion'] } },
  });
  const shared = await page.request.put(`/api/workspaces/${workspaceId}/permissions`, {
    headers: API_HEADERS,
    data: { accessLevel: 'read', subjectType: 'public', objectId: reportId, objectType: 'explorer_view' },
  });
  expect(shared.status()).toBe(200);
  await page.goto(`/workspaces/${workspaceId}/reports/explorer_view/${reportId}`);
  await expect(rowCount(page)).toHaveText(/Rows: [1-9]/, ENGINE_TIMEOUT);
  const member = { rows: await rowCount(page).innerText(), headers: await headerNames(page) };
  expect(member.headers).toEqual(['Country', 'Sent', 'Open rate']);
  await expect.poll(async () => (await cellsOfRow(page, 0)).every(Boolean), ENGINE_TIMEOUT).toBe(true);
  const firstRow = await cellsOfRow(page, 0);

  const context = await browser.newContext();
  try {
    const visitor = await context.newPage();
    await visitor.setViewportSize({ width: 1600, height: 1000 });
    await visitor.goto(`/reports/${reportId}`);
    await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
    await expect(rowCount(visitor)).toHaveText(member.rows, ENGINE_TIMEOUT);
    await expect.poll(() => headerNames(visitor)).toEqual(member.headers);
    await expect.poll(() => cellsOfRow(visitor, 0), ENGINE_TIMEOUT).toEqual(firstRow);
    // Read-only: no column menus, no panel.
    await expect(visitor.getByRole('button', { name: 'Columns' })).toBeDisabled();
    await expect(visitor.locator('.bp6-table-th-menu')).toHaveCount(0);
    // The public dataset names only what the grid shows or filters by.
    const schema = await visitor.request.get(
      `/api/reports/${reportId}/datasets/campaign_metrics_by_send_date?schema=true`,
    );
    expect(schema.status()).toBe(200);
    const ids = ((await schema.json()) as { fields: { id: string }[] }).fields.map((field) => field.id);
    expect(ids).toEqual(expect.arrayContaining(['country', 'campaign_type', 'sent', 'open_rate']));
    expect(ids).not.toContain('campaign_name');
    expect(ids).not.toContain('revenue');
  } finally {
    await context.close();
  }
});
