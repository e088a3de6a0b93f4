import { expect, test } from '@playwright/test';
import { createReport, drawerNamed, openAcme } from './support';

test('share with a member and publicly; the link works signed out and fails once revoked', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  const workspaceId = await openAcme(page);
  const title = `Shared ${Date.now().toString(36)}`;
  const { id: reportId } = await createReport(page, workspaceId, 'dashboard', title, {
    // The public file holds only the rows these filters pass; the widget must show what members see.
    filters: [{ member: 'country', operator: 'notEquals', values: ['NL'] }],
    widgets: [{ id: 'w1', type: 'table', title: 'Sent by country', dimensions: ['country'], metrics: ['sent'] }],
  });

  await page.goto(
    `/workspaces/${workspaceId}/reports/dashboard/${reportId}` +
      `?drawer.type=share&drawer.objectType=dashboard&drawer.objectId=${reportId}`,
  );
  const drawer = drawerNamed(page, 'Sharing');
  await expect(drawer.getByText('Only you can access this report')).toBeVisible();
  const people = drawer.getByRole('region', { name: 'People with access' }).getByRole('listitem');
  await expect(people.first()).toContainText('(You)');
  await expect(people.first()).toContainText('Full access');
  await expect(people.last()).toContainText('Everyone in the workspace');

  // Sanne de Vries is the other seeded member of Acme Retail.
  const share = drawer.getByRole('button', { name: 'Share' });
  await expect(share).toBeDisabled();
  await drawer.getByText('Sanne de Vries').click();
  await expect(drawer.getByRole('button', { name: 'Access of the people chosen' })).toHaveText('Can view');
  await expect(share).toBeEnabled();
  await share.click();
  await expect(people.filter({ hasText: 'Sanne de Vries' })).toContainText('Can view');
  await expect(drawer.getByText('Only selected people can access this report')).toBeVisible();
  await expect(drawer.getByText('There are no other people in this workspace to share this view with.')).toBeVisible();
  const entries = (await (
    await page.request.get(`/api/workspaces/${workspaceId}/permissions?object_type=dashboard&object_id=${reportId}`)
  ).json()) as { data: { subjectName: string; accessLevel: string }[] };
  expect(entries.data.find((entry) => entry.subjectName === 'Sanne de Vries')?.accessLevel).toBe('read');

  // The public link: on, its address, and the page a signed-out visitor sees.
  const address = drawer.getByRole('textbox', { name: 'Public link address' });
  await expect(address).toBeHidden();
  await drawer.getByText('Public link', { exact: true }).click();
  await expect(address).toBeVisible();
  await expect(drawer.getByText('Anyone on the internet with the link can access this report')).toBeVisible();
  const url = await address.inputValue();
  expect(url).toBe(new URL(`/reports/${reportId}`, page.url()).href);

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  // The widget's dataset comes through the public link, without sign-in.
  const datasetPath = `/api/reports/${reportId}/datasets/campaign_metrics_by_send_date`;
  const datasetServed = visitor.waitForResponse((response) => new URL(response.url()).pathname === datasetPath);
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
  await expect(visitor.getByText('Acme Retail')).toBeVisible();
  await expect(visitor.getByText('Sent by country')).toBeVisible();
  expect((await datasetServed).status()).toBe(200);
  const memberTable = page.getByRole('region', { name: 'Sent by country' }).locator('table');
  const publicTable = visitor.getByRole('region', { name: 'Sent by country' }).locator('table');
  // Both engines load the dataset first: slow on a busy machine.
  await expect(publicTable).toBeVisible({ timeout: 120_000 });
  await expect(memberTable).toBeVisible({ timeout: 120_000 });
  await expect.poll(() => publicTable.innerText()).toBe(await memberTable.innerText());
  await expect(publicTable.locator('tbody tr')).not.toHaveCount(0);
  await expect(visitor).toHaveURL(url);

  // Turning it off: the open page fails at its next refetch (every 10 s), and a reload too.
  await drawer.getByText('Public link', { exact: true }).click();
  await expect(address).toBeHidden();
  await expect(drawer.getByText('Only selected people can access this report')).toBeVisible();
  await expect(visitor.getByText('View not found')).toBeVisible({ timeout: 20_000 });
  await expect(visitor.getByRole('heading', { name: title })).toBeHidden();
  await expect(visitor.getByText('Sent by country')).toBeHidden();
  expect((await visitor.request.get(datasetPath)).status()).toBe(404);
  await visitor.reload();
  await expect(visitor.getByText('View not found')).toBeVisible();
  await expect(visitor.getByText(title)).toBeHidden();
  await visitorContext.close();
});
