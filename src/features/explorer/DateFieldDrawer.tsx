import { Classes, Drawer, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { memo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type DatasetSchema } from '../../contracts/datasets';
import { closeDrawerParams, drawerFromParams, openDrawerParams } from '../shell/drawers';
import { fieldLabel } from '../widgets/widgetQuery';

export const DATE_FIELD_DRAWER_TITLE = 'Select date dimensions';

/** Spec 2 "Explorer view screen": what each date field filters by. */
export const dateFieldHelp: Record<string, string> = {
  event_date: 'Event date filters by when events occurred.',
  send_date: 'Send date filters by when emails were sent.',
};

export interface DateFieldChipProps {
  schema: DatasetSchema;
  /** The view's date field; the dataset's own when the view names none. */
  dateField?: string;
  canEdit: boolean;
  onChange(dateField: string): void;
}

/** The date-field chip of an explorer view and its 'Select date dimensions' drawer. */
export const DateFieldChip = memo(function DateFieldChip({ schema, dateField, canEdit, onChange }: DateFieldChipProps) {
  const [params, setParams] = useSearchParams();
  const dateFields = schema.fields.filter((field) => field.type === 'dimension' && field.format === 'date');
  const current =
    dateFields.find((field) => field.id === dateField) ?? dateFields.find((f) => f.id === schema.dateField);
  const isOpen = drawerFromParams(params).type === 'date-field';
  const close = () => setParams(closeDrawerParams(params));
  const label = current ? fieldLabel(current) : (dateField ?? schema.dateField);
  return (
    <>
      <Tag
        icon="calendar"
        minimal
        round
        interactive={canEdit}
        aria-label={`Date field: ${label}`}
        onClick={canEdit ? () => setParams(openDrawerParams(params, 'date-field')) : undefined}
      >
        {label}
      </Tag>
      <Drawer isOpen={isOpen && canEdit} onClose={close} title={DATE_FIELD_DRAWER_TITLE} size="360px">
        <div className={Classes.DRAWER_BODY}>
          <div className={Classes.DIALOG_BODY}>
            <RadioGroup
              selectedValue={current?.id}
              onChange={(event) => {
                onChange(event.currentTarget.value);
                close();
              }}
            >
              {dateFields.map((field) => (
                <Radio key={field.id} value={field.id}>
                  <strong>{fieldLabel(field)}</strong>
                  {dateFieldHelp[field.id] && <p className={Classes.TEXT_MUTED}>{dateFieldHelp[field.id]}</p>}
                </Radio>
              ))}
            </RadioGroup>
          </div>
        </div>
      </Drawer>
    </>
  );
});
