import { type Annotation } from '../../contracts/annotations';
import { closeDrawerParams, drawerFromParams, openDrawerParams } from '../shell/drawers';
import { annotationsInPeriod, emptyDraft, validateDraft, withStartDate } from './annotationForm';

const annotation = (id: number, start: string, end: string): Annotation => ({
  id,
  workspace_id: 1,
  severity: 'note',
  message: `A${id}`,
  date_start: start,
  date_end: end,
  created_at: '2026-01-01T00:00:00Z',
  modified_at: '2026-01-01T00:00:00Z',
  created_by_id: null,
  created_by_name: null,
  created_by_email: null,
});

describe('annotation form (spec 1 §4, §5)', () => {
  it('moves the end date along when the start passes it', () => {
    const draft = { ...emptyDraft('2026-03-01'), dateEnd: '2026-03-05' };
    expect(withStartDate(draft, '2026-03-03').dateEnd).toBe('2026-03-05');
    expect(withStartDate(draft, '2026-03-09').dateEnd).toBe('2026-03-09');
  });

  it('answers with the spec’s messages', () => {
    expect(validateDraft({ ...emptyDraft('2026-03-01'), message: ' ' })).toEqual({
      ok: false,
      errors: { message: 'Please provide a message' },
    });
    expect(validateDraft({ severity: 'note', message: 'x', dateStart: '', dateEnd: '' })).toMatchObject({
      errors: { dates: 'Please select a date range' },
    });
    expect(
      validateDraft({ severity: 'note', message: 'x', dateStart: '2026-03-05', dateEnd: '2026-03-01' }),
    ).toMatchObject({ errors: { dates: 'Start date of period must be before the end date' } });
    expect(
      validateDraft({ severity: 'critical', message: 'Launch', dateStart: '2026-03-01', dateEnd: '2026-03-01' }).ok,
    ).toBe(true);
  });

  it('lists the annotations overlapping the period', () => {
    const list = [annotation(1, '2026-01-01', '2026-01-10'), annotation(2, '2026-02-01', '2026-02-02')];
    expect(annotationsInPeriod(list, '2026-01-10', '2026-01-31').map((a) => a.id)).toEqual([1]);
    expect(annotationsInPeriod(list, null, null)).toHaveLength(2);
    expect(annotationsInPeriod(list, '2025-01-01', '2025-12-31')).toEqual([]);
  });
});

describe('URL-driven drawers', () => {
  it('opens one drawer at a time with its drawer. parameters and closes without touching the rest', () => {
    const base = new URLSearchParams('tab=3&drawer.type=demo&drawer.step=2');
    const opened = openDrawerParams(base, 'annotations', { start: '2026-01-01' });
    expect(opened.toString()).toBe('tab=3&drawer.type=annotations&drawer.start=2026-01-01');
    expect(drawerFromParams(opened).type).toBe('annotations');
    expect(closeDrawerParams(opened).toString()).toBe('tab=3');
    expect(drawerFromParams(new URLSearchParams('drawer.type=unknown')).type).toBeNull();
  });
});
