import { expect, test, type Page } from '@playwright/test';
import { API_HEADERS, createReport, openAcme } from './support';

const picker = (page: Page) => page.getByRole('dialog', { name: 'Date range picker' });
const rangeButton = (page: Page, label: string) =>
  page.getByRole('button', { name: new RegExp(`^${label}: .* vs Preceding period$`) });

/** Picks a main-range preset in the toolbar's date picker: one local edit of the report. */
async function pickRange(page: Page, from: string, to: string) {
  await rangeButton(page, from).click();
  await picker(page).getByText(to, { exact: true }).click();
  await picker(page).getByRole('button', { name: 'Apply' }).click();
  await expect(rangeButton(page, to)).toBeVisible();
}

async function savedPreset(page: Page, workspaceId: number, id: number): Promise<string | undefined> {
  const response = await page.request.get(`/api/workspaces/${workspaceId}/reports/dashboard/${id}`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: { config: { dateRanges?: { main?: { preset?: string } } } } };
  return body.data.config.dateRanges?.main?.preset;
}

test('edit, undo and redo, keep unsaved changes across a reload, resolve a conflict both ways', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const workspaceId = await openAcme(page, 'demo@example.com');
  const title = `Undo ${Date.now().toString(36)}`;
  const { id: reportId, path: reportUrl } = await createReport(page, workspaceId, 'dashboard', title, {
    widgets: [{ id: 'text-1', type: 'rich_text', content: '<p>Notes</p>', layout: { x: 0, y: 0, w: 24, h: 6 } }],
    dateRanges: { main: { preset: 'last_30_days' }, compare: { preset: 'preceding_period' } },
  });

  await page.goto(reportUrl);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  const toolbar = page.getByRole('toolbar', { name: 'Report toolbar' });
  const undo = toolbar.getByRole('button', { name: 'Undo' });
  const redo = toolbar.getByRole('button', { name: 'Redo' });
  const discard = toolbar.getByRole('button', { name: 'Discard' });
  // Shared with nobody: the plain Save.
  const save = toolbar.getByRole('button', { name: 'Save', exact: true });
  await expect(undo).toBeDisabled();
  await expect(redo).toBeDisabled();
  await expect(discard).toBeDisabled();
  await expect(save).toBeDisabled();

  // Two edits, then undo and redo with the buttons and with the keys.
  await pickRange(page, 'Last 30 days', 'Last week');
  await expect(undo).toBeEnabled();
  await expect(save).toBeEnabled();
  await pickRange(page, 'Last week', 'Last 7 days');
  await undo.click();
  await expect(rangeButton(page, 'Last week')).toBeVisible();
  await expect(redo).toBeEnabled();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(rangeButton(page, 'Last 30 days')).toBeVisible();
  await expect(undo).toBeDisabled();
  await expect(save).toBeDisabled();
  await redo.click();
  await expect(rangeButton(page, 'Last week')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(rangeButton(page, 'Last 7 days')).toBeVisible();
  await expect(redo).toBeDisabled();
  // ? lists the shortcuts in Blueprint's help dialog; Escape closes it.
  await page.keyboard.press('Shift+Slash');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByText('Undo').first()).toBeVisible();
  await expect(help.getByText('Save').first()).toBeVisible();
  // Blueprint moves the focus into its overlay on the next frame, and listens for Escape there: on a busy machine an
  // Escape pressed before that frame is lost.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-overlay') != null)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // Unsaved changes survive a reload, and can still be undone back to the saved report.
  await page.reload();
  await expect(rangeButton(page, 'Last 7 days')).toBeVisible();
  await expect(save).toBeEnabled();
  await expect(undo).toBeEnabled();
  expect(await savedPreset(page, workspaceId, reportId)).toBe('last_30_days');

  // Sanne, another member, gets edit access: the report is now shared, so saving is 'Save for everyone'.
  const members = (await (await page.request.get(`/api/workspaces/${workspaceId}/members`)).json()) as {
    data: { id: number; email: string }[];
  };
  const sanneId = members.data.find((member) => member.email === 'sanne@acme.example')?.id;
  const shared = await page.request.put(`/api/workspaces/${workspaceId}/permissions`, {
    headers: API_HEADERS,
    data: {
      accessLevel: 'read_write',
      subjectType: 'user',
      subjectId: sanneId,
      objectId: reportId,
      objectType: 'dashboard',
    },
  });
  expect(shared.ok()).toBe(true);
  const saveForEveryone = toolbar.getByRole('button', { name: 'Save for everyone' });
  await expect(saveForEveryone).toBeVisible({ timeout: 15_000 });

  const sanneContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const sanne = await sanneContext.newPage();
  await openAcme(sanne, 'sanne@acme.example');
  await sanne.goto(reportUrl);
  await pickRange(sanne, 'Last 30 days', 'Last month');
  const sanneSaved = sanne.waitForResponse(
    (response) => response.url().endsWith(`/reports/dashboard/${reportId}`) && response.request().method() === 'PUT',
  );
  await sanne.keyboard.press('ControlOrMeta+s');
  expect((await sanneSaved).ok()).toBe(true);
  await expect(
    sanne.getByRole('toolbar', { name: 'Report toolbar' }).getByRole('button', { name: 'Save for everyone' }),
  ).toBeDisabled();

  // The 10 s refetch brings Sanne's version: the notice names her and offers both ways out.
  const notice = page.getByRole('alert').filter({ hasText: 'saved a newer version of this report' });
  await expect(notice).toContainText('Sanne de Vries saved a newer version of this report.', { timeout: 20_000 });
  await expect(notice.getByRole('button', { name: 'Save as new version' })).toBeVisible();
  await page.screenshot({ path: info.outputPath('newer-version-notice.png') });
  await notice.getByRole('button', { name: 'Load new version' }).click();
  await expect(notice).toBeHidden();
  await expect(rangeButton(page, 'Last month')).toBeVisible();
  await expect(saveForEveryone).toBeDisabled();
  await expect(undo).toBeDisabled();

  // Again, and this time keep the local change as a new view.
  await pickRange(page, 'Last month', 'Last week');
  await pickRange(sanne, 'Last month', 'Last quarter');
  await sanne
    .getByRole('toolbar', { name: 'Report toolbar' })
    .getByRole('button', { name: 'Save for everyone' })
    .click();
  await expect(notice).toContainText('Sanne de Vries saved a newer version of this report.', { timeout: 20_000 });
  // Saving over her version is refused, not a silent overwrite.
  const refused = page.waitForResponse(
    (response) => response.url().endsWith(`/reports/dashboard/${reportId}`) && response.request().method() === 'PUT',
  );
  await saveForEveryone.click();
  expect((await refused).status()).toBe(409);
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/reports/dashboard/${reportId}$`));
  await expect(page).toHaveURL(/\/reports\/dashboard\/\d+$/);
  const newId = Number(/\/reports\/dashboard\/(\d+)$/.exec(page.url())?.[1]);
  await expect(rangeButton(page, 'Last week')).toBeVisible();
  await expect(notice).toBeHidden();
  expect(await savedPreset(page, workspaceId, newId)).toBe('last_week');
  expect(await savedPreset(page, workspaceId, reportId)).toBe('last_quarter');

  // The original, opened again, is Sanne's version with no local changes left.
  await page.goto(reportUrl);
  await expect(rangeButton(page, 'Last quarter')).toBeVisible();
  await expect(saveForEveryone).toBeDisabled();

  // Discard drops a local change and its history.
  await pickRange(page, 'Last quarter', 'Last year');
  await expect(discard).toBeEnabled();
  await discard.click();
  await expect(rangeButton(page, 'Last quarter')).toBeVisible();
  await expect(discard).toBeDisabled();
  await expect(undo).toBeDisabled();
  await sanneContext.close();
});
