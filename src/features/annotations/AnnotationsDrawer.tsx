import {
  Button,
  Card,
  Classes,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Menu,
  MenuItem,
  NonIdealState,
  PopoverNext,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../store/hooks';
import { LONG_NOTIFICATION_MS, notificationShown } from '../notifications/notificationsSlice';
import { FieldGroup } from '../shell/components/FieldGroup';
import {
  annotationsInPeriod,
  draftOf,
  emptyDraft,
  MIN_ANNOTATION_DATE,
  validateDraft,
  withStartDate,
  type AnnotationDraft,
} from './annotationForm';
import { useDeleteAnnotationMutation, useGetAnnotationsQuery, useSaveAnnotationMutation } from './annotationsApi';

export interface AnnotationsDrawerBodyProps {
  workspaceId: number;
  /** First day of the period whose annotations are listed (ISO date); all when absent. */
  start?: string | null;
  /** Last day of the period (ISO date). */
  end?: string | null;
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The annotations drawer: a form to add or edit, and the cards of the period with edit and delete.
 * Long because the form and the period's cards share the draft being edited (a card's Edit fills the form); to be split
 * into the form and the card list.
 */
export function AnnotationsDrawerBody({ workspaceId, start, end }: AnnotationsDrawerBodyProps) {
  const dispatch = useAppDispatch();
  const { data = [], isLoading } = useGetAnnotationsQuery(workspaceId);
  const [saveAnnotation, { isLoading: saving }] = useSaveAnnotationMutation();
  const [deleteAnnotation] = useDeleteAnnotationMutation();
  const [draft, setDraft] = useState<AnnotationDraft>(() => emptyDraft(today()));
  const [editingId, setEditingId] = useState<number | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<'message' | 'dates', string>>>({});

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateDraft(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      await saveAnnotation({ workspaceId, id: editingId, body: checked.body }).unwrap();
      dispatch(notificationShown('Annotation successfully saved', 'success', LONG_NOTIFICATION_MS));
      setDraft(emptyDraft(today()));
      setEditingId(undefined);
    } catch {
      dispatch(notificationShown('Failed to update annotation', 'danger', LONG_NOTIFICATION_MS));
    }
  };

  const onDelete = async (id: number) => {
    try {
      await deleteAnnotation({ workspaceId, id }).unwrap();
    } catch {
      dispatch(notificationShown('Failed to update annotation', 'danger', LONG_NOTIFICATION_MS));
    }
  };

  const shown = annotationsInPeriod(data, start, end);
  return (
    <div className={Classes.DRAWER_BODY}>
      <div className={Classes.DIALOG_BODY}>
        <form onSubmit={(event) => void onSubmit(event)}>
          <FieldGroup label="Message" labelFor="annotation-message" error={errors.message}>
            <TextArea
              id="annotation-message"
              fill
              value={draft.message}
              onChange={(event) => setDraft({ ...draft, message: event.currentTarget.value })}
            />
          </FieldGroup>
          <FormGroup label="Severity" labelFor="annotation-severity">
            <HTMLSelect
              id="annotation-severity"
              value={draft.severity}
              options={[
                { value: 'note', label: 'Note' },
                { value: 'critical', label: 'Critical' },
              ]}
              onChange={(event) => setDraft({ ...draft, severity: event.currentTarget.value as 'note' | 'critical' })}
            />
          </FormGroup>
          <FieldGroup label="Period" error={errors.dates}>
            <div className="or-date-range">
              <InputGroup
                type="date"
                aria-label="Start date"
                min={MIN_ANNOTATION_DATE}
                value={draft.dateStart}
                onValueChange={(value) => setDraft(withStartDate(draft, value))}
              />
              <InputGroup
                type="date"
                aria-label="End date"
                min={draft.dateStart || MIN_ANNOTATION_DATE}
                value={draft.dateEnd}
                onValueChange={(value) => setDraft({ ...draft, dateEnd: value })}
              />
            </div>
          </FieldGroup>
          <Button
            type="submit"
            intent="primary"
            text={editingId ? 'Save changes' : 'Add annotation'}
            loading={saving}
          />
          {editingId !== undefined && (
            <Button
              variant="minimal"
              text="Cancel"
              onClick={() => {
                setEditingId(undefined);
                setDraft(emptyDraft(today()));
              }}
            />
          )}
        </form>
        <div className="or-annotation-list">
          {!isLoading && shown.length === 0 && (
            <NonIdealState icon="annotation" title="No annotations for this period" />
          )}
          {shown.map((annotation) => (
            <Card key={annotation.id} className="or-annotation-card" data-testid="annotation-card">
              <div className="or-page-header">
                <Tag minimal intent={annotation.severity === 'critical' ? 'danger' : 'primary'}>
                  {annotation.severity === 'critical' ? 'Critical' : 'Note'}
                </Tag>
                <PopoverNext
                  shouldReturnFocusOnClose={false}
                  placement="bottom-end"
                  content={
                    <Menu>
                      <MenuItem
                        icon="edit"
                        text="Edit"
                        onClick={() => {
                          setEditingId(annotation.id);
                          setDraft(draftOf(annotation));
                        }}
                      />
                      <MenuItem
                        icon="trash"
                        intent="danger"
                        text="Delete"
                        onClick={() => void onDelete(annotation.id)}
                      />
                    </Menu>
                  }
                >
                  <Button variant="minimal" size="small" icon="more" aria-label="Annotation actions" />
                </PopoverNext>
              </div>
              <p>{annotation.message}</p>
              <small className={Classes.TEXT_MUTED}>
                {annotation.date_start === annotation.date_end
                  ? annotation.date_start
                  : `${annotation.date_start} – ${annotation.date_end}`}
                {annotation.created_by_name ? ` · ${annotation.created_by_name}` : ''}
              </small>
            </Card>
          ))}
        </div>
      </div>
    </div>
  );
}
