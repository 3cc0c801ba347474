/**
 * The start page: an operator's merchants, or a merchant user's own merchant (Home, at `/`), and
 * the day's figures (Today, at `/today`: GET /admin/v1/figures): the volume taken per currency
 * hour by hour, the success and decline rates, by brand; an operator's for every merchant or one.
 * Amounts stay the API's decimal strings in the tables; only the charts plot them as numbers.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { DayFigures } from '../../../shared/contract';
import { get, query } from '../api';
import { Loading } from '../components/Alert';
import { Chart } from '../components/charts/Chart';
import type { ChartSpec } from '../components/charts/spec';
import { DataTable } from '../components/DataTable';
import { Field, Select } from '../components/Field';
import { Facts } from '../components/KeyValues';
import { Page, Section } from '../components/Page';
import { useLoad } from '../components/useLoad';
import { formatAmount, formatDay } from '../format';
import { navigate } from '../router';
import { isOperator, user } from '../state/session';
import type { Merchant } from '../types';

export function Home() {
  const me = user.value;
  useEffect(() => {
    if (me?.merchantId) navigate(`/merchants/${encodeURIComponent(me.merchantId)}`);
    else navigate('/merchants');
  }, [me]);
  return null;
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
const hourRate = (part: number, c: { success: number; declined: number; rejected: number }) => {
  const finished = c.success + c.declined + c.rejected;
  return finished === 0 ? null : part / finished;
};

function Summary({ f }: { f: DayFigures }) {
  const rows: [string, string][] = [
    ['Payments', String(f.payments)],
    ['Success rate', percent(f.successRate)],
    ['Decline rate', percent(f.declineRate)],
    ['Pending', String(f.pending)],
    ...f.volume.map((v): [string, string] => [`Volume ${v.currency}`, formatAmount(v.amount, v.currency)]),
  ];
  return <Facts rows={rows} extra="figures" />;
}

function VolumeChart({ v }: { v: DayFigures['volume'][number] }) {
  // the chart plots a number; the table shows the API's decimal strings
  const spec = useMemo<ChartSpec>(
    () => ({ x: HOURS, series: [{ label: v.currency, values: v.hours.map(Number), colour: '--accent' }] }),
    [v],
  );
  return (
    <Chart
      title={`Volume per hour, ${v.currency}`}
      spec={spec}
      table={
        <DataTable
          label={`Volume per hour, ${v.currency}`}
          columns={['Hour (UTC)', { label: 'Volume', number: true }]}
        >
          {v.hours.map((amount, h) => (
            <tr key={h}>
              <td>{hourLabel(h)}</td>
              <td class="number">{formatAmount(amount, v.currency)}</td>
            </tr>
          ))}
        </DataTable>
      }
    />
  );
}

function RatesChart({ f }: { f: DayFigures }) {
  const spec = useMemo<ChartSpec>(
    () => ({
      x: HOURS,
      yTick: (t) => `${Math.round(t * 100)} %`,
      series: [
        { label: 'Success rate', values: f.hours.map((c) => hourRate(c.success, c)), colour: '--ok' },
        { label: 'Decline rate', values: f.hours.map((c) => hourRate(c.declined, c)), colour: '--danger' },
      ],
    }),
    [f],
  );
  const columns = [
    'Hour (UTC)',
    ...['Payments', 'Success', 'Declined', 'Success rate', 'Decline rate'].map((label) => ({
      label,
      number: true as const,
    })),
  ];
  return (
    <Chart
      title="Success and decline rates per hour"
      spec={spec}
      table={
        <DataTable label="Success and decline rates per hour" columns={columns}>
          {f.hours.map((c) => (
            <tr key={c.hour}>
              <td>{hourLabel(c.hour)}</td>
              <td class="number">{c.payments}</td>
              <td class="number">{c.success}</td>
              <td class="number">{c.declined}</td>
              <td class="number">{percent(hourRate(c.success, c))}</td>
              <td class="number">{percent(hourRate(c.declined, c))}</td>
            </tr>
          ))}
        </DataTable>
      }
    />
  );
}

function Brands({ f }: { f: DayFigures }) {
  if (f.brands.length === 0) return <p class="muted">No payments on this day.</p>;
  return (
    <DataTable
      label="By brand"
      columns={[
        'Brand',
        ...['Payments', 'Success rate', 'Decline rate'].map((label) => ({ label, number: true as const })),
        'Volume',
      ]}
    >
      {f.brands.map((b) => (
        <tr key={b.brand}>
          <td>{b.brand}</td>
          <td class="number">{b.payments}</td>
          <td class="number">{percent(b.successRate)}</td>
          <td class="number">{percent(b.declineRate)}</td>
          <td>{b.volume.map((v) => formatAmount(v.amount, v.currency)).join(', ') || '—'}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** An operator chooses every merchant or one; a merchant user's figures are their own. */
function MerchantChoice({ value, onValue }: { value: string; onValue: (id: string) => void }) {
  const merchants = useLoad(() => get<{ merchants: Merchant[] }>('/merchants'), []);
  const options: [string, string][] = [
    ['', 'All merchants'],
    ...(merchants.data?.merchants ?? []).map((m): [string, string] => [m.id, m.name]),
  ];
  return <Select label="Merchant" value={value} onValue={onValue} options={options} />;
}

export function Today() {
  const [day, setDay] = useState('');
  const [merchantId, setMerchantId] = useState('');
  const figures = useLoad(
    () =>
      get<{ figures: DayFigures }>(
        `/figures${query({ day: /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined, merchantId })}`,
      ),
    [day, merchantId],
  );
  const f = figures.data?.figures;
  return (
    <Page title="Today's figures">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Day (UTC)" type="date" value={day} onValue={setDay} hint="Empty: the gateway's today" />
        {isOperator.value && <MerchantChoice value={merchantId} onValue={setMerchantId} />}
      </form>
      <Loading data={figures.data} error={figures.error} />
      {f && (
        <>
          <p>
            {formatDay(f.day)}, {f.merchantId === null ? 'every merchant' : 'this merchant'}: the day's
            payments (preauthorizations and debits) in UTC hours.
          </p>
          <Summary f={f} />
          <Section title="Volume">
            {f.volume.length === 0 ? (
              <p class="muted">Nothing taken on this day.</p>
            ) : (
              f.volume.map((v) => <VolumeChart key={v.currency} v={v} />)
            )}
          </Section>
          <Section title="Success and decline rates">
            <RatesChart f={f} />
          </Section>
          <Section title="By brand">
            <Brands f={f} />
          </Section>
        </>
      )}
    </Page>
  );
}
