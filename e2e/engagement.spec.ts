import fs from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { openAcme } from './support';

/** Sizes show in the workspace's locale (Acme: nl_NL, '.' groups thousands). */
const sizeOf = async (page: Page, segment: string) =>
  Number(
    (
      await page
        .getByRole('row', { name: new RegExp(`^${segment}`) })
        .getByRole('cell')
        .first()
        .innerText()
    ).replace(/\./g, ''),
  );

async function downloadCsv(page: Page, button: string): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  return { name: download.suggestedFilename(), lines: text.trimEnd().split('\r\n') };
}

test('engagement: latest month, month and integration in the route, segment flows and CSV downloads', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const acme = await openAcme(page);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Engagement').click();

  // The first integration and its latest month.
  await expect(page).toHaveURL(new RegExp(`/workspaces/${acme}/engagement/int-1/\\d{4}-\\d{2}-01$`), {
    timeout: 60_000,
  });
  const latest = /\/(\d{4}-\d{2}-01)$/.exec(page.url())![1];
  const month = page.getByRole('combobox', { name: 'Month' });
  await expect(month).toHaveValue(latest);
  await expect(page.getByRole('button', { name: 'Next month' })).toBeDisabled();
  await expect(page.getByRole('img', { name: /^Segment sizes: New / })).toBeVisible();

  // A month back, then browser back returns to the latest month.
  await page.getByRole('button', { name: 'Previous month' }).click();
  await expect(page).not.toHaveURL(new RegExp(`${latest}$`));
  const previous = /\/(\d{4}-\d{2}-01)$/.exec(page.url())![1];
  expect(previous < latest).toBe(true);
  await expect(month).toHaveValue(previous);
  await page.goBack();
  await expect(month).toHaveValue(latest);

  // Selecting a segment (by keyboard) changes the flow diagram.
  const flow = page.getByRole('region', { name: 'Flow of Engaged' });
  await expect(flow.getByText('Came from')).toBeVisible();
  const engagedFlows = await flow.innerText();
  await page.getByRole('row', { name: /^At risk/ }).focus();
  await page.keyboard.press('Enter');
  const atRisk = page.getByRole('region', { name: 'Flow of At risk' });
  await expect(atRisk.getByText('Went to')).toBeVisible();
  expect(await atRisk.innerText()).not.toBe(engagedFlows);

  // Downloads: every segment, then one, read back against the table's sizes.
  const total = await sizeOf(page, 'Total');
  const all = await downloadCsv(page, 'Download all segments');
  expect(all.name).toBe(`engagement_${latest}_all_segments.csv`);
  expect(all.lines[0]).toBe('contact_id,segment');
  expect(all.lines).toHaveLength(total + 1);
  const atRiskSize = await sizeOf(page, 'At risk');
  const one = await downloadCsv(page, 'Download At risk');
  expect(one.name).toBe(`engagement_${latest}_at_risk.csv`);
  expect(one.lines).toHaveLength(atRiskSize + 1);
  expect(new Set(one.lines.slice(1).map((line) => line.split(',')[1]))).toEqual(new Set(['At risk']));

  // The second integration ends earlier: switching lands on its own latest month.
  await page.getByRole('combobox', { name: 'Integration' }).selectOption({ label: 'Spotler MailPro' });
  await expect(page).toHaveURL(new RegExp(`/engagement/int-2/\\d{4}-\\d{2}-01$`));
  const otherLatest = /\/(\d{4}-\d{2}-01)$/.exec(page.url())![1];
  expect(otherLatest < latest).toBe(true);
  // A month it does not have redirects to its latest.
  await page.goto(`/workspaces/${acme}/engagement/int-2/${latest}`);
  await expect(page).toHaveURL(new RegExp(`/engagement/int-2/${otherLatest}$`));
  await page.goto(`/workspaces/${acme}/engaged`);
  await expect(page).toHaveURL(new RegExp(`/engagement/int-1/${latest}$`));
});

test('a workspace without the engagement flag has no entry and no page', async ({ page }) => {
  await openAcme(page);
  const me = (await (await page.request.get('/api/me')).json()) as { workspaces: { id: number; name: string }[] };
  const globex = me.workspaces.find((workspace) => workspace.name === 'Globex Demo')!.id;
  await page.goto(`/workspaces/${globex}/reports`);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Reports')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Engagement')).toHaveCount(0);
  await page.goto(`/workspaces/${globex}/engagement`);
  await expect(page.getByText('Page not found')).toBeVisible();
});
