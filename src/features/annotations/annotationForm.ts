import {
  annotationBodySchema,
  MIN_ANNOTATION_DATE,
  type Annotation,
  type AnnotationBody,
} from '../../contracts/annotations';

export interface AnnotationDraft {
  severity: 'note' | 'critical';
  message: string;
  dateStart: string;
  dateEnd: string;
}

export const emptyDraft = (today: string): AnnotationDraft => ({
  severity: 'note',
  message: '',
  dateStart: today,
  dateEnd: today,
});

/** The end date follows the start date when the start passes it (spec 1 §4). */
export function withStartDate(draft: AnnotationDraft, dateStart: string): AnnotationDraft {
  return {
    ...draft,
    dateStart,
    dateEnd: dateStart && draft.dateEnd && dateStart > draft.dateEnd ? dateStart : draft.dateEnd,
  };
}

/** Checks a draft with the annotation contract: the body to send, or the first message per field. */
export function validateDraft(
  draft: AnnotationDraft,
): { ok: true; body: AnnotationBody } | { ok: false; errors: Partial<Record<'message' | 'dates', string>> } {
  const result = annotationBodySchema.safeParse({
    severity: draft.severity,
    message: draft.message,
    date_start: draft.dateStart,
    date_end: draft.dateEnd,
  });
  if (result.success) return { ok: true, body: result.data };
  const errors: Partial<Record<'message' | 'dates', string>> = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0] === 'message' ? 'message' : 'dates';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** Annotations overlapping a period (inclusive ISO dates); every annotation when no period is given. */
export function annotationsInPeriod(annotations: readonly Annotation[], start?: string | null, end?: string | null) {
  return annotations.filter(
    (annotation) => (!end || annotation.date_start <= end) && (!start || annotation.date_end >= start),
  );
}

export const draftOf = (annotation: Annotation): AnnotationDraft => ({
  severity: annotation.severity,
  message: annotation.message,
  dateStart: annotation.date_start,
  dateEnd: annotation.date_end,
});

export { MIN_ANNOTATION_DATE };
