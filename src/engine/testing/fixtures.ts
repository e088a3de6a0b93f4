import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { addDays, rangeDays } from '../dates';
import { str } from '../sql';

/** A tiny deterministic generator, so the fixture rows and the expected numbers come from one seed. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const dim = (id: string, format: Field['format'] = 'string'): Field => ({
  id,
  name: id,
  category: 'Test',
  format,
  type: 'dimension',
  features: [],
});
export const metric = (id: string, agg: Field['agg'] = { type: 'sum' }, features: Field['features'] = []): Field => ({
  id,
  name: id,
  category: 'Test',
  format: 'number',
  type: 'metric',
  agg,
  features,
});

export const campaignSchema: DatasetSchema = {
  id: 'campaigns_fixture',
  tableId: 'campaigns_fixture',
  dateField: 'send_date',
  fields: [
    dim('send_date', 'date'),
    dim('campaign_id'),
    dim('campaign_name'),
    dim('country', 'country'),
    dim('send_weekday', 'weekday'),
    metric('sent'),
    metric('delivered'),
    metric('open'),
    metric('clicks_unique'),
    metric('revenue'),
    metric('max_revenue', { type: 'max' }),
    metric('min_sent', { type: 'min' }),
    metric('campaigns', { type: 'count_distinct', field: 'campaign_id' }),
    metric('open_rate', { type: 'weighted_avg', numerator: 'open', denominator: 'delivered' }),
  ],
};

export interface CampaignRow {
  send_date: string;
  campaign_id: string;
  campaign_name: string | null;
  country: string;
  send_weekday: number;
  sent: number;
  delivered: number;
  open: number;
  clicks_unique: number;
  revenue: number;
}

/** Campaign names include quotes and SQL fragments, so every query proves values stay values. */
export const campaignNames = [
  'Alpha',
  'Beta',
  'Gamma',
  'Delta',
  "O'Brien sale",
  'Drop"; DROP TABLE campaigns_fixture; --',
  'Epsilon',
  'Zeta',
  'Eta',
  'Theta',
  'Iota',
  'Kappa',
  'Lambda',
  'Mu',
  null,
];
const countries = ['NL', 'GB', 'DE'];

export const FIXTURE_RANGE = { start: '2023-12-01', end: '2024-03-31' };

export function campaignRows(): CampaignRow[] {
  const random = lcg(42);
  const rows: CampaignRow[] = [];
  for (let day = 0; day < rangeDays(FIXTURE_RANGE); day++) {
    const date = addDays(FIXTURE_RANGE.start, day);
    campaignNames.forEach((name, index) => {
      // Not every campaign sends every day: a sparse, uneven table like real sends.
      if (random() < 0.5) return;
      const country = countries[Math.floor(random() * countries.length)];
      const sent = 100 + Math.floor(random() * 900) + index * 50;
      const delivered = sent - Math.floor(random() * 20);
      const open = Math.floor(delivered * (0.1 + random() * 0.4));
      const clicks = Math.floor(open * random() * 0.3);
      rows.push({
        send_date: date,
        campaign_id: `c${index}`,
        campaign_name: name,
        country,
        send_weekday: new Date(`${date}T00:00:00Z`).getUTCDay(),
        sent,
        delivered,
        open,
        clicks_unique: clicks,
        revenue: Math.round(clicks * random() * 5000) / 100,
      });
    });
  }
  // One real outlier for the outlier filters.
  rows.push({ ...rows[10], campaign_id: 'c99', campaign_name: 'Outlier', sent: 250_000, delivered: 249_000 });
  return rows;
}

export const listSchema: DatasetSchema = {
  id: 'lists_fixture',
  tableId: 'lists_fixture',
  dateField: 'date',
  fields: [
    dim('date', 'date'),
    dim('list_name'),
    metric('members', { type: 'sum' }, ['gauge']),
    metric('members_in'),
    metric('members_out'),
    metric('members_delta'),
  ],
};

export interface ListRow {
  date: string;
  list_name: string;
  segment: string;
  members: number;
  members_in: number;
  members_out: number;
  members_delta: number;
}

/** Two lists, each split in two segment rows per day; list B skips some days, as real exports do. */
export function listRows(): ListRow[] {
  const random = lcg(7);
  const rows: ListRow[] = [];
  const members: Record<string, number> = { 'A:x': 1000, 'A:y': 500, 'B:x': 2000, 'B:y': 10 };
  for (let day = 0; day < 120; day++) {
    const date = addDays('2024-01-01', day);
    for (const key of Object.keys(members)) {
      const [list, segment] = key.split(':');
      if (list === 'B' && day % 5 === 4) continue;
      const membersIn = Math.floor(random() * 40);
      const membersOut = Math.floor(random() * 30);
      members[key] += membersIn - membersOut;
      rows.push({
        date,
        list_name: list,
        segment,
        members: members[key],
        members_in: membersIn,
        members_out: membersOut,
        members_delta: membersIn - membersOut,
      });
    }
  }
  return rows;
}

function literal(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return str(String(value));
}

/** CREATE TABLE and INSERT statements for fixture rows, with the given column types. */
export function tableSql(table: string, columns: Record<string, string>, rows: object[]): string[] {
  const names = Object.keys(columns);
  const create = `CREATE OR REPLACE TABLE ${table} (${names.map((name) => `"${name}" ${columns[name]}`).join(', ')})`;
  const inserts: string[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500) as Record<string, unknown>[];
    inserts.push(
      `INSERT INTO ${table} VALUES ${chunk.map((row) => `(${names.map((name) => literal(row[name])).join(', ')})`).join(', ')}`,
    );
  }
  return [create, ...inserts];
}

export const campaignColumns = {
  send_date: 'DATE',
  campaign_id: 'VARCHAR',
  campaign_name: 'VARCHAR',
  country: 'VARCHAR',
  send_weekday: 'INTEGER',
  sent: 'INTEGER',
  delivered: 'INTEGER',
  open: 'INTEGER',
  clicks_unique: 'INTEGER',
  revenue: 'DOUBLE',
};
export const listColumns = {
  date: 'DATE',
  list_name: 'VARCHAR',
  segment: 'VARCHAR',
  members: 'INTEGER',
  members_in: 'INTEGER',
  members_out: 'INTEGER',
  members_delta: 'INTEGER',
};
