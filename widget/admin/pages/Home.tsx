/**
 * The home page (`/`, where signing in lands): the day's figures (GET /admin/v1/figures): the
 * volume taken per currency hour by hour, the success and decline rates, by brand; a merchant
 * user's own merchant, an operator's every merchant or the one picked. The day and the merchant
 * are in the location (`#/?day=&merchantId=`), so a reload or a link keeps them. The merchant's
 * pages and the day's payments are one click away. Amounts stay the API's decimal strings in the
 * tables; only the charts plot them as numbers.
 */
import { useMemo, useState } from 'preact/hooks';
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
import { href, navigate, route } from '../router';
import { isOperator, user } from '../state/session';
import type { Merchant } from '../types';

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

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day field: the location changes once a whole date (or none) is typed. */
function DayField({ day, onDay }: { day: string; onDay: (day: string) => void }) {
  const [typed, setTyped] = useState(day);
  const typing = (value: string) => {
    setTyped(value);
    if (value === '' || DAY.test(value)) onDay(value);
  };
  return (
    <Field label="Day (UTC)" type="date" value={typed} onValue={typing} hint="Empty: the gateway's today" />
  );
}

/** Where the figures lead: the merchant's page and the day's payments (a merchant's figures only). */
function NextSteps({ f, merchant }: { f: DayFigures; merchant: Merchant | undefined }) {
  if (f.merchantId === null) return null;
  const base = `/merchants/${encodeURIComponent(f.merchantId)}`;
  return (
    <nav aria-label="From these figures">
      <ul>
        <li>
          <a href={href(base)}>{merchant ? `Merchant ${merchant.name}` : 'Your merchant and channels'}</a>
        </li>
        <li>
          <a href={href(`${base}/payments`, { from: f.day, to: f.day })}>The day's payments</a>
        </li>
      </ul>
    </nav>
  );
}

export function Home() {
  const q = route.value.query;
  const day = DAY.test(q.get('day') ?? '') ? q.get('day')! : '';
  const merchantId = isOperator.value ? (q.get('merchantId') ?? '') : '';
  const choose = (next: { day?: string; merchantId?: string }) =>
    navigate('/', { day, merchantId, ...next }, { replace: true });
  // an operator picks every merchant or one; a merchant user's figures are their own
  const merchants = useLoad(
    () =>
      isOperator.value ? get<{ merchants: Merchant[] }>('/merchants') : Promise.resolve({ merchants: [] }),
    [user.value?.id],
  );
  const figures = useLoad(
    () => get<{ figures: DayFigures }>(`/figures${query({ day, merchantId })}`),
    [day, merchantId],
  );
  const f = figures.data?.figures;
  const list = merchants.data?.merchants ?? [];
  const merchant = list.find((m) => m.id === f?.merchantId);
  const whose =
    f?.merchantId === null ? 'every merchant' : merchant ? `merchant ${merchant.name}` : 'your merchant';
  return (
    <Page title="Today's figures">
      <form class="filters" aria-label="Which figures" onSubmit={(e) => e.preventDefault()}>
        <DayField day={day} onDay={(next) => choose({ day: next })} />
        {isOperator.value && (
          <Select
            label="Merchant"
            value={merchantId}
            onValue={(next) => choose({ merchantId: next })}
            options={[['', 'All merchants'], ...list.map((m): [string, string] => [m.id, m.name])]}
          />
        )}
      </form>
      <Loading data={figures.data} error={figures.error} />
      {f && (
        <>
          <p>
            {formatDay(f.day)}, {whose}: the day's payments (preauthorizations and debits) in UTC hours.
          </p>
          <NextSteps f={f} merchant={merchant} />
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
