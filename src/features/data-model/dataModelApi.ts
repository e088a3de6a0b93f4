import {
  customFieldsBodySchema,
  schemaTablesResponseSchema,
  type CustomFieldsBody,
  type SchemaTablesResponse,
} from '../../contracts/dataModel';
import { answer, api } from '../../store/api';
import { idempotencyHeaders } from '../../store/idempotency';
import { schemasExpired } from '../datasets/datasetsSlice';

export const SAVE_CUSTOM_FIELDS_FAILED = 'Failed to update custom fields';

const schemaTag = (workspaceId: number) => [{ type: 'Schema' as const, id: workspaceId }];

/** The data model's calls (spec 1 §7): tables with their fields, and the workspace's custom fields. */
export const dataModelApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSchemaTables: build.query<SchemaTablesResponse, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/schema/tables`,
      responseSchema: answer(schemaTablesResponseSchema),
      providesTags: (_result, _error, workspaceId) => schemaTag(workspaceId),
    }),
    getCustomFields: build.query<CustomFieldsBody, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/schema/custom-fields`,
      responseSchema: answer(customFieldsBodySchema),
      providesTags: (_result, _error, workspaceId) => [{ type: 'CustomFields', id: workspaceId }],
    }),
    /** Saves the whole list, shown as saved at once and put back as it was when the server refuses it. */
    saveCustomFields: build.mutation<CustomFieldsBody, { workspaceId: number; groups: CustomFieldsBody }>({
      query: ({ workspaceId, groups }) => ({
        url: `/workspaces/${workspaceId}/schema/custom-fields`,
        method: 'PUT',
        body: groups,
        headers: idempotencyHeaders(),
      }),
      responseSchema: answer(customFieldsBodySchema),
      async onQueryStarted({ workspaceId, groups }, { dispatch, queryFulfilled }) {
        const patch = dispatch(dataModelApi.util.updateQueryData('getCustomFields', workspaceId, () => groups));
        try {
          await queryFulfilled;
          // Widget pickers, the explorer and alerts read the schemas: their next use fetches the new fields.
          dispatch(schemasExpired({ workspaceId }));
        } catch {
          patch.undo();
        }
      },
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : schemaTag(workspaceId)),
    }),
  }),
});

export const { useGetSchemaTablesQuery, useGetCustomFieldsQuery, useSaveCustomFieldsMutation } = dataModelApi;
