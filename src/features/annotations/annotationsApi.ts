import {
  annotationListResponseSchema,
  annotationResponseSchema,
  type Annotation,
  type AnnotationBody,
} from '../../contracts/annotations';
import { api } from '../../store/api';
import { dataOf } from '../../store/httpRules';
import { idempotencyHeaders } from '../../store/idempotency';

const tag = (workspaceId: number) => [{ type: 'Annotations' as const, id: workspaceId }];

export const annotationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAnnotations: build.query<Annotation[], number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/annotations`,
      ...dataOf(annotationListResponseSchema),
      providesTags: (_result, _error, workspaceId) => tag(workspaceId),
    }),
    saveAnnotation: build.mutation<Annotation, { workspaceId: number; id?: number; body: AnnotationBody }>({
      query: ({ workspaceId, id, body }) =>
        id === undefined
          ? { url: `/workspaces/${workspaceId}/annotations`, method: 'POST', body, headers: idempotencyHeaders() }
          : { url: `/workspaces/${workspaceId}/annotations/${id}`, method: 'PUT', body: { ...body, id } },
      ...dataOf(annotationResponseSchema),
      invalidatesTags: (_result, _error, { workspaceId }) => tag(workspaceId),
    }),
    deleteAnnotation: build.mutation<{ ok: true }, { workspaceId: number; id: number }>({
      query: ({ workspaceId, id }) => ({ url: `/workspaces/${workspaceId}/annotations/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { workspaceId }) => tag(workspaceId),
    }),
  }),
});

export const { useGetAnnotationsQuery, useSaveAnnotationMutation, useDeleteAnnotationMutation } = annotationsApi;
