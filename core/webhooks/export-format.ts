export type ExportFormat = 'csv' | 'json';

/**
 * docs/api-rules.md#exports: the `Format` query value wins; otherwise the Accept header (`text/csv` or
 * `application/csv` → CSV, `application/json` or any `+json` type → JSON, the client's
 * preferred one by q-value when it lists several); otherwise JSON.
 */
export function exportFormat(format: ExportFormat | undefined, accept: string | undefined): ExportFormat {
  if (format) return format;
  if (!accept) return 'json';
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { type, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { type } of ranges) {
    if (type === 'text/csv' || type === 'application/csv') return 'csv';
    if (type === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.-]+\+json$/.test(type)) return 'json';
  }
  return 'json';
}
