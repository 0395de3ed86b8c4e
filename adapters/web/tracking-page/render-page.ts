import type { TrackingPage, TrackingStop } from '../../../core/tracking/tracking-page.js';
import { escapeHtml } from './escape.js';
import { localTime, localWindow, roughDuration, timeAgo } from './format-time.js';
import { renderRouteMap } from './route-map.js';
import { TRACKING_PAGE_CSS } from './styles.js';

/** The page refreshes itself this often (seconds), without any script. */
export const REFRESH_SECONDS = 60;

const STATUS_WORDS: Record<string, string> = {
  Planned: 'Planned',
  Assigned: 'Assigned',
  Dispatched: 'Dispatched',
  InTransit: 'In transit',
  Delivered: 'Delivered',
  Cancelled: 'Cancelled',
};

function statusWords(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

function place(stop: Pick<TrackingStop, 'City' | 'State'>): string {
  return [stop.City, stop.State].filter(Boolean).join(', ') || 'Location to be confirmed';
}

/** The ETA sentence: "Arriving Tue Nov 24, 14:30 CST, about 2 h late against the appointment". */
function etaSection(page: TrackingPage, now: Date): string {
  const eta = page.DeliveryEta;
  const delivery = eta ? page.Stops.find((stop) => stop.Sequence === eta.StopSequence) : page.Stops.findLast((s) => s.StopType === 'Delivery');
  if (delivery?.ArrivedAt) {
    const verb = delivery.DepartedAt ? 'Delivered' : 'Arrived at delivery';
    return `<p class="eta-text eta-ontime" id="eta-text">${verb} ${escapeHtml(localTime(delivery.ArrivedAt, delivery.TimeZone))}</p>`;
  }
  if (!eta || !delivery) return `<p class="eta-text" id="eta-text">No delivery estimate yet</p>`;
  let judgement = '';
  let tone = '';
  if (eta.MinutesLate !== null && eta.TargetKind === 'Appointment') {
    if (eta.MinutesLate > 10) [judgement, tone] = [`, about ${roughDuration(eta.MinutesLate)} late against the appointment`, 'eta-late'];
    else if (eta.MinutesLate < -10) [judgement, tone] = [`, about ${roughDuration(eta.MinutesLate)} ahead of the appointment`, 'eta-ontime'];
    else [judgement, tone] = [', on time for the appointment', 'eta-ontime'];
  } else if (eta.MinutesLate !== null && eta.TargetKind === 'Window') {
    if (eta.MinutesLate > 10) [judgement, tone] = [`, about ${roughDuration(eta.MinutesLate)} after the delivery window closes`, 'eta-late'];
    else [judgement, tone] = [', within the delivery window', 'eta-ontime'];
  }
  const source =
    eta.Source === 'Live' ? "Live estimate from the truck's latest position" : eta.Source === 'Planned' ? 'Planned estimate' : 'Estimate from the schedule';
  return (
    // An estimate already past without an arrival is stale: say so rather than "Arriving" yesterday.
    `<p class="eta-text ${tone}" id="eta-text">${Date.parse(eta.At) < now.getTime() ? 'Was expected' : 'Arriving'} ${escapeHtml(localTime(eta.At, delivery.TimeZone))}${escapeHtml(judgement)}</p>` +
    `<p class="muted" id="eta-source">${source} · delivery in ${escapeHtml(place(delivery))}</p>`
  );
}

function positionLine(page: TrackingPage, now: Date): string {
  const position = page.LastPosition;
  if (!position) return '<p class="map-caption" id="last-position">No position reported yet.</p>';
  const zone = page.Stops.findLast((stop) => stop.StopType === 'Delivery')?.TimeZone ?? 'UTC';
  const where = position.City ? ` near ${escapeHtml(place(position))}` : '';
  return (
    `<p class="map-caption" id="last-position">Last known position${where}: ` +
    `<strong>${escapeHtml(timeAgo(position.RecordedAt, now))}</strong> (${escapeHtml(localTime(position.RecordedAt, zone))})</p>`
  );
}

function schedule(stop: TrackingStop): string {
  if (stop.AppointmentDate) return `Appointment ${localTime(stop.AppointmentDate, stop.TimeZone)}`;
  const window = stop.StopWindow;
  if (window?.Begin && window.End) return `Window ${localWindow(window.Begin, window.End, stop.TimeZone)}`;
  if (window?.Begin) return `From ${localTime(window.Begin, stop.TimeZone)}`;
  return 'First come, first served';
}

/** "(geofence)" or "(manual)": who recorded an arrival or departure (docs/api-rules.md#geofences). */
const bySource = (source: string | null) => (source ? ` (${source.toLowerCase()})` : '');

function stopItem(stop: TrackingStop): string {
  const actual = [
    stop.ArrivedAt ? `Arrived ${localTime(stop.ArrivedAt, stop.TimeZone)}${bySource(stop.ArrivalSource)}` : null,
    stop.DepartedAt ? `Departed ${localTime(stop.DepartedAt, stop.TimeZone)}${bySource(stop.DepartureSource)}` : null,
  ].filter(Boolean);
  return (
    `<li class="stop stop-${escapeHtml(stop.Status.toLowerCase())}" id="stop-${stop.Sequence}" data-sequence="${stop.Sequence}">` +
    `<span class="stop-number" aria-hidden="true">${stop.Sequence}</span><div class="stop-body">` +
    `<p class="stop-title"><span class="stop-type">${escapeHtml(stop.StopType)}</span><span class="stop-place">${escapeHtml(place(stop))}</span>` +
    `<span class="badge stop-status">${escapeHtml(stop.Status)}</span></p>` +
    `<p class="stop-line stop-schedule">${escapeHtml(schedule(stop))}</p>` +
    (actual.length > 0 ? `<p class="stop-line stop-actual">${escapeHtml(actual.join(' · '))}</p>` : '') +
    `</div></li>`
  );
}

function references(page: TrackingPage): string {
  if (page.References.length === 0) return '';
  const rows = page.References.map((ref) => `<dt>${escapeHtml(ref.Name)}</dt><dd>${escapeHtml(ref.Value)}</dd>`).join('');
  return `<section class="card" id="references"><h2>References</h2><dl>${rows}</dl></section>`;
}

/** Public notes, newest first, each with its time in the delivery's zone. */
function notes(page: TrackingPage, zone: string): string {
  if (page.Notes.length === 0) return '';
  const items = page.Notes.map(
    (note) => `<li class="note"><p class="note-text">${escapeHtml(note.Text)}</p><p class="muted note-time">${escapeHtml(localTime(note.CreatedAt, zone))}</p></li>`,
  ).join('');
  return `<section class="card" id="notes"><h2>Notes</h2><ul class="notes">${items}</ul></section>`;
}

function document(options: { title: string; nonce: string; refresh: boolean; body: string }): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    (options.refresh ? `<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : '') +
    `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow">` +
    `<title>${escapeHtml(options.title)}</title><link rel="icon" href="data:,">` +
    `<style nonce="${escapeHtml(options.nonce)}">${TRACKING_PAGE_CSS}</style></head><body>${options.body}</body></html>`
  );
}

