// Drawing in the terminal. The line chart is asciichart's (axis, labels and curve joins are what it
// does better than a few lines of ours); bars are eighth-block characters, which need no library.
import { plot } from 'asciichart';
import type { Colors } from './output';

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar `width` cells long at `max`; a non-zero value always shows at least a sliver. */
export function bar(value: number, max: number, width: number): string {
  if (!(value > 0) || !(max > 0)) return '';
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}

/** Red when used up, yellow from 80%, green below. */
function barColor(ratio: number, colors: Colors): (text: string) => string {
  if (ratio >= 1) return colors.red;
  if (ratio >= 0.8) return colors.yellow;
  return colors.green;
}

/** A fill gauge for plan limits: `███████░░░░░░░`, coloured by how close to the limit it is. */
export function meter(ratio: number, width: number, colors: Colors): string {
  const r = Math.min(1, Math.max(0, Number.isFinite(ratio) ? ratio : 0));
  const full = Math.round(r * width);
  const paint = barColor(ratio, colors);
  return paint('█'.repeat(full)) + colors.dim('░'.repeat(width - full));
}

/** Labelled horizontal bars, longest label first column, values after the bar. */
export function barRows(rows: { label: string; value: number; text?: string }[], width: number): string[] {
  const max = Math.max(0, ...rows.map((r) => r.value));
  const labelWidth = Math.max(0, ...rows.map((r) => r.label.length));
  const barWidth = Math.max(10, Math.min(40, width - labelWidth - 14));
  return rows.map((r) => {
    const drawn = bar(r.value, max, barWidth);
    return `  ${r.label.padEnd(labelWidth)}  ${drawn}${drawn ? ' ' : ''}${r.text ?? String(r.value)}`;
  });
}

/** Rows of cells in aligned columns; the last column is not padded (it may be long, like a URL). */
export function table(rows: string[][]): string[] {
  const fitted = rows.map((row) => row.map(fitCell));
  const widths = fitted.reduce<number[]>((acc, row) => row.map((cell, i) => Math.max(acc[i] ?? 0, cell.length)), []);
  return fitted.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '));
}

/** The longest cell a table shows: a column is padded to its longest cell, so one long value must not widen every row. */
export const MAX_CELL_CHARS = 80;

/** A cell within MAX_CELL_CHARS, cut with an ellipsis. */
function fitCell(cell: string): string {
  return cell.length > MAX_CELL_CHARS ? `${cell.slice(0, MAX_CELL_CHARS - 1)}…` : cell;
}

export interface Series {
  values: number[];
  /** How many days each point covers (1 unless the period was too long for the width). */
  daysPerPoint: number;
}

/** Fits one point per day into `columns`; longer periods are summed into buckets of whole days. */
export function fitSeries(values: number[], columns: number): Series {
  if (values.length <= columns) return { values, daysPerPoint: 1 };
  const size = Math.ceil(values.length / columns);
  const buckets: number[] = [];
  for (let i = 0; i < values.length; i += size) buckets.push(values.slice(i, i + size).reduce((a, b) => a + b, 0));
  return { values: buckets, daysPerPoint: size };
}

/** A line chart of whole counts, with the y axis labelled and no more rows than the counts need. */
export function lineChart(values: number[], maxHeight = 8): string {
  const max = Math.max(0, ...values);
  const height = Math.max(1, Math.min(maxHeight, max));
  const labelWidth = String(max).length;
  // asciichart needs two points to draw a line; one day is drawn as a level segment.
  const points = values.length === 1 ? [values[0] ?? 0, values[0] ?? 0] : values;
  return plot(points, {
    height,
    min: 0,
    max: Math.max(1, max),
    format: (x: number) => ` ${String(Math.round(x)).padStart(labelWidth)} `,
  });
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Number(value.toFixed(1))} ${units[unit]}`;
}

/** 7s, 1m 05s, 1h 02m. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** ISO 8601 to `YYYY-MM-DD HH:MM` in UTC (the CLI's times are UTC, said in the headings). */
export function formatUtc(iso: string, withTime = true): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const text = date.toISOString();
  return withTime ? `${text.slice(0, 10)} ${text.slice(11, 16)}` : text.slice(0, 10);
}

export const formatNumber = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
