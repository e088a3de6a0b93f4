import { expect, test, type Page } from '@playwright/test';
import { createReport, openAcme } from './support';

async function createDashboard(page: Page, workspaceId: number): Promise<number> {
  const title = `Picker ${Date.now().toString(36)}`;
  const widget = {
    id: 'text-1',
    type: 'rich_text',
    content: '<h2 style="text-align: center">Quarterly notes</h2><p style="text-align: center">Start here</p>',
    layout: { x: 0, y: 0, w: 24, h: 12 },
  };
  const dateRanges = { main: { preset: 'last_30_days' }, compare: { preset: 'preceding_period' } };
  const config = { widgets: [widget], flags: ['grid_layout'], dateRanges };
  return (await createReport(page, workspaceId, 'dashboard', title, config)).id;
}

const picker = (page: Page) => page.getByRole('dialog', { name: 'Date range picker' });

/** The text of the caret's block up to the caret, or null where the selection is not one caret in a block. */
const textBeforeCaret = (page: Page) =>
  page.evaluate(() => {
    const selection = getSelection();
    const block = selection?.focusNode?.parentElement?.closest('[data-slate-node="element"]');
    if (!selection?.isCollapsed || !selection.focusNode || !block) return null;
    const range = document.createRange();
    range.selectNodeContents(block);
    range.setEnd(selection.focusNode, selection.focusOffset);
    return range.toString();
  });

test('the date range picker: presets, Escape, comparison, week numbers; rich text links', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const workspaceId = await openAcme(page);
  const id = await createDashboard(page, workspaceId);
  await page.goto(`/workspaces/${workspaceId}/reports/dashboard/${id}`);

  await expect(page.getByRole('heading', { name: 'Quarterly notes' })).toBeVisible();
  const button = page.getByRole('button', { name: /^Last 30 days: .* vs Preceding period$/ });
  await button.click();
  await expect(picker(page)).toBeVisible();
  // Three months at 1400 px.
  await expect(picker(page).locator('.or-range-month')).toHaveCount(3);
  await page.screenshot({ path: info.outputPath('picker.png') });

  await picker(page).getByText('Last week', { exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(picker(page)).toBeHidden();
  await expect(button).toBeVisible();

  await button.click();
  await picker(page).getByText('Last week', { exact: true }).click();
  await picker(page).getByRole('button', { name: 'Apply' }).click();
  const lastWeek = page.getByRole('button', { name: /^Last week: .* vs Preceding period$/ });
  await expect(lastWeek).toBeVisible();

  await lastWeek.click();
  await picker(page).getByRole('tab', { name: 'Comparison' }).click();
  await picker(page).getByText('No comparison').click();
  await expect(picker(page).getByRole('tab', { name: 'Date range' })).toHaveAttribute('aria-selected', 'true');
  await picker(page).getByLabel('To').fill('2001-01-01');
  await picker(page).getByLabel('From').fill('2001-01-10');
  await expect(picker(page).getByText('End date cannot be earlier than start date.')).toBeVisible();
  await expect(picker(page).getByRole('button', { name: 'Apply' })).toBeDisabled();
  await picker(page).getByLabel('From').fill('2001-01-01');
  await picker(page).getByLabel('To').press('Enter');
  await expect(page.getByRole('button', { name: /^Custom: 1 Jan 2001 – 1 Jan 2001$/ })).toBeVisible();

  // A week number of the month shown selects that week.
  await page.getByRole('button', { name: /^Custom:/ }).click();
  await picker(page).locator('.or-range-week').first().click();
  await picker(page).getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: /^Custom: 30 Oct 2000 – 5 Nov 2000$/ })).toBeVisible();

  // Rich text in edit mode: an https URL followed by a space becomes a link.
  await page
    .getByRole('radio', { name: 'Edit' })
    .or(page.getByText('Edit', { exact: true }))
    .first()
    .click();
  const editor = page.getByRole('textbox', { name: 'Rich text' });
  await expect(editor).toBeVisible();
  await editor.getByText('Start here').click();
  // A user types once the caret is at the end of the line. Slate takes the caret from the page up to 100 ms after it
  // moves, and a render in between puts it back where the click left it; so End is pressed until the caret stays.
  await expect(async () => {
    await page.keyboard.press('End');
    await page.waitForTimeout(150);
    expect(await textBeforeCaret(page)).toBe('Start here');
  }).toPass({ timeout: 10_000 });
  await page.keyboard.type(' see https://example.com/notes and http://example.com ');
  await expect(editor.getByRole('link', { name: 'https://example.com/notes' })).toHaveAttribute(
    'href',
    'https://example.com/notes',
  );
  await expect(editor.getByRole('link', { name: 'http://example.com' })).toHaveCount(0);
  // A user reaches the toolbar after the content was saved (200 ms after the last key).
  await page.waitForTimeout(500);
  await page.getByRole('combobox', { name: 'Block type' }).selectOption('subtitle');
  await expect(editor.locator('h6')).toHaveText(/Start here see https:\/\/example.com\/notes/);
  await page.screenshot({ path: info.outputPath('rich-text.png') });

  // Saved as HTML with the dates; after a reload the text is read-only and the same.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await page.reload();
  const saved = page.getByLabel('Rich text');
  await expect(saved.locator('h6')).toHaveText(/Start here see https:\/\/example.com\/notes and http:\/\/example.com/);
  await expect(saved.getByRole('link', { name: 'https://example.com/notes' })).toBeVisible();
  await expect(saved).toHaveAttribute('contenteditable', 'false');
  await expect(page.getByRole('button', { name: /^Custom: 30 Oct 2000 – 5 Nov 2000$/ })).toBeVisible();
});
