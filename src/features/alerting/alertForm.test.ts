import { getCatalogueDataset } from '../../contracts/catalogue';
import { setupStore } from '../../store/store';
import { sendSchema } from '../widget-config/testSchema';
import {
  alertIssues,
  alertMessages,
  copyOfDraft,
  describeRule,
  hasIssues,
  newAlertDraft,
  showsDateField,
} from './alertForm';
import { alertDraftEdited, alertFormKey, alertFormOpened, alertFormReset, selectAlertForm } from './alertFormSlice';

const valid = {
  ...newAlertDraft('mia@example.com'),
  conditions: [{ member: 'sent', operator: 'gt', values: ['100'] }],
};

describe('a new alert (spec 3 §3)', () => {
  test('starts with the spec’s defaults and the current user as recipient', () => {
    expect(newAlertDraft('mia@example.com')).toMatchObject({
      title: 'New alert',
      dataset: 'campaign_metrics_by_send_date',
      dateField: 'send_date',
      duration: '1',
      enabled: true,
      recipients: ['mia@example.com'],
      filters: [],
      conditions: [],
    });
  });

  test('a copy keeps everything and adds " (copy)" to the title', () => {
    expect(copyOfDraft(valid)).toEqual({ ...valid, title: 'New alert (copy)' });
  });
});

describe('the alert form’s rules (spec 3 §5)', () => {
  test('a valid rule has no issues', () => {
    expect(hasIssues(alertIssues(valid, sendSchema))).toBe(false);
  });

  test('each broken field says so in the spec’s words', () => {
    const issues = alertIssues(
      { ...valid, title: ' ', conditions: [], recipients: ['mia@example.com', 'nope'], duration: '366' },
      sendSchema,
    );
    expect(issues).toMatchObject({
      title: 'Please provide a title',
      conditions: 'Add at least one condition',
      recipients: 'Please ensure every entry is a valid e-mail address.',
      duration: alertMessages.duration,
    });
    expect(hasIssues(issues)).toBe(true);
  });

  test('duration runs from 1 to 365 whole days; the webhook is a URL or empty', () => {
    for (const duration of ['0', '1.5', '', 'x'])
      expect(alertIssues({ ...valid, duration }, sendSchema).duration).toBe(alertMessages.duration);
    for (const duration of ['1', '365'])
      expect(alertIssues({ ...valid, duration }, sendSchema).duration).toBeUndefined();
    expect(alertIssues({ ...valid, webhookUrl: 'ftp://x.test' }, sendSchema).webhookUrl).toBe(alertMessages.webhookUrl);
    expect(alertIssues({ ...valid, webhookUrl: 'https://hooks.example.com/a' }, sendSchema).webhookUrl).toBeUndefined();
  });

  test('conditions and dimension must exist in the dataset; set and notSet need no values', () => {
    const issues = alertIssues(
      {
        ...valid,
        dimension: 'nowhere',
        conditions: [
          { member: 'sent', operator: 'set', values: [] },
          { member: 'gone', operator: 'gt', values: [] },
        ],
      },
      sendSchema,
    );
    expect(issues.dimension).toBe('This field is not in the dataset');
    expect(issues.conditionRows).toEqual([
      {},
      { member: 'This field is not in the dataset', values: 'This field is required' },
    ]);
  });

  test('the date field is offered with two or more date fields, never for the event-date dataset', () => {
    expect(showsDateField(sendSchema)).toBe(true);
    expect(showsDateField({ ...sendSchema, fields: sendSchema.fields.filter((f) => f.id !== 'created_date') })).toBe(
      false,
    );
    expect(showsDateField({ ...sendSchema, id: 'campaign_metrics_by_event_date' })).toBe(false);
  });
});

test('the list’s sentence names the conditions with their labels, the days and the grouping', () => {
  const schema = getCatalogueDataset('campaign_metrics_by_send_date')!;
  const metric = schema.fields.find((field) => field.type === 'metric')!;
  const dimension = schema.fields.find((field) => field.type === 'dimension' && field.format === 'string')!;
  const rule = {
    dataset: schema.id,
    conditions: [{ member: metric.id, operator: 'gt', values: ['5'] }],
    dimension: dimension.id,
    duration: '7',
  };
  expect(describeRule(rule)).toBe(
    `Triggers when ${metric.label} greater than 5 over 7 days per ${dimension.label} in ${schema.title}.`,
  );
  expect(describeRule({ ...rule, conditions: [] })).toBe(`No conditions on ${schema.title} yet.`);
  const percent = schema.fields.find((field) => field.type === 'metric' && field.format === 'percent')!;
  const onPercent = { ...rule, conditions: [{ member: percent.id, operator: 'lt', values: ['0.2'] }], duration: '1' };
  expect(describeRule(onPercent)).toMatch(
    new RegExp(`^Triggers when ${percent.label} less than 20% over the day per `),
  );
});

describe('the drawer’s form state', () => {
  test('edits, Reset returns to what the drawer opened with, and reopening the same rule keeps the draft', () => {
    const store = setupStore();
    const key = alertFormKey(3, '12', false);
    store.dispatch(alertFormOpened({ key, ruleId: '12', draft: valid }));
    store.dispatch(alertDraftEdited({ title: 'Opens dropped' }));
    store.dispatch(alertFormOpened({ key, ruleId: '12', draft: valid }));
    expect(selectAlertForm(store.getState()).draft?.title).toBe('Opens dropped');
    store.dispatch(alertFormReset());
    expect(selectAlertForm(store.getState()).draft).toEqual(valid);
    store.dispatch(alertFormOpened({ key: alertFormKey(3, '12', true), ruleId: 'r2', draft: copyOfDraft(valid) }));
    expect(selectAlertForm(store.getState()).draft?.title).toBe('New alert (copy)');
  });
});
