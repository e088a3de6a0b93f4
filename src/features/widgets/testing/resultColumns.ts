import { type Field } from '../../../contracts/datasets';
import { campaignSchema } from '../../../engine/testing/fixtures';
import { type Cell, type ResultColumns } from '../../../store/engineApi';

/** A field of the engine fixture's campaign schema, by id. */
export const campaignField = (id: string): Field => campaignSchema.fields.find((f) => f.id === id)!;

/** Rows as the Node DuckDB answers them, in the columns engineApi hands a widget. */
export function asColumns(objects: Record<string, unknown>[]): ResultColumns {
  const columns = objects.length ? Object.keys(objects[0]) : [];
  const data: Record<string, Cell[]> = {};
  for (const name of columns) data[name] = objects.map((row) => row[name] as Cell);
  return { columns, rowCount: objects.length, data };
}
