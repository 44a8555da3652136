import type { AnalyticsMinute } from '@streamshop/contract/stream-analytics.ts';
import { useId } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

/**
 * The per-minute charts of a stream's analytics (recharts, loaded only when a Pro seller opens
 * them). Each chart is a picture for the eye; the same figures are in a table under it, which
 * screen readers and keyboard users read instead.
 */

const AXIS = { stroke: 'var(--color-muted-foreground)', fontSize: 12, tickLine: false } as const;
const TOOLTIP_STYLE = {
  background: 'var(--color-card)',
  border: '1px solid var(--color-border)',
  borderRadius: 8,
  color: 'var(--color-card-foreground)',
};

const minuteLabel = (minute: number) => `${minute}:00`;

function MinutesTable({
  caption,
  minutes,
  column,
}: {
  caption: string;
  minutes: AnalyticsMinute[];
  column: Column;
}) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-muted-foreground">Show as a table</summary>
      <table className="mt-2 w-full text-left tabular-nums">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-muted-foreground text-xs">
          <tr>
            <th scope="col" className="py-1 font-normal">
              Minute
            </th>
            <th scope="col" className="py-1 font-normal">
              {COLUMNS[column].heading}
            </th>
          </tr>
        </thead>
        <tbody>
          {minutes.map((row) => (
            <tr key={row.minute} className="border-t">
              <td className="py-1">{minuteLabel(row.minute)}</td>
              <td className="py-1">{row[column].toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

type Column = 'peakViewers' | 'chatMessages';
const COLUMNS: Record<Column, { title: string; heading: string; testId: string }> = {
  peakViewers: { title: 'Viewers per minute', heading: 'Most viewers at once', testId: 'viewers-chart' },
  chatMessages: { title: 'Chat messages per minute', heading: 'Messages', testId: 'chat-chart' },
};

function MinuteChart({ minutes, column }: { minutes: AnalyticsMinute[]; column: Column }) {
  const titleId = useId();
  const { title, heading, testId } = COLUMNS[column];
  const common = { data: minutes, margin: { top: 8, right: 8, bottom: 0, left: -16 } };
  const axes = (
    <>
      <CartesianGrid stroke="var(--color-border)" vertical={false} />
      <XAxis dataKey="minute" tickFormatter={minuteLabel} {...AXIS} />
      <YAxis allowDecimals={false} width={48} {...AXIS} />
      <Tooltip
        contentStyle={TOOLTIP_STYLE}
        labelFormatter={(minute) => `Minute ${minuteLabel(Number(minute))}`}
        formatter={(value) => [Number(value).toLocaleString('en-US'), heading]}
      />
    </>
  );
  return (
    <figure aria-labelledby={titleId} data-testid={testId}>
      <figcaption id={titleId} className="mb-2 font-medium text-sm">
        {title}
      </figcaption>
      <div className="h-44" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {column === 'peakViewers' ? (
            <LineChart {...common}>
              {axes}
              <Line
                type="monotone"
                dataKey={column}
                stroke="var(--color-primary)"
                strokeWidth={2}
                dot={minutes.length <= 20}
                isAnimationActive={false}
              />
            </LineChart>
          ) : (
            <BarChart {...common}>
              {axes}
              <Bar
                dataKey={column}
                fill="var(--color-primary)"
                radius={[3, 3, 0, 0]}
                isAnimationActive={false}
              />
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
      <MinutesTable caption={title} minutes={minutes} column={column} />
    </figure>
  );
}

/** Viewers and chat per minute, each a chart with its table. */
export default function AnalyticsCharts({ minutes }: { minutes: AnalyticsMinute[] }) {
  return (
    <div className="grid gap-6">
      <MinuteChart minutes={minutes} column="peakViewers" />
      <MinuteChart minutes={minutes} column="chatMessages" />
    </div>
  );
}
