import type { Db } from '../../db/create-db.js';
import { streamDeliveryLogs, type DeliveryLogFilter } from './delivery-log.repository.js';
import { DELIVERY_LOG_COLUMNS, type TDeliveryLog } from './delivery-log.schemas.js';
import type { ExportFormat } from './export-format.js';

/** docs/api-rules.md#rate-limits: an export holds at most 25,000 rows. */
export const EXPORT_ROW_CAP = 25_000;

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; null is empty. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRow(values: (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The export body, produced chunk by chunk as the database is read. */
export async function* deliveryLogExport(db: Db, filter: DeliveryLogFilter, rows: number, format: ExportFormat): AsyncGenerator<string> {
  let first = true;
  yield format === 'csv' ? csvRow(DELIVERY_LOG_COLUMNS) : '[';
  for await (const chunk of streamDeliveryLogs(db, filter, Math.min(rows, EXPORT_ROW_CAP))) {
    if (format === 'csv') {
      yield chunk.map((log: TDeliveryLog) => csvRow(DELIVERY_LOG_COLUMNS.map((column) => log[column]))).join('');
    } else {
      yield (first ? '' : ',') + chunk.map((log) => JSON.stringify(log)).join(',');
      first = false;
    }
  }
  if (format === 'json') yield ']';
}