/** The customer tracking page, complete without JavaScript. */
export function renderTrackingPage(page: TrackingPage, options: { nonce: string; now: Date }): string {
  const map = renderRouteMap(page);
  const expiryZone = page.Stops.findLast((stop) => stop.StopType === 'Delivery')?.TimeZone ?? 'UTC';
  const body =
    `<header><div class="wrap"><p class="eyebrow">Shipment tracking</p>` +
    `<h1>Load <span id="load-number">${escapeHtml(page.LoadNumber)}</span></h1>` +
    `<p class="status status-${escapeHtml(page.Status.toLowerCase())}" id="load-status">${escapeHtml(statusWords(page.Status))}</p></div></header>` +
    `<main class="wrap"><div class="col">` +
    `<section class="card" id="eta"><h2>Delivery</h2>${etaSection(page, options.now)}</section>` +
    `<section class="card map-card" id="map">${map ?? ''}${positionLine(page, options.now)}</section>` +
    `</div><div class="col">` +
    `<section class="card" id="stops"><h2>Stops</h2><ol class="timeline" id="timeline">${page.Stops.map(stopItem).join('')}</ol></section>` +
    references(page) +
    notes(page, expiryZone) +
    `</div></main>` +
    `<footer class="wrap">Updated ${escapeHtml(localTime(page.GeneratedAt, expiryZone))}; this page refreshes every minute. ` +
    `Link valid until ${escapeHtml(localTime(page.ExpiresAt, expiryZone))}.</footer>`;
  return document({ title: `Load ${page.LoadNumber}: ${statusWords(page.Status)}`, nonce: options.nonce, refresh: true, body });
}

/** The page for a link that does not (or no longer) work. */
export function renderTrackingError(options: { nonce: string; title: string; message: string }): string {
  const body =
    `<header><div class="wrap"><p class="eyebrow">Shipment tracking</p><h1>${escapeHtml(options.title)}</h1></div></header>` +
    `<div class="error card"><p>${escapeHtml(options.message)}</p></div>`;
  return document({ title: options.title, nonce: options.nonce, refresh: false, body });
}
