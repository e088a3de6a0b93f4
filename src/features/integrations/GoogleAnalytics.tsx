import { Button, Callout, FormGroup, H4, HTMLSelect, HTMLTable, Spinner } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { INTEGRATION_ERRORS, type GaAvailableResponse, type Integration } from '../../contracts/integrations';
import { MARKETS } from '../../contracts/markets';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { errorCode } from '../session/apiErrors';
import {
  useAddGaPropertyMutation,
  useEnableGoogleAnalyticsMutation,
  useGetGaAvailableQuery,
  useRemoveGaPropertyMutation,
} from './integrationsApi';
import { MarketFlag, MarketSelect } from './MarketSelect';

const failureOf = (error: unknown) => errorCode(error) ?? INTEGRATION_ERRORS.googleAnalytics;

/** Why nothing can be added, if so: no GA account granted, accounts without properties, or every view added. */
function nothingToAdd(available: GaAvailableResponse, selected: number): string | null {
  if (available.data.length > 0) return null;
  if (available.accounts === 0) return INTEGRATION_ERRORS.gaNoAccounts;
  return selected > 0 ? INTEGRATION_ERRORS.gaAllSelected : INTEGRATION_ERRORS.gaNoAccess;
}

function AddView({ workspaceId, selected }: { workspaceId: number; selected: number }) {
  const available = useGetGaAvailableQuery(workspaceId);
  const [add, adding] = useAddGaPropertyMutation();
  const [propertyId, setPropertyId] = useState('');
  const [market, setMarket] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await add({ workspaceId, propertyId, market }).unwrap();
      setPropertyId('');
      setMarket(null);
    } catch (failure) {
      setError(failureOf(failure));
    }
  };

  const refresh = (
    <Button
      variant="minimal"
      icon="refresh"
      text="Refresh"
      loading={available.isFetching}
      onClick={() => void available.refetch()}
    />
  );
  if (available.isLoading) return <Spinner size={20} />;
  if (available.isError || !available.data) {
    return (
      <Callout intent="danger">
        {failureOf(available.error)} {refresh}
      </Callout>
    );
  }
  const { data: views, connection } = available.data;
  const empty = nothingToAdd(available.data, selected);
  return (
    <section aria-label="Add a view">
      <H4>Add a view {refresh}</H4>
      {connection.account && (
        <p>
          Grant read access in Google Analytics to the service account <code>{connection.account}</code>, then refresh.
        </p>
      )}
      {empty ? (
        <Callout>{empty}</Callout>
      ) : (
        <form className="or-integration-form" onSubmit={(event) => void submit(event)}>
          <FormGroup label="View" labelFor="ga-view">
            <HTMLSelect id="ga-view" value={propertyId} onChange={(event) => setPropertyId(event.target.value)}>
              <option value="">Choose a view</option>
              {views.map((view) => (
                <option key={view.id} value={view.id}>
                  {view.account_name} › {view.propertyName}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label="Market" helperText="Optional: the country this view reports on.">
            <MarketSelect value={market} onChange={setMarket} />
          </FormGroup>
          {error && <Callout intent="danger">{error}</Callout>}
          <Button type="submit" intent="primary" text="Save" disabled={!propertyId} loading={adding.isLoading} />
        </form>
      )}
    </section>
  );
}

function SelectedViews({ workspaceId, integration }: { workspaceId: number; integration: Integration }) {
  const [remove] = useRemoveGaPropertyMutation();
  const dispatch = useAppDispatch();
  if (integration.units.length === 0) return <p>{INTEGRATION_ERRORS.gaNoneSelected}</p>;
  const removeView = async (viewId: string) => {
    try {
      await remove({ workspaceId, viewId }).unwrap();
    } catch (failure) {
      dispatch(notificationShown(failureOf(failure), 'danger'));
    }
  };
  return (
    <HTMLTable aria-label="Google Analytics views">
      <thead>
        <tr>
          <th>View</th>
          <th>Account</th>
          <th>Market</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {integration.units.map((view) => {
          const market = MARKETS.find((candidate) => candidate.code === view.market);
          return (
            <tr key={view.id}>
              <td>{view.name}</td>
              <td>{view.account_name}</td>
              <td>
                {market ? (
                  <>
                    <MarketFlag code={market.code} name={market.name} /> {market.name}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <Button
                  variant="minimal"
                  icon="cross"
                  aria-label={`Remove ${view.name}`}
                  onClick={() => void removeView(view.id)}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}

/**
 * Google Analytics on its integration page: enable, then the views (GA4 properties) to import with their market,
 * and the ones the product's service account may read that can still be added.
 */
export function GoogleAnalytics({ workspaceId, existing }: { workspaceId: number; existing?: Integration }) {
  const [enable, enabling] = useEnableGoogleAnalyticsMutation();
  const [error, setError] = useState<string | null>(null);
  if (!existing) {
    const submit = async () => {
      setError(null);
      try {
        await enable(workspaceId).unwrap();
      } catch (failure) {
        setError(failureOf(failure));
      }
    };
    return (
      <div className="or-integration-form">
        <p>Enable Google Analytics, then choose the views whose data is imported.</p>
        {error && <Callout intent="danger">{error}</Callout>}
        <Button intent="primary" text="Enable" loading={enabling.isLoading} onClick={() => void submit()} />
      </div>
    );
  }
  return (
    <>
      <SelectedViews workspaceId={workspaceId} integration={existing} />
      <AddView workspaceId={workspaceId} selected={existing.units.length} />
    </>
  );
}
