import { Button, Callout, Card, H1, H5, Tag } from '@blueprintjs/core';
import { tableFromIPC } from 'apache-arrow';
import { useState } from 'react';
import { Plot } from '../../features/charts/Plot';
import { useGetHealthQuery } from '../healthApi';

interface EngineCheck {
  version: string;
  days: number[];
  values: number[];
}

// A query over generated rows, so the check needs no dataset: it proves the worker, the .wasm and Arrow work.
const CHECK_SQL = `SELECT range::INTEGER AS day, round(100 + 20 * sin(range / 3.0))::DOUBLE AS value FROM range(30)`;

/**
 * Start page until sign-in and the workspace shell arrive: what the product is, whether the server
 * answers, and a check that the in-browser query engine and charts run in this browser.
 */
export function HomePage() {
  const { data, isError } = useGetHealthQuery();
  const [check, setCheck] = useState<EngineCheck>();
  const [checkError, setCheckError] = useState<string>();
  const [running, setRunning] = useState(false);

  const runCheck = async () => {
    setRunning(true);
    setCheckError(undefined);
    try {
      const { getEngine } = await import('../../workers/engineClient');
      const engine = getEngine();
      const [version, bytes] = await Promise.all([engine.version(), engine.query(CHECK_SQL)]);
      const table = tableFromIPC(bytes);
      setCheck({
        version,
        days: Array.from(table.getChild('day')?.toArray() ?? [], Number),
        values: Array.from(table.getChild('value')?.toArray() ?? [], Number),
      });
    } catch (error) {
      setCheckError(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    <main className="or-home">
      <Card elevation={1} className="or-home-card">
        <H1>Openrate</H1>
        <p>Campaign analytics for email and e-commerce marketers.</p>
        <Tag intent={isError ? 'danger' : data ? 'success' : 'none'} minimal>
          {isError ? 'Server unavailable' : data ? 'Server ready' : 'Connecting…'}
        </Tag>
        <H5 className="or-home-engine">In-browser query engine</H5>
        <Button text="Check the query engine" loading={running} onClick={() => void runCheck()} />
        {checkError && <Callout intent="danger">{checkError}</Callout>}
        {check && (
          <>
            <p data-testid="engine-version">DuckDB {check.version}</p>
            <Plot
              data={[{ type: 'scatter', mode: 'lines', x: check.days, y: check.values, name: 'value' }]}
              layout={{ height: 200, margin: { l: 40, r: 10, t: 10, b: 30 }, showlegend: false }}
              config={{ displayModeBar: false }}
              style={{ width: '100%' }}
            />
          </>
        )}
      </Card>
    </main>
  );
}
