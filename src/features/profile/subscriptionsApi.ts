import {
  subscriptionListResponseSchema,
  subscriptionResponseSchema,
  type ReportingSubscription,
} from '../../contracts/me';
import { api } from '../../store/api';
import { dataOf } from '../../store/httpRules';

/** A weekly summary shown before the server has answered carries a negative id. */
const pendingId = (workspaceId: number) => -workspaceId;

export const subscriptionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSubscriptions: build.query<ReportingSubscription[], void>({
      query: () => '/reporting-subscriptions',
      ...dataOf(subscriptionListResponseSchema),
      providesTags: ['ReportingSubscriptions'],
    }),
    subscribeWeeklySummary: build.mutation<ReportingSubscription, { workspaceId: number; memberId: number }>({
      query: ({ workspaceId }) => ({
        url: '/reporting-subscriptions',
        method: 'POST',
        body: { payload: { type: 'weeklySummary', workspaceId } },
      }),
      ...dataOf(subscriptionResponseSchema),
      // Optimistic (spec 1 §4): the switch turns on at once and turns back off if the call fails.
      async onQueryStarted({ workspaceId, memberId }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          subscriptionsApi.util.updateQueryData('getSubscriptions', undefined, (draft) => {
            draft.push({ id: pendingId(workspaceId), memberId, payload: { type: 'weeklySummary', workspaceId } });
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(
            subscriptionsApi.util.updateQueryData('getSubscriptions', undefined, (draft) =>
              draft.map((item) => (item.id === pendingId(workspaceId) ? data : item)),
            ),
          );
        } catch {
          patch.undo();
        }
      },
    }),
    unsubscribeWeeklySummary: build.mutation<{ ok: true }, { id: number }>({
      query: ({ id }) => ({ url: `/reporting-subscriptions/${id}`, method: 'DELETE' }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          subscriptionsApi.util.updateQueryData('getSubscriptions', undefined, (draft) =>
            draft.filter((item) => item.id !== id),
          ),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
        }
      },
    }),
  }),
});

export const { useGetSubscriptionsQuery, useSubscribeWeeklySummaryMutation, useUnsubscribeWeeklySummaryMutation } =
  subscriptionsApi;
