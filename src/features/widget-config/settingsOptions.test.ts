import { getCatalogueDataset, toDatasetSchema } from '../../contracts/catalogue';
import { type DatasetSchema } from '../../contracts/datasets';
import { dimensionOptions, metricOptions } from './settingsOptions';

const schemaOf = (id: string): DatasetSchema => toDatasetSchema(getCatalogueDataset(id)!);
const values = (options: { value: string }[]) => options.map((option) => option.value);

describe('widget field pickers (spec 3 "Filter inputs")', () => {
  const send = schemaOf('campaign_metrics_by_send_date');

  it('offer no UTM dimension, no date and no hidden or URL field', () => {
    const offered = values(dimensionOptions(send));
    expect(offered).toContain('campaign_name');
    for (const field of send.fields) {
      const excluded =
        field.category === 'UTM' ||
        field.format === 'date' ||
        field.format === 'url' ||
        field.features.includes('hide');
      if (field.type === 'dimension' && excluded) expect(offered).not.toContain(field.id);
    }
    expect(offered).not.toContain('utm_campaign');
  });

  it('offer no gauge or hidden metric', () => {
    const members = schemaOf('list_members');
    const gauges = members.fields.filter((field) => field.features.includes('gauge')).map((field) => field.id);
    expect(gauges.length).toBeGreaterThan(0);
    const offered = values(metricOptions(members));
    expect(offered.length).toBeGreaterThan(0);
    for (const gauge of gauges) expect(offered).not.toContain(gauge);
    expect(values(metricOptions(send))).toContain('revenue');
  });
});
